/**
 * The /recurring URL state (DESIGN §4: filters in the URL). Its readers (the plans.list and
 * plans.exportPage filters) are ./filters.ts: a route's search schema loads with the route tree on
 * every page, so this module imports only what that chunk already holds — not core/plans.ts
 * (which brings core/time.ts) nor ~/lib/format (core/money.ts). Amounts are in major units in the
 * URL ("25.5", as typed) and become minor units with the currency they are read in.
 */

import type { PlanInterval, PlanStatus } from "@core/plans";
import { currencyCode } from "@core/schemas";
import { z } from "zod/mini";
import { enumParam, facetParam, listSearch, opt, textParam, withDefault } from "~/lib/search-params";

/** core/plans.ts planStatuses and planIntervals, spelled here for the reason above; tsc holds them equal. */
const STATUSES = ["active", "past_due", "lapsed", "paused", "cancelled", "completed"] as const;
const INTERVALS = ["month", "quarter", "year"] as const;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Types only (nothing at run time): tsc fails here when core/plans.ts adds or drops a value. */
export type PlanSearchEnumsMatch =
  | Holds<Same<(typeof STATUSES)[number], PlanStatus>>
  | Holds<Same<(typeof INTERVALS)[number], PlanInterval>>;

/** The keys of worker/plans/queries.ts PLAN_SORTS ("risk": failing first, the server's default). */
export const PLAN_SORTS = ["risk", "next", "amount", "created", "given"] as const;

/** A major-unit amount, bounded so that its minor units stay a safe integer in every currency. */
const majorParam = opt(z.number().check(z.minimum(0), z.maximum(1e12)));

export const planSearch = z.extend(listSearch, {
  sort: withDefault(z.enum(PLAN_SORTS), "risk"),
  status: facetParam(STATUSES),
  interval: enumParam(INTERVALS),
  currency: opt(currencyCode),
  campaignId: textParam(64),
  donorId: textParam(64),
  minAmount: majorParam,
  maxAmount: majorParam,
});
export type PlanSearch = z.infer<typeof planSearch>;
