/** The words every screen uses for the same things, once. Exports keep the stored codes: columns are data. */

/** docs/steering/research/domain.md §2, `paymentMethod`. */
export const paymentMethods = [
  "card",
  "cash",
  "check",
  "bank_transfer",
  "ach_sepa",
  "paypal",
  "wallet",
  "other",
] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** The longest method code stored: a processor's own, from the webhook. */
export const PAYMENT_METHOD_MAX = 30;

export const PAYMENT_METHOD_LABELS: Readonly<Record<PaymentMethod, string>> = {
  card: "Card",
  cash: "Cash",
  check: "Check",
  bank_transfer: "Bank transfer",
  ach_sepa: "ACH / SEPA",
  paypal: "PayPal",
  wallet: "Wallet",
  other: "Other",
};

/** "recurring": every frequency but one_time, the dashboard's split. */
export const frequencyFilters = ["one_time", "recurring", "monthly", "quarterly", "annually"] as const;
export type FrequencyFilter = (typeof frequencyFilters)[number];

/** The donation table's own set (donation_source_valid). */
export const donationSources = ["manual", "online", "webhook", "import"] as const;
export type DonationSource = (typeof donationSources)[number];

/** A processor's own code reads as words. */
export function paymentMethodLabel(method: string): string {
  const known = (PAYMENT_METHOD_LABELS as Record<string, string | undefined>)[method];
  if (known) return known;
  const words = method.replace(/_/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Other";
}

/** No donor record, no name, or (on public pages) a donor who asked to stay anonymous. */
export const ANONYMOUS_DONOR = "Anonymous";

export function donorLabel(name: string | null | undefined): string {
  return name?.trim() ? name : ANONYMOUS_DONOR;
}

export function publicDonorLabel(name: string | null | undefined, anonymous: boolean | number): string {
  return anonymous ? ANONYMOUS_DONOR : donorLabel(name);
}

const COUNT = new Intl.NumberFormat("en-US");

/** "2,500": one way on every screen. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

const PLURAL = new Intl.PluralRules("en-US");

/** "1 statement", "2,500 donors". */
export function countOf(n: number, one: string, other: string): string {
  return `${formatCount(n)} ${PLURAL.select(n) === "one" ? one : other}`;
}
