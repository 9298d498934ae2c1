-- Recurring plans (issue 24, docs/decisions/030-recurring-plans.md): the plan, its history
-- (plan_event), its rollups (plan_monthly per organization month, plan_totals now), the plan a gift
-- belongs to, and org_daily's part given through plans. Then the plans of the gifts already
-- recorded, and the integrity triggers as drizzle/0003 has them for every other table.
CREATE TABLE `plan_event` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`currency` text NOT NULL,
	`annual_before` integer DEFAULT 0 NOT NULL,
	`annual_after` integer DEFAULT 0 NOT NULL,
	`reason` text,
	`actor_id` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`plan_id`) REFERENCES `recurring_plan`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "plan_event_kind_valid" CHECK("plan_event"."kind" in ('created','status','amount'))
);
--> statement-breakpoint
CREATE INDEX `plan_event_plan_idx` ON `plan_event` (`plan_id`,`at`);--> statement-breakpoint
CREATE INDEX `plan_event_org_at_idx` ON `plan_event` (`organization_id`,`at`);--> statement-breakpoint
CREATE TABLE `plan_monthly` (
	`organization_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`new_count` integer DEFAULT 0 NOT NULL,
	`reactivated_count` integer DEFAULT 0 NOT NULL,
	`cancelled_count` integer DEFAULT 0 NOT NULL,
	`lapsed_count` integer DEFAULT 0 NOT NULL,
	`paused_count` integer DEFAULT 0 NOT NULL,
	`completed_count` integer DEFAULT 0 NOT NULL,
	`annual_delta` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `month`, `currency`),
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "plan_monthly_month" CHECK("plan_monthly"."month" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]')
);
--> statement-breakpoint
CREATE TABLE `plan_rollup_state` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`time_zone` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `plan_totals` (
	`organization_id` text NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`plan_count` integer DEFAULT 0 NOT NULL,
	`annual_minor` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `currency`, `status`),
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `recurring_plan` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`donor_id` text,
	`campaign_id` text,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`interval` text NOT NULL,
	`interval_day` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`source` text DEFAULT 'manual' NOT NULL,
	`gateway` text,
	`gateway_subscription_id` text,
	`payment_method` text,
	`started_at` integer NOT NULL,
	`next_expected_at` integer,
	`ended_at` integer,
	`status_changed_at` integer NOT NULL,
	`gift_count` integer DEFAULT 0 NOT NULL,
	`given_minor` integer DEFAULT 0 NOT NULL,
	`last_gift_at` integer,
	`missed_count` integer DEFAULT 0 NOT NULL,
	`change_token` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donor_id`) REFERENCES `donor`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "recurring_plan_amount_positive" CHECK("recurring_plan"."amount_minor" > 0),
	CONSTRAINT "recurring_plan_currency_len" CHECK(length("recurring_plan"."currency") = 3),
	CONSTRAINT "recurring_plan_interval_valid" CHECK("recurring_plan"."interval" in ('month','quarter','year')),
	CONSTRAINT "recurring_plan_day_valid" CHECK("recurring_plan"."interval_day" between 1 and 31),
	CONSTRAINT "recurring_plan_status_valid" CHECK("recurring_plan"."status" in ('active','past_due','lapsed','paused','cancelled','completed')),
	CONSTRAINT "recurring_plan_source_valid" CHECK("recurring_plan"."source" in ('manual','webhook','migration','import')),
	CONSTRAINT "recurring_plan_totals_nonneg" CHECK("recurring_plan"."gift_count" >= 0 and "recurring_plan"."given_minor" >= 0 and "recurring_plan"."missed_count" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recurring_plan_gateway_sub_unique` ON `recurring_plan` (`organization_id`,`gateway_subscription_id`) WHERE gateway_subscription_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `recurring_plan_org_status_next_idx` ON `recurring_plan` (`organization_id`,`status`,`next_expected_at`);--> statement-breakpoint
CREATE INDEX `recurring_plan_org_created_idx` ON `recurring_plan` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `recurring_plan_donor_idx` ON `recurring_plan` (`donor_id`);--> statement-breakpoint
CREATE INDEX `recurring_plan_campaign_idx` ON `recurring_plan` (`campaign_id`);--> statement-breakpoint
ALTER TABLE `donation` ADD `plan_id` text REFERENCES recurring_plan(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `donation_plan_idx` ON `donation` (`plan_id`,`donated_at`) WHERE plan_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `org_daily` ADD `plan_raised_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `org_daily` ADD `plan_donation_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Integrity, as drizzle/0003: a plan and its gifts belong to one organization; money and counts are
-- integers (a rollup that added 1.5 would never be caught by the recounts).
CREATE TRIGGER `recurring_plan_refs_same_org_insert` AFTER INSERT ON `recurring_plan`
WHEN (NEW.donor_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id))
  OR (NEW.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: recurring_plan_refs_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `recurring_plan_refs_same_org_update` AFTER UPDATE OF organization_id, donor_id, campaign_id ON `recurring_plan`
WHEN (NEW.donor_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id))
  OR (NEW.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: recurring_plan_refs_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `recurring_plan_money_integer_insert` AFTER INSERT ON `recurring_plan`
WHEN typeof(NEW.amount_minor) != 'integer' OR typeof(NEW.given_minor) != 'integer'
  OR typeof(NEW.gift_count) != 'integer' OR typeof(NEW.missed_count) != 'integer' OR typeof(NEW.interval_day) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: recurring_plan_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `recurring_plan_money_integer_update` AFTER UPDATE OF amount_minor, given_minor, gift_count, missed_count, interval_day ON `recurring_plan`
WHEN typeof(NEW.amount_minor) != 'integer' OR typeof(NEW.given_minor) != 'integer'
  OR typeof(NEW.gift_count) != 'integer' OR typeof(NEW.missed_count) != 'integer' OR typeof(NEW.interval_day) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: recurring_plan_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `donation_plan_same_org_insert` AFTER INSERT ON `donation`
WHEN NEW.plan_id IS NOT NULL AND EXISTS (SELECT 1 FROM recurring_plan p WHERE p.id = NEW.plan_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donation_plan_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donation_plan_same_org_update` AFTER UPDATE OF organization_id, plan_id ON `donation`
WHEN NEW.plan_id IS NOT NULL AND EXISTS (SELECT 1 FROM recurring_plan p WHERE p.id = NEW.plan_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donation_plan_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `plan_rollups_integer_insert` AFTER INSERT ON `plan_totals`
WHEN typeof(NEW.plan_count) != 'integer' OR typeof(NEW.annual_minor) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: plan_rollups_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `plan_rollups_integer_update` AFTER UPDATE OF plan_count, annual_minor ON `plan_totals`
WHEN typeof(NEW.plan_count) != 'integer' OR typeof(NEW.annual_minor) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: plan_rollups_integer'); END;
--> statement-breakpoint
-- The plans of the gifts already recorded (issue 24): one per donor, campaign, amount, currency and
-- interval among the live, untrashed recurring gifts that name a donor (gifts without one cannot be
-- told apart). The plan's day is its first gift's day of the month (UTC: SQL knows no zones; the
-- cron recomputes what is due in the organization's). Its totals count the counted gifts.
INSERT INTO `recurring_plan` (`id`, `organization_id`, `donor_id`, `campaign_id`, `amount_minor`, `currency`, `interval`,
  `interval_day`, `status`, `source`, `started_at`, `status_changed_at`, `gift_count`, `given_minor`, `last_gift_at`,
  `change_token`, `created_at`, `updated_at`)
SELECT lower(hex(randomblob(16))), g.organization_id, g.donor_id, g.campaign_id, g.amount_minor, g.currency,
  CASE g.frequency WHEN 'monthly' THEN 'month' WHEN 'quarterly' THEN 'quarter' ELSE 'year' END,
  CAST(strftime('%d', g.first_at / 1000, 'unixepoch') AS INTEGER), 'active', 'migration', g.first_at, g.first_at,
  g.gifts, g.given, g.last_at, lower(hex(randomblob(16))),
  CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000
FROM (
  SELECT d.organization_id, d.donor_id, d.campaign_id, d.amount_minor, d.currency, d.frequency,
         MIN(d.donated_at) AS first_at,
         MAX(CASE WHEN d.status IN ('completed','partially_refunded') THEN d.donated_at END) AS last_at,
         COUNT(CASE WHEN d.status IN ('completed','partially_refunded') THEN 1 END) AS gifts,
         COALESCE(SUM(CASE WHEN d.status IN ('completed','partially_refunded') THEN d.amount_minor - d.refunded_minor END), 0) AS given
    FROM `donation` d
   WHERE d.frequency IN ('monthly','quarterly','annually') AND d.donor_id IS NOT NULL AND d.trashed_at IS NULL AND d.mode = 'live'
   GROUP BY d.organization_id, d.donor_id, d.campaign_id, d.amount_minor, d.currency, d.frequency
) g;
--> statement-breakpoint
UPDATE `donation` SET `plan_id` = (
  SELECT p.`id` FROM `recurring_plan` p
   WHERE p.`source` = 'migration' AND p.`donor_id` = `donation`.`donor_id` AND p.`organization_id` = `donation`.`organization_id`
     AND p.`campaign_id` IS `donation`.`campaign_id` AND p.`amount_minor` = `donation`.`amount_minor` AND p.`currency` = `donation`.`currency`
     AND p.`interval` = CASE `donation`.`frequency` WHEN 'monthly' THEN 'month' WHEN 'quarterly' THEN 'quarter' ELSE 'year' END)
WHERE `frequency` IN ('monthly','quarterly','annually') AND `donor_id` IS NOT NULL AND `trashed_at` IS NULL AND `mode` = 'live';
--> statement-breakpoint
-- When each plan's next gift is due: the plan's day, the interval after its last gift (or its
-- start), at noon UTC.
UPDATE `recurring_plan` SET `next_expected_at` = (
  SELECT (CAST(strftime('%s', b.base, '+' || (MIN(`recurring_plan`.`interval_day`, CAST(strftime('%d', b.base, '+1 month', '-1 day') AS INTEGER)) - 1) || ' days') AS INTEGER) + 43200) * 1000
    FROM (SELECT date(COALESCE(`recurring_plan`.`last_gift_at`, `recurring_plan`.`started_at`) / 1000, 'unixepoch', 'start of month',
                      '+' || CASE `recurring_plan`.`interval` WHEN 'month' THEN 1 WHEN 'quarter' THEN 3 ELSE 12 END || ' months') AS base) b)
WHERE `source` = 'migration';
--> statement-breakpoint
-- Late past 7 days: past due; past 60: lapsed (app.config.ts plans.pastDueAfterDays / lapsedAfterDays,
-- their defaults; the cron applies the configured ones from its next run on).
UPDATE `recurring_plan` SET
  `status` = CASE WHEN CAST(strftime('%s', 'now') AS INTEGER) * 1000 <= `next_expected_at` + 7 * 86400000 THEN 'active'
                  WHEN CAST(strftime('%s', 'now') AS INTEGER) * 1000 <= `next_expected_at` + 60 * 86400000 THEN 'past_due'
                  ELSE 'lapsed' END,
  `status_changed_at` = CASE WHEN CAST(strftime('%s', 'now') AS INTEGER) * 1000 <= `next_expected_at` + 7 * 86400000 THEN `started_at`
                  WHEN CAST(strftime('%s', 'now') AS INTEGER) * 1000 <= `next_expected_at` + 60 * 86400000 THEN `next_expected_at` + 7 * 86400000
                  ELSE `next_expected_at` + 60 * 86400000 END
WHERE `source` = 'migration';
--> statement-breakpoint
UPDATE `recurring_plan` SET `missed_count` = CASE WHEN CAST(strftime('%s', 'now') AS INTEGER) * 1000 <= `next_expected_at` THEN 0
  ELSE 1 + (CAST(strftime('%s', 'now') AS INTEGER) * 1000 - `next_expected_at`)
           / (CASE `interval` WHEN 'month' THEN 1 WHEN 'quarter' THEN 3 ELSE 12 END * 2629746000) END
WHERE `source` = 'migration';
--> statement-breakpoint
-- Their history: created (entering recurring revenue at its yearly amount), then past due and
-- lapsed where they did (a lapse takes it out).
INSERT INTO `plan_event` (`id`, `organization_id`, `plan_id`, `at`, `kind`, `from_status`, `to_status`, `currency`, `annual_before`, `annual_after`)
SELECT lower(hex(randomblob(16))), `organization_id`, `id`, `started_at`, 'created', NULL, 'active', `currency`, 0,
       `amount_minor` * CASE `interval` WHEN 'month' THEN 12 WHEN 'quarter' THEN 4 ELSE 1 END
  FROM `recurring_plan` WHERE `source` = 'migration';
--> statement-breakpoint
INSERT INTO `plan_event` (`id`, `organization_id`, `plan_id`, `at`, `kind`, `from_status`, `to_status`, `currency`, `annual_before`, `annual_after`)
SELECT lower(hex(randomblob(16))), `organization_id`, `id`, `next_expected_at` + 7 * 86400000, 'status', 'active', 'past_due', `currency`,
       `amount_minor` * CASE `interval` WHEN 'month' THEN 12 WHEN 'quarter' THEN 4 ELSE 1 END,
       `amount_minor` * CASE `interval` WHEN 'month' THEN 12 WHEN 'quarter' THEN 4 ELSE 1 END
  FROM `recurring_plan` WHERE `source` = 'migration' AND `status` IN ('past_due','lapsed');
--> statement-breakpoint
INSERT INTO `plan_event` (`id`, `organization_id`, `plan_id`, `at`, `kind`, `from_status`, `to_status`, `currency`, `annual_before`, `annual_after`)
SELECT lower(hex(randomblob(16))), `organization_id`, `id`, `next_expected_at` + 60 * 86400000, 'status', 'past_due', 'lapsed', `currency`,
       `amount_minor` * CASE `interval` WHEN 'month' THEN 12 WHEN 'quarter' THEN 4 ELSE 1 END, 0
  FROM `recurring_plan` WHERE `source` = 'migration' AND `status` = 'lapsed';
--> statement-breakpoint
-- Plans now, per currency and status. plan_monthly and org_daily's plan columns need each
-- organization's zone: without a plan_rollup_state row, reads count from the events and the cron
-- builds them (worker/plans/rollups.ts rebuildPlanRollups).
INSERT INTO `plan_totals` (`organization_id`, `currency`, `status`, `plan_count`, `annual_minor`)
SELECT `organization_id`, `currency`, `status`, COUNT(*),
       SUM(`amount_minor` * CASE `interval` WHEN 'month' THEN 12 WHEN 'quarter' THEN 4 ELSE 1 END)
  FROM `recurring_plan` GROUP BY 1, 2, 3;
