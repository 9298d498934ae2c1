/**
 * Receipts and year-end statements as PDF (decision 031, "PDF in the Worker"): pdfkit 0.20's browser
 * build (scripts/vite-pdfkit.mjs), A4, Noto Sans subset per document, Noto Sans JP only for CJK text.
 * A receipt is drawn from its snapshot (worker/ledger/receipt-issue.ts), so a reprint is the same
 * document after the donor or the profile changed. pdfkit loads with the first document (own chunk).
 */
import { receiptLanguages } from "@core/receipts";

import type { ReceiptSnapshot, SnapshotAddress } from "../../ledger/receipt-snapshot";

export interface ReceiptPdfInput {
  snapshot: ReceiptSnapshot;
  /** Formatted, e.g. "R-000042" (core/receipts.ts formatReceiptNumber). */
  number: string;
  kind: "original" | "correction";
  /** The formatted number of the receipt a correction replaces. */
  replacesNumber: string | null;
  status: "issued" | "void";
  /** ms */
  issuedAt: number;
  amountMinor: number;
  deductibleMinor: number;
  currency: string;
  /** Why a void receipt is void, in the donor's terms and language; the staff's reason is never printed. */
  voidCause?: "replaced" | "refunded" | "cancelled" | null;
  /** The formatted number of the correction that replaces a void receipt, when one does. */
  replacedBy?: string | null;
}

export interface StatementGift {
  /** null: an imported gift, receipted by the system the organization used before (decision 048). */
  receiptNumber: string | null;
  /** ms */
  donatedAt: number;
  campaign: string | null;
  currency: string;
  amountMinor: number;
  deductibleMinor: number;
}

export interface StatementPdfInput {
  /** The organization's identity as it is now (a statement is made today, not reprinted). */
  organization: ReceiptSnapshot["organization"];
  settings: ReceiptSnapshot["settings"];
  donor: { name: string | null; company: string | null; address: SnapshotAddress };
  /** `end` is exclusive; both ms. */
  period: { label: string; start: number; end: number };
  gifts: StatementGift[];
  /** ms */
  generatedAt: number;
}

/** A receipt as PDF bytes (A4, one page unless a long tax statement needs a second). */
export async function renderReceiptPdf(env: Env, input: ReceiptPdfInput): Promise<Uint8Array> {
  const { drawReceipt } = await import("./receipt");
  return drawReceipt(env, input);
}

/** A donor's year-end statement as PDF bytes: every gift in a table paginated with its header. */
export async function renderStatementPdf(env: Env, input: StatementPdfInput): Promise<Uint8Array> {
  const { drawStatement } = await import("./statement");
  return drawStatement(env, input);
}

const LANGUAGES: ReadonlySet<string> = new Set(receiptLanguages);

/**
 * The locale money and dates are written in: the receipt's language in the organization's country
 * ("fr" + "FR" → "fr-FR", "en" + null → "en"); a language outside receiptLanguages reads as English.
 */
export function receiptLocale(language: string, country: string | null | undefined): string {
  const lang = LANGUAGES.has(language) ? language : "en";
  const region = country?.trim().toUpperCase();
  if (region && /^[A-Z]{2}$/.test(region)) {
    try {
      return Intl.getCanonicalLocales(`${lang}-${region}`)[0] ?? lang;
    } catch {
      return lang;
    }
  }
  return lang;
}
