-- Issue 27 (decision 038): a time-zone change rebuilt every per-day rollup of the organization in
-- one batch, inside the request: at 1 M gifts ≈ 44 s in node:sqlite, past D1's 30 s per query and
-- holding every other write of the database meanwhile; a large campaign's own rollups (decision
-- 037) were built the same way, ≈ 5 s for 187 000 gifts and growing with the campaign. Both are
-- now built month by month, one batch per stretch of about 50 000 gifts, and these rows say how
-- far a build has come: changes made meanwhile keep the months already built.
CREATE TABLE `campaign_rollup_build` (
	`campaign_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`time_zone` text NOT NULL,
	`built_month` text NOT NULL,
	`built_until` integer NOT NULL,
	`started_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campaign_rollup_build_org_idx` ON `campaign_rollup_build` (`organization_id`,`time_zone`);--> statement-breakpoint
CREATE TABLE `donation_daily_build` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`time_zone` text NOT NULL,
	`built_month` text NOT NULL,
	`built_until` integer NOT NULL,
	`started_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
