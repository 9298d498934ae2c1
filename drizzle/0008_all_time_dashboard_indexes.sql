-- Issue 10 (docs/performance.md): the dashboard's all-time answers at 1M donations. Periods read
-- donation_counted_idx from their first day on; "all time" has no date to seek, so these counted-
-- only partial indexes give its aggregates an order to stream in instead of sorting every gift:
-- donors (distinct count, one-time vs recurring donors, top donors), the median (the middle
-- entry of the net-amount order) and payment methods. status, mode and trashed_at are columns too
-- so SQLite can check the partial index's terms from the index itself (as in 0005).
CREATE INDEX `donation_counted_donor_idx` ON `donation` (`organization_id`,`currency`,`donor_id`,`frequency`,`amount_minor`,`refunded_minor`,`status`,`mode`,`trashed_at`) WHERE status IN ('completed','partially_refunded') AND mode = 'live' AND trashed_at IS NULL;--> statement-breakpoint
CREATE INDEX `donation_counted_net_idx` ON `donation` (`organization_id`,`currency`,(`amount_minor` - `refunded_minor`),`status`,`mode`,`trashed_at`) WHERE status IN ('completed','partially_refunded') AND mode = 'live' AND trashed_at IS NULL;--> statement-breakpoint
CREATE INDEX `donation_counted_method_idx` ON `donation` (`organization_id`,`currency`,`payment_method`,`amount_minor`,`refunded_minor`,`status`,`mode`,`trashed_at`) WHERE status IN ('completed','partially_refunded') AND mode = 'live' AND trashed_at IS NULL;
