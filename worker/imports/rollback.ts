/**
 * Undoing an import (docs/decisions/028-csv-import.md): everything it created — gifts,
 * then donors, then campaigns — removed in batches of IMPORT_BATCH_ROWS, each ONE D1 batch with
 * its rollups, recounts and an audit row. Refused, naming what blocks it, while anything has come
 * to depend on what it created. Values it filled in on donors it matched stay (the decision says why).
 */

import { IMPORT_BATCH_ROWS } from "@core/import/batch";
import { formatCount } from "@core/labels";
import { type Database, orgDb } from "../db/databases";
import type { DonationRow } from "../db/rows";
import { giftSetDelete } from "../ledger/donation-change";
import { donorSetStatsStatements } from "../ledger/donor-stats";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { previousWriteLanded } from "../lib/guard";
import { generateId } from "../lib/ids";
import type { OrgActor } from "../trpc/init";
import { presentImport } from "./present";
import { batchGuard, type ImportRecord, setImportStatus } from "./queries";
import { loadImport } from "./service";

/** An imported gift's change token starts so until anything changes the gift (drizzle/0013). */
const importTokenPrefix = (importId: string) => `imp:${importId}:`;

/** What keeps an import from being undone, counted (the refusal and the confirmation say it). */
async function blockers(db: Database, orgId: string, imp: ImportRecord) {
  const counts = await db
    .prepare(
      `WITH donors AS (SELECT id FROM donor WHERE organization_id = ?1 AND import_id = ?2),
            campaigns AS (SELECT id, status FROM campaign WHERE organization_id = ?1 AND import_id = ?2)
       SELECT
         (SELECT COUNT(*) FROM donation WHERE organization_id = ?1 AND import_id = ?2
             AND (change_token IS NULL OR substr(change_token, 1, length(?3)) != ?3)) AS changedGifts,
         (SELECT MIN(number) FROM donation WHERE organization_id = ?1 AND import_id = ?2
             AND (change_token IS NULL OR substr(change_token, 1, length(?3)) != ?3)) AS changedGiftNumber,
         (SELECT COUNT(*) FROM donors d WHERE EXISTS (SELECT 1 FROM donation x WHERE x.donor_id = d.id
             AND x.import_id IS NOT ?2)) AS donorsWithOtherGifts,
         (SELECT COUNT(*) FROM donors d WHERE EXISTS (SELECT 1 FROM donor_note n WHERE n.donor_id = d.id)) AS donorsWithNotes,
         (SELECT COUNT(*) FROM donors d WHERE EXISTS (SELECT 1 FROM donor_tag_assignment t WHERE t.donor_id = d.id)) AS donorsWithTags,
         (SELECT COUNT(*) FROM donors d WHERE EXISTS (SELECT 1 FROM audit_event a WHERE a.organization_id = ?1
             AND a.entity_type = 'donor' AND a.entity_id = d.id AND a.action LIKE 'donor.%')
             OR EXISTS (SELECT 1 FROM donor m WHERE m.merged_into_id = d.id)) AS donorsEdited,
         (SELECT COUNT(*) FROM campaigns c WHERE EXISTS (SELECT 1 FROM donation x WHERE x.campaign_id = c.id
             AND x.import_id IS NOT ?2)) AS campaignsWithOtherGifts,
         (SELECT COUNT(*) FROM campaigns c WHERE c.status != 'draft'
             OR EXISTS (SELECT 1 FROM campaign_item i WHERE i.campaign_id = c.id)
             OR EXISTS (SELECT 1 FROM audit_event a WHERE a.organization_id = ?1 AND a.entity_type = 'campaign'
                 AND a.entity_id = c.id)) AS campaignsEdited`,
    )
    .bind(orgId, imp.id, importTokenPrefix(imp.id))
    .first<{
      changedGifts: number;
      changedGiftNumber: number | null;
      donorsWithOtherGifts: number;
      donorsWithNotes: number;
      donorsWithTags: number;
      donorsEdited: number;
      campaignsWithOtherGifts: number;
      campaignsEdited: number;
    }>();
  const c = counts as NonNullable<typeof counts>;
  const out: string[] = [];
  const n = (x: number, one: string, many: string) => `${formatCount(x)} ${x === 1 ? one : many}`;
  if (c.changedGifts)
    out.push(
      `${n(c.changedGifts, "donation it created was", "donations it created were")} changed since (first: donation #${c.changedGiftNumber})`,
    );
  if (c.donorsWithOtherGifts)
    out.push(
      `${n(c.donorsWithOtherGifts, "donor it created has", "donors it created have")} other donations`,
    );
  if (c.donorsWithNotes)
    out.push(`${n(c.donorsWithNotes, "donor it created has", "donors it created have")} notes`);
  if (c.donorsWithTags)
    out.push(`${n(c.donorsWithTags, "donor it created has", "donors it created have")} tags`);
  if (c.donorsEdited)
    out.push(
      `${n(c.donorsEdited, "donor it created was", "donors it created were")} edited, merged or anonymized`,
    );
  if (c.campaignsWithOtherGifts)
    out.push(
      `${n(c.campaignsWithOtherGifts, "campaign it created has", "campaigns it created have")} other donations`,
    );
  if (c.campaignsEdited)
    out.push(
      `${n(c.campaignsEdited, "campaign it created was", "campaigns it created were")} edited, published or given items`,
    );
  return out;
}

/** What an undo would remove, and what blocks it (the confirmation dialog). */
export async function rollbackPreview(ctx: OrgActor, id: string) {
  const db = orgDb(ctx);
  const imp = await loadImport(db, ctx.org.id, id);
  const left = await remaining(db, ctx.org.id, imp.id);
  return {
    import: presentImport(imp),
    ...left,
    blockers:
      imp.status === "running" || imp.status === "completed" ? await blockers(db, ctx.org.id, imp) : [],
  };
}

async function remaining(db: Database, orgId: string, importId: string) {
  const r = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM donation WHERE organization_id = ?1 AND import_id = ?2) AS gifts,
              (SELECT COUNT(*) FROM donor WHERE organization_id = ?1 AND import_id = ?2) AS donors,
              (SELECT COUNT(*) FROM campaign WHERE organization_id = ?1 AND import_id = ?2) AS campaigns`,
    )
    .bind(orgId, importId)
    .first<{ gifts: number; donors: number; campaigns: number }>();
  return r ?? { gifts: 0, donors: 0, campaigns: 0 };
}

/** A donor an import created that nothing else uses: no gift, note, tag, merge or history of its own. */
const DONOR_UNUSED = `NOT EXISTS (SELECT 1 FROM donation x WHERE x.donor_id = donor.id)
  AND NOT EXISTS (SELECT 1 FROM donor_note n WHERE n.donor_id = donor.id)
  AND NOT EXISTS (SELECT 1 FROM donor_tag_assignment t WHERE t.donor_id = donor.id)
  AND NOT EXISTS (SELECT 1 FROM donor m WHERE m.merged_into_id = donor.id)
  AND donor.merged_into_id IS NULL AND donor.anonymized_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM audit_event a WHERE a.organization_id = donor.organization_id AND a.entity_type = 'donor' AND a.entity_id = donor.id)`;

const CAMPAIGN_UNUSED = `campaign.status = 'draft'
  AND NOT EXISTS (SELECT 1 FROM donation x WHERE x.campaign_id = campaign.id)
  AND NOT EXISTS (SELECT 1 FROM campaign_item i WHERE i.campaign_id = campaign.id)
  AND NOT EXISTS (SELECT 1 FROM audit_event a WHERE a.organization_id = campaign.organization_id AND a.entity_type = 'campaign' AND a.entity_id = campaign.id)`;

/**
 * One step of an undo: the first call checks nothing blocks it and marks the import rolling back;
 * each further call removes up to IMPORT_BATCH_ROWS gifts, then donors, then campaigns, and the
 * last marks it rolled back. The page calls it until `done`, showing `remaining`.
 */
export async function rollbackStep(ctx: OrgActor, id: string) {
  const db = orgDb(ctx);
  const org = ctx.org.id;
  const imp = await loadImport(db, org, id);
  const now = Date.now();
  if (imp.status === "rolled_back")
    return { done: true, remaining: await remaining(db, org, id), import: presentImport(imp) };
  if (imp.status === "running" || imp.status === "completed") {
    const why = await blockers(db, org, imp);
    if (why.length) fail("CONFLICT", `This import cannot be undone: ${why.join("; ")}`, { blockers: why });
    await db.batch([
      setImportStatus(db, { orgId: org, id, from: imp.status, to: "rolling_back", now }),
      auditStatement(
        ctx,
        { action: "import.rollback_start", entityType: "import", entityId: id },
        previousWriteLanded,
      ),
    ]);
    const fresh = await loadImport(db, org, id);
    if (fresh.status !== "rolling_back") fail("CONFLICT", "The import changed meanwhile; try again");
    return { done: false, remaining: await remaining(db, org, id), import: presentImport(fresh) };
  }
  // rolling_back: the next batch of what is left.
  const token = `rb:${generateId()}`;
  const guard = batchGuard(id, token);
  const claim = db
    .prepare(
      "UPDATE data_import SET batch_token = ?1, updated_at = ?2 WHERE id = ?3 AND organization_id = ?4 AND status = 'rolling_back'",
    )
    .bind(token, now, id, org);
  const prefix = importTokenPrefix(id);
  const { results: gifts } = await db
    .prepare(
      `SELECT id, donated_at, campaign_id, donor_id FROM donation
        WHERE organization_id = ?1 AND import_id = ?2 AND substr(change_token, 1, length(?3)) = ?3 LIMIT ?4`,
    )
    .bind(org, id, prefix, IMPORT_BATCH_ROWS)
    .all<Pick<DonationRow, "id" | "donated_at" | "campaign_id" | "donor_id">>();
  if (gifts.length) {
    const donors = [...new Set(gifts.map((g) => g.donor_id).filter((d): d is string => !!d))];
    await db.batch([
      claim,
      ...giftSetDelete(db, { org: ctx.org, tokenPrefix: prefix, token }, gifts, guard),
      ...(donors.length ? donorSetStatsStatements(db, org, donors, guard) : []),
      auditStatement(
        ctx,
        {
          action: "import.rollback_batch",
          entityType: "import",
          entityId: id,
          after: { gifts: gifts.length },
        },
        guard,
      ),
    ]);
    return { done: false, remaining: await remaining(db, org, id), import: presentImport(imp) };
  }
  const { results: donors } = await db
    .prepare(
      `SELECT id FROM donor WHERE organization_id = ?1 AND import_id = ?2 AND ${DONOR_UNUSED} LIMIT ?3`,
    )
    .bind(org, id, IMPORT_BATCH_ROWS)
    .all<{ id: string }>();
  if (donors.length) {
    await db.batch([
      claim,
      db
        .prepare(
          `DELETE FROM donor WHERE organization_id = ?1 AND import_id = ?2 AND id IN (SELECT value FROM json_each(?3))
             AND ${DONOR_UNUSED} AND ${guard.sql(4)}`,
        )
        .bind(org, id, JSON.stringify(donors.map((d) => d.id)), ...guard.args),
      auditStatement(
        ctx,
        {
          action: "import.rollback_batch",
          entityType: "import",
          entityId: id,
          after: { donors: donors.length },
        },
        guard,
      ),
    ]);
    return { done: false, remaining: await remaining(db, org, id), import: presentImport(imp) };
  }
  // The campaigns it created that nothing uses, and the end; what stays is named in the audit row.
  const { results: campaigns } = await db
    .prepare(`SELECT id FROM campaign WHERE organization_id = ?1 AND import_id = ?2 AND ${CAMPAIGN_UNUSED}`)
    .bind(org, id)
    .all<{ id: string }>();
  const left = await remaining(db, org, id);
  await db.batch([
    claim,
    db
      .prepare(
        `DELETE FROM campaign WHERE organization_id = ?1 AND import_id = ?2 AND id IN (SELECT value FROM json_each(?3))
           AND ${CAMPAIGN_UNUSED} AND ${guard.sql(4)}`,
      )
      .bind(org, id, JSON.stringify(campaigns.map((c) => c.id)), ...guard.args),
    setImportStatus(db, { orgId: org, id, from: "rolling_back", to: "rolled_back", now, rolledBack: true }),
    auditStatement(
      ctx,
      {
        action: "import.rollback",
        entityType: "import",
        entityId: id,
        after: {
          campaignsRemoved: campaigns.length,
          kept: { ...left, campaigns: left.campaigns - campaigns.length },
        },
      },
      guard,
    ),
  ]);
  return {
    done: true,
    remaining: await remaining(db, org, id),
    import: presentImport(await loadImport(db, org, id)),
  };
}
