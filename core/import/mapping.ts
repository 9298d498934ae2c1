/**
 * Automatic column mapping: header names → import fields, from other systems' exports (one of each in
 * test/fixtures/imports/) and English synonyms. The mapping screen starts from it.
 */
import { CURRENCIES } from "../currencies.ts";
import { type ImportField, type ImportKind, importFieldsOf } from "./fields.ts";
import {
  parseRefundedFlag,
  parseTransactionKind,
  REFUNDED_FLAG_HEADERS,
  samplesFit,
  TRANSACTION_KIND_HEADERS,
} from "./refunds.ts";
import { type Parsed, parseBoolean, parseDate } from "./values.ts";

/** A header as it is compared: lower case, accents folded, punctuation and spacing collapsed. */
export function normalizeHeader(h: string): string {
  return h
    .replace(/^\uFEFF/, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/__c$/, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Also with camelCase split ("oppositeAccountSlug") and without a Salesforce package prefix. */
function keysOf(header: string): string[] {
  const plain = normalizeHeader(header);
  const split = normalizeHeader(header.replace(/([a-z0-9])([A-Z])/g, "$1 $2"));
  const unprefixed = split.replace(/^(?:npsp|npe\d+)\s+/, "");
  return [...new Set([plain, split, unprefixed])].filter(Boolean);
}

/** Header names per field. Order matters: the first synonym a file has wins ("Campaign" over "Fund"). */
export const FIELD_SYNONYMS: Readonly<Record<ImportField, readonly string[]>> = {
  donorExternalId: [
    "donor id",
    "donor number",
    "constituent id",
    "account number",
    "contact id",
    "contact: contact id",
    "customer id",
    "supporter id",
    "member id",
    "external id",
    "donor external id",
    "from account id",
    "from account slug",
    "opposite account slug",
    "opposite account handle",
    "cid",
  ],
  name: [
    "name",
    "full name",
    "donor name",
    "donor",
    "display name",
    "constituent name",
    "contact name",
    "contact: full name",
    "card name",
    "customer name",
    "sort name",
    "from account name",
    "opposite account name",
    "account name",
    "supporter name",
    "contributor name",
    "giver name",
  ],
  firstName: [
    "first name",
    "firstname",
    "donor first name",
    "donor's first name",
    "given name",
    "forename",
    "contact: first name",
    "contact first name",
    "contact1 firstname",
    "first",
    "billing first name",
  ],
  lastName: [
    "last name",
    "lastname",
    "donor last name",
    "donor's last name",
    "surname",
    "family name",
    "contact: last name",
    "contact last name",
    "contact1 lastname",
    "last",
    "billing last name",
  ],
  company: [
    "company",
    "organization",
    "organisation",
    "company name",
    "organization name",
    "donating company",
    "account1 name",
    "business name",
    "employer",
  ],
  donorType: ["donor type", "constituent type", "contact type", "type of donor"],
  email: [
    "email",
    "e mail",
    "email address",
    "donor email",
    "customer email",
    "contact: email",
    "primary email",
    "email primary",
    "contact1 personal email",
    "contact1 preferred email",
    "from account email",
    "opposite account email",
    "billing email",
    "supporter email",
  ],
  phone: [
    "phone",
    "phone number",
    "donor phone",
    "telephone",
    "mobile",
    "mobile phone",
    "mobile number",
    "home phone",
    "contact: phone",
    "contact1 home phone",
    "primary phone",
    "phone primary",
  ],
  addressLine1: [
    "address",
    "address 1",
    "address line 1",
    "address1",
    "street",
    "street address",
    "billing address",
    "billing address line 1",
    "mailing street",
    "home street",
    "donor address",
    "address line1",
    "card address line1",
    "primary street",
  ],
  addressLine2: [
    "address 2",
    "address line 2",
    "address2",
    "billing address line 2",
    "card address line2",
    "supplemental address 1",
  ],
  city: ["city", "town", "billing city", "mailing city", "home city", "donor city", "card address city"],
  region: [
    "state",
    "state province",
    "state / province",
    "province",
    "region",
    "county",
    "billing state",
    "mailing state province",
    "mailing state",
    "home state province",
    "card address state",
  ],
  postalCode: [
    "zip",
    "zip code",
    "postal code",
    "postcode",
    "post code",
    "zip postal code",
    "billing zip",
    "billing postal code",
    "mailing zip postal code",
    "mailing postal code",
    "home zip postal code",
    "card address zip",
  ],
  country: [
    "country",
    "country code",
    "billing country",
    "mailing country",
    "home country",
    "card address country",
  ],
  emailOptIn: [
    "email opt in",
    "email optin",
    "join mailing list",
    "newsletter",
    "subscribed",
    "opt in",
    "marketing opt in",
    "email subscription",
    "accepts email",
  ],
  phoneOptIn: ["phone opt in", "sms opt in", "text opt in", "accepts sms"],
  mailOptIn: ["mail opt in", "postal opt in", "direct mail opt in", "accepts mail"],
  // Not "created" alone: a processor's export names its payments' date so (donatedAt).
  donorSince: [
    "donor since",
    "date added",
    "added on",
    "date joined",
    "joined",
    "member since",
    "constituent since",
    "supporter since",
  ],
  giftExternalId: [
    "donation id",
    "gift id",
    "transaction number",
    "contribution id",
    "opportunity id",
    "payment id",
    "receipt id",
    "donation number",
    "order id",
    "legacy id",
  ],
  amount: [
    "amount",
    "donation amount",
    "gift amount",
    "donation total",
    "total amount",
    "total",
    "amount paid",
    "received amount",
    "contribution amount",
    "opportunity amount",
    "transaction amount",
    "gross amount",
    "gross",
  ],
  currency: ["currency", "currency code", "donation currency", "amount currency", "iso currency"],
  donatedAt: [
    "date",
    "donation date",
    "gift date",
    "created utc",
    "created date utc",
    "created",
    "created at",
    "datetime",
    "date time",
    "donated at",
    "close date",
    "closedate",
    "contribution date",
    "receive date",
    "received date",
    "date received",
    "received on",
    "payment date",
    "transaction date",
    "paid at",
  ],
  donatedTime: ["donation time", "time", "gift time", "payment time", "transaction time"],
  status: [
    "status",
    "donation status",
    "payment status",
    "stage",
    "stage name",
    "stagename",
    "donation stage",
    "contribution status",
    "gift status",
    "transaction status",
  ],
  refundedAmount: ["amount refunded", "refunded amount", "refunded", "refund amount"],
  // By the cells, not the header alone (autoMap): "Refunded" holds an amount as often as a yes.
  refunded: ["is refunded", "is refund", "refund date", "refunded at", "refunded on", "date refunded"],
  transactionType: ["transaction type", "transaction kind"],
  refundOf: [
    "refund of",
    "refund transaction",
    "refund transaction id",
    "refunded transaction",
    "refunded transaction id",
    "refunded donation id",
    "original transaction id",
    "original donation id",
  ],
  processingFee: [
    "fee",
    "fees",
    "processing fee",
    "payment processor fee",
    "stripe fee",
    "transaction fee",
    "fee amount",
    "gateway fee",
    "payment processor fees in host currency",
  ],
  frequency: [
    "frequency",
    "recurring",
    "recurring donation",
    "interval",
    "recurring interval",
    "subscription interval",
    "installment period",
    "frequency unit",
    "contribution frequency",
    "order frequency",
  ],
  recurring: ["is recurring", "recurring gift", "recurring yes no"],
  paymentMethod: [
    "payment method",
    "payment type",
    "payment instrument",
    "method",
    "gateway method",
    "payment method type",
    "payment source type",
    "card brand",
    "card type",
  ],
  campaign: [
    "campaign",
    "campaign name",
    "campaign title",
    "form",
    "form title",
    "donation form",
    "donation form title",
    "primary campaign source",
    "donation campaign name",
    "fund",
    "fund name",
    "appeal",
    "designation",
    "campaign: campaign name",
    "collective",
    "to account name",
  ],
  gateway: [
    "gateway",
    "payment gateway",
    "processor",
    "payment processor",
    "donation gateway",
    "payment method service",
  ],
  transactionId: [
    "transaction id",
    "charge id",
    "stripe charge id",
    "paypal transaction id",
    "pay pal transaction id",
    "gateway transaction id",
    "payment intent",
    "payment intent id",
    "merchant id",
    "trxn id",
  ],
  // Never "test mode" or "is test": their "Yes" means test, the opposite of what parseMode reads.
  mode: ["mode", "livemode", "live mode", "payment mode", "donation mode"],
  anonymous: ["anonymous", "make donation anonymous", "anonymous donation", "is anonymous", "hide name"],
  message: [
    "comment",
    "comments",
    "message",
    "donor comment",
    "donation comment",
    "note to charity",
    "order memo",
    "contribution memo",
  ],
  tributeType: ["tribute type", "honoree type", "dedication type", "in honor or memory"],
  tributeName: [
    "tribute name",
    "honoree name",
    "honoree",
    "in honor of",
    "in memory of",
    "dedication",
    "tribute",
  ],
  internalNote: [
    "internal note",
    "internal notes",
    "notes",
    "note",
    "memo",
    "staff note",
    "donation note private",
    "description",
  ],
};

export type ImportSource =
  | "givewp"
  | "donorbox"
  | "bloomerang"
  | "stripe"
  | "npsp"
  | "opencollective"
  | "civicrm";

type Overrides = Readonly<Record<string, ImportField | null>>;

/** Where a system's header means something else than the English word (Stripe's "id"); null: never mapped. */
const SOURCE_OVERRIDES: Readonly<
  Record<ImportSource, { all?: Overrides } & Partial<Record<ImportKind, Overrides>>>
> = {
  givewp: {
    all: {
      "donation number": null,
      "currency symbol": null,
      "form id": null,
      "level id": null,
      "level title": null,
      "form level title": null,
      "user id": null,
      "donor ip address": null,
      "title prefix": null,
      "donation note to donor": null,
    },
  },
  donorbox: {
    all: {
      // The processor ("stripe", "paypal", "ach"); the card's brand is the method.
      "donation type": "gateway",
      "donating company": "company",
      "amount in usd": null,
      "amount description": null,
      "net amount": null,
      "total fee": null,
      "platform fee": null,
      "fee covered": null,
      "fair market value": null,
      "fair market value description": null,
      "tax deductible amount": null,
      "recipient name": null,
      "recipient email": null,
      "recipient address": null,
      "recipient message": null,
      "first donation": null,
      fundraiser: null,
      occupation: null,
      "recurring plan id": null,
      "recurring start date": null,
      "last 4 digits": null,
      "pay pal capture id": null,
      "paypal capture id": null,
    },
  },
  bloomerang: {
    // A constituents file's "Type" is the constituent's; a transactions file's is the gift's kind.
    donors: { type: "donorType" },
    donations: { type: null, "account status": null },
  },
  stripe: {
    all: {
      id: "transactionId",
      // The payer; the card's holder ("Card Name", earlier in the synonyms) is blank for wallets and
      // may be someone else, so it would leave the customer's name unmapped.
      "customer name": "name",
      description: null,
      "seller message": null,
      "customer description": null,
      "converted amount": null,
      "converted amount refunded": null,
      "converted currency": null,
      captured: null,
      "statement descriptor": null,
      "card id": null,
      "card fingerprint": null,
      "disputed amount": null,
      "dispute status": null,
      "invoice id": null,
    },
  },
  npsp: {
    all: {
      // Data Loader's "NAME" of an opportunity is the opportunity's, not the donor's.
      name: null,
      "opportunity name": null,
      "donation donor": null,
      "donation record type name": null,
      description: "internalNote",
    },
  },
  opencollective: {
    all: {
      // The transaction is the gift: re-importing the file skips what it already brought.
      id: "giftExternalId",
      "transaction id": "giftExternalId",
      "legacy id": null,
      "short id": null,
      "short group": null,
      "merchant id": "transactionId",
      "account name": "campaign",
      "account slug": null,
      "account handle": null,
      "account type": null,
      "account email": null,
      "opposite account type": "donorType",
      "net amount": null,
      "amount single column": null,
      "display amount": null,
      "original currency amount": null,
      description: null,
      // By their cells in autoMap: the kind says which rows are gifts, the type only the sign.
      kind: null,
      type: null,
      "credit debit": null,
      "contribution id": null,
      "order id": null,
      "host slug": null,
      "host name": null,
    },
  },
  civicrm: {
    all: {
      "contribution source": null,
      source: null,
      "financial type": null,
      "check number": null,
      "invoice reference": null,
      "invoice number": null,
      "is pay later": null,
      "test mode": null,
      "non deductible amount": null,
      "net amount": null,
      "amount label": null,
    },
  },
};

const ID_BY_KIND: Readonly<Record<ImportKind, ImportField>> = {
  donors: "donorExternalId",
  donations: "giftExternalId",
};

/** Leading words that make a header about something else: "Last Transaction Date", "Do Not Email". */
const OTHER_THINGS =
  /^(?:do not|no|not|is|has|test|last|first|largest|average|lifetime|total|ytd|number of|count|modified|updated|deleted|created by|thank you|thankyou|receipt|cancel\w*|refund\w*|dispute\w*|converted|net|original|display|platform|host|tax|non deductible|fair market|goal|target|recurring start|recurring plan|level|card exp\w*|card issue|birth|account|email on hold|ip|donor ip|web|recipient|honoree|fundraiser|solicitor|owner|spouse|secondary|alternate|other|previous|old)\b/;

/** What may follow a synonym in a header that still names it: "Email (Primary)", "Amount (USD)". */
const QUALIFIERS = new Set([
  "primary",
  "home",
  "work",
  "main",
  "personal",
  "preferred",
  "1",
  "utc",
  "gmt",
  "local",
  ...CURRENCIES.map((c) => c.toLowerCase()),
]);

/** Synonyms that end a longer header only after these words ("Donor Name" yes, "Fund Name" no). */
const NEVER = /(?!)/;
const GUARDED: Readonly<Record<string, RegExp>> = {
  name: /^(?:donor|contact|supporter|customer|constituent|member|giver|contributor|payer|billing|card|full|display|primary|legal|person|account holder)$/,
  status: /^(?:donation|payment|gift|transaction|contribution|charge|order|pledge)$/,
  method: /^(?:payment|pay|pymt|gift|donation|paid by|tender)$/,
  frequency: /^(?:donation|gift|payment|giving|recurring|contribution|order|billing)$/,
  donor: NEVER,
  description: NEVER,
};

interface Match {
  field: ImportField;
  /** 1 when the header only contains a synonym. */
  partial: 0 | 1;
  rank: number;
}

const LOOKUP = /* @__PURE__ */ (() => {
  const m = new Map<string, { field: ImportField; rank: number }>();
  for (const [field, names] of Object.entries(FIELD_SYNONYMS) as [ImportField, readonly string[]][])
    names.forEach((name, rank) => {
      const key = normalizeHeader(name);
      if (!m.has(key)) m.set(key, { field, rank });
    });
  return m;
})();

/** A synonym inside a longer header: the header ends with it, or starts with it and a qualifier. */
function partialOf(key: string, allowed: ReadonlySet<ImportField>): Match | null {
  let best: { field: ImportField; len: number; rank: number } | null = null;
  for (const [name, hit] of LOOKUP) {
    if (!allowed.has(hit.field) || name.length < 4 || (best && name.length <= best.len)) continue;
    let fits = false;
    if (key.endsWith(` ${name}`)) {
      const head = key.slice(0, -name.length - 1);
      fits = !OTHER_THINGS.test(head) && (GUARDED[name]?.test(head) ?? true);
    } else if (key.startsWith(`${name} `))
      fits = key
        .slice(name.length + 1)
        .split(" ")
        .every((w) => QUALIFIERS.has(w));
    if (fits) best = { field: hit.field, len: name.length, rank: hit.rank };
  }
  return best ? { field: best.field, partial: 1, rank: best.rank } : null;
}

function fieldOf(
  header: string,
  kind: ImportKind,
  allowed: ReadonlySet<ImportField>,
  source: ImportSource | null,
): Match | null {
  const keys = keysOf(header);
  const own = source ? SOURCE_OVERRIDES[source] : undefined;
  for (const key of keys)
    for (const table of [own?.[kind], own?.all]) {
      if (!table || !Object.hasOwn(table, key)) continue;
      const f = table[key] ?? null;
      return f && allowed.has(f) ? { field: f, partial: 0, rank: -1 } : null;
    }
  for (const key of keys) {
    const exact = LOOKUP.get(key);
    if (exact && allowed.has(exact.field)) return { field: exact.field, partial: 0, rank: exact.rank };
  }
  if (keys.includes("id")) return { field: ID_BY_KIND[kind], partial: 0, rank: 99 };
  for (const key of keys) {
    const p = partialOf(key, allowed);
    if (p) return p;
  }
  return null;
}

/**
 * One field (or null) per column, each field once: the source's meaning first, then exact synonyms,
 * earlier synonyms, the leftmost column.
 */
export function autoMap(
  kind: ImportKind,
  headers: readonly string[],
  sample: readonly (readonly string[])[] = [],
): (ImportField | null)[] {
  const allowed = new Set(importFieldsOf(kind));
  const source = detectSource(headers)?.id ?? null;
  const candidates = headers
    .map((h, i) => ({ i, m: fieldOf(h, kind, allowed, source) }))
    .filter((c): c is { i: number; m: Match } => c.m !== null)
    .sort((a, b) => a.m.partial - b.m.partial || a.m.rank - b.m.rank || a.i - b.i);
  const out: (ImportField | null)[] = headers.map(() => null);
  const taken = new Set<ImportField>();
  for (const { i, m } of candidates) {
    if (taken.has(m.field) || out[i] !== null) continue;
    out[i] = m.field;
    taken.add(m.field);
  }
  // A full-name column beside first and last names is a label ("Anonymous Friend" in Donorbox)
  // unless the file says which rows are organizations: then it holds their names (Bloomerang).
  if (taken.has("firstName") && taken.has("lastName") && taken.has("name") && !taken.has("donorType"))
    out[out.indexOf("name")] = null;
  // GiveWP's "Recurring Donation" says yes or no, Donorbox's the interval: by the values, a yes/no
  // column is the flag, since every "Yes" read as a frequency would be refused.
  const f = out.indexOf("frequency");
  if (f >= 0 && allowed.has("recurring") && !taken.has("recurring") && saysYesOrNo(sample, f))
    out[f] = "recurring";
  // A yes/no or dated "Refunded" is the flag, not an amount; a ledger's kind says which rows are gifts.
  const cellsOf = (i: number) => sample.map((r) => r[i] ?? "");
  const byCells = (
    field: ImportField,
    names: readonly string[],
    fits: (t: string) => Parsed<unknown>,
    over?: ImportField,
  ) => {
    if (!allowed.has(field) || out.includes(field)) return;
    for (const name of names) {
      const i = headers.findIndex(
        (h, j) =>
          (out[j] === null || out[j] === over) && keysOf(h).includes(name) && samplesFit(cellsOf(j), fits),
      );
      if (i >= 0) {
        out[i] = field;
        return;
      }
    }
  };
  byCells("refunded", REFUNDED_FLAG_HEADERS, parseRefundedFlag, "refundedAmount");
  byCells("transactionType", TRANSACTION_KIND_HEADERS, parseTransactionKind);
  return out;
}

function saysYesOrNo(sample: readonly (readonly string[])[], column: number): boolean {
  const values = sample.map((r) => r[column]?.trim() ?? "").filter(Boolean);
  return values.length > 0 && values.every((v) => parseBoolean(v).ok);
}

/** Header sets that betray each system's export; the first system with a complete set wins. */
const SIGNATURES: readonly { id: ImportSource; label: string; any: readonly (readonly string[])[] }[] = [
  {
    id: "givewp",
    label: "GiveWP",
    any: [
      ["donation form title"],
      ["donation total", "form title"],
      ["donation total", "donation status"],
      ["donation total", "currency symbol"],
    ],
  },
  {
    id: "donorbox",
    label: "Donorbox",
    any: [
      ["make donation anonymous"],
      ["donor's first name", "donated at"],
      ["donated at", "stripe charge id"],
      ["donated at", "receipt id"],
      ["donor first name", "donation date", "campaign"],
      ["join mailing list", "donation date"],
    ],
  },
  {
    id: "bloomerang",
    label: "Bloomerang",
    any: [
      ["constituent id"],
      ["account number", "constituent type"],
      ["account number", "transaction number"],
      ["account number", "email opt in"],
    ],
  },
  {
    id: "stripe",
    label: "Stripe",
    any: [
      ["seller message", "created (utc)"],
      ["amount refunded", "converted amount"],
      ["created (utc)", "customer email"],
      ["created date (utc)", "customer email"],
      ["card address line1"],
    ],
  },
  {
    id: "npsp",
    label: "Salesforce NPSP",
    any: [
      ["stage", "close date"],
      ["opportunity name", "close date"],
      ["stage name", "close date"],
      ["stagename", "closedate"],
    ],
  },
  {
    id: "opencollective",
    label: "Open Collective",
    any: [
      ["opposite account slug"],
      ["opposite account handle"],
      ["from account slug"],
      ["amount single column"],
      ["payment processor fee", "kind"],
    ],
  },
  {
    id: "civicrm",
    label: "CiviCRM",
    any: [
      ["financial type", "contribution status"],
      ["contribution status", "total amount"],
      ["sort name", "total amount"],
    ],
  },
];

/** The system a file's headers come from, when they betray it ("Looks like a Donorbox export"). */
export function detectSource(headers: readonly string[]): { id: ImportSource; label: string } | null {
  const have = new Set(headers.flatMap(keysOf));
  for (const s of SIGNATURES)
    if (s.any.some((set) => set.every((h) => have.has(normalizeHeader(h)))))
      return { id: s.id, label: s.label };
  // Salesforce field API names carry the NPSP packages' namespaces.
  if (headers.some((h) => /^(?:npsp|npe\d+)__/i.test(h.trim())))
    return { id: "npsp", label: "Salesforce NPSP" };
  return null;
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[a-z]{2,}$/i;
const AMOUNT = /^[-+(]?\s?(?:[$€£¥]|[A-Z]{3})?\s?\d[\d.,'\s\u00a0]*\)?\s?(?:[$€£¥]|[A-Z]{3})?$/;

/**
 * Whether a file's first record is data, not a header (a copy re-saved without it): a cell holds an
 * e-mail, a date or an amount and none is a column name this import knows. The page proposes it.
 */
export function firstRowLooksLikeData(cells: readonly string[]): boolean {
  const values = cells.map((c) => c.trim()).filter(Boolean);
  if (values.some((c) => keysOf(c).some((k) => LOOKUP.has(k)))) return false;
  return values.some(
    (c) => EMAIL.test(c) || AMOUNT.test(c) || parseDate(c, { order: "dmy", timeZone: "UTC" }).ok,
  );
}

/** The fields whose cells are times, read in the import's zone unless their column says its own. */
export const timeFields = ["donatedAt", "donatedTime", "donorSince"] as const;
export type TimeField = (typeof timeFields)[number];
export type ColumnZones = Partial<Record<TimeField, string>>;

/**
 * The zone a column's header names: processors export UTC ("Created date (UTC)") whatever the
 * account's zone, so reading it in the organization's moves every gift by hours. "GMT+2" is no UTC.
 */
export function headerTimeZone(header: string): "UTC" | null {
  return /(?:^| )(?:utc|gmt)(?:$| (?!\d))/.test(normalizeHeader(header)) ? "UTC" : null;
}

/** Each mapped time field's zone, from its column's header; the others take the import's. */
export function columnZones(headers: readonly string[], mapping: readonly (string | null)[]): ColumnZones {
  const out: ColumnZones = {};
  mapping.forEach((f, i) => {
    const zone = headerTimeZone(headers[i] ?? "");
    if (zone && (timeFields as readonly (string | null)[]).includes(f)) out[f as TimeField] = zone;
  });
  return out;
}

/** A saved mapping (normalized header → field) applied to a file's headers. */
export function applySavedMapping(
  kind: ImportKind,
  headers: readonly string[],
  saved: Readonly<Record<string, string>>,
): (ImportField | null)[] {
  const allowed = new Set<string>(importFieldsOf(kind));
  const taken = new Set<string>();
  return headers.map((h) => {
    const key = normalizeHeader(h);
    const f = Object.hasOwn(saved, key) ? saved[key] : undefined;
    if (!f || !allowed.has(f) || taken.has(f)) return null;
    taken.add(f);
    return f as ImportField;
  });
}

/** A mapping as it is saved: normalized header → field, for the columns that map to one. */
export function mappingToSave(headers: readonly string[], mapping: readonly (ImportField | null)[]) {
  const out: Record<string, string> = {};
  headers.forEach((h, i) => {
    const f = mapping[i];
    if (f) out[normalizeHeader(h)] = f;
  });
  return out;
}
