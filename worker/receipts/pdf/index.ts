/**
 * Receipts and year-end statements as PDF (issue 25, docs/decisions/031-receipts.md "PDF in the
 * Worker"): pdfkit 0.20 (browser build, no WOFF2 decoder; scripts/vite-pdfkit.mjs), A4, Noto Sans
 * embedded and subset per document, Noto Sans JP added only when the document has CJK text; the
 * fonts come from the static assets (fonts.ts), the logo from D1 media (logo.ts).
 *
 * A receipt is drawn from its snapshot (worker/receipts/ledger.ts SNAPSHOT), so a reprint is the
 * same document after the donor or the profile changed; money and dates read in the
 * organization's locale (`receiptLocale`), each amount in its own currency, each date in the
 * organization's time zone.
 *
 * pdfkit is loaded on the first document only (a chunk of its own), so the Worker's start-up does
 * not pay for it.
 */
import { receiptLanguages } from "@core/receipts";

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

/** What a receipt says, as of its issue: the JSON of worker/receipts/ledger.ts SNAPSHOT. */
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
  voidReason?: string | null;
}

export interface StatementGift {
  receiptNumber: string;
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
 * The locale money and dates are written in: the receipt's language in the organization's
 * country. "fr" + "FR" → "fr-FR", "en" + "us" → "en-US", "en" + null → "en"; a language outside
 * core/receipts.ts receiptLanguages reads as English.
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
