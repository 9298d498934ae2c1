-- Tiers of one ladder (organization + basis) are [min, max) ranges that may touch but never overlap
-- (research/domain.md §2.4). As triggers, two overlapping tiers written at once cannot both land, and a
-- refused write rolls back its whole batch (audit row included).
CREATE TRIGGER `donor_tier_no_overlap_insert` BEFORE INSERT ON `donor_tier`
WHEN EXISTS (SELECT 1 FROM donor_tier o WHERE o.organization_id = NEW.organization_id AND o.basis = NEW.basis AND o.id != NEW.id
  AND o.min_minor < COALESCE(NEW.max_minor, 9223372036854775807) AND COALESCE(o.max_minor, 9223372036854775807) > NEW.min_minor)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_tier_no_overlap'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_tier_no_overlap_update` BEFORE UPDATE OF organization_id, basis, min_minor, max_minor ON `donor_tier`
WHEN EXISTS (SELECT 1 FROM donor_tier o WHERE o.organization_id = NEW.organization_id AND o.basis = NEW.basis AND o.id != NEW.id
  AND o.min_minor < COALESCE(NEW.max_minor, 9223372036854775807) AND COALESCE(o.max_minor, 9223372036854775807) > NEW.min_minor)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_tier_no_overlap'); END;
