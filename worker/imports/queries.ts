/**
 * The imports' SQL (docs/architecture.md: the only place of the area that speaks SQL; the gifts'
 * own statements are worker/ledger/donation-change.ts `giftSetInsert`/`giftSetDelete`). Rows travel as one
 * JSON parameter (`json_each`), so a statement binds a handful of values whatever the batch size
 * (D1: 100 bound parameters per statement). docs/decisions/028-csv-import.md.
 */
import { campaignSlug } from "@core/campaign";
import type { ImportKind } from "@core/import/fields";
import { DONOR_COLUMNS } from "@core/import/row";
import type { Database } from "../db/databases";
import type { Row } from "../db/rows";
import type { dataImport, importMappingPreset } from "../db/schema";
import type { Guard } from "../lib/guard";
import type { CampaignRecord, DonorChange, DonorRecord, Lookups, NewCampaign, NewDonor } from "./plan";

export type ImportRecord = Row<typeof dataImport>;
type MappingRow = Row<typeof importMappingPreset>;

const DONOR_RECORD = `id, merged_into_id, anonymized_at, import_id, import_key, created_at, ${DONOR_COLUMNS.join(", ")}`;

const json = (v: unknown) => JSON.stringify(v);

/** What the database holds that a batch names (plan.ts `Lookups`): one round trip, seven reads. */
export async function batchLookups(
  db: Database,
  orgId: string,
  keys: {
    giftKeys: string[];
    transactions: string[];
    donorKeys: string[];
    emails: string[];
    postalCodes: string[];
    externalIds: string[];
    campaigns: string[];
  },
  /** The import the batch belongs to (null: a dry run): who its earlier batches gave gifts to. */
  importId: string | null = null,
): Promise<Lookups> {
  const res = await db.batch([
    db
      .prepare(
        "SELECT import_key AS k FROM donation WHERE organization_id = ? AND import_key IN (SELECT value FROM json_each(?))",
      )
      .bind(orgId, json(keys.giftKeys)),
    db
      .prepare(
        "SELECT gateway_transaction_id AS k FROM donation WHERE organization_id = ? AND gateway_transaction_id IN (SELECT value FROM json_each(?))",
      )
      .bind(orgId, json(keys.transactions)),
    db
      .prepare(
        "SELECT import_key AS k FROM donor WHERE organization_id = ? AND import_key IN (SELECT value FROM json_each(?))",
      )
      .bind(orgId, json(keys.donorKeys)),
    // By the main e-mail or another one a merge kept (donor_contact, decision 052): `k` is the address.
    db
      .prepare(
        `SELECT ${DONOR_RECORD}, email AS k FROM donor WHERE organization_id = ?1 AND email IN (SELECT value FROM json_each(?2))
         UNION ALL
         SELECT ${DONOR_RECORD.split(", ")
           .map((c) => `d.${c}`)
           .join(", ")}, c.value AS k FROM donor_contact c JOIN donor d ON d.id = c.donor_id
          WHERE c.organization_id = ?1 AND c.kind = 'email' AND c.value IN (SELECT value FROM json_each(?2))`,
      )
      .bind(orgId, json(keys.emails)),
    // Postal codes as stored may differ in case and spaces; the plan compares them normalized.
    db
      .prepare(
        `SELECT ${DONOR_RECORD} FROM donor WHERE organization_id = ? AND postal_code IN (SELECT value FROM json_each(?))`,
      )
      .bind(orgId, json(keys.postalCodes)),
    db
      .prepare(
        `SELECT ${DONOR_RECORD} FROM donor WHERE organization_id = ? AND external_id IN (SELECT value FROM json_each(?))`,
      )
      .bind(orgId, json(keys.externalIds)),
    db
      .prepare(
        `SELECT id, title, slug, currency FROM campaign WHERE organization_id = ?1
          AND (lower(title) IN (SELECT lower(value) FROM json_each(?2)) OR slug IN (SELECT value FROM json_each(?3)))`,
      )
      .bind(orgId, json(keys.campaigns), json(keys.campaigns.map(campaignSlug))),
  ]);
  const rows = <T>(i: number) => (res[i]?.results ?? []) as T[];
  const set = (i: number) => new Set(rows<{ k: string }>(i).map((r) => r.k));
  const group = (list: DonorRecord[], key: (d: DonorRecord) => string | null) => {
    const m = new Map<string, DonorRecord[]>();
    for (const d of list) {
      const k = key(d);
      if (k) m.set(k, [...(m.get(k) ?? []), d]);
    }
    return m;
  };
  const donorsByEmail = new Map(
    rows<DonorRecord & { k: string }>(3).map(({ k, ...d }) => [k, d as DonorRecord]),
  );
  const donorsByPostal = group(rows<DonorRecord>(4), (d) =>
    d.postal_code ? d.postal_code.trim().toUpperCase().replace(/\s+/g, "") : null,
  );
  const donorsByExternalId = group(rows<DonorRecord>(5), (d) => d.external_id);
  // Prefer live donors over merged ones when several share an external id.
  for (const list of donorsByExternalId.values())
    list.sort((a, b) => Number(!!a.merged_into_id) - Number(!!b.merged_into_id));
  const mergedInto = [...rows<DonorRecord>(3), ...rows<DonorRecord>(4), ...rows<DonorRecord>(5)]
    .map((d) => d.merged_into_id)
    .filter((id): id is string => !!id);
  const mergeTargets = new Map<string, DonorRecord>();
  if (mergedInto.length) {
    const { results } = await db
      .prepare(
        `SELECT ${DONOR_RECORD} FROM donor WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))`,
      )
      .bind(orgId, json([...new Set(mergedInto)]))
      .all<DonorRecord>();
    for (const d of results) mergeTargets.set(d.id, d);
  }
  // Existing donors this import's earlier batches already gave gifts to: counted matched once.
  const giftedBefore = new Set<string>();
  const candidates = [...rows<DonorRecord>(3), ...rows<DonorRecord>(4), ...rows<DonorRecord>(5)]
    .map((d) => d.id)
    .concat([...mergeTargets.keys()]);
  if (importId && candidates.length) {
    const { results } = await db
      .prepare(
        "SELECT DISTINCT donor_id AS k FROM donation WHERE donor_id IN (SELECT value FROM json_each(?2)) AND organization_id = ?1 AND import_id = ?3",
      )
      .bind(orgId, json([...new Set(candidates)]), importId)
      .all<{ k: string }>();
    for (const r of results) giftedBefore.add(r.k);
  }
  const campaigns = new Map<string, CampaignRecord>();
  for (const c of rows<CampaignRecord>(6)) {
    campaigns.set(c.title.toLowerCase(), c);
    if (!campaigns.has(c.slug)) campaigns.set(c.slug, c);
  }
  // A name the file gives may be a campaign's slug: key it by the lower-case name the plan asks.
  for (const name of keys.campaigns) {
    const bySlug = campaigns.get(campaignSlug(name));
    if (bySlug && !campaigns.has(name.toLowerCase())) campaigns.set(name.toLowerCase(), bySlug);
  }
  return {
    giftKeys: set(0),
    transactions: set(1),
    donorKeys: set(2),
    donorsByEmail,
    donorsByPostal,
    donorsByExternalId,
    mergeTargets,
    giftedBefore,
    campaigns,
  };
}

/** The batch's guard: the import carries the token its claim set (decision 028). */
export const batchGuard = (importId: string, token: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM data_import WHERE id = ?${p} AND batch_token = ?${p + 1})`,
  args: [importId, token],
});

interface BatchCounts {
  donorsCreated: number;
  donorsUpdated: number;
  donorsMatched: number;
  giftsCreated: number;
  campaignsCreated: number;
  rowsSkipped: number;
  rowsInvalid: number;
}

/**
 * The batch's first statement: moves `next_row` from `from` to `to`, adds the counts and sets the
 * batch token — only if the import is running and stands at `from` (else it changes nothing and
 * neither does the rest of the batch).
 */
export function claimBatch(
  db: Database,
  c: { orgId: string; importId: string; from: number; to: number; token: string; now: number },
  n: BatchCounts,
) {
  return db
    .prepare(
      `UPDATE data_import SET next_row = ?1, batch_token = ?2, updated_at = ?3,
          donors_created = donors_created + ?4, donors_updated = donors_updated + ?5, donors_matched = donors_matched + ?6,
          gifts_created = gifts_created + ?7, campaigns_created = campaigns_created + ?8,
          rows_skipped = rows_skipped + ?9, rows_invalid = rows_invalid + ?10
        WHERE id = ?11 AND organization_id = ?12 AND next_row = ?13 AND status = 'running'`,
    )
    .bind(
      c.to,
      c.token,
      c.now,
      n.donorsCreated,
      n.donorsUpdated,
      n.donorsMatched,
      n.giftsCreated,
      n.campaignsCreated,
      n.rowsSkipped,
      n.rowsInvalid,
      c.importId,
      c.orgId,
      c.from,
    );
}

/** The campaigns a batch creates: drafts in the gift's currency, marked with the import. */
export function insertCampaigns(
  db: Database,
  c: { orgId: string; importId: string; createdBy: string; now: number },
  campaigns: (NewCampaign & { slug: string })[],
  guard: Guard,
) {
  return db
    .prepare(
      `INSERT INTO campaign (id, organization_id, title, slug, currency, status, import_id, created_by, created_at, updated_at)
       SELECT value ->> '$.id', ?1, value ->> '$.title', value ->> '$.slug', value ->> '$.currency', 'draft', ?2, ?3, ?4, ?4
         FROM json_each(?5) WHERE ${guard.sql(6)}`,
    )
    .bind(c.orgId, c.importId, c.createdBy, c.now, json(campaigns), ...guard.args);
}

/** The donors a batch creates, with their import keys. */
export function insertDonors(
  db: Database,
  c: { orgId: string; importId: string; createdBy: string; now: number },
  donors: NewDonor[],
  guard: Guard,
) {
  const cols = ["id", ...DONOR_COLUMNS, "import_key"] as const;
  // created_at: the old system's "Date Added" when the file gives one, else now (decision 052).
  return db
    .prepare(
      `INSERT INTO donor (${cols.join(", ")}, organization_id, import_id, created_by, created_at, updated_at)
       SELECT ${cols.map((col) => `value ->> '$.${col}'`).join(", ")}, ?1, ?2, ?3,
              COALESCE(value ->> '$.created_at', ?4), ?4
         FROM json_each(?5) WHERE ${guard.sql(6)}`,
    )
    .bind(
      c.orgId,
      c.importId,
      c.createdBy,
      c.now,
      json(
        donors.map((d) => ({
          ...Object.fromEntries(cols.map((col) => [col, d.record[col]])),
          created_at: d.record.created_at,
        })),
      ),
      ...guard.args,
    );
}

/**
 * Matched donors' changes: each column is set only if it still holds the value read (a colleague's
 * edit between the read and the write stays theirs), in one statement for the batch.
 */
export function updateDonors(db: Database, orgId: string, changes: DonorChange[], now: number, guard: Guard) {
  const sets = DONOR_COLUMNS.map(
    (
      col,
    ) => `${col} = CASE WHEN json_type(j.value, '$.${col}') IS NOT NULL AND donor.${col} IS j.value ->> '$.${col}[0]'
                         THEN j.value ->> '$.${col}[1]' ELSE donor.${col} END`,
  );
  return db
    .prepare(
      `UPDATE donor SET ${sets.join(",\n")},
              created_at = MIN(donor.created_at, COALESCE(j.value ->> '$.since', donor.created_at)), updated_at = ?3
         FROM json_each(?2) AS j
        WHERE donor.id = j.value ->> '$.id' AND donor.organization_id = ?1 AND ${guard.sql(4)}`,
    )
    .bind(orgId, json(changes.map((c) => ({ id: c.id, since: c.since, ...c.set }))), now, ...guard.args);
}

/** The rows a batch refused, with their cells, for the download. */
export function insertRejections(
  db: Database,
  c: { orgId: string; importId: string },
  rejections: { row: number; reason: string; cells: string[] }[],
  guard: Guard,
) {
  return db
    .prepare(
      `INSERT INTO import_rejection (import_id, organization_id, row_number, reason, cells)
       SELECT ?1, ?2, value ->> '$.row', value ->> '$.reason', value ->> '$.cells'
         FROM json_each(?3) WHERE ${guard.sql(4)}
       ON CONFLICT (import_id, row_number) DO UPDATE SET reason = excluded.reason, cells = excluded.cells`,
    )
    .bind(
      c.importId,
      c.orgId,
      json(rejections.map((r) => ({ row: r.row, reason: r.reason, cells: json(r.cells) }))),
      ...guard.args,
    );
}

export function importById(db: Database, orgId: string, id: string) {
  return db
    .prepare("SELECT * FROM data_import WHERE id = ? AND organization_id = ?")
    .bind(id, orgId)
    .first<ImportRecord>();
}

/** The organization's imports, newest first (the imports screen shows the last 50 of a kind). */
export async function listImports(db: Database, orgId: string, kind: ImportKind | null, limit: number) {
  const { results } = await db
    .prepare(
      `SELECT * FROM data_import WHERE organization_id = ?1 AND (?2 IS NULL OR kind = ?2) ORDER BY created_at DESC, id DESC LIMIT ?3`,
    )
    .bind(orgId, kind, limit)
    .all<ImportRecord>();
  return results;
}

/** An unfinished import of this file, to resume (the newest if several). */
export function unfinishedImport(db: Database, orgId: string, kind: ImportKind, fileHash: string) {
  return db
    .prepare(
      `SELECT * FROM data_import WHERE organization_id = ? AND file_hash = ? AND kind = ? AND status = 'running'
        ORDER BY created_at DESC LIMIT 1`,
    )
    .bind(orgId, fileHash, kind)
    .first<ImportRecord>();
}

export function insertImport(
  db: Database,
  r: Pick<
    ImportRecord,
    | "id"
    | "organization_id"
    | "kind"
    | "file_name"
    | "file_hash"
    | "file_size"
    | "total_rows"
    | "headers"
    | "mapping"
    | "options"
    | "created_by"
    | "created_at"
  >,
) {
  return db
    .prepare(
      `INSERT INTO data_import (id, organization_id, kind, file_name, file_hash, file_size, total_rows, headers, mapping, options, created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      r.id,
      r.organization_id,
      r.kind,
      r.file_name,
      r.file_hash,
      r.file_size,
      r.total_rows,
      r.headers,
      r.mapping,
      r.options,
      r.created_by,
      r.created_at,
      r.created_at,
    );
}

/** Moves an import from one status to another; changes nothing unless it is in `from`. */
export function setImportStatus(
  db: Database,
  c: {
    orgId: string;
    id: string;
    from: string;
    to: string;
    now: number;
    completed?: boolean;
    rolledBack?: boolean;
  },
) {
  return db
    .prepare(
      `UPDATE data_import SET status = ?1, updated_at = ?2,
          completed_at = CASE WHEN ?3 THEN ?2 ELSE completed_at END,
          rolled_back_at = CASE WHEN ?4 THEN ?2 ELSE rolled_back_at END
        WHERE id = ?5 AND organization_id = ?6 AND status = ?7`,
    )
    .bind(c.to, c.now, c.completed ? 1 : 0, c.rolledBack ? 1 : 0, c.id, c.orgId, c.from);
}

/** Rejected rows after `after` (row number), in order: the download's pages. */
export async function rejectionsPage(
  db: Database,
  orgId: string,
  importId: string,
  after: number,
  limit: number,
) {
  const { results } = await db
    .prepare(
      `SELECT row_number AS row, reason, cells FROM import_rejection
        WHERE import_id = ? AND organization_id = ? AND row_number > ? ORDER BY row_number LIMIT ?`,
    )
    .bind(importId, orgId, after, limit)
    .all<{ row: number; reason: string; cells: string }>();
  return results;
}

export async function listMappings(db: Database, orgId: string, kind: ImportKind) {
  const { results } = await db
    .prepare("SELECT * FROM import_mapping WHERE organization_id = ? AND kind = ? ORDER BY lower(name)")
    .bind(orgId, kind)
    .all<MappingRow>();
  return results;
}

/** Saves a mapping under its name (the same name replaces it). */
export function upsertMapping(db: Database, m: Omit<MappingRow, "updated_at">) {
  return db
    .prepare(
      `INSERT INTO import_mapping (id, organization_id, kind, name, fields, options, created_by, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)
       ON CONFLICT (organization_id, kind, lower(name)) DO UPDATE SET fields = excluded.fields, options = excluded.options,
         updated_at = excluded.updated_at`,
    )
    .bind(m.id, m.organization_id, m.kind, m.name, m.fields, m.options, m.created_by, m.created_at);
}

export function deleteMapping(db: Database, orgId: string, id: string) {
  return db.prepare("DELETE FROM import_mapping WHERE id = ? AND organization_id = ?").bind(id, orgId);
}
