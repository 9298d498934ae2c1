/**
 * GET /api/export/donations.csv?<filters>: the current filters, no pagination, streamed in pages of
 * 1 000 rows (flat memory), UTF-8 BOM, RFC 4180 quoting, formula cells prefixed with ' (OWASP CSV
 * injection), amounts in major units with a currency column, ISO dates (DESIGN §4 exports).
 */
import { hasOrgPermission } from "../access/permissions";
import { getSessionFromRequest } from "../auth";
import { getConfig } from "../config";
import { toMajorString } from "../lib/money";
import { resolveOrganization } from "../trpc/org";
import { type DonationRow, donationFilters, donationWhere, FROM, SELECT } from "../trpc/routers/donations";
import { json } from "./headers";

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const COLUMNS = [
  "number",
  "donated_at",
  "status",
  "amount",
  "refunded",
  "net",
  "currency",
  "donor_name",
  "donor_email",
  "campaign",
  "payment_method",
  "frequency",
  "source",
  "mode",
  "anonymous",
  "message",
];

export async function handleDonationExport(request: Request, env: Env): Promise<Response> {
  const auth = await getSessionFromRequest(request, env);
  if (!auth) return json({ code: "UNAUTHORIZED", message: "Unauthorized" }, { status: 401 });
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
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = donationFilters.safeParse({
    ...params,
    status: params.status ? params.status.split(",") : undefined,
    minAmountMinor: params.minAmountMinor ? Number(params.minAmountMinor) : undefined,
    maxAmountMinor: params.maxAmountMinor ? Number(params.maxAmountMinor) : undefined,
    trashed: params.trashed === "true",
  });
  if (!parsed.success)
    return json({ code: "BAD_REQUEST", message: "Invalid export filters" }, { status: 400 });
  const w = donationWhere(org.id, org.timeZone, parsed.data);
  const whereSql = `WHERE ${w.sql.join(" AND ")}`;
  const encoder = new TextEncoder();
  let lastDate = Number.MAX_SAFE_INTEGER;
  let lastId = "\uffff";
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${COLUMNS.join(",")}\r\n`));
    },
    async pull(controller) {
      // Keyset pagination: constant cost per page however deep the export goes.
      const { results } = await env.DB.prepare(
        `SELECT ${SELECT} FROM ${FROM} ${whereSql} AND (d.donated_at < ? OR (d.donated_at = ? AND d.id < ?)) ORDER BY d.donated_at DESC, d.id DESC LIMIT 1000`,
      )
        .bind(...w.params, lastDate, lastDate, lastId)
        .all<DonationRow>();
      if (!results.length) {
        controller.close();
        return;
      }
      let chunk = "";
      for (const r of results) {
        chunk += `${[
          r.number,
          new Date(r.donated_at).toISOString(),
          r.status,
          toMajorString(r.amount_minor, r.currency),
          toMajorString(r.refunded_minor, r.currency),
          toMajorString(
            r.amount_minor - r.refunded_minor - r.processing_fee_minor - r.platform_fee_minor,
            r.currency,
          ),
          r.currency,
          r.donor_name,
          r.donor_email,
          r.campaign_title,
          r.payment_method,
          r.frequency,
          r.source,
          r.mode,
          r.anonymous ? "yes" : "no",
          r.message,
        ]
          .map(csvCell)
          .join(",")}\r\n`;
      }
      const last = results[results.length - 1] as DonationRow;
      lastDate = last.donated_at;
      lastId = last.id;
      controller.enqueue(encoder.encode(chunk));
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="donations-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
}
