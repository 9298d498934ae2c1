/** Display helpers shared by every screen. Money math itself is the pure module the API uses. */
import { formatDate, formatDateTime } from "@core/date-format";
import { formatCount } from "@core/labels";
import { exponentOf, formatMoney, toMajorString, toMinor } from "@core/money";
import { safeHttpUrl, safeImageSrc } from "@core/url";

export {
  exponentOf,
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
  safeHttpUrl,
  safeImageSrc,
  toMajorString,
  toMinor,
};

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
