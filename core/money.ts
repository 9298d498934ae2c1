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

// Currencies and a gift's bounds live in ./currencies.ts, small enough for the browser's entry chunk.
import { CURRENCIES } from "./currencies";

export { CURRENCIES, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "./currencies";

const exponentCache = new Map<string, number>();

export function exponentOf(currency: string): number {
  let exp = exponentCache.get(currency);
  if (exp === undefined) {
    exp = EXPONENTS[currency.toUpperCase()] ?? 2;
    if (exponentCache.size < 256) exponentCache.set(currency, exp);
  }
  return exp;
}

/** "12.34" as a machine writes it (a webhook, a URL) → 1234. What people type goes through `parseMoney`. */
export function toMinor(major: string | number, currency: string): number {
  const exp = exponentOf(currency);
  const text = typeof major === "number" ? major.toFixed(exp) : major.trim();
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error("Not an amount");
  const frac = m[2] ?? "";
  if (frac.length > exp) throw new Error(`At most ${exp} decimals for ${currency}`);
  return minorOf(m[1] as string, frac, exp);
}

/** By string arithmetic, never floats. */
function minorOf(whole: string, frac: string, exp: number): number {
  return Number(`${whole || "0"}${frac.padEnd(exp, "0")}`.replace(/^0+(?=\d)/, ""));
}

// ─── What people write ──────────────────────────────────────────────────────────────────────────
// One reader for every amount typed into the portal or held by an imported file (decision 053).

/** Symbols naming one currency, longest first ("BR$" before "R$"). "¥" is yen: CNY is not taken. */
const SYMBOLS: readonly [string, string][] = [
  ["US$", "USD"],
  ["$ US", "USD"],
  ["$US", "USD"],
  ["CA$", "CAD"],
  ["$ CA", "CAD"],
  ["$CA", "CAD"],
  ["AU$", "AUD"],
  ["$ AU", "AUD"],
  ["$AU", "AUD"],
  ["NZ$", "NZD"],
  ["$ NZ", "NZD"],
  ["$NZ", "NZD"],
  ["MX$", "MXN"],
  ["$MX", "MXN"],
  ["Mex$", "MXN"],
  ["JP¥", "JPY"],
  ["R$", "BRL"],
  ["BR$", "BRL"],
  ["C$", "CAD"],
  ["A$", "AUD"],
  ["UK£", "GBP"],
  ["£GB", "GBP"],
  ["Fr.", "CHF"],
  ["Rs.", "INR"],
  ["Rs", "INR"],
  ["Dkr", "DKK"],
  ["Nkr", "NOK"],
  ["د.ك.", "KWD"],
  ["€", "EUR"],
  ["£", "GBP"],
  ["¥", "JPY"],
  ["￥", "JPY"],
  ["円", "JPY"],
  ["₹", "INR"],
].sort((a, b) => (b[0] as string).length - (a[0] as string).length) as [string, string][];
/** Shared by several currencies: the text names no currency. */
const AMBIGUOUS_SYMBOLS = ["kr.", "kr", "$", "R"];
const MINUS = /^[-\u2212\u2013]/;
const TRAILING_MINUS = /[-\u2212\u2013]$/;
/** Thousands separators that are never decimal marks: spaces (also no-break and thin), apostrophes. */
const SPACES = /[\s\u00a0\u2009\u202f'’ʼ]/g;
const BIDI = /[\u200e\u200f\u061c]/g;

function asciiDigits(s: string): string {
  return s
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\u066b/g, ".")
    .replace(/\u066c/g, ",");
}

interface NumberMarks {
  decimal: "." | ",";
  /** Groups of three (1,234,567) or India's lakh and crore (12,34,567). */
  grouping: "thousands" | "indian";
}

const marksCache = new Map<string, NumberMarks>();

export function numberMarks(locale: string): NumberMarks {
  let marks = marksCache.get(locale);
  if (marks) return marks;
  let parts: Intl.NumberFormatPart[] = [];
  try {
    // Money's marks, which are not always the numbers' (fr-CH writes "1 234,5" but "1 234.50 CHF").
    parts = new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" }).formatToParts(1234567.5);
  } catch {}
  const decimal = asciiDigits(parts.find((p) => p.type === "decimal")?.value ?? ".") === "," ? "," : ".";
  const sizes = parts.filter((p) => p.type === "integer").map((p) => p.value.length);
  marks = { decimal, grouping: sizes.length === 3 && sizes[1] === 2 ? "indian" : "thousands" };
  if (marksCache.size < 64) marksCache.set(locale, marks);
  return marks;
}

/** How an organization's people write amounts, from its country (CH → de-CH); only fields use it. */
export function moneyLocale(country: string | null | undefined): string {
  if (!country || !/^[A-Za-z]{2}$/.test(country)) return "en-US";
  try {
    const l = new Intl.Locale("und", { region: country.toUpperCase() }).maximize();
    return l.language && l.region && l.language !== "und" ? `${l.language}-${l.region}` : "en-US";
  } catch {
    return "en-US";
  }
}

type AmountProblem =
  | { kind: "empty" }
  | { kind: "not-amount" }
  | { kind: "negative" }
  | { kind: "unsupported-currency"; currency: string }
  | { kind: "two-currencies" }
  | { kind: "decimals"; currency: string; exp: number }
  | { kind: "ambiguous"; sep: "." | "," }
  | { kind: "too-large" };

type AmountReading =
  | { ok: true; minor: number; currency: string | null }
  | { ok: false; problem: AmountProblem };

interface Peeled {
  rest: string;
  currency: string | null;
  negative: boolean;
  problem: AmountProblem | null;
}

function peel(s: string): Peeled {
  let currency: string | null = null;
  let negative = false;
  const name = (c: string): AmountProblem | null => {
    if (currency && currency !== c) return { kind: "two-currencies" };
    currency = c;
    return null;
  };
  for (let guard = 0; guard < 8; guard++) {
    const before = s;
    if (MINUS.test(s)) {
      negative = true;
      s = s.slice(1).trim();
    } else if (TRAILING_MINUS.test(s)) {
      negative = true;
      s = s.slice(0, -1).trim();
    } else if (s.startsWith("+")) s = s.slice(1).trim();
    const code = /^([A-Za-z]{3})(?![A-Za-z$])|(?<![A-Za-z])([A-Za-z]{3})$/.exec(s);
    // "Nkr" and "Dkr" are symbols (Swedish for NOK and DKK), not codes.
    if (code && !SYMBOLS.some(([sym]) => sym === code[0])) {
      const c = (code[1] ?? code[2] ?? "").toUpperCase();
      if (!(CURRENCIES as readonly string[]).includes(c))
        return { rest: s, currency, negative, problem: { kind: "unsupported-currency", currency: c } };
      const problem = name(c);
      if (problem) return { rest: s, currency, negative, problem };
      s = (code.index === 0 ? s.slice(3) : s.slice(0, -3)).trim();
    }
    for (const [sym, cur] of SYMBOLS) {
      const at = s.startsWith(sym) ? "start" : s.endsWith(sym) ? "end" : null;
      if (!at) continue;
      const problem = name(cur);
      if (problem) return { rest: s, currency, negative, problem };
      s = (at === "start" ? s.slice(sym.length) : s.slice(0, -sym.length)).trim();
      break;
    }
    for (const sym of AMBIGUOUS_SYMBOLS) {
      if (s.startsWith(sym)) s = s.slice(sym.length).trim();
      else if (s.endsWith(sym)) s = s.slice(0, -sym.length).trim();
    }
    if (s === before) break;
  }
  return { rest: s, currency, negative, problem: null };
}

function splitDigits(
  s: string,
  mark: "." | "," | null,
  grouping: NumberMarks["grouping"] | null,
): { whole: string; frac: string } | null {
  let whole = s;
  let frac = "";
  if (mark && s.includes(mark)) {
    const i = s.indexOf(mark);
    if (s.lastIndexOf(mark) !== i) return null;
    whole = s.slice(0, i);
    frac = s.slice(i + 1);
  }
  // Groups of exactly 3 after the first, or lakhs (2s before the last 3) where the locale writes them.
  const groups = whole.split(/[.,]/);
  const head = groups[0] as string;
  const rest = groups.slice(1);
  if (
    groups.length > 1 &&
    !(/^\d{1,3}$/.test(head) && rest.every((g) => /^\d{3}$/.test(g))) &&
    !(
      grouping === "indian" &&
      /^\d{1,2}$/.test(head) &&
      rest.slice(0, -1).every((g) => /^\d{2}$/.test(g)) &&
      /^\d{3}$/.test(rest.at(-1) as string)
    )
  )
    return null;
  whole = groups.join("");
  if (!/^\d*$/.test(whole) || !/^\d*$/.test(frac) || (!whole && !frac)) return null;
  return { whole, frac };
}

/**
 * The number and currency a text states ("€1.234,56", "USD 25"). With `decimal: "auto"`, "1,250" is
 * ambiguous unless the currency (JPY) or `locale` settles it: refused, never guessed (decision 053).
 */
export function readAmount(
  text: string,
  o: { decimal: "." | "," | "auto"; currency: string; locale?: NumberMarks },
): AmountReading {
  const no = (problem: AmountProblem): AmountReading => ({ ok: false, problem });
  let s = asciiDigits(text.replace(BIDI, "").replace(/[\u00a0\u2009\u202f]/g, " "))
    .trim()
    .replace(/^"+|"+$/g, "")
    .trim();
  if (!s) return no({ kind: "empty" });
  if (!/\d/.test(s)) return no({ kind: "not-amount" });
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  const peeled = peel(s);
  if (peeled.problem) return no(peeled.problem);
  const { currency } = peeled;
  if (negative || peeled.negative) return no({ kind: "negative" });
  s = peeled.rest.replace(SPACES, "");
  if (!/^[\d.,]+$/.test(s) || !/\d/.test(s)) return no({ kind: "not-amount" });
  const resolved = currency ?? o.currency.toUpperCase();
  const exp = exponentOf(resolved);
  let mark: "." | "," | null;
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  if (o.decimal !== "auto") mark = o.decimal;
  else if (lastDot >= 0 && lastComma >= 0) mark = lastDot > lastComma ? "." : ",";
  else if (lastDot < 0 && lastComma < 0) mark = null;
  else {
    const sep = lastDot >= 0 ? "." : ",";
    const parts = s.split(sep);
    const head = parts[0] as string;
    const tail = parts.at(-1) as string;
    if (parts.length > 2)
      mark = null; // 1.234.567: thousands only
    else if (tail.length === 3 && /^[1-9]\d{0,2}$/.test(head)) {
      if (exp === 0 || (o.locale && o.locale.decimal !== sep)) mark = null;
      else if (o.locale && exp >= 3) mark = sep;
      else return no({ kind: "ambiguous", sep });
    } else mark = sep;
  }
  const digits = splitDigits(s, mark, o.locale?.grouping ?? null);
  if (!digits) return no({ kind: "not-amount" });
  const frac = digits.frac.replace(/0+$/, "");
  if (frac.length > exp) return no({ kind: "decimals", currency: resolved, exp });
  const all = `${digits.whole || "0"}${frac.padEnd(exp, "0")}`.replace(/^0+(?=\d)/, "");
  if (all.length > 15) return no({ kind: "too-large" });
  return { ok: true, minor: minorOf(digits.whole, frac, exp), currency };
}

/** An amount the way a field shows it to be edited in `locale`: "1250.50", "1250,50" (no groups). */
export function toMajorInput(minor: number, currency: string, locale: string): string {
  const plain = toMajorString(minor, currency);
  return numberMarks(locale).decimal === "," ? plain.replace(".", ",") : plain;
}

/** A money field's text, read in the organization's `locale`; bounds are the field schema's. */
export function parseMoney(
  text: string,
  currency: string,
  locale: string,
): { ok: true; minor: number } | { ok: false; message: string } {
  const marks = numberMarks(locale);
  const r = readAmount(text, { decimal: "auto", currency, locale: marks });
  const code = currency.toUpperCase();
  if (r.ok) {
    if (r.currency && r.currency !== code)
      return { ok: false, message: `This amount is in ${code}, not ${r.currency}` };
    return { ok: true, minor: r.minor };
  }
  const shown = text.trim();
  const example = toMajorInput(25 * 10 ** exponentOf(code), code, locale);
  switch (r.problem.kind) {
    case "empty":
      return { ok: false, message: "Enter an amount" };
    case "negative":
      return { ok: false, message: "Enter an amount above zero" };
    case "decimals":
      return {
        ok: false,
        message:
          r.problem.exp === 0
            ? `${r.problem.currency} has no decimals: enter a whole amount`
            : `At most ${r.problem.exp} decimals in ${r.problem.currency}`,
      };
    case "ambiguous": {
      const [head = "", tail = ""] = shown.replace(/[^\d.,]/g, "").split(r.problem.sep);
      const decimals = tail.replace(/0+$/, "");
      const exp = exponentOf(code);
      return {
        ok: false,
        message:
          decimals.length > exp
            ? `At most ${exp} decimals in ${code}; for ${head}${tail} type it without "${r.problem.sep}"`
            : `"${shown}" could be ${head}${tail} or ${head}${marks.decimal}${decimals || "0"}: type one of those`,
      };
    }
    case "two-currencies":
    case "unsupported-currency":
      return { ok: false, message: `Enter an amount in ${code}` };
    case "too-large":
      return { ok: false, message: "That amount is too large" };
    default:
      return { ok: false, message: `Enter an amount like ${example}` };
  }
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

/** "$12.34". Never throws, so a bad stored row still renders: "ZZ! 12.34", or "—" for a non-number. */
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
