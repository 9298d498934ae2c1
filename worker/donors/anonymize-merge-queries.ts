// Anonymize and merge rewrite records across tables; every statement applies only if its claim landed
// (decision 020).
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../db/databases";
import { CAMPAIGN_SCOPE, ORG_SCOPE } from "../ledger/rollup-sql";
import type { Guard } from "../lib/guard";
import type { DonorRow } from "./queries";

/** The donor and every record merged into it. Binds ?1 id, ?2 org. */
const IDS = `(SELECT ?1 UNION SELECT id FROM donor WHERE merged_into_id = ?1 AND organization_id = ?2)`;

/** The keys of audit before/after values that may hold personal data. */
const PII_KEYS = [
  "firstName",
  "lastName",
  "company",
  "email",
  "alternateEmail",
  "phone",
  "addressLine1",
  "city",
  "region",
  "postalCode",
  "externalId",
  "name",
  "donorName",
  "donorEmail",
  "message",
  "tributeName",
  "internalNote",
  "source",
  "target",
  // Where a receipt or thank-you was e-mailed (worker/receipts/delivery.ts).
  "to",
]
  .map((k) => `'$.${k}'`)
  .join(", ");

const scrub = (col: string) =>
  `${col} = CASE WHEN json_valid(${col}) AND json_type(${col}) = 'object' THEN json_remove(${col}, ${PII_KEYS}) ELSE NULL END`;

// The anonymization's claim (decision 020): still its own record (a merge landing meanwhile would move its
// gifts out with their personal data), not anonymized yet, with the confirmed e-mail.
export const anonymizableGuard = (d: { id: string; email: string | null }, orgId: string): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM donor WHERE id = ?${p} AND organization_id = ?${p + 1} AND merged_into_id IS NULL
                 AND anonymized_at IS NULL AND email IS ?${p + 2})`,
  args: [d.id, orgId, d.email],
});

export function anonymizeStatements(
  db: Database,
  d: Pick<DonorRow, "id" | "email" | "first_name" | "last_name" | "company">,
  orgId: string,
  now: number,
  claimed: Guard,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE donor SET first_name = NULL, last_name = NULL, company = NULL, email = NULL, phone = NULL, address_line1 = NULL, address_line2 = NULL, city = NULL, region = NULL,
               postal_code = NULL, external_id = NULL, email_opt_in = 0, phone_opt_in = 0, mail_opt_in = 0, anonymized_at = ?3, updated_at = ?3
             WHERE organization_id = ?2 AND id IN ${IDS} AND ${claimed.sql(4)}`,
      )
      .bind(d.id, orgId, now, ...claimed.args),
    db
      .prepare(
        `DELETE FROM donor_note WHERE organization_id = ?2 AND donor_id IN ${IDS} AND ${claimed.sql(3)}`,
      )
      .bind(d.id, orgId, ...claimed.args),
    // The other addresses and numbers merges kept (decision 052) are personal data too.
    db
      .prepare(
        `DELETE FROM donor_contact WHERE organization_id = ?2 AND donor_id IN ${IDS} AND ${claimed.sql(3)}`,
      )
      .bind(d.id, orgId, ...claimed.args),
    db
      .prepare(
        `UPDATE donation SET message = NULL, tribute_name = NULL, internal_note = NULL WHERE organization_id = ?2 AND donor_id IN ${IDS} AND ${claimed.sql(3)}`,
      )
      .bind(d.id, orgId, ...claimed.args),
    // Their receipts stay (numbered tax records, decision 031) without what named them.
    db
      .prepare(
        `UPDATE receipt SET snapshot = json_set(snapshot, '$.donor', json_object('name', 'Anonymized'), '$.gift.tributeName', NULL)
          WHERE organization_id = ?2 AND donor_id IN ${IDS} AND ${claimed.sql(3)}`,
      )
      .bind(d.id, orgId, ...claimed.args),
    // Nor where they were e-mailed; a receipt still waiting to go never will.
    db
      .prepare(
        `UPDATE receipt SET sent_to = NULL,
                delivery = CASE WHEN delivery IN ('queued','sending') THEN 'failed' ELSE delivery END,
                delivery_error = CASE WHEN delivery IN ('queued','sending') THEN 'The donor was anonymized: nothing is sent.' ELSE delivery_error END
          WHERE organization_id = ?2 AND donor_id IN ${IDS} AND ${claimed.sql(3)}`,
      )
      .bind(d.id, orgId, ...claimed.args),
    db
      .prepare(
        `UPDATE acknowledgement SET sent_to = 'anonymized' WHERE organization_id = ?2 AND donor_id IN ${IDS} AND ${claimed.sql(3)}`,
      )
      .bind(d.id, orgId, ...claimed.args),
    db
      .prepare(
        `UPDATE audit_event SET ${scrub("before")}, ${scrub("after")}
             WHERE organization_id = ?2 AND ((entity_type = 'donor' AND entity_id IN ${IDS})
               OR (entity_type IN ('donation','acknowledgement') AND entity_id IN (SELECT id FROM donation WHERE organization_id = ?2 AND donor_id IN ${IDS}))
               OR (entity_type = 'receipt' AND entity_id IN (SELECT id FROM receipt WHERE organization_id = ?2 AND donor_id IN ${IDS})))
               AND ${claimed.sql(3)}`,
      )
      .bind(d.id, orgId, ...claimed.args),
    // An export searched by this donor's e-mail or name keeps its audit row, not the search.
    ...[d.email, [d.first_name, d.last_name].filter(Boolean).join(" "), d.last_name, d.company]
      .filter((v): v is string => !!v && v.length >= 3)
      .map((v) =>
        db
          .prepare(
            `UPDATE audit_event SET after = json_remove(after, '$.q') WHERE organization_id = ?1 AND action = 'donor.export'
                   AND json_valid(after) AND instr(lower(COALESCE(json_extract(after, '$.q'), '')), lower(?2)) > 0
                   AND ${claimed.sql(3)}`,
          )
          .bind(orgId, v, ...claimed.args),
      ),
  ];
}

/** The survivor's stats by the same counted-donation rule as donorStatsStatements. */
export async function mergePreview(db: Database, sourceId: string, targetId: string) {
  const both = JSON.stringify([sourceId, targetId]);
  const [counts, after] = await db.batch([
    db
      .prepare(
        `SELECT (SELECT count(*) FROM donation WHERE donor_id = ?1) AS donations,
                    (SELECT count(*) FROM donor_note WHERE donor_id = ?1) AS notes,
                    (SELECT count(*) FROM donor_tag_assignment WHERE donor_id = ?1 AND tag_id NOT IN (SELECT tag_id FROM donor_tag_assignment WHERE donor_id = ?2)) AS tags`,
      )
      .bind(sourceId, targetId),
    db
      .prepare(
        `SELECT COALESCE(SUM(d.amount_minor - d.refunded_minor), 0) AS lifetimeMinor, COUNT(*) AS donationCount
               FROM donation d WHERE d.donor_id IN (SELECT value FROM json_each(?)) AND ${COUNTED_SQL("d")}`,
      )
      .bind(both),
  ]);
  return {
    counts: (counts?.results[0] ?? { donations: 0, notes: 0, tags: 0 }) as {
      donations: number;
      notes: number;
      tags: number;
    },
    result: (after?.results[0] ?? { lifetimeMinor: 0, donationCount: 0 }) as {
      lifetimeMinor: number;
      donationCount: number;
    },
  };
}

/** The merge's claim (decision 020): both unmerged, not anonymized; the source's e-mail and phone as read. */
export const mergeClaim = (
  source: { id: string; email: string | null; phone: string | null },
  targetId: string,
  orgId: string,
): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM donor s WHERE s.id = ?${p} AND s.organization_id = ?${p + 2} AND s.merged_into_id IS NULL
              AND s.anonymized_at IS NULL AND s.email IS ?${p + 3} AND s.phone IS ?${p + 4})
           AND EXISTS (SELECT 1 FROM donor t WHERE t.id = ?${p + 1} AND t.organization_id = ?${p + 2} AND t.merged_into_id IS NULL
              AND t.anonymized_at IS NULL)`,
  args: [source.id, targetId, orgId, source.email, source.phone],
});

// Moved donations get a fresh change token, so a write that read them before loses its race. The target
// takes the source's e-mail and phone if it has none, else keeps them as other addresses (decision 052).
export function mergeStatements(
  db: Database,
  m: {
    source: { id: string; email: string | null; phone: string | null };
    targetId: string;
    orgId: string;
    now: number;
  },
  claimed: Guard,
): D1PreparedStatement[] {
  const { source, targetId, orgId, now } = m;
  return [
    db
      .prepare(
        `UPDATE donation SET donor_id = ?1, updated_at = ?2, change_token = lower(hex(randomblob(16)))
              WHERE donor_id = ?3 AND organization_id = ?4 AND ${claimed.sql(5)}`,
      )
      .bind(targetId, now, source.id, orgId, ...claimed.args),
    // The source's rollup rows (decisions 032, 037) become the target's, under its sketch value;
    // periods both gave in add up.
    ...[ORG_SCOPE, CAMPAIGN_SCOPE].flatMap((scope) => {
      const mine =
        scope === ORG_SCOPE
          ? "organization_id = ?3"
          : "campaign_id IN (SELECT id FROM campaign WHERE organization_id = ?3)";
      return [
        db
          .prepare(
            `INSERT INTO ${scope.donors} (${scope.owner}, currency, grain, period, donor_id, sketch, gift_count, amount_minor, one_time_count)
             SELECT ${scope.owner}, currency, grain, period, ?1, COALESCE((SELECT t.sketch FROM donor t WHERE t.id = ?1), 0),
                    gift_count, amount_minor, one_time_count
               FROM ${scope.donors} INDEXED BY ${scope.donors}_donor_idx WHERE donor_id = ?2 AND ${mine} AND ${claimed.sql(4)}
             ON CONFLICT (${scope.owner}, currency, grain, period, donor_id) DO UPDATE SET
               gift_count = gift_count + excluded.gift_count, amount_minor = amount_minor + excluded.amount_minor,
               one_time_count = one_time_count + excluded.one_time_count`,
          )
          .bind(targetId, source.id, orgId, ...claimed.args),
        db
          .prepare(
            `DELETE FROM ${scope.donors} INDEXED BY ${scope.donors}_donor_idx WHERE donor_id = ?2 AND ${mine} AND ${claimed.sql(4)}`,
          )
          .bind(targetId, source.id, orgId, ...claimed.args),
      ];
    }),
    db
      .prepare(`UPDATE donor_note SET donor_id = ?1 WHERE donor_id = ?2 AND ${claimed.sql(3)}`)
      .bind(targetId, source.id, ...claimed.args),
    // So are its receipts (decision 031): a later change of a moved gift is not a new donor.
    db
      .prepare(
        `UPDATE receipt SET donor_id = ?1 WHERE donor_id = ?2 AND organization_id = ?3 AND ${claimed.sql(4)}`,
      )
      .bind(targetId, source.id, orgId, ...claimed.args),
    db
      .prepare(
        `UPDATE acknowledgement SET donor_id = ?1 WHERE donor_id = ?2 AND organization_id = ?3 AND ${claimed.sql(4)}`,
      )
      .bind(targetId, source.id, orgId, ...claimed.args),
    // The source's recurring plans are the target's now (decision 030): their gifts moved with them.
    db
      .prepare(
        `UPDATE recurring_plan SET donor_id = ?1, updated_at = ?2 WHERE donor_id = ?3 AND organization_id = ?4 AND ${claimed.sql(5)}`,
      )
      .bind(targetId, now, source.id, orgId, ...claimed.args),
    db
      .prepare(
        `INSERT OR IGNORE INTO donor_tag_assignment (donor_id, tag_id, organization_id)
             SELECT ?1, tag_id, organization_id FROM donor_tag_assignment WHERE donor_id = ?2 AND ${claimed.sql(3)}`,
      )
      .bind(targetId, source.id, ...claimed.args),
    db
      .prepare(`DELETE FROM donor_tag_assignment WHERE donor_id = ?1 AND ${claimed.sql(2)}`)
      .bind(source.id, ...claimed.args),
    db
      .prepare(
        `UPDATE donor SET merged_into_id = ?1, updated_at = ?2 WHERE merged_into_id = ?3 AND organization_id = ?4 AND ${claimed.sql(5)}`,
      )
      .bind(targetId, now, source.id, orgId, ...claimed.args),
    db
      .prepare(
        `UPDATE donor SET merged_into_id = ?1, email = NULL, tier_locked = 0, updated_at = ?2 WHERE id = ?3 AND ${claimed.sql(4)}`,
      )
      .bind(targetId, now, source.id, ...claimed.args),
    db
      .prepare(
        `UPDATE donor SET email = COALESCE(email, ?1), phone = COALESCE(phone, ?2) WHERE id = ?3 AND ${claimed.sql(4)}`,
      )
      .bind(source.email, source.phone, targetId, ...claimed.args),
    // The source's other addresses are the target's; one both had stays once.
    db
      .prepare(
        `UPDATE OR IGNORE donor_contact SET donor_id = ?1 WHERE donor_id = ?2 AND organization_id = ?3 AND ${claimed.sql(4)}`,
      )
      .bind(targetId, source.id, orgId, ...claimed.args),
    db
      .prepare(`DELETE FROM donor_contact WHERE donor_id = ?1 AND ${claimed.sql(2)}`)
      .bind(source.id, ...claimed.args),
    // Its e-mail and phone, where the target has its own (the source row gave up its e-mail above).
    ...(["email", "phone"] as const).map((kind) =>
      db
        .prepare(
          `INSERT OR IGNORE INTO donor_contact (organization_id, donor_id, kind, value, from_donor_id, created_at)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6
            WHERE ?4 IS NOT NULL AND (SELECT t.${kind} FROM donor t WHERE t.id = ?2) IS NOT ?4 AND ${claimed.sql(7)}`,
        )
        .bind(orgId, targetId, kind, source[kind], source.id, now, ...claimed.args),
    ),
  ];
}
