/**
 * GET /api/export/donations.csv?<filters>: the current filters of /donations, no pagination,
 * streamed in keyset pages of 5 000 rows (flat memory, never truncated), written by the shared CSV
 * module (worker/lib/csv.ts: UTF-8 BOM, RFC 4180 quoting, formula cells prefixed with ').
 * Columns: domain.md §5.1; amounts in major units with a currency column, ISO 8601 dates.
 */
import { hasOrgPermission } from "../access/permissions";
import { getSessionFromRequest } from "../auth";
import { getConfig } from "../config";
import { auditStatement } from "../lib/audit";
import { CSV_BOM, csvCell, csvRow, isoWithOffset } from "../lib/csv";
import { toMajorString } from "../lib/money";
import { resolveOrganization } from "../trpc/org";
import { donationFilters, donationWhere, FROM } from "../trpc/routers/donations";
import { json } from "./headers";

/** Kept for callers that imported it from here; the one implementation is worker/lib/csv.ts. */
export { csvCell };

export const DONATION_COLUMNS = [
  "donation_number",
  "donation_id",
  "donated_at",
  "donated_at_local",
  "status",
  "mode",
  "amount",
  "fee_covered",
  "processing_fee",
  "net_amount",
  "refunded_amount",
  "currency",
  "base_amount",
  "base_currency",
  "exchange_rate",
  "frequency",
  "payment_method",
  "gateway",
  "gateway_transaction_id",
  "campaign_id",
  "campaign_title",
  "item_title",
  "quantity",
  "donor_id",
  "donor_first_name",
  "donor_last_name",
  "donor_email",
  "donor_phone",
  "company",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "postal_code",
  "country",
  "is_anonymous",
  "public_message",
  "tribute_type",
  "tribute_name",
  "source",
  "receipt_sent_at",
] as const;

/** The columns the CSV needs and nothing else (not d.*): less for D1 to read and hand over. */
const EXPORT_SELECT = `d.id, d.number, d.donated_at, d.status, d.mode, d.amount_minor, d.fee_covered_minor,
  d.processing_fee_minor, d.platform_fee_minor, d.refunded_minor, d.currency, d.frequency, d.payment_method, d.gateway,
  d.gateway_transaction_id, d.campaign_id, c.title AS campaign_title, i.title AS item_title, d.campaign_item_id,
  d.item_quantity, d.donor_id, dn.first_name, dn.last_name, dn.email, dn.phone, dn.company, dn.address_line1,
  dn.address_line2, dn.city, dn.region, dn.postal_code, dn.country, d.anonymous, d.message, d.tribute_type,
  d.tribute_name, d.source`;

/** One row of EXPORT_SELECT as D1's raw() hands it over (arrays: no object per row). */
type ExportRow = [
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
  firstName: string | null,
  lastName: string | null,
  email: string | null,
  phone: string | null,
  company: string | null,
  addressLine1: string | null,
  addressLine2: string | null,
  city: string | null,
  region: string | null,
  postalCode: string | null,
  country: string | null,
  anonymous: number,
  message: string | null,
  tributeType: string | null,
  tributeName: string | null,
  source: string,
];

/** Rows per keyset page: one page in memory at a time. */
const EXPORT_PAGE = 5000;

/** The export's filters from the query string: the list's own schema, so both select the same rows. */
export function parseDonationExportFilters(searchParams: URLSearchParams) {
  const params = Object.fromEntries(searchParams);
  const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
  return donationFilters.safeParse({
    ...params,
    status: params.status ? params.status.split(",") : undefined,
    minAmountMinor: num(params.minAmountMinor),
    maxAmountMinor: num(params.maxAmountMinor),
    trashed: params.trashed === "true",
  });
}

export async function handleDonationExport(request: Request, env: Env): Promise<Response> {
  const auth = await getSessionFromRequest(request, env);
  if (!auth) return json({ code: "UNAUTHORIZED", message: "Unauthorized" }, { status: 401 });
  if (auth.session.impersonatedBy)
    return json(
      { code: "FORBIDDEN", message: "Exports are not available while impersonating" },
      { status: 403 },
    );
  const config = getConfig(env);
  const org = await resolveOrganization(env.DB, auth.user, config);
  if (
    !org ||
    !hasOrgPermission(
      { userId: auth.user.id, role: auth.user.role },
      org.role,
      { export: ["create"], donation: ["view"] },
      config.auth.adminUserIds,
    )
  ) {
    return json(
      { code: "FORBIDDEN", message: "You are not allowed to access resource: export" },
      { status: 403 },
    );
  }
  const parsed = parseDonationExportFilters(new URL(request.url).searchParams);
  if (!parsed.success)
    return json({ code: "BAD_REQUEST", message: "Invalid export filters" }, { status: 400 });
  const w = donationWhere(org.id, org.timeZone, parsed.data);
  const whereSql = `WHERE ${w.sql.join(" AND ")}`;
  // Who exported what (domain.md §5.2): the filters, before the first byte leaves.
  await auditStatement(
    { env, user: auth.user, org },
    { action: "donation.export", entityType: "donation", entityId: "export", after: parsed.data },
  ).run();
  const encoder = new TextEncoder();
  // Keyset pagination: constant cost per page however deep the export goes. The bound is written
  // as a range on donated_at (<=) so SQLite seeks donation_org_date_idx to it; the equivalent
  // "donated_at < ? OR (donated_at = ? AND id < ?)" made it walk the index from the newest gift on
  // every page (quadratic: 2 300 rows/s at 200 000 gifts).
  const page = env.DB.prepare(
    `SELECT ${EXPORT_SELECT}
       FROM ${FROM} LEFT JOIN campaign_item i ON i.id = d.campaign_item_id
       ${whereSql} AND d.donated_at <= ? AND (d.donated_at < ? OR d.id < ?)
       ORDER BY d.donated_at DESC, d.id DESC LIMIT ${EXPORT_PAGE}`,
  );
  const fetchAfter = (date: number, id: string) => page.bind(...w.params, date, date, id).raw<ExportRow>();
  // The next page is asked for as soon as a page arrives, so D1 reads it while this one is
  // formatted: two pages in memory at most, whatever the row count.
  let next: Promise<ExportRow[]> | null = fetchAfter(Number.MAX_SAFE_INTEGER, "\uffff");
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRow(DONATION_COLUMNS)));
    },
    async pull(controller) {
      const results = next ? await next : [];
      if (!results.length) {
        next = null;
        controller.close();
        return;
      }
      const last = results[results.length - 1] as ExportRow;
      next = results.length < EXPORT_PAGE ? null : fetchAfter(last[2], last[0]);
      let chunk = "";
      for (const row of results) {
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
          cur,
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
          firstName,
          lastName,
          email,
          phone,
          company,
          addressLine1,
          addressLine2,
          city,
          region,
          postalCode,
          country,
          anonymous,
          message,
          tributeType,
          tributeName,
          source,
        ] = row;
        // Gifts are stored in their own currency without conversion: the base amount is known only
        // when that is the organization's currency (docs/decisions/010-donations-analytics-and-export.md).
        const inBase = cur === org.defaultCurrency;
        const amount = toMajorString(amountMinor, cur);
        chunk += csvRow([
          number,
          id,
          new Date(donatedAt).toISOString(),
          isoWithOffset(donatedAt, org.timeZone),
          status,
          mode,
          amount,
          toMajorString(feeCoveredMinor, cur),
          toMajorString(processingFeeMinor, cur),
          toMajorString(amountMinor - refundedMinor - processingFeeMinor - platformFeeMinor, cur),
          toMajorString(refundedMinor, cur),
          cur,
          inBase ? amount : "",
          inBase ? cur : "",
          inBase ? "1" : "",
          frequency,
          paymentMethod,
          gateway,
          gatewayTransactionId,
          campaignId,
          campaignTitle,
          itemTitle,
          campaignItemId ? itemQuantity : "",
          donorId,
          firstName,
          lastName,
          email,
          phone,
          company,
          addressLine1,
          addressLine2,
          city,
          region,
          postalCode,
          country,
          anonymous ? "yes" : "no",
          message,
          tributeType,
          tributeName,
          source,
          "",
        ]);
      }
      controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      // The client went away: let a page in flight settle without an unhandled rejection.
      next?.catch(() => {});
      next = null;
    },
  });
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${org.slug}-donations-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}

const DONOR_COLUMNS = [
  "name",
  "type",
  "email",
  "phone",
  "company",
  "city",
  "postal_code",
  "country",
  "tier",
  "lifetime",
  "gifts",
  "first_gift",
  "last_gift",
  "email_opt_in",
  "tags",
];

/** GET /api/export/donors.csv?q=&tagId=&tierId=: every donor of the current filters, streamed. */
export async function handleDonorExport(request: Request, env: Env): Promise<Response> {
  const auth = await getSessionFromRequest(request, env);
  if (!auth) return json({ code: "UNAUTHORIZED", message: "Unauthorized" }, { status: 401 });
  if (auth.session.impersonatedBy)
    return json(
      { code: "FORBIDDEN", message: "Exports are not available while impersonating" },
      { status: 403 },
    );
  const config = getConfig(env);
  const org = await resolveOrganization(env.DB, auth.user, config);
  if (
    !org ||
    !hasOrgPermission(
      { userId: auth.user.id, role: auth.user.role },
      org.role,
      { export: ["create"], donor: ["view"] },
      config.auth.adminUserIds,
    )
  ) {
    return json(
      { code: "FORBIDDEN", message: "You are not allowed to access resource: export" },
      { status: 403 },
    );
  }
  const params = new URL(request.url).searchParams;
  const where = ["dn.organization_id = ?", "dn.merged_into_id IS NULL"];
  const binds: unknown[] = [org.id];
  const q = params.get("q")?.trim().toLowerCase();
  if (q) {
    const p = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      "(lower(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')) LIKE ? ESCAPE '\\' OR dn.email LIKE ? ESCAPE '\\' OR lower(dn.company) LIKE ? ESCAPE '\\')",
    );
    binds.push(p, p, p);
  }
  if (params.get("tagId")) {
    where.push("EXISTS (SELECT 1 FROM donor_tag_assignment a WHERE a.donor_id = dn.id AND a.tag_id = ?)");
    binds.push(params.get("tagId"));
  }
  if (params.get("tierId")) {
    where.push("dn.tier_id = ?");
    binds.push(params.get("tierId"));
  }
  const encoder = new TextEncoder();
  let lastId = "";
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${DONOR_COLUMNS.join(",")}\r\n`));
    },
    async pull(controller) {
      const { results } = await env.DB.prepare(
        `SELECT dn.*, t.name AS tier_name, (SELECT group_concat(g.name, '; ') FROM donor_tag_assignment a JOIN donor_tag g ON g.id = a.tag_id WHERE a.donor_id = dn.id) AS tags
           FROM donor dn LEFT JOIN donor_tier t ON t.id = dn.tier_id WHERE ${where.join(" AND ")} AND dn.id > ? ORDER BY dn.id LIMIT 2000`,
      )
        .bind(...binds, lastId)
        .all<Record<string, string | number | null>>();
      if (!results.length) {
        controller.close();
        return;
      }
      let chunk = "";
      for (const r of results) {
        const anonymized = r.anonymized_at !== null;
        const name = anonymized
          ? "Anonymized"
          : [r.first_name, r.last_name].filter(Boolean).join(" ") || r.company || r.email;
        const iso = (v: unknown) => (typeof v === "number" ? new Date(v).toISOString() : "");
        chunk += `${[
          name,
          r.type,
          r.email,
          r.phone,
          r.company,
          r.city,
          r.postal_code,
          r.country,
          r.tier_name,
          toMajorString(Number(r.lifetime_minor ?? 0), config.money.defaultCurrency),
          r.donation_count,
          iso(r.first_gift_at),
          iso(r.last_gift_at),
          r.email_opt_in ? "yes" : "no",
          r.tags,
        ]
          .map(csvCell)
          .join(",")}\r\n`;
      }
      lastId = String(results[results.length - 1]?.id ?? "");
      controller.enqueue(encoder.encode(chunk));
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="donors-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    },
  });
}
