/**
 * Automatic column mapping (issue 23): a file's header names → the import's fields, from the
 * column names of the exports a team brings (GiveWP, Donorbox, Bloomerang, Stripe payments,
 * Salesforce NPSP, Open Collective, CiviCRM; test/fixtures/imports/ holds one file of each) and
 * plain English synonyms. The mapping screen starts from it; the user changes what it got wrong.
 */
import { type ImportField, type ImportKind, importFieldsOf } from "./fields.ts";

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

/**
 * Header names per field, as the exports write them (normalized when compared). Order matters
 * only within a field: the first synonym a file has wins.
 */
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
    "external id",
    "donor external id",
    "from account id",
    "fromaccount id",
    "fromaccount slug",
    "from account slug",
    "oppositeaccountslug",
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
    "fromaccount name",
    "oppositeaccountname",
    "account name",
    "supporter name",
  ],
  firstName: [
    "first name",
    "firstname",
    "donor first name",
    "given name",
    "forename",
    "contact: first name",
    "contact first name",
    "first",
    "billing first name",
  ],
  lastName: [
    "last name",
    "lastname",
    "donor last name",
    "surname",
    "family name",
    "contact: last name",
    "contact last name",
    "last",
    "billing last name",
  ],
  company: [
    "company",
    "organization",
    "organisation",
    "company name",
    "organization name",
    "employer",
    "business name",
  ],
  donorType: [
    "donor type",
    "constituent type",
    "contact type",
    "type of donor",
    "account type",
    "record type",
  ],
  email: [
    "email",
    "e mail",
    "email address",
    "donor email",
    "customer email",
    "contact: email",
    "primary email",
    "email primary",
    "from account email",
    "fromaccount email",
    "billing email",
    "supporter email",
    "oppositeaccountemail",
  ],
  phone: [
    "phone",
    "phone number",
    "donor phone",
    "telephone",
    "mobile",
    "mobile phone",
    "home phone",
    "contact: phone",
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
  city: ["city", "town", "billing city", "mailing city", "donor city", "card address city", "primary city"],
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
    "card address state",
    "primary state",
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
    "card address zip",
    "primary postal code",
  ],
  country: [
    "country",
    "country code",
    "billing country",
    "mailing country",
    "donor country",
    "card address country",
    "primary country",
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
    "total",
    "total amount",
    "amount paid",
    "net amount contributed",
    "received amount",
    "contribution amount",
    "opportunity amount",
    "amount usd",
    "gross",
  ],
  currency: ["currency", "currency code", "donation currency", "amount currency", "iso currency"],
  donatedAt: [
    "date",
    "donation date",
    "gift date",
    "created",
    "created utc",
    "created (utc)",
    "created at",
    "createdat",
    "close date",
    "receive date",
    "received date",
    "date received",
    "payment date",
    "transaction date",
    "contribution date",
    "paid at",
    "datetime",
  ],
  donatedTime: ["donation time", "time", "gift time", "payment time", "transaction time"],
  status: [
    "status",
    "donation status",
    "payment status",
    "stage",
    "stage name",
    "contribution status",
    "gift status",
    "transaction status",
  ],
  refundedAmount: ["amount refunded", "refunded amount", "refunded", "refund amount"],
  processingFee: [
    "fee",
    "fees",
    "processing fee",
    "payment processor fee",
    "stripe fee",
    "transaction fee",
    "fee amount",
    "gateway fee",
    "paymentprocessorfee",
    "paymentprocessorfeesinhostcurrency",
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
  ],
  paymentMethod: [
    "payment method",
    "payment type",
    "payment instrument",
    "method",
    "gateway method",
    "payment method type",
    "card brand",
    "paymentmethodtype",
  ],
  campaign: [
    "campaign",
    "campaign name",
    "form",
    "form title",
    "donation form",
    "donation form title",
    "primary campaign source",
    "fund",
    "appeal",
    "designation",
    "campaign: campaign name",
    "collective",
    "to account name",
    "toaccount name",
    "accountname",
  ],
  gateway: [
    "gateway",
    "payment gateway",
    "processor",
    "payment processor",
    "donation gateway",
    "paymentmethodservice",
  ],
  transactionId: [
    "transaction id",
    "charge id",
    "stripe charge id",
    "paypal transaction id",
    "gateway transaction id",
    "payment intent",
    "payment intent id",
    "trxn id",
    "id",
  ],
  mode: ["mode", "livemode", "live mode", "test mode", "payment mode", "donation mode"],
  anonymous: ["anonymous", "make donation anonymous", "anonymous donation", "is anonymous", "hide name"],
  message: [
    "comment",
    "comments",
    "message",
    "donor comment",
    "donation comment",
    "note to charity",
    "ordermemo",
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
  internalNote: ["internal note", "notes", "note", "memo", "internal notes", "staff note"],
};

/** Normalized synonym → its field and its rank within the field's list (earlier is better). */
const LOOKUP = /* @__PURE__ */ (() => {
  const m = new Map<string, { field: ImportField; rank: number }>();
  for (const [field, names] of Object.entries(FIELD_SYNONYMS) as [ImportField, readonly string[]][])
    names.forEach((name, rank) => {
      const key = normalizeHeader(name);
      if (!m.has(key)) m.set(key, { field, rank });
    });
  return m;
})();

interface Match {
  field: ImportField;
  /** 0 for a header that is a synonym, 1 for one that starts or ends with one ("Contact: First Name"). */
  partial: 0 | 1;
  rank: number;
}

/** The field a header names: exactly a synonym, or the longest synonym it starts or ends with. */
function fieldOf(header: string, allowed: ReadonlySet<ImportField>): Match | null {
  const h = normalizeHeader(header);
  if (!h) return null;
  const exact = LOOKUP.get(h);
  if (exact && allowed.has(exact.field)) return { field: exact.field, partial: 0, rank: exact.rank };
  let best: { field: ImportField; len: number; rank: number } | null = null;
  for (const [name, hit] of LOOKUP) {
    if (!allowed.has(hit.field) || name.length < 4) continue;
    if ((h.endsWith(` ${name}`) || h.startsWith(`${name} `)) && (!best || name.length > best.len))
      best = { field: hit.field, len: name.length, rank: hit.rank };
  }
  return best ? { field: best.field, partial: 1, rank: best.rank } : null;
}

/**
 * One field (or null) per column: only the kind's fields, each field once. A header that is a
 * synonym beats one that merely contains it, an earlier synonym of the field beats a later one
 * ("Campaign" over "Fund"), then the leftmost column. With first and last name columns, a
 * full-name column is left unmapped.
 */
export function autoMap(kind: ImportKind, headers: readonly string[]): (ImportField | null)[] {
  const allowed = new Set(importFieldsOf(kind));
  const candidates = headers
    .map((h, i) => ({ i, m: fieldOf(h, allowed) }))
    .filter((c): c is { i: number; m: Match } => c.m !== null)
    .sort((a, b) => a.m.partial - b.m.partial || a.m.rank - b.m.rank || a.i - b.i);
  const out: (ImportField | null)[] = headers.map(() => null);
  const taken = new Set<ImportField>();
  for (const { i, m } of candidates) {
    if (taken.has(m.field) || out[i] !== null) continue;
    out[i] = m.field;
    taken.add(m.field);
  }
  if (taken.has("firstName") && taken.has("lastName") && taken.has("name")) out[out.indexOf("name")] = null;
  return out;
}

export type ImportSource =
  | "givewp"
  | "donorbox"
  | "bloomerang"
  | "stripe"
  | "npsp"
  | "opencollective"
  | "civicrm";

/** The headers that betray each system's export (all of a set must be present). */
const SIGNATURES: readonly { id: ImportSource; label: string; any: readonly (readonly string[])[] }[] = [
  {
    id: "givewp",
    label: "GiveWP",
    any: [["donation form title"], ["donation total", "donor id"], ["form title", "donation status"]],
  },
  {
    id: "donorbox",
    label: "Donorbox",
    any: [
      ["make donation anonymous"],
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
    any: [["amount refunded", "converted amount"], ["created utc", "customer email"], ["card address line1"]],
  },
  {
    id: "npsp",
    label: "Salesforce NPSP",
    any: [
      ["stage", "close date"],
      ["opportunity name", "close date"],
      ["stage name", "close date"],
    ],
  },
  {
    id: "opencollective",
    label: "Open Collective",
    any: [
      ["oppositeaccountslug"],
      ["fromaccount slug"],
      ["paymentprocessorfeesinhostcurrency"],
      ["paymentprocessorfee", "kind"],
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
  const have = new Set(headers.map(normalizeHeader));
  for (const s of SIGNATURES)
    if (s.any.some((set) => set.every((h) => have.has(normalizeHeader(h)))))
      return { id: s.id, label: s.label };
  return null;
}

/** A saved mapping (normalized header → field) applied to a file's headers; unknown headers map to nothing. */
export function applySavedMapping(
  kind: ImportKind,
  headers: readonly string[],
  saved: Readonly<Record<string, string>>,
): (ImportField | null)[] {
  const allowed = new Set<string>(importFieldsOf(kind));
  const taken = new Set<string>();
  return headers.map((h) => {
    const f = saved[normalizeHeader(h)];
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
