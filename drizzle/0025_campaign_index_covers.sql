-- Issue 27 (decision 037): campaign analytics from the gifts (campaigns below
-- donations.campaignRollupsFrom), the campaign stats recount and a large campaign's rollup build
-- read the campaign's gifts through donation_campaign_idx (campaign, status, date) and then each
-- gift's row, one random page each, and a campaign's latest gifts sorted all of them by date. Keyed
-- by campaign and date and carrying the columns they read, at 1 M gifts in node:sqlite for a
-- campaign of 5 181 gifts: all-time aggregates 10 → 2.4 ms, the latest ten 3 → 0.01 ms (a general
-- fund's 187 000: every one sorted before), the recount 4.3 → 1.7 ms. One index still: a gift's
-- write adds no entry.
DROP INDEX `donation_campaign_idx`;--> statement-breakpoint
CREATE INDEX `donation_campaign_idx` ON `donation` (`campaign_id`,`donated_at`,`status`,`mode`,`trashed_at`,`currency`,`amount_minor`,`refunded_minor`,`donor_id`);