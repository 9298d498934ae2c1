-- Issue 27 (decision 037): campaign analytics from the gifts (campaigns below
-- donations.campaignRollupsFrom), the campaign stats recount in every gift's write and a large
-- campaign's rollup build read the campaign's gifts through donation_campaign_idx and then each
-- gift's row, one random page each: 23 ms for the aggregates of a 5 000-gift campaign at 1 M gifts
-- in node:sqlite, 4 ms from this index alone; the recount 6 → 2 ms. The same key, carrying the
-- columns they read; one index still, so a gift's write adds no entry.
DROP INDEX `donation_campaign_idx`;--> statement-breakpoint
CREATE INDEX `donation_campaign_idx` ON `donation` (`campaign_id`,`status`,`donated_at`,`mode`,`trashed_at`,`currency`,`amount_minor`,`refunded_minor`,`donor_id`);