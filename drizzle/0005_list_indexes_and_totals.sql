-- Issue 10 (docs/performance.md): lists and the dashboard at 1M donations.
-- 1. The two list indexes become covering: a filtered page's count, totals and sort key are read
--    from the index alone (no table lookup per matching row); only the 25 rows shown are fetched.
DROP INDEX IF EXISTS `donation_org_status_date_idx`;--> statement-breakpoint
DROP INDEX IF EXISTS `donation_org_date_idx`;--> statement-breakpoint
CREATE INDEX `donation_org_status_date_idx` ON `donation` (`organization_id`,`status`,`donated_at`,`trashed_at`,`mode`,`currency`,`amount_minor`,`refunded_minor`,`id`);--> statement-breakpoint
CREATE INDEX `donation_org_date_idx` ON `donation` (`organization_id`,`donated_at`,`status`,`trashed_at`,`mode`,`currency`,`amount_minor`,`refunded_minor`,`id`);--> statement-breakpoint
-- 2. Counted gifts only (DESIGN §4 COUNTED_SQL), by currency and date: every dashboard aggregate of
--    a period scans this index and nothing else (status, mode and trashed_at are columns too: SQLite
--    reads the query's own copies of the partial index's terms from the index to stay covering).
CREATE INDEX `donation_counted_idx` ON `donation` (`organization_id`,`currency`,`donated_at`,`amount_minor`,`refunded_minor`,`donor_id`,`frequency`,`payment_method`,`status`,`mode`,`trashed_at`) WHERE status IN ('completed','partially_refunded') AND mode = 'live' AND trashed_at IS NULL;--> statement-breakpoint
-- 3. Per-organization totals by currency, status, mode and trash: the list's total and totals row
--    when no date/campaign/donor/amount/text filter applies (the default /donations view), kept in
--    the same batch as every donation change (worker/services/rollups.ts).
CREATE TABLE `donation_totals` (
  `organization_id` text NOT NULL REFERENCES `organization`(`id`) ON DELETE CASCADE,
  `currency` text NOT NULL,
  `status` text NOT NULL,
  `mode` text NOT NULL,
  `trashed` integer NOT NULL,
  `donation_count` integer NOT NULL DEFAULT 0,
  `amount_minor` integer NOT NULL DEFAULT 0,
  `refunded_minor` integer NOT NULL DEFAULT 0,
  PRIMARY KEY(`organization_id`, `currency`, `status`, `mode`, `trashed`),
  CONSTRAINT "donation_totals_trashed" CHECK(`trashed` IN (0, 1))
);--> statement-breakpoint
INSERT INTO `donation_totals` (`organization_id`, `currency`, `status`, `mode`, `trashed`, `donation_count`, `amount_minor`, `refunded_minor`)
  SELECT `organization_id`, `currency`, `status`, `mode`, `trashed_at` IS NOT NULL, COUNT(*), SUM(`amount_minor`), SUM(`refunded_minor`)
    FROM `donation` GROUP BY 1, 2, 3, 4, 5;
