/** Display helpers shared by every screen. Money math itself is the pure module the API uses. */
import { formatCount } from "@core/labels";
import { exponentOf, formatMoney, toMajorString, toMinor } from "@core/money";
import { safeHttpUrl, safeImageSrc } from "@core/url";

export { exponentOf, formatCount, formatMoney, safeHttpUrl, safeImageSrc, toMajorString, toMinor };

/**
 * A date for people, in `timeZone`: the organization's (`useTimeZone`, src/lib/time-zone.ts),
 * the zone its filters, reports and exports count days in. Named on every call because a date
 * without one is the server's zone (UTC) while rendering and the browser's after hydration: a
 * different day near midnight, and React's hydration error (#418).
 * Never throws: "—" for none and for an instant no Date holds (a row stored before the input rules
 * of docs/decisions/019-shared-input-schemas.md), and the ISO date (UTC) when Intl does not know
 * the zone.
 */
export function formatDate(
  ms: number | null | undefined,
  timeZone: string,
  opts: Intl.DateTimeFormatOptions = { dateStyle: "medium" },
) {
  if (!ms) return "—";
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return "—";
  try {
    return new Intl.DateTimeFormat("en-US", { ...opts, timeZone }).format(date);
  } catch {
    return date
      .toISOString()
      .slice(0, opts.hour ? 16 : 10)
      .replace("T", " ");
  }
}

/** A moment, with its zone named ("Nov 24, 2026, 5:03 PM PST"): staff read it from anywhere. */
export function formatDateTime(ms: number | null | undefined, timeZone: string) {
  return formatDate(ms, timeZone, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
}

export function formatPercent(ratio: number | null | undefined, digits = 0) {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return "—";
  // Thousands separated like every count ("3,713%" for a goal far exceeded).
  return `${(ratio * 100).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })}%`;
}

export function titleCase(s: string) {
  return s.replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase());
}

/** tRPC/zod error → message and per-field messages a form can show. */
export function errorInfo(error: unknown): { message: string; fields: Record<string, string> } {
  const e = error as {
    message?: string;
    data?: { fieldErrors?: Record<string, string[]>; details?: { field?: string } };
  } | null;
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(e?.data?.fieldErrors ?? {}))
    if (v[0]) fields[k.replace(/^data\./, "")] = v[0];
  const field = e?.data?.details?.field;
  if (field && e?.message) fields[field] = e.message;
  return { message: e?.message ?? "Something went wrong!", fields };
}
