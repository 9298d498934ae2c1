/**
 * A plan's amount, lateness and months in words ("€10.00 / month", "12 days late", "March 2026"),
 * apart from ./plan-bits.tsx so the dashboard's tile and the month table use them without loading
 * core/plans.ts (only its types are imported here) and the plan screens' shared chunk.
 */
import type { PlanInterval } from "@core/plans";
import { formatMoney } from "~/lib/format";

const PER: Record<PlanInterval, string> = { month: "month", quarter: "quarter", year: "year" };

/** "€10.00 / month". */
export function planAmount(amountMinor: number, currency: string, interval: PlanInterval) {
  return `${formatMoney(amountMinor, currency)} / ${PER[interval]}`;
}

/** Whole days a plan's expected gift is late by at `now`; 0 when it is not late or none is expected. */
export function daysLate(nextExpectedAt: number | null, now = Date.now()) {
  return nextExpectedAt !== null && nextExpectedAt < now
    ? Math.floor((now - nextExpectedAt) / 86_400_000)
    : 0;
}

/** "1 day late", "12 days late". */
export const lateLabel = (days: number) =>
  days === 1 ? "1 day late" : `${days.toLocaleString("en-US")} days late`;

/** A calendar month "2026-03" as "March 2026" (or "Mar 2026"): no zone moves a month key. */
export function formatMonth(month: string, style: "long" | "short" = "long") {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Intl.DateTimeFormat("en-US", { month: style, year: "numeric", timeZone: "UTC" }).format(
    Date.UTC(y, m - 1, 15),
  );
}
