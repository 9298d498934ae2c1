/**
 * GET /api/export/donations.csv?<filters>: the current filters, no pagination, streamed in pages of
 * 5 000 rows (flat memory), UTF-8 BOM, RFC 4180 quoting, formula cells prefixed with ' (OWASP CSV
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
        `SELECT ${SELECT} FROM ${FROM} ${whereSql} AND (d.donated_at < ? OR (d.donated_at = ? AND d.id < ?)) ORDER BY d.donated_at DESC, d.id DESC LIMIT 5000`,
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
