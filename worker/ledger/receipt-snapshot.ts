// What a receipt says, as of its issue: the JSON SNAPSHOT writes in the gift's batch (receipt-issue.ts) and
// the PDF reads (worker/receipts/pdf). SNAPSHOT_FIELDS must have exactly ReceiptSnapshot's keys, or it does
// not compile. No imports: scripts/bench-statements.mjs reads SNAPSHOT in Node.

/** A postal address as the snapshot holds it (every part may be empty). */
export interface SnapshotAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2, as the forms ask for it. */
  country: string | null;
}

export interface ReceiptSnapshot {
  donor: {
    /** First and last name, else the company. */
    name: string | null;
    company: string | null;
    email: string | null;
    address: SnapshotAddress;
  };
  gift: {
    /** The gift's own number in the organization (not the receipt's). */
    number: number;
    amountMinor: number;
    refundedMinor: number;
    currency: string;
    /** ms */
    donatedAt: number;
    paymentMethod: string;
    /** core/donation.ts tributeTypes: "in_honor" | "in_memory". */
    tributeType: string | null;
    tributeName: string | null;
  };
  /** The campaign's title. */
  campaign: string | null;
  organization: {
    name: string;
    legalName: string | null;
    registrationId: string | null;
    taxId: string | null;
    address: SnapshotAddress;
    /** `/api/media/<id>` (read from D1) or an https URL (never fetched: see logo.ts). */
    logoUrl: string | null;
    /** IANA time zone: the organization's days (decision 026). */
    timeZone: string;
  };
  settings: {
    signatoryName: string | null;
    signatoryTitle: string | null;
    taxStatement: string | null;
    numberPrefix: string;
    /** core/receipts.ts receiptLanguages. */
    language: string;
  };
}

const address = (t: string) => ({
  line1: `${t}.address_line1`,
  line2: `${t}.address_line2`,
  city: `${t}.city`,
  region: `${t}.region`,
  postalCode: `${t}.postal_code`,
  country: `${t}.country`,
});

/** The snapshot's fields and the SQL of each: ReceiptSnapshot must have exactly these keys. */
const SNAPSHOT_FIELDS = {
  donor: {
    name: "COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company)",
    company: "dn.company",
    email: "dn.email",
    address: address("dn"),
  },
  gift: {
    number: "d.number",
    amountMinor: "d.amount_minor",
    refundedMinor: "d.refunded_minor",
    currency: "d.currency",
    donatedAt: "d.donated_at",
    paymentMethod: "d.payment_method",
    tributeType: "d.tribute_type",
    tributeName: "d.tribute_name",
  },
  campaign: "c.title",
  organization: {
    name: "o.name",
    legalName: "o.legal_name",
    registrationId: "o.registration_id",
    taxId: "o.tax_id",
    address: address("o"),
    logoUrl: "o.logo_url",
    timeZone: "o.time_zone",
  },
  settings: {
    signatoryName: "rs.signatory_name",
    signatoryTitle: "rs.signatory_title",
    taxStatement: "rs.tax_statement",
    numberPrefix: "COALESCE(rs.number_prefix, '')",
    language: "COALESCE(rs.language, 'en')",
  },
};

type Fields = string | { [key: string]: Fields };
type KeysOf<T> = T extends string | number | null ? true : { [K in keyof T]-?: KeysOf<T[K]> };
/** Compiles only while ReceiptSnapshot and SNAPSHOT_FIELDS have the same keys, at every level. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameKeys: Same<KeysOf<ReceiptSnapshot>, KeysOf<typeof SNAPSHOT_FIELDS>> = true;
void sameKeys;

const jsonObject = (f: Fields): string =>
  typeof f === "string"
    ? f
    : `json_object(${Object.entries(f)
        .map(([key, value]) => `'${key}', ${jsonObject(value)}`)
        .join(", ")})`;

/** What the receipt says, as of its issue (decision 031: a reprint is the same document). */
export const SNAPSHOT = jsonObject(SNAPSHOT_FIELDS);
