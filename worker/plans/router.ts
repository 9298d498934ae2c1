/**
 * plans.* (decision 030): a plan is part of giving, so reading takes donation:view, entering one
 * donation:create and changing one donation:update, the rights a member has over its gifts.
 */
import { PAYMENT_METHOD_MAX } from "@core/labels";
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
          paymentMethod: z.string().trim().max(PAYMENT_METHOD_MAX).nullish(),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => createPlan(ctx, input)),

  /**
   * Pause, resume or cancel, as the status machine allows; pausing and cancelling need a reason.
   * A pause may end on a day (`resumeOn`, the organization's), when the watch resumes it.
   */
  setStatus: orgProcedure({ donation: ["update"] })
    .input(z.object({ id, action: z.enum(planActions), reason, resumeOn: z.optional(calendarDay) }).strict())
    .mutation(({ ctx, input }) => changePlanStatus(ctx, input)),

  /** Recurring revenue (analytics.ts), the share given through plans over the last `days` (0: all time). */
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
