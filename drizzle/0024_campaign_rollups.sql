-- Issue 27 (decision 037): campaign analytics read every gift of the campaign (median, distinct
-- donors, top donors, refunds), linear in its size: fine at thousands of gifts, seconds for a
-- campaign of hundreds of thousands. A campaign past campaignRollupsFrom (10 000) counted gifts gets the
-- organization's rollups of decision 032 for itself (the net histogram and refunds, and each donor
-- by day and month with the sketch value), kept in each change's batch while campaign_rollup_state
-- names the zone; the cron builds them. New tables only: nothing existing is rewritten.
CREATE TABLE `campaign_donor_period` (
	`campaign_id` text NOT NULL,
	`currency` text NOT NULL,
	`grain` text NOT NULL,
	`period` text NOT NULL,
	`donor_id` text NOT NULL,
	`sketch` integer NOT NULL,
	`gift_count` integer DEFAULT 0 NOT NULL,
	`amount_minor` integer DEFAULT 0 NOT NULL,
	`one_time_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `currency`, `grain`, `period`, `donor_id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "campaign_donor_period_grain" CHECK("campaign_donor_period"."grain" IN ('d', 'm'))
);
--> statement-breakpoint
CREATE INDEX `campaign_donor_period_sketch_idx` ON `campaign_donor_period` (`campaign_id`,`currency`,`grain`,`period`,`sketch`,`donor_id`,`gift_count`,`one_time_count`);--> statement-breakpoint
CREATE INDEX `campaign_donor_period_amount_idx` ON `campaign_donor_period` (`campaign_id`,`currency`,`grain`,`period`,`amount_minor`,`donor_id`);--> statement-breakpoint
CREATE INDEX `campaign_donor_period_donor_idx` ON `campaign_donor_period` (`donor_id`);--> statement-breakpoint
CREATE TABLE `campaign_facet` (
	`campaign_id` text NOT NULL,
	`currency` text NOT NULL,
	`facet` text NOT NULL,
	`grain` text NOT NULL,
	`period` text NOT NULL,
	`key` text NOT NULL,
	`gift_count` integer DEFAULT 0 NOT NULL,
	`amount_minor` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `currency`, `facet`, `grain`, `period`, `key`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "campaign_facet_grain" CHECK("campaign_facet"."grain" IN ('d', 'm')),
	CONSTRAINT "campaign_facet_facet" CHECK("campaign_facet"."facet" IN ('net', 'refund'))
);
--> statement-breakpoint
CREATE TABLE `campaign_rollup_state` (
	`campaign_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`time_zone` text NOT NULL,
	`built_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campaign_rollup_state_org_idx` ON `campaign_rollup_state` (`organization_id`,`time_zone`);