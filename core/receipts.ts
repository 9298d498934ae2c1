/** Tax receipts (decision 031): one schema for the form and tRPC (decision 022). */
import { z } from "zod/mini";

/** The language of a receipt's fixed words. */
export const receiptLanguages = ["en", "fr", "de", "es", "nl", "pt", "ja"] as const;
export type ReceiptLanguage = (typeof receiptLanguages)[number];
export const RECEIPT_LANGUAGE_LABELS: Readonly<Record<ReceiptLanguage, string>> = {
  en: "English",
  fr: "Français",
  de: "Deutsch",
  es: "Español",
  nl: "Nederlands",
  pt: "Português",
  ja: "日本語",
};

/** R-000042. */
const RECEIPT_NUMBER_DIGITS = 6;
export const RECEIPT_PREFIX_MAX = 12;
export function formatReceiptNumber(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(RECEIPT_NUMBER_DIGITS, "0")}`;
}

const text = (max: number) => z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max))));

export const receiptSettingsInput = z.strictObject({
  signatoryName: text(100),
  signatoryTitle: text(100),
  taxStatement: text(2000),
  // Part of a number people type and tax offices file.
  numberPrefix: z
    .string()
    .check(
      z.trim(),
      z.maxLength(RECEIPT_PREFIX_MAX),
      z.regex(/^[A-Za-z0-9_./-]*$/, "Use letters, digits and - _ / . only"),
    ),
  language: z.enum(receiptLanguages),
  autoSend: z.boolean(),
});
export type ReceiptSettingsInput = z.infer<typeof receiptSettingsInput>;

export const DEFAULT_RECEIPT_SETTINGS: Readonly<ReceiptSettingsInput> = {
  signatoryName: null,
  signatoryTitle: null,
  taxStatement: null,
  numberPrefix: "",
  language: "en",
  autoSend: false,
};

/**
 * Why a gift has no receipt, or null. Must agree with worker/ledger/receipt-issue.ts CALLS_FOR_RECEIPT
 * (test/receipts/ledger.test.ts checks).
 */
export function whyNoReceipt(g: {
  mode: string;
  status: string;
  trashed: boolean;
  source: string;
  hasDonor: boolean;
  donorAnonymized: boolean;
  amountMinor: number;
  refundedMinor: number;
  /** Recorded before receipts began in Almoner (org_counter 'receipts_from'). */
  beforeReceipts: boolean;
}): string | null {
  if (g.mode !== "live") return "Test-mode donations get no receipt.";
  if (g.trashed) return "A donation in the trash has no receipt.";
  if (g.beforeReceipts) return "Recorded before receipts began here: no receipt.";
  if (g.source === "import")
    return "Imported donations get no receipt here: the system they came from receipted them.";
  if (!g.hasDonor) return "A donation without a donor record gets no receipt.";
  if (g.donorAnonymized) return "The donor was anonymized: no receipt.";
  if (g.status !== "completed" && g.status !== "partially_refunded")
    return "Only completed donations get a receipt.";
  if (g.amountMinor - g.refundedMinor <= 0) return "Nothing of the donation is left to deduct: no receipt.";
  return null;
}

export const statementBases = ["calendar", "fiscal"] as const;
export type StatementBasis = (typeof statementBases)[number];
/** A typo like 20226 is refused, not looked up. */
export const STATEMENT_YEAR_MIN = 2000;
export const STATEMENT_YEAR_MAX = 2100;

/** [start, end) of a statement year in the organization's zone; a fiscal year is named by its start. */
export function statementPeriod(
  year: number,
  basis: StatementBasis,
  fiscalYearStartMonth: number,
  startOfDay: (day: string) => number,
): { start: number; end: number; label: string } {
  const month = basis === "fiscal" ? fiscalYearStartMonth : 1;
  const mm = String(month).padStart(2, "0");
  const start = startOfDay(`${year}-${mm}-01`);
  const end = startOfDay(`${year + 1}-${mm}-01`);
  return { start, end, label: yearLabel(year, month) };
}

/** "2026", or "FY 2026/27" for a year starting in another month. */
export function yearLabel(year: number, startMonth: number): string {
  return startMonth === 1 ? String(year) : `FY ${year}/${String((year + 1) % 100).padStart(2, "0")}`;
}

/** Why a receipt cannot be e-mailed, or null; worker/receipts/delivery.ts refuses in the same words. */
export function whyNoSend(r: { status: string; donorEmail: string | null; donorAnonymized: boolean }) {
  if (r.status !== "issued") return "A void receipt is not sent: its correction is.";
  if (r.donorAnonymized) return "The donor was anonymized: nothing is sent.";
  if (!r.donorEmail) return "The donor has no e-mail address.";
  return null;
}

/** Gifts per "Send receipts" call: each is a PDF and an e-mail, so a call stays around a second. */
export const RECEIPT_BULK_MAX = 10;
