-- Repairs what deleting a tier did before the delete handled its donors (worker/donors/tiers/service.ts,
-- removeTier; docs/decisions/025-deleting-a-tier.md): the old delete set the tier's donors to no tier,
-- so donors locked to it by hand were left locked to nothing (26 of the demo's 2 500), and donors kept
-- the deleted tier as their previous tier. Forward-only and idempotent; no schema change.
--
-- 1. A lock to a tier that no longer exists, or to no tier when nobody chose "no tier" by hand (the
--    donor's latest donor.tier_lock audit row names no tier), hands the donor back to the ladder.
UPDATE `donor` SET `tier_locked` = 0, `tier_id` = NULL
WHERE `tier_locked` = 1 AND (
  (`tier_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `donor_tier` t WHERE t.`id` = `donor`.`tier_id` AND t.`organization_id` = `donor`.`organization_id`))
  OR (`tier_id` IS NULL AND COALESCE((
    SELECT json_type(a.`after`, '$.tierId') FROM `audit_event` a
     WHERE a.`organization_id` = `donor`.`organization_id` AND a.`entity_type` = 'donor'
       AND a.`entity_id` = `donor`.`id` AND a.`action` = 'donor.tier_lock'
     ORDER BY a.`at` DESC LIMIT 1), 'none') != 'null')
);--> statement-breakpoint
-- 2. No donor names a tier that no longer exists, as its tier or as its previous tier.
UPDATE `donor` SET `tier_id` = NULL
WHERE `tier_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `donor_tier` t WHERE t.`id` = `donor`.`tier_id` AND t.`organization_id` = `donor`.`organization_id`);--> statement-breakpoint
UPDATE `donor` SET `previous_tier_id` = NULL
WHERE `previous_tier_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `donor_tier` t WHERE t.`id` = `donor`.`previous_tier_id` AND t.`organization_id` = `donor`.`organization_id`);--> statement-breakpoint
-- 3. Every donor on the ladder without a tier takes the one its amount fits, as the recompute does
--    (worker/donors/stats.ts tierStatement, frozen here as of this migration): the highest [min, max)
--    holding the lifetime amount, or the last 365 days' amount on a rolling basis.
UPDATE `donor` SET `tier_id` = (
  SELECT t.`id` FROM `donor_tier` t WHERE t.`organization_id` = `donor`.`organization_id` AND t.`min_minor` <=
    CASE t.`basis` WHEN 'lifetime' THEN `donor`.`lifetime_minor` ELSE
      (SELECT COALESCE(SUM(d.`amount_minor` - d.`refunded_minor`), 0) FROM `donation` d WHERE d.`donor_id` = `donor`.`id`
         AND d.`status` IN ('completed','partially_refunded') AND d.`mode` = 'live' AND d.`trashed_at` IS NULL
         AND d.`donated_at` >= CAST(strftime('%s','now') AS INTEGER) * 1000 - 31536000000) END
    AND (t.`max_minor` IS NULL OR t.`max_minor` >
    CASE t.`basis` WHEN 'lifetime' THEN `donor`.`lifetime_minor` ELSE
      (SELECT COALESCE(SUM(d.`amount_minor` - d.`refunded_minor`), 0) FROM `donation` d WHERE d.`donor_id` = `donor`.`id`
         AND d.`status` IN ('completed','partially_refunded') AND d.`mode` = 'live' AND d.`trashed_at` IS NULL
         AND d.`donated_at` >= CAST(strftime('%s','now') AS INTEGER) * 1000 - 31536000000) END)
  ORDER BY t.`min_minor` DESC LIMIT 1)
WHERE `tier_locked` = 0 AND `tier_id` IS NULL;
