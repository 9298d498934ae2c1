/**
 * GET /api/export/donors.csv: the legacy donor export (the donors page builds its CSV in the
 * browser now). The donations export lives in ./donation-export.ts.
 */

import { csvCell, isoUtc } from "@core/csv";
import { toMajorString } from "@core/money";
import { getConfig } from "../config";
import { likeEscape } from "../lib/list";
import { exportAccess } from "./export-access";

export { handleDonationExport } from "./donation-export";
/** Kept for callers that imported it from here; the one implementation is worker/lib/csv.ts. */
export { csvCell };

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
  const access = await exportAccess(request, env, { donor: ["view"] });
  if (access instanceof Response) return access;
  const { org } = access;
  const config = getConfig(env);
  const params = new URL(request.url).searchParams;
  const where = ["dn.organization_id = ?", "dn.merged_into_id IS NULL"];
  const binds: unknown[] = [org.id];
  const q = params.get("q")?.trim();
  if (q) {
    const p = likeEscape(q);
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
        const iso = (v: unknown) => (typeof v === "number" ? isoUtc(v) : "");
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
