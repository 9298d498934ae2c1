-- Integrity the CHECK constraints of 0001 cannot give, added as triggers because SQLite cannot add a
-- CHECK to an existing table and rebuilding a parent table on D1 is unsafe: foreign keys are always on
-- there, so DROP TABLE runs ON DELETE CASCADE and would wipe the children.
--
-- 1. Money and counts are integers. An INTEGER column only has affinity: 12.5 is stored as REAL and
--    'abc' as TEXT, and 'abc' > 0 is true, so `amount_minor > 0` alone lets both through. AFTER
--    triggers see the stored value (100.0 and '100' are already converted to the integer 100).
-- 2. A row never points at another organization's row. Foreign keys only check that the parent
--    exists; these check that it is in the same organization (DESIGN §3: tenancy in depth). The
--    checks use EXISTS on a parent in a *different* organization, so a missing parent (the foreign
--    key's business) and ON DELETE SET NULL updates pass.
-- 3. A goal has its target. 0001's campaign_goal_positive is NULL (so it passes) when an amount goal has
--    no amount or a count goal no count: a CHECK only fails on false.
-- Messages use SQLite's own "CHECK constraint failed: <name>" shape so one pattern matches both.

CREATE TRIGGER `campaign_money_integer_insert` AFTER INSERT ON `campaign`
WHEN typeof(NEW.min_amount_minor) != 'integer' OR typeof(NEW.max_amount_minor) != 'integer'
  OR typeof(NEW.goal_amount_minor) NOT IN ('integer', 'null') OR typeof(NEW.goal_count) NOT IN ('integer', 'null')
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_money_integer_update` AFTER UPDATE OF min_amount_minor, max_amount_minor, goal_amount_minor, goal_count ON `campaign`
WHEN typeof(NEW.min_amount_minor) != 'integer' OR typeof(NEW.max_amount_minor) != 'integer'
  OR typeof(NEW.goal_amount_minor) NOT IN ('integer', 'null') OR typeof(NEW.goal_count) NOT IN ('integer', 'null')
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_goal_set_insert` AFTER INSERT ON `campaign`
WHEN (NEW.goal_type = 'amount' AND NEW.goal_amount_minor IS NULL)
  OR (NEW.goal_type IN ('donations', 'donors') AND NEW.goal_count IS NULL)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_goal_set'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_goal_set_update` AFTER UPDATE OF goal_type, goal_amount_minor, goal_count ON `campaign`
WHEN (NEW.goal_type = 'amount' AND NEW.goal_amount_minor IS NULL)
  OR (NEW.goal_type IN ('donations', 'donors') AND NEW.goal_count IS NULL)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_goal_set'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_item_money_integer_insert` AFTER INSERT ON `campaign_item`
WHEN typeof(NEW.unit_amount_minor) != 'integer' OR typeof(NEW.quantity_needed) NOT IN ('integer', 'null')
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_item_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_item_money_integer_update` AFTER UPDATE OF unit_amount_minor, quantity_needed ON `campaign_item`
WHEN typeof(NEW.unit_amount_minor) != 'integer' OR typeof(NEW.quantity_needed) NOT IN ('integer', 'null')
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_item_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_tier_money_integer_insert` AFTER INSERT ON `donor_tier`
WHEN typeof(NEW.min_minor) != 'integer' OR typeof(NEW.max_minor) NOT IN ('integer', 'null')
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_tier_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_tier_money_integer_update` AFTER UPDATE OF min_minor, max_minor ON `donor_tier`
WHEN typeof(NEW.min_minor) != 'integer' OR typeof(NEW.max_minor) NOT IN ('integer', 'null')
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_tier_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_stats_integer_insert` AFTER INSERT ON `donor`
WHEN typeof(NEW.lifetime_minor) != 'integer' OR typeof(NEW.donation_count) != 'integer' OR typeof(NEW.largest_gift_minor) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_stats_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_stats_integer_update` AFTER UPDATE OF lifetime_minor, donation_count, largest_gift_minor ON `donor`
WHEN typeof(NEW.lifetime_minor) != 'integer' OR typeof(NEW.donation_count) != 'integer' OR typeof(NEW.largest_gift_minor) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_stats_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `donation_money_integer_insert` AFTER INSERT ON `donation`
WHEN typeof(NEW.number) != 'integer' OR typeof(NEW.item_quantity) != 'integer' OR typeof(NEW.amount_minor) != 'integer'
  OR typeof(NEW.fee_covered_minor) != 'integer' OR typeof(NEW.processing_fee_minor) != 'integer'
  OR typeof(NEW.platform_fee_minor) != 'integer' OR typeof(NEW.refunded_minor) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donation_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `donation_money_integer_update` AFTER UPDATE OF number, item_quantity, amount_minor, fee_covered_minor, processing_fee_minor, platform_fee_minor, refunded_minor ON `donation`
WHEN typeof(NEW.number) != 'integer' OR typeof(NEW.item_quantity) != 'integer' OR typeof(NEW.amount_minor) != 'integer'
  OR typeof(NEW.fee_covered_minor) != 'integer' OR typeof(NEW.processing_fee_minor) != 'integer'
  OR typeof(NEW.platform_fee_minor) != 'integer' OR typeof(NEW.refunded_minor) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donation_money_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_stats_integer_insert` AFTER INSERT ON `campaign_stats`
WHEN typeof(NEW.raised_minor) != 'integer' OR typeof(NEW.donation_count) != 'integer'
  OR typeof(NEW.donor_count) != 'integer' OR typeof(NEW.refunded_minor) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_stats_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_stats_integer_update` AFTER UPDATE OF raised_minor, donation_count, donor_count, refunded_minor ON `campaign_stats`
WHEN typeof(NEW.raised_minor) != 'integer' OR typeof(NEW.donation_count) != 'integer'
  OR typeof(NEW.donor_count) != 'integer' OR typeof(NEW.refunded_minor) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_stats_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `org_daily_integer_insert` AFTER INSERT ON `org_daily`
WHEN typeof(NEW.raised_minor) != 'integer' OR typeof(NEW.donation_count) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: org_daily_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `org_daily_integer_update` AFTER UPDATE OF raised_minor, donation_count ON `org_daily`
WHEN typeof(NEW.raised_minor) != 'integer' OR typeof(NEW.donation_count) != 'integer'
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: org_daily_integer'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_item_same_org_insert` AFTER INSERT ON `campaign_item`
WHEN EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_item_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_item_same_org_update` AFTER UPDATE OF organization_id, campaign_id ON `campaign_item`
WHEN EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_item_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_slug_same_org_insert` AFTER INSERT ON `campaign_slug`
WHEN EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_slug_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_slug_same_org_update` AFTER UPDATE OF organization_id, campaign_id ON `campaign_slug`
WHEN EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_slug_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_stats_same_org_insert` AFTER INSERT ON `campaign_stats`
WHEN EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_stats_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `campaign_stats_same_org_update` AFTER UPDATE OF organization_id, campaign_id ON `campaign_stats`
WHEN EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: campaign_stats_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_note_same_org_insert` AFTER INSERT ON `donor_note`
WHEN EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_note_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_note_same_org_update` AFTER UPDATE OF organization_id, donor_id ON `donor_note`
WHEN EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_note_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_tag_assignment_same_org_insert` AFTER INSERT ON `donor_tag_assignment`
WHEN EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id)
  OR EXISTS (SELECT 1 FROM donor_tag p WHERE p.id = NEW.tag_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_tag_assignment_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_tag_assignment_same_org_update` AFTER UPDATE OF organization_id, donor_id, tag_id ON `donor_tag_assignment`
WHEN EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id)
  OR EXISTS (SELECT 1 FROM donor_tag p WHERE p.id = NEW.tag_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_tag_assignment_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_refs_same_org_insert` AFTER INSERT ON `donor`
WHEN (NEW.tier_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor_tier p WHERE p.id = NEW.tier_id AND p.organization_id != NEW.organization_id))
  OR (NEW.previous_tier_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor_tier p WHERE p.id = NEW.previous_tier_id AND p.organization_id != NEW.organization_id))
  OR (NEW.merged_into_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.merged_into_id AND p.organization_id != NEW.organization_id))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_refs_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_refs_same_org_update` AFTER UPDATE OF organization_id, tier_id, previous_tier_id, merged_into_id ON `donor`
WHEN (NEW.tier_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor_tier p WHERE p.id = NEW.tier_id AND p.organization_id != NEW.organization_id))
  OR (NEW.previous_tier_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor_tier p WHERE p.id = NEW.previous_tier_id AND p.organization_id != NEW.organization_id))
  OR (NEW.merged_into_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.merged_into_id AND p.organization_id != NEW.organization_id))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_refs_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donation_refs_same_org_insert` AFTER INSERT ON `donation`
WHEN (NEW.donor_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id))
  OR (NEW.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id))
  OR (NEW.campaign_item_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaign_item p WHERE p.id = NEW.campaign_item_id
      AND (p.organization_id != NEW.organization_id OR (NEW.campaign_id IS NOT NULL AND p.campaign_id != NEW.campaign_id))))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donation_refs_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donation_refs_same_org_update` AFTER UPDATE OF organization_id, donor_id, campaign_id, campaign_item_id ON `donation`
WHEN (NEW.donor_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id))
  OR (NEW.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id))
  OR (NEW.campaign_item_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaign_item p WHERE p.id = NEW.campaign_item_id
      AND (p.organization_id != NEW.organization_id OR (NEW.campaign_id IS NOT NULL AND p.campaign_id != NEW.campaign_id))))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donation_refs_same_org'); END;
