// The donations CSV's columns, each declared once with its cell; `donationLine` is the reference writer.
// `fastPageSql` (export-page.ts) prints the same cells in SQL (decision 016): a column added here and not
// there fails test/donations/export-fast.test.ts.
import { csvCells, isoUtc, isoWithOffset } from "@core/csv";
import { toMajorString } from "@core/money";

/** The donor's cells come from the donor cache, not from here. */
export type RawRow = [
  id: string,
  number: number,
  donatedAt: number,
  status: string,
  mode: string,
  amountMinor: number,
  feeCoveredMinor: number,
  processingFeeMinor: number,
  platformFeeMinor: number,
  refundedMinor: number,
  currency: string,
  frequency: string,
  paymentMethod: string,
  gateway: string | null,
  gatewayTransactionId: string | null,
  campaignId: string | null,
  campaignTitle: string | null,
  itemTitle: string | null,
  campaignItemId: string | null,
  itemQuantity: number,
  donorId: string | null,
  anonymous: number,
  message: string | null,
  tributeType: string | null,
  tributeName: string | null,
  source: string,
];

/** `RawRow`'s columns, for `FROM donation d LEFT JOIN campaign c … LEFT JOIN campaign_item i …`. */
export const RAW_COLUMNS = `d.id, d.number, d.donated_at, d.status, d.mode, d.amount_minor, d.fee_covered_minor,
  d.processing_fee_minor, d.platform_fee_minor, d.refunded_minor, d.currency, d.frequency, d.payment_method, d.gateway,
  d.gateway_transaction_id, d.campaign_id, c.title, i.title, d.campaign_item_id, d.item_quantity, d.donor_id,
  d.anonymous, d.message, d.tribute_type, d.tribute_name, d.source`;

function giftOf(r: RawRow) {
  const [
    id,
    number,
    donatedAt,
    status,
    mode,
    amountMinor,
    feeCoveredMinor,
    processingFeeMinor,
    platformFeeMinor,
    refundedMinor,
    currency,
    frequency,
    paymentMethod,
    gateway,
    gatewayTransactionId,
    campaignId,
    campaignTitle,
    itemTitle,
    campaignItemId,
    itemQuantity,
    donorId,
    anonymous,
    message,
    tributeType,
    tributeName,
    source,
  ] = r;
  return {
    id,
    number,
    donatedAt,
    status,
    mode,
    amountMinor,
    feeCoveredMinor,
    processingFeeMinor,
    platformFeeMinor,
    refundedMinor,
    currency,
    frequency,
    paymentMethod,
    gateway,
    gatewayTransactionId,
    campaignId,
    campaignTitle,
    itemTitle,
    campaignItemId,
    itemQuantity,
    donorId,
    anonymous,
    message,
    tributeType,
    tributeName,
    source,
  };
}
type Gift = ReturnType<typeof giftOf>;
type LineOrg = { defaultCurrency: string; timeZone: string };
type Cell = (g: Gift, org: LineOrg) => unknown;

const money = (minor: number, g: Gift) => toMajorString(minor, g.currency);
// Gifts are stored unconverted: the base amount is known only in the organization's currency (decision 010).
const inBase = (g: Gift, org: LineOrg) => g.currency === org.defaultCurrency;

const GIFT_CELLS = [
  ["donation_number", (g) => g.number],
  ["donation_id", (g) => g.id],
  ["donated_at", (g) => isoUtc(g.donatedAt)],
  ["donated_at_local", (g, org) => isoWithOffset(g.donatedAt, org.timeZone)],
  ["status", (g) => g.status],
  ["mode", (g) => g.mode],
  ["amount", (g) => money(g.amountMinor, g)],
  ["fee_covered", (g) => money(g.feeCoveredMinor, g)],
  ["processing_fee", (g) => money(g.processingFeeMinor, g)],
  [
    "net_amount",
    (g) => money(g.amountMinor - g.refundedMinor - g.processingFeeMinor - g.platformFeeMinor, g),
  ],
  ["refunded_amount", (g) => money(g.refundedMinor, g)],
  ["currency", (g) => g.currency],
  ["base_amount", (g, org) => (inBase(g, org) ? money(g.amountMinor, g) : "")],
  ["base_currency", (g, org) => (inBase(g, org) ? g.currency : "")],
  ["exchange_rate", (g, org) => (inBase(g, org) ? "1" : "")],
  ["frequency", (g) => g.frequency],
  ["payment_method", (g) => g.paymentMethod],
  ["gateway", (g) => g.gateway],
  ["gateway_transaction_id", (g) => g.gatewayTransactionId],
  ["campaign_id", (g) => g.campaignId],
  ["campaign_title", (g) => g.campaignTitle],
  ["item_title", (g) => g.itemTitle],
  ["quantity", (g) => (g.campaignItemId ? g.itemQuantity : "")],
  ["donor_id", (g) => g.donorId],
] as const satisfies readonly (readonly [string, Cell])[];

/** Rendered once per donor (export-donors.ts). */
export const DONOR_CELLS = [
  ["donor_first_name", "dn.first_name"],
  ["donor_last_name", "dn.last_name"],
  ["donor_email", "dn.email"],
  ["donor_phone", "dn.phone"],
  ["company", "dn.company"],
  ["address_line1", "dn.address_line1"],
  ["address_line2", "dn.address_line2"],
  ["city", "dn.city"],
  ["state", "dn.region"],
  ["postal_code", "dn.postal_code"],
  ["country", "dn.country"],
] as const;

const TAIL_CELLS = [
  ["is_anonymous", (g) => (g.anonymous ? "yes" : "no")],
  ["public_message", (g) => g.message],
  ["tribute_type", (g) => g.tributeType],
  ["tribute_name", (g) => g.tributeName],
  ["source", (g) => g.source],
  // No table records a receipt: the column is kept, blank.
  ["receipt_sent_at", () => ""],
] as const satisfies readonly (readonly [string, Cell])[];

export const DONATION_COLUMNS = [...GIFT_CELLS, ...DONOR_CELLS, ...TAIL_CELLS].map(([header]) => header);

/** The donor's eleven cells come rendered, each followed by its comma. */
export function donationLine(r: RawRow, donorCells: string, org: LineOrg) {
  const g = giftOf(r);
  const cells = (table: readonly (readonly [string, Cell])[]) =>
    csvCells(table.map(([, cell]) => cell(g, org)));
  const head = cells(GIFT_CELLS);
  const tail = cells(TAIL_CELLS);
  return `${head},${donorCells}${tail}\r\n`;
}
