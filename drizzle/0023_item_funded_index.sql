-- Issue 27 (docs/performance.md): what an item has funded — the items list, the public campaign
-- page, campaign analytics and the overfunding check inside a gift's write — summed the item's
-- gifts by scanning every gift of the database (1.7 s for a campaign of 3 items at 1 M gifts, and
-- inside the write's transaction). Partial, so gifts without an item (every imported gift) write
-- no entry; covering, so the sum reads the index alone.
CREATE INDEX `donation_item_idx` ON `donation` (`campaign_item_id`,`status`,`mode`,`trashed_at`,`item_quantity`,`id`) WHERE campaign_item_id IS NOT NULL;