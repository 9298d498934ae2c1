/**
 * The words every screen and the public page use for the same things, once (issue 21): a payment
 * method by its own spelling ("PayPal", never "Paypal"), and a gift whose donor is not named.
 * Exports keep the stored codes ("paypal", like "partially_refunded"): a file's columns are data.
 */

/** The payment methods a gift may carry (docs/steering/research/domain.md §2, `paymentMethod`). */
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

/**
 * The longest method code a gift stores: a processor's own (a webhook's `paymentMethod`), which
 * the lists' and reports' method filters take too.
 */
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

/**
 * The frequency filters of /donations and /reports: each frequency (core/donation.ts
 * donationFrequencies), and "recurring" for every frequency but one_time, the dashboard's split.
 */
export const frequencyFilters = ["one_time", "recurring", "monthly", "quarterly", "annually"] as const;
export type FrequencyFilter = (typeof frequencyFilters)[number];

/** How a gift came in: the donation table's own set (donation_source_valid, worker/db/domain.ts). */
export const donationSources = ["manual", "online", "webhook", "import"] as const;
export type DonationSource = (typeof donationSources)[number];

/** A method's label; a code outside the list (a processor's own, from the webhook) reads as words. */
export function paymentMethodLabel(method: string): string {
  const known = (PAYMENT_METHOD_LABELS as Record<string, string | undefined>)[method];
  if (known) return known;
  const words = method.replace(/_/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Other";
}

/**
 * A gift without a named donor: no donor record, a donor without a name, or a donor who asked to
 * stay anonymous on public pages. One word, the one donors see on the public page.
 */
export const ANONYMOUS_DONOR = "Anonymous";

/** The name shown for a gift's donor in the portal: the name, or ANONYMOUS_DONOR. */
export function donorLabel(name: string | null | undefined): string {
  return name?.trim() ? name : ANONYMOUS_DONOR;
}

/** The name shown on public pages: ANONYMOUS_DONOR also when the donor asked to stay anonymous. */
export function publicDonorLabel(name: string | null | undefined, anonymous: boolean | number): string {
  return anonymous ? ANONYMOUS_DONOR : donorLabel(name);
}

const COUNT = new Intl.NumberFormat("en-US");

/** A count for people, with thousands separators ("2,500 donors"): one way on every screen. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}
