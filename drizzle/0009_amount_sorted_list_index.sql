-- Issue 10 (docs/performance.md): "largest gifts" pages (one status, sorted by amount). The list
-- reads a window of the status's gifts in amount order from this index and keeps those in the
-- filters (date range, trash, mode, currency, amount range); when the window holds the whole page,
-- that page is exact, else the list falls back to the date index and sorts (donations.list).
CREATE INDEX `donation_org_status_amount_idx` ON `donation` (`organization_id`,`status`,`amount_minor`,`id`,`donated_at`,`trashed_at`,`mode`,`currency`);
