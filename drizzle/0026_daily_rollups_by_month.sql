-- Issue 27 (decision 038): a time-zone change rebuilt every per-day rollup of the organization in
-- one batch, inside the request: at 1 M gifts ≈ 44 s in node:sqlite, past D1's 30 s per query and
-- holding every other write of the database meanwhile. The rebuild now goes month by month, one
-- batch per stretch of about 50 000 gifts, and this row says how far it has come: changes made
-- meanwhile keep the months already built.
CREATE TABLE `donation_daily_build` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`time_zone` text NOT NULL,
	`built_month` text NOT NULL,
	`built_until` integer NOT NULL,
	`started_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
