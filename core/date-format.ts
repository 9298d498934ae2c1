// Dates for people, alike on the portal's screens and in the server's audit sentences.

/**
 * The zone is named on every call (decision 026): unnamed, server and browser differ near midnight and
 * React fails hydration (#418). Never throws: "—" for no valid instant, the UTC date for an unknown zone.
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

/** "Nov 24, 2026, 5:03 PM PST": the zone named, as staff read it from anywhere. */
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

/** A fiscal year's start month (1–12) as people read it. */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;
