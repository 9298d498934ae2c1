/**
 * One import row → its donor and gift, or why not (decision 028). Values pass the forms' own schemas,
 * so an imported record obeys exactly what a typed one does.
 */
import { manualDonationInput } from "../donation";
import { type DonorInput, donorInput } from "../donor";
import type { PaymentMethod } from "../labels";
import { exponentOf } from "../money";
import { amountMinor, currencyCode, GIFT_CLOCK_SKEW_MS, giftInstant, INSTANT_MIN } from "../schemas";
import type { DonationStatus } from "../status";
import type { ImportCells, ImportField, ImportKind, ImportMapping, ImportOptions } from "./fields";
import type { ColumnZones } from "./mapping";
import { parseRefundedFlag, parseTransactionKind, rowRole } from "./refunds";
import {
  type Parsed,
  parseAmount,
  parseBoolean,
  parseCountry,
  parseDate,
  parseDonorType,
  parseFrequency,
  parseMode,
  parsePaymentMethod,
  parseStatus,
  parseTributeType,
  splitName,
} from "./values";

/** Donor table columns a row may fill; the fill and overwrite policies compare these. */
export const DONOR_COLUMNS = [
  "type",
  "first_name",
  "last_name",
  "company",
  "email",
  "phone",
  "address_line1",
  "address_line2",
  "city",
  "region",
  "postal_code",
  "country",
  "email_opt_in",
  "phone_opt_in",
  "mail_opt_in",
  "external_id",
] as const;
export type DonorColumn = (typeof DONOR_COLUMNS)[number];

export interface RowDonor {
  data: DonorInput;
  addressLine2: string | null;
  /** Since when the old system has known the donor ("Date Added"). */
  since: number | null;
  /** The columns the row gave a value for (blank cells leave a matched donor's value alone). */
  given: DonorColumn[];
}

export interface RowGift {
  externalId: string | null;
  amountMinor: number;
  refundedMinor: number;
  processingFeeMinor: number;
  currency: string;
  donatedAt: number;
  status: DonationStatus;
  frequency: "one_time" | "monthly" | "quarterly" | "annually";
  paymentMethod: PaymentMethod;
  campaign: string | null;
  gateway: string | null;
  transactionId: string | null;
  mode: "live" | "test";
  anonymous: boolean;
  message: string | null;
  tributeType: "in_honor" | "in_memory" | null;
  tributeName: string | null;
  internalNote: string | null;
}

/** A row that gives money back: applied to the gift it names (worker/imports/plan.ts), never a gift. */
export interface RowRefund {
  externalId: string | null;
  /** The refunded gift's ID in the old system (donation or transaction ID); null when the row does not say. */
  of: string | null;
  amountMinor: number;
  currency: string;
}

export type RowResult =
  | {
      ok: true;
      donor: RowDonor | null;
      gift: RowGift | null;
      refund?: RowRefund;
      /** A ledger row that is no gift ("Not a donation: an expense"): skipped, never refused. */
      skip?: string;
    }
  | { ok: false; problem: string };

export function mapCells(mapping: ImportMapping, cells: readonly string[]): ImportCells {
  const out: ImportCells = {};
  mapping.forEach((field, i) => {
    if (field) out[field] = cells[i] ?? "";
  });
  return out;
}

/** Refuses the row with one sentence; `normalizeRow` catches it. */
class Refusal extends Error {}

const refuse = (problem: string): never => {
  throw new Refusal(problem);
};

const take = <T>(p: Parsed<T>, label: string): T => {
  if (!p.ok) refuse(p.problem.startsWith(label) ? p.problem : `${label}: ${p.problem}`);
  return (p as { ok: true; value: T }).value;
};

function schemaProblem(label: string, issues: readonly { message: string }[]): string {
  return `${label}: ${issues[0]?.message ?? "Invalid value"}`;
}

const DONOR_FIELDS_THAT_NAME: readonly ImportField[] = [
  "name",
  "firstName",
  "lastName",
  "company",
  "email",
  "donorExternalId",
];

function sinceOf(text: string | null, o: ImportOptions, zones: ColumnZones): number | null {
  if (text === null) return null;
  const timeZone = zones.donorSince ?? o.timeZone;
  const ms = take(parseDate(text, { order: o.dateOrder, timeZone }), "Donor since");
  if (ms < INSTANT_MIN) refuse("Donor since: Use a date from 1970 on");
  if (ms > Date.now() + GIFT_CLOCK_SKEW_MS) refuse("Donor since cannot be in the future");
  return ms;
}

/** Who a row names ("Sofia Rossi"), from its cells alone: a refused row is shown by it. */
export function rowLabel(cells: ImportCells): string | null {
  const v = (f: ImportField) => cells[f]?.trim() || null;
  const person = [v("firstName"), v("lastName")].filter(Boolean).join(" ");
  return (person || v("name") || v("company") || v("email") || v("donorExternalId"))?.slice(0, 200) ?? null;
}

function donorOf(
  value: (f: ImportField) => string | null,
  o: ImportOptions,
  zones: ColumnZones,
): RowDonor | null {
  if (!DONOR_FIELDS_THAT_NAME.some((f) => value(f) !== null)) return null;
  let firstName = value("firstName");
  let lastName = value("lastName");
  const full = value("name");
  let company = value("company");
  const typeText = value("donorType");
  const stated = typeText ? take(parseDonorType(typeText), "Donor type") : null;
  if (full && !firstName && !lastName) {
    if (stated === "organization" && !company) company = full;
    else if (stated !== "organization") ({ firstName, lastName } = splitName(full));
  }
  const type = stated ?? (company && !firstName && !lastName ? "organization" : "individual");
  const bool = (f: ImportField, label: string) => {
    const t = value(f);
    return t === null ? undefined : take(parseBoolean(t), label);
  };
  const countryText = value("country");
  const raw = {
    type,
    firstName,
    lastName,
    company,
    email: value("email"),
    phone: value("phone"),
    addressLine1: value("addressLine1"),
    city: value("city"),
    region: value("region"),
    postalCode: value("postalCode"),
    country: countryText ? take(parseCountry(countryText), "Country") : null,
    emailOptIn: bool("emailOptIn", "E-mail opt-in"),
    phoneOptIn: bool("phoneOptIn", "Phone opt-in"),
    mailOptIn: bool("mailOptIn", "Mail opt-in"),
    externalId: value("donorExternalId"),
  };
  const parsed = donorInput.safeParse(raw);
  let data: DonorInput;
  if (parsed.success) data = parsed.data;
  else {
    // Exports often know only the e-mail; the database's rule (donor_has_name) accepts that, the form not.
    const others = parsed.error.issues.filter(
      (i) => !(i.path[0] === "lastName" && i.message === "Enter a name"),
    );
    if (others.length || !raw.email) {
      const issue = (others[0] ?? parsed.error.issues[0]) as { path: PropertyKey[]; message: string };
      const field = String(issue.path[0] ?? "");
      return refuse(schemaProblem(DONOR_LABELS[field] ?? "Donor", [issue]));
    }
    const again = donorInput.safeParse({ ...raw, lastName: "-" });
    if (!again.success) return refuse(schemaProblem("Donor", again.error.issues));
    data = { ...again.data, lastName: null };
  }
  const addressLine2 = value("addressLine2");
  if (addressLine2 && addressLine2.length > 200) refuse("Address line 2: At most 200 characters");
  const given: DonorColumn[] = [];
  const mark = (column: DonorColumn, present: unknown) => {
    if (present !== null && present !== undefined && present !== "") given.push(column);
  };
  mark("type", typeText ?? (company && !firstName && !lastName ? "organization" : null));
  mark("first_name", data.firstName);
  mark("last_name", data.lastName);
  mark("company", data.company);
  mark("email", data.email);
  mark("phone", data.phone);
  mark("address_line1", data.addressLine1);
  mark("address_line2", addressLine2);
  mark("city", data.city);
  mark("region", data.region);
  mark("postal_code", data.postalCode);
  mark("country", data.country);
  mark("email_opt_in", raw.emailOptIn);
  mark("phone_opt_in", raw.phoneOptIn);
  mark("mail_opt_in", raw.mailOptIn);
  mark("external_id", data.externalId);
  return { data, addressLine2, since: sinceOf(value("donorSince"), o, zones), given };
}

const DONOR_LABELS: Record<string, string> = {
  firstName: "First name",
  lastName: "Name",
  company: "Organization",
  email: "E-mail",
  phone: "Phone",
  addressLine1: "Address",
  city: "City",
  region: "Region",
  postalCode: "Postal code",
  country: "Country",
  externalId: "Donor ID",
};

function giftText(
  key: "message" | "tributeName" | "internalNote",
  label: string,
  text: string | null,
): string | null {
  const r = manualDonationInput.shape[key].safeParse(text);
  if (!r.success) return refuse(schemaProblem(label, r.error.issues));
  return r.data ?? null;
}

function plainText(label: string, text: string | null, max: number): string | null {
  if (text && text.length > max) refuse(`${label}: At most ${max} characters`);
  return text;
}

function giftOf(value: (f: ImportField) => string | null, o: ImportOptions, zones: ColumnZones): RowGift {
  const amountText = value("amount") ?? refuse("No amount");
  const dateText = value("donatedAt") ?? refuse("No date");
  const currencyText = value("currency");
  let currency: string | null = null;
  if (currencyText) {
    const c = currencyCode.safeParse(currencyText);
    if (!c.success) refuse(schemaProblem("Currency", c.error.issues));
    currency = c.data as string;
  }
  const first = take(
    parseAmount(amountText, { decimal: o.decimal, currency: currency ?? o.currency }),
    "Amount",
  );
  if (first.currency && currency && first.currency !== currency)
    refuse(`Amount is in ${first.currency} but the currency column says ${currency}`);
  currency ??= first.currency;
  if (currency) {
    const c = currencyCode.safeParse(currency);
    if (!c.success) refuse(schemaProblem("Currency", c.error.issues));
  }
  currency ??= o.currency.toUpperCase();
  // Read again in the resolved currency: decimals depend on it.
  const amount =
    first.currency === null && exponentOf(currency) !== exponentOf(o.currency)
      ? take(parseAmount(amountText, { decimal: o.decimal, currency }), "Amount")
      : first;
  const minor = amountMinor.safeParse(amount.minor);
  if (!minor.success) refuse(schemaProblem("Amount", minor.error.issues));
  const money = (f: ImportField, label: string) => {
    let t = value(f);
    if (t === null) return 0;
    // Ledgers write fees and refunds as negatives ("-0.59", "(2.48)").
    t = t.replace(/^-\s*|^\((.*)\)$/, "$1");
    const v = take(parseAmount(t, { decimal: o.decimal, currency: currency as string }), label);
    if (v.currency && v.currency !== currency)
      refuse(`${label} is in ${v.currency}, the donation in ${currency}`);
    return v.minor;
  };
  const timeText = value("donatedTime");
  const dateTime = timeText ? `${dateText} ${timeText}` : dateText;
  // A time column of its own says the time's zone; a "Date (UTC)" column says it for both.
  const timeZone = (timeText ? zones.donatedTime : undefined) ?? zones.donatedAt ?? o.timeZone;
  const donatedAt = take(parseDate(dateTime, { order: o.dateOrder, timeZone }), "Date");
  const when = giftInstant.safeParse(donatedAt);
  if (!when.success) refuse(schemaProblem("Date", when.error.issues));
  let refundedMinor = money("refundedAmount", "Refunded amount");
  const statusText = value("status");
  let status: DonationStatus = statusText ? take(parseStatus(statusText), "Status") : "completed";
  if (refundedMinor > amount.minor) refuse("Refunded amount is more than the donation");
  const flag = value("refunded");
  // A yes without an amount refunds the whole gift; a refunded amount column says how much.
  if (flag && take(parseRefundedFlag(flag), "Refunded") && refundedMinor === 0 && status === "completed")
    refundedMinor = amount.minor;
  if (status === "completed" && refundedMinor > 0)
    status = refundedMinor === amount.minor ? "refunded" : "partially_refunded";
  if (status === "refunded" && refundedMinor === 0) refundedMinor = amount.minor;
  if (status === "partially_refunded" && (refundedMinor === 0 || refundedMinor === amount.minor))
    refuse("A partially refunded donation needs the refunded amount, less than the donation");
  if (refundedMinor > 0 && !["refunded", "partially_refunded", "disputed"].includes(status))
    refuse(`A ${status.replace("_", " ")} donation cannot have a refund`);
  const frequencyText = value("frequency");
  const methodText = value("paymentMethod");
  const modeText = value("mode");
  const anonymousText = value("anonymous");
  const tributeText = value("tributeType");
  const tributeName = giftText("tributeName", "Tribute name", value("tributeName"));
  return {
    externalId: plainText("Donation ID", value("giftExternalId"), 200),
    amountMinor: amount.minor,
    refundedMinor,
    processingFeeMinor: money("processingFee", "Processing fee"),
    currency,
    donatedAt,
    status,
    frequency: frequencyText ? take(parseFrequency(frequencyText), "Frequency") : "one_time",
    paymentMethod: take(parsePaymentMethod(methodText ?? value("gateway") ?? ""), "Payment method"),
    campaign: campaignName(value("campaign")),
    gateway: plainText("Gateway", value("gateway"), 50),
    transactionId: plainText("Transaction ID", value("transactionId"), 200),
    mode: modeText ? take(parseMode(modeText), "Live / test") : "live",
    anonymous: anonymousText ? take(parseBoolean(anonymousText), "Anonymous") : false,
    message: giftText("message", "Message", value("message")),
    tributeType: tributeText
      ? take(parseTributeType(tributeText), "Tribute type")
      : tributeName
        ? "in_honor"
        : null,
    tributeName,
    internalNote: recurringNote(
      giftText("internalNote", "Internal note", value("internalNote")),
      value("recurring"),
      frequencyText,
    ),
  };
}

/**
 * A recurring flag without an interval becomes a line of the gift's note, never a refusal: the
 * gift stays one-time (no interval is guessed) and nothing the old system said is lost.
 */
function recurringNote(note: string | null, flag: string | null, frequency: string | null) {
  if (flag === null) return note;
  const said = parseBoolean(flag);
  if (said.ok && !said.value) return note;
  const interval = frequency ? parseFrequency(frequency) : null;
  if (interval?.ok && interval.value !== "one_time") return note;
  const line = `Recurring in the old system ("${flag.slice(0, 40)}"); its file gives no interval.`;
  const both = note ? `${note}\n${line}` : line;
  // A note already at the form's limit stays as the file gave it.
  return manualDonationInput.shape.internalNote.safeParse(both).success ? both : note;
}

/**
 * A campaign collects one currency; a file's gifts for it in another go to its sibling "Name (EUR)",
 * made on first use, so no gift is refused for its currency (issue 55).
 */
export function campaignInCurrency(name: string, currency: string): string {
  const suffix = ` (${currency})`;
  return `${name.slice(0, 128 - suffix.length).trimEnd()}${suffix}`;
}

function campaignName(text: string | null): string | null {
  if (text === null) return null;
  if (text.length < 3 || text.length > 128)
    refuse(`Campaign "${text}": a campaign's name has 3 to 128 characters`);
  return text;
}

/** "-100.00", "-$100.00 USD", "(25.00)": money going back. */
const NEGATIVE = /^\s*(?:-\s*(.*)|\((.*)\))$/;

/** A refund or a row that is no gift (skipped), or null for a gift. */
function ledgerRow(
  value: (f: ImportField) => string | null,
  o: ImportOptions,
  zones: ColumnZones,
): RowResult | null {
  const kindText = value("transactionType");
  const txKind = kindText ? take(parseTransactionKind(kindText), "Transaction type") : null;
  const amountText = value("amount");
  const role = rowRole({ kind: txKind, negative: amountText !== null && NEGATIVE.test(amountText) });
  if (typeof role === "object") return { ok: true, donor: null, gift: null, skip: role.skip };
  // The refund's size, read as a gift's amount; what describes a gift (status, flag) is not its own.
  const unsigned = (f: ImportField): string | null =>
    f === "amount"
      ? (amountText?.replace(NEGATIVE, "$1$2").trim() ?? null)
      : ["status", "refundedAmount", "refunded", "campaign"].includes(f)
        ? null
        : value(f);
  if (role === "gift") return null;
  const g = giftOf(unsigned, o, zones);
  return {
    ok: true,
    donor: null,
    gift: null,
    refund: {
      externalId: g.externalId,
      of: plainText("Refund of", value("refundOf"), 200),
      amountMinor: g.amountMinor,
      currency: g.currency,
    },
  };
}

/**
 * A donations row may name no donor; the first reason a row cannot be imported wins. `zones`: the
 * time columns whose header names their zone (core/import/mapping.ts columnZones).
 */
export function normalizeRow(
  kind: ImportKind,
  cells: ImportCells,
  o: ImportOptions,
  zones: ColumnZones = {},
): RowResult {
  const value = (f: ImportField): string | null => {
    // Trimmed only: a message keeps its line breaks.
    const t = cells[f]?.trim();
    return t ? t : null;
  };
  try {
    // A ledger's row is read for what it is first: an expense's payee is no donor.
    if (kind === "donations") {
      const refund = ledgerRow(value, o, zones);
      if (refund) return refund;
    }
    const donor = donorOf(value, o, zones);
    if (kind === "donors") {
      if (!donor) return { ok: false, problem: "No name, company or e-mail" };
      return { ok: true, donor, gift: null };
    }
    return { ok: true, donor, gift: giftOf(value, o, zones) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, problem: e.message };
    throw e;
  }
}
