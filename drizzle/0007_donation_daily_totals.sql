-- Issue 10: the donations list's per-currency totals when it is filtered by a date range (and
-- status, currency, mode, trash) read one row per local day instead of every matching gift
-- (decision 013). donation_totals by local day in the organization's time zone.
-- Days that are not four-digit years share '0000-00-00' (before) or '9999-99-99' (after), so the
-- text order of `day` is the order of time (worker/lib/time.ts dayKey).
CREATE TABLE `donation_daily_totals` (
  `organization_id` text NOT NULL REFERENCES `organization`(`id`) ON DELETE CASCADE,
  `day` text NOT NULL,
  `currency` text NOT NULL,
  `status` text NOT NULL,
  `mode` text NOT NULL,
  `trashed` integer NOT NULL,
  `donation_count` integer NOT NULL DEFAULT 0,
  `amount_minor` integer NOT NULL DEFAULT 0,
  `refunded_minor` integer NOT NULL DEFAULT 0,
  PRIMARY KEY(`organization_id`, `day`, `currency`, `status`, `mode`, `trashed`),
  CONSTRAINT "donation_daily_totals_trashed" CHECK(`trashed` IN (0, 1)),
  CONSTRAINT "donation_daily_totals_day" CHECK(`day` GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
);--> statement-breakpoint
-- Local days need the zone's offsets at each gift, which SQL does not have: the table starts empty
-- and rebuildRollups (the nightly cron for every organization without a row here, a time zone
-- change, the seed) fills it in one batch and then writes this row. The list reads the daily
-- table only while this row names the organization's current time zone; donation writes keep
-- the daily rows only while it names the zone they computed their day in, and otherwise delete it.
CREATE TABLE `donation_daily_state` (
  `organization_id` text PRIMARY KEY NOT NULL REFERENCES `organization`(`id`) ON DELETE CASCADE,
  `time_zone` text NOT NULL
);
