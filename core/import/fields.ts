/** CSV import (decision 028): the fields and options browser and Worker share (zod/mini: decision 012). */
import { z } from "zod/mini";
import { currencyCode } from "../schemas.ts";

export const importKinds = ["donors", "donations"] as const;
export type ImportKind = (typeof importKinds)[number];

/** Also the giver of a donations import row. */
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
  // Since when the old system has known the donor ("Date Added"): the record's creation.
  "donorSince",
] as const;

export const giftImportFields = [
  "giftExternalId",
  "amount",
  "currency",
  "donatedAt",
  "donatedTime",
  "status",
  "refundedAmount",
  // "Refunded: Yes" (or the refund's day) without an amount: refunded in full.
  "refunded",
  // A ledger's CREDIT/DEBIT, CONTRIBUTION/EXPENSE/HOST_FEE/REFUND: which rows are gifts at all.
  "transactionType",
  // On a refund row, the gift it refunds (its donation or transaction ID in the old system).
  "refundOf",
  "processingFee",
  "frequency",
  // "Recurring Donation: Yes" without the interval: the gift stays one-time, its note says so.
  "recurring",
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

type DonorImportField = (typeof donorImportFields)[number];
type GiftImportField = (typeof giftImportFields)[number];
export type ImportField = DonorImportField | GiftImportField;

export const importFieldsOf = (kind: ImportKind): readonly ImportField[] =>
  kind === "donors" ? donorImportFields : [...donorImportFields, ...giftImportFields];

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
  donorSince: "Donor since (date added)",
  giftExternalId: "Donation ID (old system)",
  amount: "Amount",
  currency: "Currency",
  donatedAt: "Date",
  donatedTime: "Time of day (when apart from the date)",
  status: "Status",
  refundedAmount: "Refunded amount",
  refunded: "Refunded (yes/no)",
  transactionType: "Transaction type / kind",
  refundOf: "Refund of (donation ID)",
  processingFee: "Processing fee",
  frequency: "Frequency",
  recurring: "Recurring (yes/no)",
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

const REQUIRED_GIFT_FIELDS: readonly GiftImportField[] = ["amount", "donatedAt"];

const DONOR_NAMING_FIELDS: readonly ImportField[] = ["name", "firstName", "lastName", "company", "email"];

/** Why a mapping cannot be used yet, or null; the server passes `columns` to check its length too. */
export function mappingProblem(
  kind: ImportKind,
  mapping: readonly (string | null)[],
  columns?: number,
): string | null {
  if (columns !== undefined && mapping.length > columns)
    return "The mapping names more columns than the file has";
  const allowed = new Set<string>(importFieldsOf(kind));
  const stray = mapping.find((f) => f !== null && !allowed.has(f));
  if (stray) return `A ${kind} import has no field "${stray}"`;
  const mapped = new Set(mapping);
  if (kind === "donations") {
    const missing = REQUIRED_GIFT_FIELDS.filter((f) => !mapped.has(f));
    return missing.length
      ? `Still needed: ${missing.map((f) => IMPORT_FIELD_LABELS[f]).join(" and ")}.`
      : null;
  }
  return DONOR_NAMING_FIELDS.some((f) => mapped.has(f))
    ? null
    : "Still needed: a name, a company or an e-mail.";
}

/** "auto" works it out from the file, and asks when it cannot. */
export const dateOrders = ["auto", "ymd", "mdy", "dmy"] as const;
export type DateOrder = (typeof dateOrders)[number];

export const decimalMarks = ["auto", ".", ","] as const;
export type DecimalMark = (typeof decimalMarks)[number];

/** For a donor matched by e-mail, then name + postal code, then external id. */
export const matchPolicies = ["fill", "overwrite", "skip"] as const;
export type MatchPolicy = (typeof matchPolicies)[number];

export const MATCH_POLICY_LABELS: Readonly<Record<MatchPolicy, string>> = {
  fill: "Fill in empty fields",
  overwrite: "Overwrite with the file's values",
  skip: "Leave the donor unchanged",
};

export const importEncodings = ["utf-8", "utf-16le", "utf-16be", "windows-1252"] as const;
export type ImportEncoding = (typeof importEncodings)[number];

/** Matches the preview lists that the user may refuse, one by one. */
export const IMPORT_MAX_NEW_DONOR_ROWS = 1000;

/** Fixed when the import starts, and kept with it for a resume. */
export const importOptions = /* @__PURE__ */ (() =>
  z.strictObject({
    dateOrder: z._default(z.enum(dateOrders), "auto"),
    decimal: z._default(z.enum(decimalMarks), "auto"),
    currency: currencyCode,
    timeZone: z.string().check(z.minLength(1), z.maxLength(64)),
    matchPolicy: z._default(z.enum(matchPolicies), "fill"),
    /** Rows whose donor is created anew, not matched: the user refused the match the preview showed. */
    newDonorRows: z.optional(
      z
        .array(z.int().check(z.minimum(1), z.maximum(100_000_000)))
        .check(
          z.maxLength(
            IMPORT_MAX_NEW_DONOR_ROWS,
            `At most ${IMPORT_MAX_NEW_DONOR_ROWS} rows can be kept apart from the donors they match`,
          ),
        ),
    ),
    /** The file has no header row: its columns are "Column 1", … and its data starts at row 1. */
    firstRowIsData: z.optional(z.boolean()),
  }))();
export type ImportOptions = z.output<typeof importOptions>;

/** Column index → field or null; a field comes from one column only, so a row never has two values. */
export const importMapping = /* @__PURE__ */ (() =>
  z.array(z.nullable(z.enum([...donorImportFields, ...giftImportFields]))).check(
    z.maxLength(200, "At most 200 columns"),
    z.refine((m) => {
      const used = m.filter((f) => f !== null);
      return new Set(used).size === used.length;
    }, "Each field can come from one column only"),
  ))();
export type ImportMapping = z.output<typeof importMapping>;

export type ImportCells = Partial<Record<ImportField, string>>;

/** How each row of a check or a commit came out. */
const importOutcomes = [
  "new", // creates what it describes
  "matched", // a donor row that matched an existing donor (updated or left as it was, by the policy)
  "skipped", // already imported (its import key is taken), or matched with the "skip" policy
  "invalid", // refused, with the reason
] as const;
export type ImportOutcome = (typeof importOutcomes)[number];
