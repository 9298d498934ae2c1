/** Recurring plans (decision 030): the rules the Worker decides with and the portal shows. */
import { localDay, startOfLocalDay } from "./time.ts";

/** A plan's gifts carry the matching donation frequency (FREQUENCY_OF). */
export const planIntervals = ["month", "quarter", "year"] as const;
export type PlanInterval = (typeof planIntervals)[number];

export const PLAN_INTERVAL_LABELS: Readonly<Record<PlanInterval, string>> = {
  month: "Monthly",
  quarter: "Quarterly",
  year: "Yearly",
};

const INTERVAL_MONTHS: Readonly<Record<PlanInterval, number>> = { month: 1, quarter: 3, year: 12 };

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
 * past_due: late past the grace period or a failed payment, still in MRR as most recover; lapsed: late
 * past the lapse period, no longer counted; completed: a fixed-term pledge reached its end.
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

export const planActions = ["pause", "resume", "cancel"] as const;
export type PlanAction = (typeof planActions)[number];
export const PLAN_ACTION_TARGET: Readonly<Record<PlanAction, PlanStatus>> = {
  pause: "paused",
  resume: "active",
  cancel: "cancelled",
};

/** Stopping a plan by hand needs a reason, kept in its timeline and the audit trail. */
export const PLAN_REASON_ACTIONS: readonly PlanAction[] = ["pause", "cancel"];

/** A pause with an end ends within this many months. */
export const MAX_PAUSE_MONTHS = 24;

/** `day` plus `months` calendar months, the day kept or the month's last ("2027-01-31" + 1 → 02-28). */
export function addMonthsToDay(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** Why a pause cannot end on `day` (the first local day active again), or null. */
export function pauseEndProblem(day: string, today: string): string | null {
  if (day <= today) return "The pause ends on a day after today";
  if (day > addMonthsToDay(today, MAX_PAUSE_MONTHS)) return `A pause ends within ${MAX_PAUSE_MONTHS} months`;
  return null;
}

export function allowedPlanActions(status: PlanStatus): PlanAction[] {
  return planActions.filter((a) => planTransitions[status].includes(PLAN_ACTION_TARGET[a]));
}

/** A plan's gifts are in its currency, however they come, as its total adds them: the 400, or null. */
export function planGiftCurrencyProblem(planCurrency: string, giftCurrency: string): string | null {
  return giftCurrency === planCurrency ? null : `This plan gives in ${planCurrency}`;
}

/** An ended plan keeps its amount, whoever asks (a person or the processor): the 422, or null. */
export function planAmountChangeProblem(status: string): string | null {
  return status === "cancelled" || status === "completed" ? `A ${status} plan keeps its amount` : null;
}

/** Statuses whose plans count in recurring revenue (MRR) and as "active plans". */
export const IN_MRR: readonly PlanStatus[] = ["active", "past_due"];
export const inMrr = (s: string) => (IN_MRR as readonly string[]).includes(s);

/** Statuses in which a gift is still expected (the cron watches these). */
export const EXPECTING: readonly PlanStatus[] = ["active", "past_due", "lapsed"];

/** Minor units a year: whole for every interval, so the rollups add integers; MRR is this over 12. */
export function annualMinor(amountMinor: number, interval: PlanInterval): number {
  return amountMinor * (12 / INTERVAL_MONTHS[interval]);
}

export const monthlyFromAnnual = (annual: number) => Math.round(annual / 12);

const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** `interval` months after `from`, on the plan's day (or the month's last), at local noon. */
export function nextDue(from: number, interval: PlanInterval, day: number, timeZone: string): number {
  const [y, m] = localDay(from, timeZone).split("-").map(Number) as [number, number];
  const months = y * 12 + (m - 1) + INTERVAL_MONTHS[interval];
  const ny = Math.floor(months / 12);
  const nm = (months % 12) + 1;
  const d = Math.min(Math.max(1, day), daysInMonth(ny, nm));
  const iso = `${String(ny).padStart(4, "0")}-${String(nm).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return startOfLocalDay(iso, timeZone) + 12 * 3600_000;
}

export const localMonth = (ms: number, timeZone: string) => localDay(ms, timeZone).slice(0, 7);

/** Where a resumed plan picks up: its first due date, from `anchor`, not before `notBefore`. */
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

/** The cron's missed gifts: due dates from `due` on that have passed by `now`. */
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
