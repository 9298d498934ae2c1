-- Issue 23 (docs/performance.md, decision 035): one amount index instead of two. An imported gift's
-- entries in an index ordered by amount land on a page of their own (amounts are random to the
-- b-tree), and every page a batch touches is written again at its commit: the two amount indexes
-- were 1 375 of a 500-gift batch's 4 453 pages at 1 M gifts. The list's amount window now reads the
-- organization's gifts in amount order with the status in the index (worker/donations/list.ts).
DROP INDEX `donation_org_status_amount_idx`;--> statement-breakpoint
DROP INDEX `donation_org_amount_idx`;--> statement-breakpoint
CREATE INDEX `donation_org_amount_idx` ON `donation` (`organization_id`,`amount_minor`,`id`,`status`,`donated_at`,`trashed_at`,`mode`,`currency`);