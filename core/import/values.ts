/**
 * One cell of an import file turned into a value the platform stores (issue 23,
 * docs/decisions/028-csv-import.md): amounts as other systems and locales write them, dates in
 * ISO, US and European order, names, yes/no, and the statuses, frequencies and methods of the
 * systems a team leaves. Each parser answers a value or the one sentence the row's refusal says.
 * Pure: the Worker runs it on every row (core/import/row.ts), the page on the file's columns.
 */
import { CURRENCIES } from "../currencies.ts";
import type { PaymentMethod } from "../labels.ts";
import { exponentOf } from "../money.ts";
import { offsetAt } from "../time.ts";
import type { DateOrder, DecimalMark } from "./fields.ts";

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const no = <T>(problem: string): Parsed<T> => ({ ok: false, problem });

export const isBlank = (s: string | null | undefined) => !s?.trim();

/** Lower case, accents and punctuation folded: how a word of a cell is looked up. */
export const fold = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

// ─── Amounts ────────────────────────────────────────────────────────────────────────────────────

/** Symbols that name one currency; "$", "kr" and "¥" alone name several and are read as none. */
const SYMBOLS: readonly [string, string][] = [
  ["R$", "BRL"],
  ["US$", "USD"],
  ["C$", "CAD"],
  ["CA$", "CAD"],
  ["A$", "AUD"],
  ["AU$", "AUD"],
  ["NZ$", "NZD"],
  ["MX$", "MXN"],
  ["€", "EUR"],
  ["£", "GBP"],
  ["₹", "INR"],
  ["CHF", "CHF"],
  ["Fr.", "CHF"],
];
const AMBIGUOUS_SYMBOLS = ["$", "¥", "￥", "kr", "kr.", "R"];

/**
 * The number and the currency a cell states: "€1.234,56", "1 234,56 €", "USD 25", "25.00 EUR".
 * `decimal` "auto" reads the mark from the value; a lone "1,234" is ambiguous unless the currency
 * has no decimals (JPY). Integer minor units, by string arithmetic (never floats).
 */
export function parseAmount(
  text: string,
  o: { decimal: DecimalMark; currency: string },
): Parsed<{ minor: number; currency: string | null }> {
  let s = text
    .trim()
    .replace(/^"+|"+$/g, "")
    .trim();
  if (!s) return no("No amount");
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  let currency: string | null = null;
  const code = /^([A-Za-z]{3})\s*(?=[\d.,\s+-])|(?<=[\d.,])\s*([A-Za-z]{3})$/.exec(s);
  if (code) {
    const c = (code[1] ?? code[2] ?? "").toUpperCase();
    if (!(CURRENCIES as readonly string[]).includes(c)) return no(`Currency ${c} is not supported`);
    currency = c;
    s = s.replace(code[0], "").trim();
  }
  for (const [sym, cur] of SYMBOLS) {
    if (s.startsWith(sym) || s.endsWith(sym)) {
      if (currency && currency !== cur) return no(`"${text.trim()}" names two currencies`);
      currency = cur;
      s = (s.startsWith(sym) ? s.slice(sym.length) : s.slice(0, -sym.length)).trim();
      break;
    }
  }
  for (const sym of AMBIGUOUS_SYMBOLS) {
    if (s.startsWith(sym)) s = s.slice(sym.length).trim();
    else if (s.endsWith(sym)) s = s.slice(0, -sym.length).trim();
  }
  if (s.startsWith("-") || s.endsWith("-")) {
    negative = true;
    s = s.replace(/^-|-$/g, "").trim();
  }
  if (s.startsWith("+")) s = s.slice(1).trim();
  if (negative)
    return no(`Negative amounts are not gifts ("${text.trim()}"); import refunds with the refunded amount`);
  // Thousands separators that are never decimal marks: spaces (also no-break), apostrophes.
  s = s.replace(/[\s\u00a0\u202f'’]/g, "");
  if (!/^[\d.,]+$/.test(s) || !/\d/.test(s)) return no(`"${text.trim()}" is not an amount`);
  const exp = exponentOf(currency ?? o.currency);
  let mark: "." | "," | null;
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  if (o.decimal !== "auto") mark = o.decimal;
  else if (lastDot >= 0 && lastComma >= 0) mark = lastDot > lastComma ? "." : ",";
  else if (lastDot < 0 && lastComma < 0) mark = null;
  else {
    const sep = lastDot >= 0 ? "." : ",";
    const parts = s.split(sep);
    const tail = parts.at(-1) as string;
    if (parts.length > 2)
      mark = null; // 1.234.567: thousands only
    else if (tail.length === 3 && (parts[0] as string).length > 0) {
      // 1,234 is a thousand in a currency without decimals (JPY); elsewhere the file must say.
      if (exp === 0) mark = null;
      else
        return no(
          `Ambiguous amount "${text.trim()}": choose whether "${sep}" separates thousands or decimals`,
        );
    } else mark = sep;
  }
  let whole = s;
  let frac = "";
  if (mark && s.includes(mark)) {
    const i = s.lastIndexOf(mark);
    if (s.indexOf(mark) !== i) return no(`"${text.trim()}" is not an amount`);
    whole = s.slice(0, i);
    frac = s.slice(i + 1);
  }
  // What is left of the whole part may hold thousands separators: groups of three after the first.
  const groups = whole.split(/[.,]/);
  if (groups.length > 1 && (!(groups[0] as string).length || !groups.slice(1).every((g) => g.length === 3)))
    return no(`"${text.trim()}" is not an amount`);
  whole = groups.join("");
  if (!/^\d*$/.test(whole) || !/^\d*$/.test(frac) || (!whole && !frac))
    return no(`"${text.trim()}" is not an amount`);
  frac = frac.replace(/0+$/, "");
  if (frac.length > exp)
    return no(`"${text.trim()}" has more decimals than ${currency ?? o.currency.toUpperCase()} has (${exp})`);
  const digits = `${whole || "0"}${frac.padEnd(exp, "0")}`.replace(/^0+(?=\d)/, "");
  if (digits.length > 15) return no(`"${text.trim()}" is too large`);
  return ok({ minor: Number(digits), currency });
}

/**
 * The decimal mark a column's values agree on: "." or ",", or null when no value tells (every
 * value is like "1,234" or "25") or they contradict each other.
 */
export function detectDecimal(samples: readonly string[]): "." | "," | null {
  let dot = false;
  let comma = false;
  for (const raw of samples) {
    const s = raw.replace(/[^\d.,]/g, "");
    const d = s.lastIndexOf(".");
    const c = s.lastIndexOf(",");
    if (d >= 0 && c >= 0) {
      if (d > c) dot = true;
      else comma = true;
      continue;
    }
    const sep = d >= 0 ? "." : c >= 0 ? "," : null;
    if (!sep) continue;
    const parts = s.split(sep);
    if (parts.length > 2) {
      // 1.234.567 separates thousands with it: the mark is the other one.
      if (sep === ".") comma = true;
      else dot = true;
      continue;
    }
    if ((parts.at(-1) as string).length !== 3) {
      if (sep === ".") dot = true;
      else comma = true;
    }
  }
  if (dot && !comma) return ".";
  if (comma && !dot) return ",";
  return null;
}

// ─── Dates ──────────────────────────────────────────────────────────────────────────────────────

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

interface Wall {
  y: number;
  m: number;
  d: number;
  /** Time of day, or null for a date alone (stored at local noon, as a gift dated by day is). */
  time: { h: number; min: number; s: number; ms: number } | null;
  /** Minutes east of UTC the text states ("Z", "+01:00", "UTC"), or null: the import's zone. */
  offset: number | null;
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*([ap]\.?m\.?)?$/i;

function parseTime(t: string): Wall["time"] | "bad" {
  const m = TIME.exec(t.trim());
  if (!m) return "bad";
  let h = Number(m[1]);
  const min = Number(m[2]);
  const s = Number(m[3] ?? 0);
  const ms = Number(`${m[4] ?? ""}000`.slice(0, 3));
  const ampm = m[5]?.toLowerCase().replace(/\./g, "");
  if (ampm) {
    if (h < 1 || h > 12) return "bad";
    if (ampm === "pm" && h < 12) h += 12;
    if (ampm === "am" && h === 12) h = 0;
  }
  if (h > 23 || min > 59 || s > 59) return "bad";
  return { h, min, s, ms };
}

/** "Z", "UTC", "+01:00", "+0100", "-05" at the end of a date-time: minutes east, and the rest. */
function splitOffset(s: string): { rest: string; offset: number | null } {
  const z = /\s*(?:Z|UTC|GMT)$/i.exec(s);
  if (z) return { rest: s.slice(0, z.index), offset: 0 };
  const o = /(?<=\d)\s*(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})?$/i.exec(s);
  if (o && /[T\s:]/.test(s.slice(0, o.index))) {
    const sign = o[1] === "-" ? -1 : 1;
    return { rest: s.slice(0, o.index), offset: sign * (Number(o[2]) * 60 + Number(o[3] ?? 0)) };
  }
  return { rest: s, offset: null };
}

const year2 = (y: number) => (y < 100 ? (y < 70 ? 2000 + y : 1900 + y) : y);

/** The numeric day/month/year parts of a date (or a year-first date), before deciding the order. */
function numericParts(date: string): { a: number; b: number; c: number; yearFirst: boolean } | null {
  const m = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})\.?$/.exec(date);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  const c = Number(m[3]);
  if ((m[1] as string).length === 4) return { a, b, c, yearFirst: true };
  if ((m[3] as string).length === 3 || (m[1] as string).length === 3) return null;
  return { a, b, c, yearFirst: false };
}

function wallOf(text: string, order: DateOrder): Wall | string {
  let s = text.trim().replace(/\s+/g, " ");
  if (/^\d{10}$/.test(s) || /^\d{13}$/.test(s)) {
    const ms = s.length === 10 ? Number(s) * 1000 : Number(s);
    const d = new Date(ms);
    return {
      y: d.getUTCFullYear(),
      m: d.getUTCMonth() + 1,
      d: d.getUTCDate(),
      time: { h: d.getUTCHours(), min: d.getUTCMinutes(), s: d.getUTCSeconds(), ms: d.getUTCMilliseconds() },
      offset: 0,
    };
  }
  const { rest, offset } = splitOffset(s);
  s = rest.trim();
  // The date part and the time part (a "T" or a space before a h:mm).
  const t = /(?:T|\s+|,\s*)(\d{1,2}:\d{2}.*)$/i.exec(s);
  const datePart = (t ? s.slice(0, t.index) : s).trim().replace(/,$/, "");
  const time = t ? parseTime(t[1] as string) : null;
  if (time === "bad") return `"${text.trim()}" has a time that is not one`;
  const n = numericParts(datePart);
  if (n) {
    if (n.yearFirst) return { y: n.a, m: n.b, d: n.c, time, offset };
    const y = year2(n.c);
    let dm: [number, number];
    if (order === "mdy") dm = [n.b, n.a];
    else if (order === "dmy") dm = [n.a, n.b];
    else if (order === "ymd") return `"${text.trim()}" does not start with the year`;
    else if (n.a > 12 && n.b <= 12) dm = [n.a, n.b];
    else if (n.b > 12 && n.a <= 12) dm = [n.b, n.a];
    else if (n.a > 12 && n.b > 12) return `"${text.trim()}" is not a date`;
    else if (n.a === n.b) dm = [n.a, n.b];
    else return `Ambiguous date "${text.trim()}": choose whether the day or the month comes first`;
    return { y, m: dm[1], d: dm[0], time, offset };
  }
  // Month names: "Mar 5, 2024", "5 March 2024", "March 5th, 2024", "05-Mar-2024", "5. März" is not English.
  const words = datePart
    .replace(/(\d)(st|nd|rd|th)\b/gi, "$1")
    .replace(/[,.-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const mdy = /^([a-z]+) (\d{1,2}) (\d{2,4})$/i.exec(words);
  const dmy = /^(\d{1,2}) ([a-z]+) (\d{2,4})$/i.exec(words);
  const named = mdy
    ? { mon: mdy[1] as string, d: Number(mdy[2]), y: Number(mdy[3]) }
    : dmy
      ? { mon: dmy[2] as string, d: Number(dmy[1]), y: Number(dmy[3]) }
      : null;
  if (named) {
    const m = MONTHS[named.mon.toLowerCase()];
    if (!m) return `"${text.trim()}" is not a date`;
    return { y: year2(named.y), m, d: named.d, time, offset };
  }
  return `"${text.trim()}" is not a date`;
}

/**
 * A gift's instant from a date or date-time cell. A time without a zone is wall time in `timeZone`
 * (the import's, the organization's unless chosen), across DST too: a wall time the clocks skipped
 * is read as the same time after the jump. A date alone is local noon, so the gift stays on that
 * calendar day in every nearby zone.
 */
export function parseDate(text: string, o: { order: DateOrder; timeZone: string }): Parsed<number> {
  if (isBlank(text)) return no("No date");
  const w = wallOf(text, o.order);
  if (typeof w === "string") return no(w);
  if (w.y < 1000 || w.y > 9999) return no(`"${text.trim()}" is not a date`);
  const probe = new Date(Date.UTC(w.y, w.m - 1, w.d));
  if (w.m < 1 || w.m > 12 || probe.getUTCMonth() !== w.m - 1 || probe.getUTCDate() !== w.d)
    return no(`"${text.trim()}" is not a day of the calendar`);
  const time = w.time ?? { h: 12, min: 0, s: 0, ms: 0 };
  const wall = Date.UTC(w.y, w.m - 1, w.d, time.h, time.min, time.s, time.ms);
  if (w.offset !== null) return ok(wall - w.offset * 60_000);
  // Wall time → instant: the zone's offset there, checked once more (the offset may differ on the
  // other side of a DST change; a skipped wall time lands after the jump).
  let at = wall - offsetAt(wall, o.timeZone);
  const again = wall - offsetAt(at, o.timeZone);
  if (again !== at) at = Math.max(at, again);
  return ok(at);
}

/**
 * The day order a date column's values agree on: ISO (year first) needs none, a day above 12 tells
 * ("31/01/2024" dmy, "01/31/2024" mdy); `ambiguous` when the values have numeric days and months
 * and none of them tells (the page must ask); order null without ambiguity when they disagree.
 */
export function detectDateOrder(samples: readonly string[]): {
  order: "ymd" | "mdy" | "dmy" | null;
  ambiguous: boolean;
} {
  let dmy = false;
  let mdy = false;
  let undecided = false;
  let yearFirst = false;
  for (const raw of samples) {
    const s = splitOffset(raw.trim()).rest.trim();
    const t = /(?:T|\s+|,\s*)(\d{1,2}:\d{2}.*)$/i.exec(s);
    const n = numericParts((t ? s.slice(0, t.index) : s).trim());
    if (!n) continue;
    if (n.yearFirst) {
      yearFirst = true;
      continue;
    }
    if (n.a > 12 && n.b <= 12) dmy = true;
    else if (n.b > 12 && n.a <= 12) mdy = true;
    else if (n.a !== n.b) undecided = true;
  }
  if (dmy && mdy) return { order: null, ambiguous: false };
  if (dmy) return { order: "dmy", ambiguous: false };
  if (mdy) return { order: "mdy", ambiguous: false };
  if (undecided) return { order: null, ambiguous: true };
  return { order: yearFirst ? "ymd" : null, ambiguous: false };
}

// ─── Names ──────────────────────────────────────────────────────────────────────────────────────

const HONORIFICS = new Set(["mr", "mrs", "ms", "miss", "dr", "prof", "rev", "mx", "sir", "dame"]);
const SUFFIXES = new Set(["jr", "sr", "ii", "iii", "iv", "phd", "md", "esq"]);
const PARTICLES = new Set([
  "de",
  "da",
  "di",
  "van",
  "von",
  "der",
  "den",
  "del",
  "della",
  "la",
  "le",
  "du",
  "dos",
  "das",
  "bin",
  "al",
  "ter",
  "st",
]);
const bare = (w: string) => w.toLowerCase().replace(/\./g, "");

/**
 * A full name in one cell: "Last, First" or "First [Middle] [particles] Last [Jr.]", without a
 * title ("Dr. Grace Hopper" → Grace / Hopper; "Ludwig van Beethoven" → Ludwig / van Beethoven).
 */
export function splitName(full: string): { firstName: string | null; lastName: string | null } {
  const clean = full.replace(/\s+/g, " ").trim();
  if (!clean) return { firstName: null, lastName: null };
  const comma = clean.split(",").map((p) => p.trim());
  if (comma.length === 2 && comma[1] && !SUFFIXES.has(bare(comma[1]))) {
    const first = stripHonorific(comma[1].split(" ")).join(" ");
    return { firstName: first || null, lastName: comma[0] || null };
  }
  let words = stripHonorific(clean.replace(/,/g, "").split(" "));
  let suffix = "";
  if (words.length > 1 && SUFFIXES.has(bare(words.at(-1) as string))) {
    suffix = ` ${words.at(-1)}`;
    words = words.slice(0, -1);
  }
  if (words.length === 1) return { firstName: null, lastName: `${words[0]}${suffix}` };
  let i = words.length - 1;
  while (i > 1 && PARTICLES.has(bare(words[i - 1] as string))) i--;
  return { firstName: words.slice(0, i).join(" ") || null, lastName: `${words.slice(i).join(" ")}${suffix}` };
}

function stripHonorific(words: string[]): string[] {
  return words.length > 1 && HONORIFICS.has(bare(words[0] as string)) ? words.slice(1) : words;
}

// ─── Vocabularies ───────────────────────────────────────────────────────────────────────────────

function lookup<T>(table: Record<string, T>, label: string) {
  return (text: string): Parsed<T> => {
    const v = table[fold(text)];
    return v === undefined ? no(`"${text.trim()}" is not a known ${label}`) : ok(v);
  };
}

const TRUE = [
  "yes",
  "y",
  "true",
  "t",
  "1",
  "x",
  "checked",
  "on",
  "opt in",
  "opted in",
  "subscribed",
  "ja",
  "oui",
  "si",
];
const FALSE = [
  "no",
  "n",
  "false",
  "f",
  "0",
  "unchecked",
  "off",
  "opt out",
  "opted out",
  "unsubscribed",
  "nein",
  "non",
];

export const parseBoolean = lookup<boolean>(
  Object.fromEntries([...TRUE.map((t) => [t, true] as const), ...FALSE.map((f) => [f, false] as const)]),
  "yes or no",
);

export const parseStatus = lookup<
  | "pending"
  | "processing"
  | "completed"
  | "failed"
  | "cancelled"
  | "abandoned"
  | "refunded"
  | "partially_refunded"
  | "disputed"
>(
  {
    complete: "completed",
    completed: "completed",
    publish: "completed",
    paid: "completed",
    succeeded: "completed",
    success: "completed",
    successful: "completed",
    "closed won": "completed",
    posted: "completed",
    received: "completed",
    settled: "completed",
    pending: "pending",
    preapproval: "pending",
    pledged: "pending",
    "in progress": "processing",
    processing: "processing",
    refunded: "refunded",
    "fully refunded": "refunded",
    "partially refunded": "partially_refunded",
    "partial refund": "partially_refunded",
    "partially paid": "pending",
    failed: "failed",
    failure: "failed",
    error: "failed",
    declined: "failed",
    expired: "failed",
    rejected: "failed",
    "closed lost": "failed",
    cancelled: "cancelled",
    canceled: "cancelled",
    revoked: "cancelled",
    void: "cancelled",
    voided: "cancelled",
    abandoned: "abandoned",
    disputed: "disputed",
    dispute: "disputed",
    chargeback: "disputed",
    "charged back": "disputed",
  } as never,
  "status",
);

export function parseFrequency(text: string): Parsed<"one_time" | "monthly" | "quarterly" | "annually"> {
  const f = fold(text);
  const table: Record<string, "one_time" | "monthly" | "quarterly" | "annually"> = {
    "one time": "one_time",
    onetime: "one_time",
    once: "one_time",
    single: "one_time",
    "one off": "one_time",
    no: "one_time",
    false: "one_time",
    none: "one_time",
    monthly: "monthly",
    month: "monthly",
    "every month": "monthly",
    "1 month": "monthly",
    quarterly: "quarterly",
    quarter: "quarterly",
    "every quarter": "quarterly",
    "3 months": "quarterly",
    "every 3 months": "quarterly",
    annually: "annually",
    annual: "annually",
    yearly: "annually",
    year: "annually",
    "every year": "annually",
    "12 months": "annually",
  };
  const v = table[f];
  if (v) return ok(v);
  if (["yes", "true", "recurring", "1", "y"].includes(f))
    return no(`"${text.trim()}" says the gift recurs but not how often: map a column with the interval`);
  return no(`"${text.trim()}" is not a known frequency`);
}

export function parsePaymentMethod(text: string): Parsed<PaymentMethod> {
  const f = fold(text);
  const has = (...words: string[]) => words.some((w) => f === w || f.includes(w));
  if (has("paypal", "venmo")) return ok("paypal");
  if (has("apple pay", "google pay", "wallet", "link")) return ok("wallet");
  if (has("ach", "sepa", "bacs", "direct debit", "us bank account")) return ok("ach_sepa");
  if (has("bank transfer", "wire", "eft", "bank", "transfer", "giro")) return ok("bank_transfer");
  if (has("cheque", "check")) return ok("check");
  if (has("cash")) return ok("cash");
  if (has("card", "credit", "debit", "visa", "mastercard", "amex", "american express", "discover", "stripe"))
    return ok("card");
  return ok("other");
}

let countries: Map<string, string> | null = null;

/** Region codes Intl names that are not one country (or not its current code): never stored. */
const NOT_COUNTRIES = new Set([
  "UK",
  "EU",
  "EZ",
  "UN",
  "QO",
  "XA",
  "XB",
  "ZZ",
  "FX",
  "DD",
  "YU",
  "ZR",
  "BU",
  "TP",
  "CS",
  "SU",
  "AN",
  "NT",
]);

/** Country names (English, and the common other spellings) and codes → ISO 3166 alpha-2. */
function countryTable() {
  if (countries) return countries;
  const m = new Map<string, string>();
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(["en"], { type: "region" });
  } catch {
    names = null;
  }
  const A = "A".charCodeAt(0);
  for (let i = 0; i < 26; i++)
    for (let j = 0; j < 26; j++) {
      const code = String.fromCharCode(A + i, A + j);
      if (NOT_COUNTRIES.has(code)) continue;
      const name = names?.of(code);
      if (!name || name === code) continue;
      m.set(fold(code), code);
      // A deprecated code that names the same country ("UK" for GB) never replaces the current one.
      if (!m.has(fold(name))) m.set(fold(name), code);
    }
  const extra: Record<string, string> = {
    usa: "US",
    "u s a": "US",
    "u s": "US",
    "united states of america": "US",
    america: "US",
    uk: "GB",
    "great britain": "GB",
    england: "GB",
    scotland: "GB",
    wales: "GB",
    "northern ireland": "GB",
    deutschland: "DE",
    espana: "ES",
    "the netherlands": "NL",
    holland: "NL",
    schweiz: "CH",
    suisse: "CH",
    osterreich: "AT",
    italia: "IT",
    nippon: "JP",
    "south korea": "KR",
    korea: "KR",
    russia: "RU",
    "czech republic": "CZ",
  };
  for (const [k, v] of Object.entries(extra)) m.set(k, v);
  countries = m;
  return m;
}

export function parseCountry(text: string): Parsed<string> {
  const code = countryTable().get(fold(text));
  return code ? ok(code) : no(`"${text.trim()}" is not a country this import knows`);
}

export function parseTributeType(text: string): Parsed<"in_honor" | "in_memory"> {
  const f = fold(text);
  if (/memor|memory|remembrance/.test(f)) return ok("in_memory");
  if (/hono(u)?r|tribute/.test(f)) return ok("in_honor");
  return no(`"${text.trim()}" is not a known tribute type`);
}

export function parseMode(text: string): Parsed<"live" | "test"> {
  const f = fold(text);
  if (["live", "true", "production", "prod", "1", "yes"].includes(f)) return ok("live");
  if (["test", "false", "sandbox", "0", "no", "testing"].includes(f)) return ok("test");
  return no(`"${text.trim()}" is neither live nor test`);
}

export function parseDonorType(text: string): Parsed<"individual" | "organization"> {
  const f = fold(text);
  if (["individual", "person", "household", "personal", "family", "contact"].includes(f))
    return ok("individual");
  if (
    [
      "organization",
      "organisation",
      "company",
      "business",
      "foundation",
      "corporate",
      "corporation",
      "org",
      "church",
      "trust",
    ].includes(f)
  )
    return ok("organization");
  return no(`"${text.trim()}" is not a known donor type`);
}
