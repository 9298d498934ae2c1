/**
 * CSV import (issue 23, docs/decisions/028-csv-import.md): the fields a file's columns map to, the
 * options an import runs with, and the vocabulary both sides share. The browser maps the columns
 * (core/import/mapping.ts) and the Worker normalizes and validates each row (core/import/row.ts),
 * so one list names every field either side knows.
 *
 * Pure, zod/mini: the import pages load it in the browser (decision 012).
 */
import { z } from "zod/mini";
import { currencyCode } from "../schemas.ts";

export const importKinds = ["donors", "donations"] as const;
export type ImportKind = (typeof importKinds)[number];

/** The donor a row describes: every field of a donors import, and the giver of a donations import. */
export const donorImportFields = [
  "donorExternalId",
  "name",
  "firstName",
  "lastName",
  "company",
  "donorType",
  "email",
  "phone",
  "addressLine1",
  "addressLine2",
  "city",
  "region",
  "postalCode",
  "country",
  "emailOptIn",
  "phoneOptIn",
  "mailOptIn",
] as const;

/** The gift a donations import row describes. */
export const giftImportFields = [
  "giftExternalId",
  "amount",
  "currency",
  "donatedAt",
  "donatedTime",
  "status",
  "refundedAmount",
  "processingFee",
  "frequency",
  "paymentMethod",
  "campaign",
  "gateway",
  "transactionId",
  "mode",
  "anonymous",
  "message",
  "tributeType",
  "tributeName",
  "internalNote",
] as const;

export type DonorImportField = (typeof donorImportFields)[number];
export type GiftImportField = (typeof giftImportFields)[number];
export type ImportField = DonorImportField | GiftImportField;

export const importFieldsOf = (kind: ImportKind): readonly ImportField[] =>
  kind === "donors" ? donorImportFields : [...donorImportFields, ...giftImportFields];

/** What the mapping screen calls each field. */
export const IMPORT_FIELD_LABELS: Readonly<Record<ImportField, string>> = {
  donorExternalId: "Donor ID (old system)",
  name: "Full name",
  firstName: "First name",
  lastName: "Last name",
  company: "Organization / company",
  donorType: "Donor type",
  email: "E-mail",
  phone: "Phone",
  addressLine1: "Address",
  addressLine2: "Address line 2",
  city: "City",
  region: "State / region",
  postalCode: "Postal code",
  country: "Country",
  emailOptIn: "E-mail opt-in",
  phoneOptIn: "Phone opt-in",
  mailOptIn: "Mail opt-in",
  giftExternalId: "Gift ID (old system)",
  amount: "Amount",
  currency: "Currency",
  donatedAt: "Date",
  donatedTime: "Time of day (when apart from the date)",
  status: "Status",
  refundedAmount: "Refunded amount",
  processingFee: "Processing fee",
  frequency: "Frequency",
  paymentMethod: "Payment method",
  campaign: "Campaign",
  gateway: "Gateway",
  transactionId: "Transaction ID",
  mode: "Live / test",
  anonymous: "Anonymous",
  message: "Message / comment",
  tributeType: "Tribute type",
  tributeName: "Tribute name",
  internalNote: "Internal note",
};

/** A donations import needs these mapped; a donors import needs a name, a company or an e-mail. */
export const REQUIRED_GIFT_FIELDS: readonly GiftImportField[] = ["amount", "donatedAt"];

/** Day order for dates like 03/04/2024: "auto" works it out from the file (and asks when it cannot). */
export const dateOrders = ["auto", "ymd", "mdy", "dmy"] as const;
export type DateOrder = (typeof dateOrders)[number];

/** Decimal separator of amounts: "auto" works it out from the file (and asks when it cannot). */
export const decimalMarks = ["auto", ".", ","] as const;
export type DecimalMark = (typeof decimalMarks)[number];

/**
 * What a row does to a donor it matches (by e-mail, then name + postal code, then external id):
 * fill the donor's empty fields, overwrite them with the file's, or leave the donor as it is.
 */
export const matchPolicies = ["fill", "overwrite", "skip"] as const;
export type MatchPolicy = (typeof matchPolicies)[number];

export const MATCH_POLICY_LABELS: Readonly<Record<MatchPolicy, string>> = {
  fill: "Fill in empty fields",
  overwrite: "Overwrite with the file's values",
  skip: "Leave the donor unchanged",
};

/** The text encodings a file may come in (core/import/encoding.ts detects them). */
export const importEncodings = ["utf-8", "utf-16le", "utf-16be", "windows-1252"] as const;
export type ImportEncoding = (typeof importEncodings)[number];

/** How the rows of one import are read; fixed when the import starts, kept with it for a resume. */
export const importOptions = /* @__PURE__ */ (() =>
  z.strictObject({
    dateOrder: z._default(z.enum(dateOrders), "auto"),
    decimal: z._default(z.enum(decimalMarks), "auto"),
    /** The currency of amounts whose row names none (the organization's, unless chosen). */
    currency: currencyCode,
    /** The zone of dates without one (the organization's, unless chosen). */
    timeZone: z.string().check(z.minLength(1), z.maxLength(64)),
    matchPolicy: z._default(z.enum(matchPolicies), "fill"),
  }))();
export type ImportOptions = z.output<typeof importOptions>;

/**
 * Column index → field (or null: not imported). At most 200 columns; a field is taken by one column
 * only, so a row never has two values for it.
 */
export const importMapping = /* @__PURE__ */ (() =>
  z.array(z.nullable(z.enum([...donorImportFields, ...giftImportFields]))).check(
    z.maxLength(200, "At most 200 columns"),
    z.refine((m) => {
      const used = m.filter((f) => f !== null);
      return new Set(used).size === used.length;
    }, "Each field can come from one column only"),
  ))();
export type ImportMapping = z.output<typeof importMapping>;

/** One row as sent to the Worker: its row number in the file (the header is row 1) and its cells by field. */
export type ImportCells = Partial<Record<ImportField, string>>;

/** How each row of a check or a commit came out. */
export const importOutcomes = [
  "new", // creates what it describes
  "matched", // a donor row that matched an existing donor (updated or left as it was, by the policy)
  "skipped", // already imported (its import key is taken), or matched with the "skip" policy
  "invalid", // refused, with the reason
] as const;
export type ImportOutcome = (typeof importOutcomes)[number];
