/**
 * Recurring plans (issue 24, docs/decisions/030-recurring-plans.md): what both sides know of them —
 * the intervals, the status machine, which statuses count as recurring revenue, how an amount is
 * normalized to a year and a month, and when the next gift is due. The Worker decides with these
 * (worker/plans/), the portal shows and asks with the same (src/features/plans/).
 */
import { localDay, startOfLocalDay } from "./time.ts";

/** How often a plan gives. A gift of a plan carries the matching donation frequency. */
export const planIntervals = ["month", "quarter", "year"] as const;
export type PlanInterval = (typeof planIntervals)[number];

export const PLAN_INTERVAL_LABELS: Readonly<Record<PlanInterval, string>> = {
  month: "Monthly",
  quarter: "Quarterly",
  year: "Yearly",
};

/** Months between two gifts of a plan. */
export const INTERVAL_MONTHS: Readonly<Record<PlanInterval, number>> = { month: 1, quarter: 3, year: 12 };

/** The donation frequency of a plan's gifts, and the plan interval of a recurring gift. */
export const FREQUENCY_OF: Readonly<Record<PlanInterval, "monthly" | "quarterly" | "annually">> = {
  month: "monthly",
  quarter: "quarterly",
  year: "annually",
};
export function intervalOfFrequency(frequency: string): PlanInterval | null {
  if (frequency === "monthly") return "month";
  if (frequency === "quarterly") return "quarter";
  if (frequency === "annually") return "year";
  return null;
}

/**
 * A plan's statuses (Donorbox, GiveWP Recurring, NPSP, Open Collective manage the same):
 * - active: gifts arrive as expected;
 * - past_due: the expected gift is late past the grace period, or the processor said a payment
 *   failed (still counted as recurring revenue: most recover);
 * - lapsed: late past the longer lapse period; no longer counted;
 * - paused: stopped for a while on purpose, resumable;
 * - cancelled: stopped for good; completed: reached its end (a fixed-term pledge).
 */
export const planStatuses = ["active", "past_due", "lapsed", "paused", "cancelled", "completed"] as const;
export type PlanStatus = (typeof planStatuses)[number];

export const PLAN_STATUS_LABELS: Readonly<Record<PlanStatus, string>> = {
  active: "Active",
  past_due: "Past due",
  lapsed: "Lapsed",
  paused: "Paused",
  cancelled: "Cancelled",
  completed: "Completed",
};

/** The plan status machine: a refused move answers 422 with the allowed targets. */
export const planTransitions: Readonly<Record<PlanStatus, readonly PlanStatus[]>> = {
  active: ["past_due", "paused", "cancelled", "completed"],
  past_due: ["active", "lapsed", "paused", "cancelled"],
  lapsed: ["active", "cancelled"],
  paused: ["active", "cancelled"],
  cancelled: [],
  completed: [],
};

/** What a person does to a plan in the portal, and the status each leads to. */
export const planActions = ["pause", "resume", "cancel"] as const;
export type PlanAction = (typeof planActions)[number];
export const PLAN_ACTION_TARGET: Readonly<Record<PlanAction, PlanStatus>> = {
  pause: "paused",
  resume: "active",
  cancel: "cancelled",
};

/** Stopping a plan by hand needs a reason, kept with the change (its timeline and the audit trail). */
export const PLAN_REASON_ACTIONS: readonly PlanAction[] = ["pause", "cancel"];

export function allowedPlanActions(status: PlanStatus): PlanAction[] {
  return planActions.filter((a) => planTransitions[status].includes(PLAN_ACTION_TARGET[a]));
}

/** Statuses whose plans count in recurring revenue (MRR) and as "active plans". */
export const IN_MRR: readonly PlanStatus[] = ["active", "past_due"];
export const inMrr = (s: string) => (IN_MRR as readonly string[]).includes(s);

/** Statuses in which a gift is still expected (the cron watches these). */
export const EXPECTING: readonly PlanStatus[] = ["active", "past_due", "lapsed"];

/**
 * A plan's amount over a year, in minor units: whole for every interval (a monthly 10.00 is 120.00,
 * a quarterly one 40.00), so the rollups add integers; MRR is this over 12, shown rounded.
 */
export function annualMinor(amountMinor: number, interval: PlanInterval): number {
  return amountMinor * (12 / INTERVAL_MONTHS[interval]);
}

/** Monthly recurring revenue of an annual amount, in minor units (rounded half up). */
export const monthlyFromAnnual = (annual: number) => Math.round(annual / 12);

const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * The next gift a plan expects after the one due (or given) at `from`: `interval` months later in
 * the organization's calendar, on the plan's day of the month (the month's last day when it is
 * shorter: a plan on the 31st gives on 30 April), at local noon (as a gift dated by day is stored).
 */
export function nextDue(from: number, interval: PlanInterval, day: number, timeZone: string): number {
  const [y, m] = localDay(from, timeZone).split("-").map(Number) as [number, number];
  const months = y * 12 + (m - 1) + INTERVAL_MONTHS[interval];
  const ny = Math.floor(months / 12);
  const nm = (months % 12) + 1;
  const d = Math.min(Math.max(1, day), daysInMonth(ny, nm));
  const iso = `${String(ny).padStart(4, "0")}-${String(nm).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return startOfLocalDay(iso, timeZone) + 12 * 3600_000;
}

/** The organization's month (YYYY-MM) of an instant: the plan rollups' bucket. */
export const localMonth = (ms: number, timeZone: string) => localDay(ms, timeZone).slice(0, 7);

/** Days a plan's expected gift may be late before it is past due, and before it has lapsed. */
export interface PlanGrace {
  pastDueAfterDays: number;
  lapsedAfterDays: number;
}

/**
 * The first due date of a plan's schedule (anchored at `anchor`, a due date of it) that is not
 * before `notBefore`: where a resumed plan picks up. Bounded: at most 1 200 intervals.
 */
export function dueOnOrAfter(
  anchor: number,
  interval: PlanInterval,
  day: number,
  timeZone: string,
  notBefore: number,
): number {
  let due = anchor;
  for (let i = 0; i < 1_200 && due < notBefore; i++) due = nextDue(due, interval, day, timeZone);
  return due;
}

/** How many of a plan's due dates from `due` on have passed by `now` (the cron's missed gifts). */
export function duesPassed(
  due: number,
  interval: PlanInterval,
  day: number,
  timeZone: string,
  now: number,
): number {
  let n = 0;
  for (let d = due; d <= now && n < 1_200; d = nextDue(d, interval, day, timeZone)) n++;
  return n;
}
