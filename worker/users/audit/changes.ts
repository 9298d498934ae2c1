/**
 * An edit's changed fields in words ("Amount: $100.00 → $150.00", decision 052); a field not named
 * here reads by its name and shape, and an id, a URL, a list or an object is never shown raw.
 */
import { MONTH_NAMES } from "@core/date-format";
import { PAYMENT_METHOD_LABELS } from "@core/labels";
import { PLAN_INTERVAL_LABELS } from "@core/plans";
import type { RefKind, Words } from "./sentences";

type Kind =
  | "text"
  | "long"
  | "money"
  | "moneyList"
  | "instant"
  | "bool"
  | "count"
  | "words"
  | "image"
  | "month"
  | "hidden"
  | { ref: RefKind }
  | { refs: RefKind }
  | { labels: Readonly<Record<string, string>> };

const GOAL: Record<string, string> = {
  none: "No goal",
  amount: "An amount",
  donations: "A number of donations",
  donors: "A number of donors",
};
const TRIBUTE: Record<string, string> = { in_honor: "In honor of", in_memory: "In memory of" };
const BASIS: Record<string, string> = { lifetime: "Lifetime giving", rolling_12m: "Last 12 months" };
const LANGUAGES: Record<string, string> = {
  en: "English",
  fr: "French",
  de: "German",
  es: "Spanish",
  nl: "Dutch",
  pt: "Portuguese",
  ja: "Japanese",
};

/** Fields by their name in the audit values (camelCase; snake_case rows are camelCased first). */
const FIELDS: Record<string, { label: string; kind: Kind }> = {
  // Campaigns and items.
  title: { label: "Title", kind: "text" },
  slug: { label: "Web address", kind: "text" },
  shortDescription: { label: "Short description", kind: "long" },
  description: { label: "Description", kind: "long" },
  coverUrl: { label: "Cover image", kind: "image" },
  imageUrl: { label: "Image", kind: "image" },
  currency: { label: "Currency", kind: "text" },
  goalType: { label: "Goal", kind: { labels: GOAL } },
  goalAmountMinor: { label: "Goal amount", kind: "money" },
  goalCount: { label: "Goal count", kind: "count" },
  startAt: { label: "Starts", kind: "instant" },
  endAt: { label: "Ends", kind: "instant" },
  acceptAfterEnd: { label: "Accepts donations after the end", kind: "bool" },
  completeOnGoal: { label: "Completes when the goal is reached", kind: "bool" },
  suggestedAmounts: { label: "Suggested amounts", kind: "moneyList" },
  minAmountMinor: { label: "Smallest donation", kind: "money" },
  maxAmountMinor: { label: "Largest donation", kind: "money" },
  allowRecurring: { label: "Recurring donations", kind: "bool" },
  visibility: { label: "Visibility", kind: "words" },
  unitAmountMinor: { label: "Unit amount", kind: "money" },
  quantityNeeded: { label: "Quantity needed", kind: "count" },
  allowOverfunding: { label: "Allows more than needed", kind: "bool" },
  active: { label: "Active", kind: "bool" },
  archived: { label: "Archived", kind: "bool" },
  sortOrder: { label: "Position", kind: "count" },
  // Donations.
  amountMinor: { label: "Amount", kind: "money" },
  refundedMinor: { label: "Refunded", kind: "money" },
  status: { label: "Status", kind: "words" },
  donorId: { label: "Donor", kind: { ref: "donor" } },
  campaignId: { label: "Campaign", kind: { ref: "campaign" } },
  campaignItemId: { label: "Item", kind: { ref: "item" } },
  itemQuantity: { label: "Quantity", kind: "count" },
  donatedAt: { label: "Date", kind: "instant" },
  paymentMethod: { label: "Payment method", kind: { labels: PAYMENT_METHOD_LABELS } },
  frequency: { label: "Frequency", kind: "words" },
  mode: { label: "Live or test", kind: "words" },
  anonymous: { label: "Anonymous", kind: "bool" },
  message: { label: "Message", kind: "long" },
  tributeType: { label: "Tribute", kind: { labels: TRIBUTE } },
  tributeName: { label: "Tribute name", kind: "text" },
  internalNote: { label: "Internal note", kind: "long" },
  // Donors.
  type: { label: "Type", kind: "words" },
  firstName: { label: "First name", kind: "text" },
  lastName: { label: "Last name", kind: "text" },
  company: { label: "Company", kind: "text" },
  email: { label: "E-mail", kind: "text" },
  phone: { label: "Phone", kind: "text" },
  addressLine1: { label: "Address", kind: "text" },
  addressLine2: { label: "Address line 2", kind: "text" },
  city: { label: "City", kind: "text" },
  region: { label: "Region", kind: "text" },
  postalCode: { label: "Postal code", kind: "text" },
  country: { label: "Country", kind: "text" },
  emailOptIn: { label: "E-mail opt-in", kind: "bool" },
  phoneOptIn: { label: "Phone opt-in", kind: "bool" },
  mailOptIn: { label: "Post opt-in", kind: "bool" },
  externalId: { label: "External id", kind: "text" },
  tagIds: { label: "Tags", kind: { refs: "tag" } },
  tierId: { label: "Tier", kind: { ref: "tier" } },
  locked: { label: "Tier locked", kind: "bool" },
  // Tiers and tags.
  name: { label: "Name", kind: "text" },
  color: { label: "Colour", kind: "text" },
  basis: { label: "Counted on", kind: { labels: BASIS } },
  minMinor: { label: "From", kind: "money" },
  maxMinor: { label: "Up to", kind: "money" },
  // The organization, its receipts and thank-you message.
  legalName: { label: "Legal name", kind: "text" },
  registrationId: { label: "Registration number", kind: "text" },
  taxId: { label: "Tax id", kind: "text" },
  contactEmail: { label: "Contact e-mail", kind: "text" },
  contactPhone: { label: "Contact phone", kind: "text" },
  website: { label: "Website", kind: "text" },
  logoUrl: { label: "Logo", kind: "image" },
  mission: { label: "Mission", kind: "long" },
  defaultCurrency: { label: "Currency", kind: "text" },
  timeZone: { label: "Time zone", kind: "text" },
  fiscalYearStartMonth: { label: "Fiscal year starts", kind: "month" },
  signatoryName: { label: "Signatory", kind: "text" },
  signatoryTitle: { label: "Signatory's title", kind: "text" },
  taxStatement: { label: "Tax statement", kind: "long" },
  numberPrefix: { label: "Receipt number prefix", kind: "text" },
  language: { label: "Language", kind: { labels: LANGUAGES } },
  autoSend: { label: "Sends receipts by itself", kind: "bool" },
  subject: { label: "Subject", kind: "text" },
  body: { label: "Message", kind: "long" },
  // Plans.
  interval: { label: "Every", kind: { labels: PLAN_INTERVAL_LABELS } },
  role: { label: "Role", kind: "words" },
  expiresAt: { label: "Expires", kind: "instant" },
  // Bookkeeping, never a person's concern.
  id: { label: "", kind: "hidden" },
  updatedAt: { label: "", kind: "hidden" },
  createdAt: { label: "", kind: "hidden" },
  organizationId: { label: "", kind: "hidden" },
  changeToken: { label: "", kind: "hidden" },
};

/** How a field the table does not name reads: its name's shape says what its value is. */
function guess(field: string, sample: unknown): { label: string; kind: Kind } {
  const words = field
    .replace(/Minor$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  if (/Ids?$/.test(field) || /Url$/.test(field) || /Token$/.test(field)) return { label, kind: "hidden" };
  if (/Minor$/.test(field)) return { label, kind: "money" };
  if (/At$/.test(field)) return { label, kind: "instant" };
  if (typeof sample === "boolean") return { label, kind: "bool" };
  if (typeof sample === "number") return { label, kind: "count" };
  if (typeof sample === "string") return { label, kind: sample.length > 80 ? "long" : "text" };
  return { label, kind: "hidden" };
}

/** The ids a field holds, for the names a page resolves (./names.ts). */
export function fieldRefs(field: string, value: unknown): [RefKind, unknown][] {
  const kind = FIELDS[field]?.kind;
  if (kind && typeof kind === "object" && "ref" in kind) return [[kind.ref, value]];
  if (kind && typeof kind === "object" && "refs" in kind) return [[kind.refs, value]];
  return [];
}

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function show(kind: Kind, v: unknown, w: Words): string {
  if (v === null || v === undefined || v === "") return "none";
  if (typeof kind === "object") {
    if ("ref" in kind) return w.name(kind.ref, v);
    if ("refs" in kind) return Array.isArray(v) && v.length ? w.names(kind.refs, v) : "none";
    return kind.labels[String(v)] ?? String(v).replace(/_/g, " ");
  }
  switch (kind) {
    case "money":
      return w.money(v);
    case "moneyList":
      return Array.isArray(v) && v.length ? v.map((x) => w.money(x)).join(", ") : "none";
    case "instant":
      return w.date(v);
    case "bool":
      return v ? "yes" : "no";
    case "count":
      return typeof v === "number" ? v.toLocaleString("en-US") : String(v);
    case "words":
      return String(v).replace(/_/g, " ");
    case "image":
      return "an image";
    case "month":
      return MONTH_NAMES[Number(v) - 1] ?? String(v);
    case "long":
      return `“${cut(String(v).replace(/\s+/g, " ").trim(), 80)}”`;
    default:
      return cut(String(v), 120);
  }
}

interface AuditChange {
  /** The value's key in the audit row, stable for tests and React keys. */
  field: string;
  label: string;
  from: string;
  to: string;
}

const same = (a: unknown, b: unknown) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null) ||
  ((a === null || a === undefined || a === "") && (b === null || b === undefined || b === ""));

/**
 * The fields `after` sets to something other than `before`: `after` is what the change wrote
 * (often the form's input), `before` the record as it was. At most 25 lines.
 */
export function describeChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  w: Words,
): AuditChange[] {
  const out: AuditChange[] = [];
  for (const [field, to] of Object.entries(after)) {
    const from = before[field];
    if (same(from, to)) continue;
    const f = FIELDS[field] ?? guess(field, to ?? from);
    if (f.kind === "hidden") continue;
    const a = show(f.kind, from, w);
    let b = show(f.kind, to, w);
    // Two values that read alike (one image for another, texts that differ past the cut).
    if (a === b) b = f.kind === "image" ? "a new image" : `${b} (edited)`;
    out.push({ field, label: f.label, from: a, to: b });
    if (out.length >= 25) break;
  }
  return out;
}
