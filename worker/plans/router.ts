/**
 * plans.* (issue 24, decision 030): input schema, rung and permissions, one service call. A plan is
 * part of giving: reading plans takes donation:view, entering one donation:create, pausing,
 * resuming, cancelling and changing an amount donation:update — the rights a member already has
 * over the gifts the plan brings.
 */
import { planActions, planIntervals, planStatuses } from "@core/plans";
import { amountMinor, calendarDay, currencyCode, enumSet } from "@core/schemas";
import { z } from "zod";
import { listInput } from "../lib/list";
import { orgProcedure, router } from "../trpc/init";
import { recurringSummary } from "./analytics";
import { PLAN_SORTS } from "./queries";
import {
  changePlanAmount,
  changePlanStatus,
  createPlan,
  exportPlansPage,
  listPlansPage,
  planDetail,
} from "./service";

const id = z.string().min(1).max(64);
const reason = z.string().trim().max(500).optional();

export const planFilters = {
  status: z.optional(enumSet(planStatuses)),
  interval: z.enum(planIntervals).optional(),
  campaignId: id.optional(),
  donorId: id.optional(),
  currency: z.optional(currencyCode),
  minAmountMinor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  maxAmountMinor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
};

export const plansRouter = router({
  list: orgProcedure({ donation: ["view"] })
    .input(listInput({ sorts: PLAN_SORTS, defaultSort: "risk", filters: planFilters }))
    .query(({ ctx, input }) => listPlansPage(ctx, input)),

  /** The list's plans a page at a time for its CSV (an export: never while impersonating). */
  exportPage: orgProcedure({ export: ["create"], donation: ["view"] })
    .input(
      z
        .object({
          ...planFilters,
          q: z.string().trim().max(200).optional(),
          after: id.optional(),
          limit: z.number().int().min(1).max(1000).default(500),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => exportPlansPage(ctx, input)),

  byId: orgProcedure({ donation: ["view"] })
    .input(z.object({ id }).strict())
    .query(({ ctx, input }) => planDetail(ctx, input.id)),

  /** A plan entered by hand: a standing order, a pledge paid by check. */
  create: orgProcedure({ donation: ["create"] })
    .input(
      z
        .object({
          donorId: id,
          campaignId: id.nullable().default(null),
          amountMinor,
          currency: currencyCode,
          interval: z.enum(planIntervals),
          startDay: calendarDay,
          dayOfMonth: z.number().int().min(1).max(31).optional(),
          paymentMethod: z.string().trim().max(60).nullish(),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => createPlan(ctx, input)),

  /** Pause, resume or cancel, as the status machine allows; pausing and cancelling need a reason. */
  setStatus: orgProcedure({ donation: ["update"] })
    .input(z.object({ id, action: z.enum(planActions), reason }).strict())
    .mutation(({ ctx, input }) => changePlanStatus(ctx, input)),

  /**
   * Recurring revenue: MRR and active plans per currency, the months' new, reactivated and ended
   * plans with churn and MRR at each month's end, the share of the last `days` given through plans
   * (0: all time), and the plans at risk.
   */
  summary: orgProcedure({ donation: ["view"] })
    .input(
      z
        .object({
          months: z.number().int().min(1).max(60).default(12),
          days: z.number().int().min(0).max(3660).default(30),
        })
        .strict()
        .default({ months: 12, days: 30 }),
    )
    .query(({ ctx, input }) => recurringSummary(ctx, input)),

  /** A manual plan's amount (a processor's plan changes at the processor). */
  changeAmount: orgProcedure({ donation: ["update"] })
    .input(z.object({ id, amountMinor, reason }).strict())
    .mutation(({ ctx, input }) => changePlanAmount(ctx, input)),
});
