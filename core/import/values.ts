/**
 * One import cell turned into a stored value (decision 028), or the one sentence the row's refusal says.
 * Pure: the Worker runs it on every row, the page on the file's columns.
 */
import type { donationFrequencies, donationModes, tributeTypes } from "../donation.ts";
import type { PaymentMethod } from "../labels.ts";
import { readAmount } from "../money.ts";
import type { DonationStatus } from "../status.ts";
import { offsetAt, startOfLocalDay } from "../time.ts";
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

/** `readAmount`, the money fields' rule (decision 053), with the import's refusals. */
export function parseAmount(
  text: string,
  o: { decimal: DecimalMark; currency: string },
): Parsed<{ minor: number; currency: string | null }> {
  const shown = text.trim();
  const r = readAmount(text, o);
  if (r.ok) return ok({ minor: r.minor, currency: r.currency });
  const p = r.problem;
  switch (p.kind) {
    case "empty":
      return no("No amount");
    case "negative":
      return no(`Negative amounts are not donations ("${shown}"); import refunds with the refunded amount`);
    case "unsupported-currency":
      return no(`Currency ${p.currency} is not supported`);
    case "two-currencies":
      return no(`"${shown}" names two currencies`);
    case "ambiguous":
      return no(`Ambiguous amount "${shown}": choose whether "${p.sep}" separates thousands or decimals`);
    case "decimals":
      return no(`"${shown}" has more decimals than ${p.currency} has (${p.exp})`);
    case "too-large":
      return no(`"${shown}" is too large`);
    default:
      return no(`"${shown}" is not an amount`);
  }
}

/** The decimal mark a column's values agree on; null when none tells ("1,234", "25") or they disagree. */
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
    const says = (mark: "." | ",") => {
      if (mark === ".") dot = true;
      else comma = true;
    };
    const other = sep === "." ? "," : ".";
    if (parts.length > 2) says(other);
    else if ((parts[1] as string).length !== 3 || !/^[1-9]\d{0,2}$/.test(parts[0] as string)) says(sep);
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

const WEEKDAY = /^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\.?,?\s+/i;

interface Wall {
  y: number;
  m: number;
  d: number;
  /** Null for a date alone (stored at local noon). */
  time: { h: number; min: number; s: number; ms: number } | null;
  /** Minutes east of UTC the text states, or null: the import's zone. */
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

function splitOffset(s: string): { rest: string; offset: number | null } {
  const z = /\s*(?:Z|UTC|GMT)$/i.exec(s);
  if (z) return { rest: s.slice(0, z.index), offset: 0 };
  const o = /(?<=\d)\s*(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})?$/i.exec(s);
  // Only after a time ("…T10:00-05:00"), never the year of "05-03-2024".
  if (o && /[T\s:]/.test(s.slice(0, o.index))) {
    const sign = o[1] === "-" ? -1 : 1;
    return { rest: s.slice(0, o.index), offset: sign * (Number(o[2]) * 60 + Number(o[3] ?? 0)) };
  }
  return { rest: s, offset: null };
}

const year2 = (y: number) => (y < 100 ? (y < 70 ? 2000 + y : 1900 + y) : y);

function dateAndTime(text: string): { date: string; time: string | null; offset: number | null } {
  const { rest, offset } = splitOffset(
    text
      .trim()
      .replace(/\s+/g, " ")
      .replace(WEEKDAY, "")
      .replace(/\s+at\s+/i, " "),
  );
  const s = rest.trim();
  const t = /(?:T|\s+|,\s*)(\d{1,2}:\d{2}.*)$/i.exec(s);
  return {
    date: (t ? s.slice(0, t.index) : s).trim().replace(/,$/, ""),
    time: t ? (t[1] as string) : null,
    offset,
  };
}

function numericParts(date: string): { a: number; b: number; c: number; yearFirst: boolean } | null {
  const m = /^(\d{1,4})([/.-])(\d{1,2})\2(\d{1,4})\.?$/.exec(date);
  if (!m) return null;
  const [first, , , last] = [m[1], m[2], m[3], m[4]] as [string, string, string, string];
  const a = Number(first);
  const b = Number(m[3]);
  const c = Number(last);
  if (first.length === 4) return { a, b, c, yearFirst: true };
  if (last.length === 3 || first.length === 3) return null;
  return { a, b, c, yearFirst: false };
}

function wallOf(text: string, order: DateOrder): Wall | string {
  const shown = text.trim();
  if (/^\d{10}$/.test(shown) || /^\d{13}$/.test(shown)) {
    const ms = shown.length === 10 ? Number(shown) * 1000 : Number(shown);
    const d = new Date(ms);
    return {
      y: d.getUTCFullYear(),
      m: d.getUTCMonth() + 1,
      d: d.getUTCDate(),
      time: { h: d.getUTCHours(), min: d.getUTCMinutes(), s: d.getUTCSeconds(), ms: d.getUTCMilliseconds() },
      offset: 0,
    };
  }
  const parts = dateAndTime(shown);
  const time = parts.time === null ? null : parseTime(parts.time);
  if (time === "bad") return `"${shown}" has a time that is not one`;
  const { offset } = parts;
  const n = numericParts(parts.date);
  if (n) {
    if (n.yearFirst) return { y: n.a, m: n.b, d: n.c, time, offset };
    if (order === "ymd") return { y: year2(n.a), m: n.b, d: n.c, time, offset };
    const y = year2(n.c);
    let dm: [number, number];
    if (order === "mdy") dm = [n.b, n.a];
    else if (order === "dmy") dm = [n.a, n.b];
    else if (n.a > 12 && n.b <= 12) dm = [n.a, n.b];
    else if (n.b > 12 && n.a <= 12) dm = [n.b, n.a];
    else if (n.a > 12 && n.b > 12) return `"${shown}" is not a date`;
    else if (n.a === n.b) dm = [n.a, n.b];
    else return `Ambiguous date "${shown}": choose whether the day or the month comes first`;
    return { y, m: dm[1], d: dm[0], time, offset };
  }
  const words = parts.date
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
  const m = named && MONTHS[named.mon.toLowerCase()];
  if (!named || !m) return `"${shown}" is not a date`;
  return { y: year2(named.y), m, d: named.d, time, offset };
}

const DAY_MS = 86_400_000;
const NOON_MS = 12 * 3_600_000;

/** A wall time in `timeZone`, read as Temporal's "compatible" does across DST. */
function zonedInstant(wall: number, timeZone: string): number {
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const fits = [wall - before, wall - after].filter((t) => t + offsetAt(t, timeZone) === wall);
  return fits.length ? Math.min(...fits) : wall - before;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * A gift's instant. A time without a zone is wall time in `timeZone`; a date alone is local noon, as the
 * record-a-gift dialog stores it, so the gift stays on that day in every nearby zone.
 */
export function parseDate(text: string, o: { order: DateOrder; timeZone: string }): Parsed<number> {
  if (isBlank(text)) return no("No date");
  const w = wallOf(text, o.order);
  if (typeof w === "string") return no(w);
  const shown = text.trim();
  if (w.y < 1000 || w.y > 9999) return no(`"${shown}" is not a date`);
  const probe = new Date(Date.UTC(w.y, w.m - 1, w.d));
  if (w.m < 1 || w.m > 12 || probe.getUTCMonth() !== w.m - 1 || probe.getUTCDate() !== w.d)
    return no(`"${shown}" is not a day of the calendar`);
  if (!w.time) {
    const day = `${pad(w.y, 4)}-${pad(w.m)}-${pad(w.d)}`;
    const midnight =
      w.offset === null ? startOfLocalDay(day, o.timeZone) : probe.getTime() - w.offset * 60_000;
    return ok(midnight + NOON_MS);
  }
  const t = w.time;
  const wall = Date.UTC(w.y, w.m - 1, w.d, t.h, t.min, t.s, t.ms);
  return ok(w.offset === null ? zonedInstant(wall, o.timeZone) : wall - w.offset * 60_000);
}

/** The day order a date column agrees on; `ambiguous` when no value tells and the page must ask. */
export function detectDateOrder(samples: readonly string[]): {
  order: "ymd" | "mdy" | "dmy" | null;
  ambiguous: boolean;
} {
  let dmy = false;
  let mdy = false;
  let undecided = false;
  let yearFirst = false;
  for (const raw of samples) {
    if (isBlank(raw)) continue;
    const n = numericParts(dateAndTime(raw).date);
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
/** Part of the name: kept with the last name ("King Jr."). */
const GENERATIONAL = new Set(["jr", "sr", "ii", "iii", "iv"]);
/** Not part of the name: dropped after a comma ("Jane Smith, PhD"). */
const CREDENTIALS = new Set(["phd", "md", "esq", "dds", "dvm", "cpa", "mba", "rn", "jd"]);
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
const isSuffix = (w: string) => GENERATIONAL.has(bare(w)) || CREDENTIALS.has(bare(w));

function stripHonorifics(words: string[]): string[] {
  let i = 0;
  while (i < words.length - 1) {
    const w = bare(words[i] as string);
    if (HONORIFICS.has(w)) i++;
    else if ((w === "and" || w === "&") && i > 0 && HONORIFICS.has(bare(words[i + 1] as string))) i++;
    else break;
  }
  return words.slice(i);
}

/** "Last, First" or "First [Middle] [particles] Last [Jr.]", without titles or credentials. */
export function splitName(full: string): { firstName: string | null; lastName: string | null } {
  const parts = full
    .replace(/\s+/g, " ")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) return { firstName: null, lastName: null };
  const kept: string[] = [];
  while (parts.length > 1 && (parts.at(-1) as string).split(" ").every(isSuffix)) {
    const words = (parts.pop() as string).split(" ");
    kept.unshift(...words.filter((w) => GENERATIONAL.has(bare(w))));
  }
  let first: string[];
  let last: string[];
  if (parts.length === 2) {
    last = (parts[0] as string).split(" ");
    first = stripHonorifics((parts[1] as string).split(" "));
    while (first.length > 1 && GENERATIONAL.has(bare(first.at(-1) as string)))
      kept.unshift(first.pop() as string);
  } else {
    let words = stripHonorifics(parts.join(" ").split(" "));
    while (words.length > 1 && GENERATIONAL.has(bare(words.at(-1) as string))) {
      kept.unshift(words.at(-1) as string);
      words = words.slice(0, -1);
    }
    let i = words.length - 1;
    while (i > 1 && PARTICLES.has(bare(words[i - 1] as string))) i--;
    first = words.slice(0, i);
    last = words.slice(i);
  }
  return { firstName: first.join(" ") || null, lastName: [...last, ...kept].join(" ") || null };
}

// ─── Vocabularies ───────────────────────────────────────────────────────────────────────────────

function lookup<T>(table: Readonly<Record<string, T>>, label: string) {
  const map = new Map(Object.entries(table));
  return (text: string): Parsed<T> => {
    const v = map.get(fold(text));
    return v === undefined ? no(`"${text.trim()}" is not a known ${label}`) : ok(v);
  };
}

const TRUE = ["yes", "y", "true", "t", "1", "x", "checked", "on", "opt in", "opted in", "subscribed"];
const FALSE = ["no", "n", "false", "f", "0", "unchecked", "off", "opt out", "opted out", "unsubscribed"];

export const parseBoolean = lookup<boolean>(
  Object.fromEntries([...TRUE.map((t) => [t, true] as const), ...FALSE.map((f) => [f, false] as const)]),
  "yes or no",
);

/** Other systems' statuses; a gift that never became money (expired, a lost opportunity) is failed. */
export const parseStatus = lookup<DonationStatus>(
  {
    complete: "completed",
    completed: "completed",
    publish: "completed",
    renewal: "completed",
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
    uncaptured: "pending",
    "partially paid": "pending",
    "in progress": "processing",
    processing: "processing",
    refunded: "refunded",
    "fully refunded": "refunded",
    "partially refunded": "partially_refunded",
    "partial refund": "partially_refunded",
    failed: "failed",
    failure: "failed",
    error: "failed",
    declined: "failed",
    blocked: "failed",
    expired: "failed",
    rejected: "failed",
    "closed lost": "failed",
    cancelled: "cancelled",
    canceled: "cancelled",
    revoked: "cancelled",
    void: "cancelled",
    voided: "cancelled",
    abandoned: "abandoned",
    incomplete: "abandoned",
    disputed: "disputed",
    dispute: "disputed",
    chargeback: "disputed",
    "charged back": "disputed",
  },
  "status",
);

type Frequency = (typeof donationFrequencies)[number];

const FREQUENCIES: Readonly<Record<string, Frequency>> = {
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
  "every 12 months": "annually",
};

/** How often a gift recurs. "Yes" in a "Recurring?" column does not say how often: never guessed. */
export function parseFrequency(text: string): Parsed<Frequency> {
  const f = fold(text);
  const v = Object.hasOwn(FREQUENCIES, f) ? FREQUENCIES[f] : undefined;
  if (v) return ok(v);
  const shown = text.trim();
  if (["yes", "y", "true", "1", "recurring", "recurrent"].includes(f))
    return no(
      `"${shown}" says the donation recurs but not how often: import the column as Recurring (yes/no)`,
    );
  return no(`"${shown}" is not a known frequency (one-time, monthly, quarterly or annually)`);
}

/** By whole words ("giftcard" is no card); never a refusal, unknown methods are "other". */
export function parsePaymentMethod(text: string): Parsed<PaymentMethod> {
  const f = ` ${fold(text)} `;
  const has = (...phrases: string[]) => phrases.some((p) => f.includes(` ${p} `));
  if (has("gift card", "giftcard", "prepaid", "voucher", "balance", "collective", "crypto", "stock"))
    return ok("other");
  if (has("paypal", "pay pal", "venmo")) return ok("paypal");
  if (has("apple pay", "applepay", "google pay", "googlepay", "gpay", "samsung pay", "wallet", "link"))
    return ok("wallet");
  if (has("ach", "sepa", "bacs", "becs", "us bank account")) return ok("ach_sepa");
  if (has("bank transfer", "wire", "eft", "direct debit", "bank", "transfer", "giro"))
    return ok("bank_transfer");
  if (has("check", "cheque", "chq")) return ok("check");
  if (has("cash")) return ok("cash");
  if (
    has(
      "card",
      "creditcard",
      "credit",
      "debit",
      "visa",
      "mastercard",
      "master card",
      "amex",
      "american express",
      "discover",
      "diners",
      "jcb",
      "maestro",
      "stripe",
    )
  )
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

const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  usa: "US",
  "u s a": "US",
  "u s": "US",
  "united states of america": "US",
  america: "US",
  uk: "GB",
  "u k": "GB",
  "great britain": "GB",
  britain: "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  "northern ireland": "GB",
  deutschland: "DE",
  espana: "ES",
  "the netherlands": "NL",
  holland: "NL",
  nederland: "NL",
  schweiz: "CH",
  suisse: "CH",
  svizzera: "CH",
  osterreich: "AT",
  italia: "IT",
  sverige: "SE",
  norge: "NO",
  danmark: "DK",
  brasil: "BR",
  mexico: "MX",
  nippon: "JP",
  "south korea": "KR",
  korea: "KR",
  russia: "RU",
  "czech republic": "CZ",
  "ivory coast": "CI",
  turkey: "TR",
  burma: "MM",
  swaziland: "SZ",
  macedonia: "MK",
};

/** Names and codes → ISO 3166 alpha-2, built once. */
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
      let name: string | undefined;
      try {
        name = names?.of(code);
      } catch {
        name = undefined;
      }
      if (!name || name === code) continue;
      m.set(fold(code), code);
      if (!m.has(fold(name))) m.set(fold(name), code);
    }
  for (const [k, v] of Object.entries(COUNTRY_ALIASES)) m.set(k, v);
  countries = m;
  return m;
}

export function parseCountry(text: string): Parsed<string> {
  const code = countryTable().get(fold(text));
  return code ? ok(code) : no(`"${text.trim()}" is not a country this import knows`);
}

export function parseTributeType(text: string): Parsed<(typeof tributeTypes)[number]> {
  const f = fold(text);
  if (/memor|remembrance/.test(f)) return ok("in_memory");
  if (/hono(u)?r|tribute|celebration/.test(f)) return ok("in_honor");
  return no(`"${text.trim()}" is not a known tribute type`);
}

export function parseMode(text: string): Parsed<(typeof donationModes)[number]> {
  const f = fold(text);
  if (["live", "livemode", "true", "production", "prod", "1", "yes"].includes(f)) return ok("live");
  if (["test", "testmode", "test mode", "false", "sandbox", "0", "no", "testing"].includes(f))
    return ok("test");
  return no(`"${text.trim()}" is neither live nor test`);
}

const INDIVIDUAL = [
  "individual",
  "person",
  "household",
  "household account",
  "personal",
  "family",
  "contact",
];
const ORGANIZATION = [
  "organization",
  "organisation",
  "organization account",
  "company",
  "business",
  "foundation",
  "corporate",
  "corporation",
  "org",
  "church",
  "trust",
  "collective",
  "nonprofit",
  "non profit",
];

export function parseDonorType(text: string): Parsed<"individual" | "organization"> {
  const f = fold(text);
  if (INDIVIDUAL.includes(f)) return ok("individual");
  if (ORGANIZATION.includes(f)) return ok("organization");
  return no(`"${text.trim()}" is not a known donor type`);
}
