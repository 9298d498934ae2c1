/**
 * Refunds and ledger rows in an import (issue 55): what a "Refunded" flag says, which rows of a
 * transactions export are gifts, refunds of a gift, or not gifts at all. Pure data and rules, shared
 * by the page (auto-mapping) and the Worker (every row).
 */
import { isBlank, type Parsed, parseBoolean, parseDate } from "./values.ts";

/** What a transaction's type or kind says the row is. */
export type TransactionRole =
  | { role: "gift" }
  | { role: "refund" }
  /** A debit says money left, not why: a refund only when the row names the gift it refunds. */
  | { role: "debit" }
  | { role: "other"; what: string };

const gift = { role: "gift" } as const;
const refund = { role: "refund" } as const;
const other = (what: string) => ({ role: "other", what }) as const;

/** Open Collective's kinds (CONTRIBUTION, HOST_FEE…), CREDIT/DEBIT, and the words other ledgers use. */
export const TRANSACTION_KINDS: Readonly<Record<string, TransactionRole>> = {
  credit: gift,
  contribution: gift,
  donation: gift,
  gift,
  "added funds": gift,
  "prepaid payment method": gift,
  charge: gift,
  sale: gift,
  debit: { role: "debit" },
  refund,
  refunded: refund,
  reversal: refund,
  reversed: refund,
  chargeback: refund,
  expense: other("an expense"),
  "host fee": other("a host fee"),
  "host fee share": other("a host fee"),
  "host fee share debt": other("a host fee"),
  "payment processor fee": other("a payment processor fee"),
  "payment processor cover": other("a payment processor fee"),
  "payment processor dispute fee": other("a payment processor fee"),
  "platform fee": other("a platform fee"),
  "platform tip": other("a tip to the platform"),
  "platform tip debt": other("a tip to the platform"),
  fee: other("a fee"),
  tax: other("a tax"),
  payout: other("a payout"),
  transfer: other("a transfer"),
  "balance transfer": other("a transfer"),
  adjustment: other("an adjustment"),
};

const foldKind = (s: string) =>
  s
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

export function parseTransactionKind(text: string): Parsed<TransactionRole> {
  const v = Object.hasOwn(TRANSACTION_KINDS, foldKind(text)) ? TRANSACTION_KINDS[foldKind(text)] : undefined;
  return v
    ? { ok: true, value: v }
    : { ok: false, problem: `"${text.trim()}" is not a known transaction type` };
}

/** A "Refunded" cell: yes/no, or the day of the refund (a date is a yes, even one of unclear order). */
export function parseRefundedFlag(text: string): Parsed<boolean> {
  const b = parseBoolean(text);
  if (b.ok) return b;
  const d = parseDate(text, { order: "auto", timeZone: "UTC" });
  if (d.ok || d.problem.startsWith("Ambiguous date")) return { ok: true, value: true };
  return { ok: false, problem: `"${text.trim()}" is neither yes, no nor the day of a refund` };
}

/** Whether a column's sample cells all read as `parse` does (blanks aside), and at least one does. */
export function samplesFit(values: readonly string[], parse: (t: string) => Parsed<unknown>): boolean {
  const given = values.filter((v) => !isBlank(v));
  return given.length > 0 && given.every((v) => parse(v).ok);
}

/** Headers that may hold a refunded flag, and a transaction's type, when their cells say so. */
export const REFUNDED_FLAG_HEADERS = [
  "refunded",
  "is refunded",
  "refund",
  "is refund",
  "refund date",
  "refunded at",
  "refunded on",
  "date refunded",
];
export const TRANSACTION_KIND_HEADERS = [
  "kind",
  "transaction kind",
  "transaction type",
  "type",
  "credit debit",
];

/**
 * What a row is: a gift, the refund of a gift, or something else of the ledger (skipped with the
 * reason). A negative amount is money going back; a refund kind, or a debit, says the same.
 */
export function rowRole(o: {
  kind: TransactionRole | null;
  negative: boolean;
}): "gift" | "refund" | { skip: string } {
  const k = o.kind;
  if (k?.role === "other") return { skip: `Not a donation: ${k.what}` };
  if (k?.role === "refund" || k?.role === "debit" || o.negative) return "refund";
  return "gift";
}
