-- /recurring's sorts read from an index each (worker/plans/queries.ts PLAN_SORTS uses the same
-- expressions): failing first, next gift, amount, given, created, each ending in the status so the
-- list's status filter is checked inside the index. At 20 000 plans in one organization the first
-- page took ~90 ms sorting them all in a temporary b-tree; now it reads the 25 rows it shows
-- (docs/performance.md K → L).
DROP INDEX `recurring_plan_org_created_idx`;--> statement-breakpoint
CREATE INDEX `recurring_plan_org_risk_idx` ON `recurring_plan` (`organization_id`,(CASE "status" WHEN 'past_due' THEN 0 WHEN 'lapsed' THEN 1 WHEN 'active' THEN 2 WHEN 'paused' THEN 3 ELSE 4 END),("next_expected_at" IS NULL),`next_expected_at`,`status`);--> statement-breakpoint
CREATE INDEX `recurring_plan_org_next_idx` ON `recurring_plan` (`organization_id`,("next_expected_at" IS NULL),`next_expected_at`,`status`);--> statement-breakpoint
CREATE INDEX `recurring_plan_org_amount_idx` ON `recurring_plan` (`organization_id`,`amount_minor`,`status`);--> statement-breakpoint
CREATE INDEX `recurring_plan_org_given_idx` ON `recurring_plan` (`organization_id`,`given_minor`,`status`);--> statement-breakpoint
CREATE INDEX `recurring_plan_org_created_idx` ON `recurring_plan` (`organization_id`,`created_at`,`status`);