// Donor stats and tier, recounted in SQL in the batch of the donation change (DESIGN §4). The tier is the
// rung whose [min, max) holds the donor's amount on its basis; a locked tier stays.
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../db/databases";
import type { Guard } from "../lib/guard";

/** Idempotent recounts; with `guard`, only if the change they follow landed (decision 020). */
export function donorStatsStatements(
  db: Database,
  organizationId: string,
  donorIds: string[],
  guard?: Guard,
): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  for (const id of new Set(donorIds.filter(Boolean))) {
    out.push(
      db
        .prepare(
          `${STATS_SET("?1")} WHERE id = ?1 AND organization_id = ?2${guard ? ` AND ${guard.sql(4)}` : ""}`,
        )
        .bind(id, organizationId, Date.now(), ...(guard?.args ?? [])),
    );
    out.push(tierStatement(db, organizationId, id, guard));
  }
  return out;
}

/** The stats columns recounted from the donor's counted gifts (`donor` names the donor's id). */
const STATS_SET = (donor: string) => `UPDATE donor SET
             lifetime_minor = (SELECT COALESCE(SUM(d.amount_minor - d.refunded_minor), 0) FROM donation d WHERE d.donor_id = ${donor} AND ${COUNTED_SQL("d")}),
             donation_count = (SELECT COUNT(*) FROM donation d WHERE d.donor_id = ${donor} AND ${COUNTED_SQL("d")}),
             largest_gift_minor = (SELECT COALESCE(MAX(d.amount_minor - d.refunded_minor), 0) FROM donation d WHERE d.donor_id = ${donor} AND ${COUNTED_SQL("d")}),
             first_gift_at = (SELECT MIN(d.donated_at) FROM donation d WHERE d.donor_id = ${donor} AND ${COUNTED_SQL("d")}),
             last_gift_at = (SELECT MAX(d.donated_at) FROM donation d WHERE d.donor_id = ${donor} AND ${COUNTED_SQL("d")}),
             updated_at = ?3`;

/** The same recount and tier for many donors at once (an import's batch, decision 028), ids as one JSON
 * parameter. The unary `+` keeps SQLite from walking an (organization_id, …) index over every donor. */
export function donorSetStatsStatements(
  db: Database,
  organizationId: string,
  donorIds: readonly string[],
  guard: Guard,
): D1PreparedStatement[] {
  const ids = JSON.stringify([...new Set(donorIds)]);
  const since = Date.now() - 365 * 86400_000;
  return [
    // The five figures in one pass over each donor's gifts (the single donor's form reads them five times).
    db
      .prepare(
        `UPDATE donor SET lifetime_minor = s.lifetime, donation_count = s.n, largest_gift_minor = s.largest,
                first_gift_at = s.first, last_gift_at = s.last, updated_at = ?3
           FROM (SELECT j.value AS id, COALESCE(SUM(d.amount_minor - d.refunded_minor), 0) AS lifetime, COUNT(d.id) AS n,
                        COALESCE(MAX(d.amount_minor - d.refunded_minor), 0) AS largest, MIN(d.donated_at) AS first,
                        MAX(d.donated_at) AS last
                   FROM json_each(?1) j LEFT JOIN donation d ON d.donor_id = j.value AND ${COUNTED_SQL("d")}
                  GROUP BY j.value) AS s
          WHERE donor.id = s.id AND +donor.organization_id = ?2 AND ${guard.sql(4)}`,
      )
      .bind(ids, organizationId, Date.now(), ...guard.args),
    db
      .prepare(
        `UPDATE donor SET
           previous_tier_id = CASE WHEN ${NEW_TIER} IS NOT tier_id THEN tier_id ELSE previous_tier_id END,
           tier_id = ${NEW_TIER}
         WHERE id IN (SELECT value FROM json_each(?2)) AND +organization_id = ?1 AND tier_locked = 0 AND ${guard.sql(4)}`,
      )
      .bind(organizationId, ids, since, ...guard.args),
  ];
}

const NEW_TIER = `(SELECT t.id FROM donor_tier t WHERE t.organization_id = donor.organization_id AND t.min_minor <=
    CASE t.basis WHEN 'lifetime' THEN donor.lifetime_minor ELSE
      (SELECT COALESCE(SUM(d.amount_minor - d.refunded_minor), 0) FROM donation d WHERE d.donor_id = donor.id AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3) END
    AND (t.max_minor IS NULL OR t.max_minor >
    CASE t.basis WHEN 'lifetime' THEN donor.lifetime_minor ELSE
      (SELECT COALESCE(SUM(d.amount_minor - d.refunded_minor), 0) FROM donation d WHERE d.donor_id = donor.id AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3) END)
    ORDER BY t.min_minor DESC LIMIT 1)`;

/** The tier UPDATE of one donor or of every donor: ?1 organization, ?2 donor, ?3 the 12 months' start. */
export function tierSql(oneDonor: boolean, guard?: Guard) {
  // Two forms, not `(?2 IS NULL OR id = ?2)`: with that, SQLite walks donor_org_tier_idx over every donor
  // for each gift's write. One donor is found by its id, its organization checked on the row (`+`).
  const which = oneDonor ? "id = ?2 AND +organization_id = ?1" : "organization_id = ?1";
  return `UPDATE donor SET
         previous_tier_id = CASE WHEN ${NEW_TIER} IS NOT tier_id THEN tier_id ELSE previous_tier_id END,
         tier_id = ${NEW_TIER}
       WHERE ${which} AND tier_locked = 0${guard ? ` AND ${guard.sql(4)}` : ""}`;
}

export function tierStatement(db: Database, organizationId: string, donorId: string | null, guard?: Guard) {
  const since = Date.now() - 365 * 86400_000;
  return db
    .prepare(tierSql(donorId !== null, guard))
    .bind(organizationId, donorId, since, ...(guard?.args ?? []));
}
