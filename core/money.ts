/** Money as integer minor units + ISO 4217 code (DESIGN §4). Never floats in storage. */
const EXPONENTS: Record<string, number> = {
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  UGX: 0,
  KWD: 3,
  BHD: 3,
  OMR: 3,
  JOD: 3,
  TND: 3,
};

// The supported currencies and one gift's bounds live in ./currencies.ts (the browser's URL schemas
// load them in the entry chunk; the formatting and conversion here stay in the chunks that use them).
export { CURRENCIES, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "./currencies";

/** Exponents by the code as given (exports ask once per amount, six times per row). */
const exponentCache = new Map<string, number>();

export function exponentOf(currency: string): number {
  let exp = exponentCache.get(currency);
  if (exp === undefined) {
    exp = EXPONENTS[currency.toUpperCase()] ?? 2;
    if (exponentCache.size < 256) exponentCache.set(currency, exp);
  }
  return exp;
}

/** "12.34" (major units, as typed) → 1234. Refuses more decimals than the currency has. */
export function toMinor(major: string | number, currency: string): number {
  const exp = exponentOf(currency);
  const text = typeof major === "number" ? major.toFixed(exp) : major.trim();
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error("Not an amount");
  const frac = m[2] ?? "";
  if (frac.length > exp) throw new Error(`At most ${exp} decimals for ${currency}`);
  return Number(m[1]) * 10 ** exp + Number((frac + "0".repeat(exp)).slice(0, exp) || "0");
}

export function toMajorString(minor: number, currency: string): string {
  const exp = exponentOf(currency);
  // Not a whole count of minor units (a row written by hand): a number still, never digits cut wrong.
  if (!Number.isSafeInteger(minor)) return Number.isFinite(minor) ? String(minor / 10 ** exp) : "";
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  if (exp === 0) return `${sign}${abs}`;
  const s = String(abs).padStart(exp + 1, "0");
  return `${sign}${s.slice(0, -exp)}.${s.slice(-exp)}`;
}

/**
 * "$12.34". Never throws: a currency Intl refuses (a row stored before the input rules, e.g. "ZZ!")
 * reads "ZZ! 12.34", and an amount that is not a finite number reads "—" (pages render every row).
 */
export function formatMoney(minor: number, currency: string, locale = "en-US"): string {
  if (!Number.isFinite(minor)) return "—";
  const exp = exponentOf(currency);
  try {
    return new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: exp,
      maximumFractionDigits: exp,
    }).format(minor / 10 ** exp);
  } catch {
    return `${currency} ${toMajorString(minor, currency)}`;
  }
}
