/**
 * CSV imports (docs/decisions/028-csv-import.md): start one, check rows (a dry run),
 * commit rows a batch at a time, finish, and read what was refused. Each committed batch is ONE D1
 * batch — campaigns, donors, donor changes, gifts, rollups, recounts, rejected rows, the import's
 * progress and one audit row — claimed by the import's `next_row` so a batch lands once. The undo
 * is ./rollback.ts.
 */

import { campaignSlug, freeSlug } from "@core/campaign";
import { FIRST_DATA_ROW, type ImportRow, importKey } from "@core/import/batch";
import { type ImportKind, type ImportMapping, type ImportOptions, mappingProblem } from "@core/import/fields";
import { columnZones } from "@core/import/mapping";
import { campaignInCurrency, mapCells, normalizeRow, type RowResult, rowLabel } from "@core/import/row";
import { formatCount } from "@core/labels";
import { currencyCode } from "@core/schemas";
import { slugsTaken } from "../campaigns/queries";
import { type Database, orgDb } from "../db/databases";
import { giftSetInsert, type ImportedGift } from "../ledger/donation-change";
import { donorSetStatsStatements } from "../ledger/donor-stats";
import { auditStatement } from "../lib/audit";
import { fail, Refusal } from "../lib/fail";
import { previousWriteLanded } from "../lib/guard";
import { generateId, timeOrderedId } from "../lib/ids";
import { userNames } from "../lib/user-names";
import type { OrgActor } from "../trpc/init";
import { type BatchPlan, namePostalKey, planBatch } from "./plan";
import { presentImport, storedRowShift } from "./present";
import {
  batchGuard,
  batchLookups,
  claimBatch,
  type ImportRecord,
  importById,
  insertCampaigns,
  insertDonors,
  insertImport,
  insertRejections,
  listImports,
  rejectionsPage,
  setImportStatus,
  unfinishedImport,
  updateDonors,
} from "./queries";

export async function loadImport(db: Database, orgId: string, id: string) {
  const row = await importById(db, orgId, id);
  if (!row) fail("NOT_FOUND", "Import not found");
  return row;
}

/** Options as the Worker can use them: a currency it takes, a zone Intl knows. */
function checkOptions(o: ImportOptions): ImportOptions {
  const currency = currencyCode.safeParse(o.currency);
  if (!currency.success)
    fail("BAD_REQUEST", `Currency ${o.currency} is not supported`, { field: "currency" });
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: o.timeZone });
  } catch {
    fail("BAD_REQUEST", `Unknown time zone ${o.timeZone}`, { field: "timeZone" });
  }
  return { ...o, currency: currency.data };
}

/** The organization's last 50 imports (of a kind), with who started each (a former member too). */
export async function importsList(ctx: OrgActor, kind: ImportKind | null) {
  const rows = await listImports(orgDb(ctx), ctx.org.id, kind, 50);
  const names = await userNames(
    ctx.env,
    rows.map((r) => r.created_by),
  );
  return rows.map((r) => ({
    ...presentImport(r),
    createdByName: (r.created_by && names.get(r.created_by)) || null,
  }));
}

export async function importDetail(ctx: OrgActor, id: string) {
  return presentImport(await loadImport(orgDb(ctx), ctx.org.id, id));
}

/** An unfinished import of this very file (by its SHA-256), to resume with its own mapping. */
export async function resumable(ctx: OrgActor, kind: ImportKind, fileHash: string) {
  const row = await unfinishedImport(orgDb(ctx), ctx.org.id, kind, fileHash);
  return row ? presentImport(row) : null;
}

interface StartInput {
  kind: ImportKind;
  fileName: string;
  fileHash: string;
  fileSize: number;
  totalRows: number;
  headers: string[];
  mapping: ImportMapping;
  options: ImportOptions;
}

/** A new import of a file: its mapping and options fixed, audited; rows follow with `commitRows`. */
export async function startImport(ctx: OrgActor, input: StartInput) {
  const problem = mappingProblem(input.kind, input.mapping, input.headers.length);
  if (problem) fail("BAD_REQUEST", problem, { field: "mapping" });
  const options = checkOptions(input.options);
  const db = orgDb(ctx);
  const id = generateId();
  const now = Date.now();
  await db.batch([
    insertImport(db, {
      id,
      organization_id: ctx.org.id,
      kind: input.kind,
      file_name: input.fileName,
      file_hash: input.fileHash,
      file_size: input.fileSize,
      total_rows: input.totalRows,
      headers: JSON.stringify(input.headers),
      mapping: JSON.stringify(input.mapping),
      options: JSON.stringify(options),
      created_by: ctx.user.id,
      created_at: now,
    }),
    auditStatement(ctx, {
      action: "import.start",
      entityType: "import",
      entityId: id,
      after: {
        kind: input.kind,
        fileName: input.fileName,
        rows: input.totalRows,
        mapping: input.mapping,
        options,
      },
    }),
  ]);
  return presentImport(await loadImport(db, ctx.org.id, id));
}

/** Rows through the mapping and the shared normalizer (core/import/row.ts). */
function normalized(
  kind: ImportKind,
  file: { headers: readonly string[]; mapping: ImportMapping },
  options: ImportOptions,
  rows: ImportRow[],
) {
  const { mapping } = file;
  const zones = columnZones(file.headers, mapping);
  return rows.map((r) => ({
    row: r.row,
    cells: r.cells,
    result: (r.problem
      ? { ok: false, problem: r.problem }
      : normalizeRow(kind, mapCells(mapping, r.cells), options, zones)) as RowResult,
  }));
}

/** Postal codes as a row may give them and a donor may hold them: as given, upper-case, no spaces. */
const postalVariants = (p: string) => [p, p.toUpperCase(), p.toUpperCase().replace(/\s+/g, "")];

/** One batch's plan from fresh look-ups. */
async function planRows(
  ctx: OrgActor,
  c: {
    kind: ImportKind;
    importId: string | null;
    fileHash: string;
    options: ImportOptions;
    rows: ReturnType<typeof normalized>;
  },
) {
  const giftKeys: string[] = [];
  const transactions: string[] = [];
  const donorKeys: string[] = [];
  const emails: string[] = [];
  const postalCodes: string[] = [];
  const externalIds: string[] = [];
  const campaigns: string[] = [];
  for (const { row, result } of c.rows) {
    if (!result.ok) continue;
    const { donor, gift } = result;
    if (gift) {
      giftKeys.push(importKey(c.fileHash, row, gift.externalId));
      if (gift.transactionId) transactions.push(gift.transactionId);
      if (gift.campaign) campaigns.push(gift.campaign, campaignInCurrency(gift.campaign, gift.currency));
    } else if (result.refund) {
      // The gift a refund names may be one an earlier import brought: the refund is then not applied again.
      if (result.refund.of) {
        giftKeys.push(importKey(c.fileHash, row, result.refund.of));
        transactions.push(result.refund.of);
      }
    } else if (!result.skip) donorKeys.push(importKey(c.fileHash, row));
    if (donor) {
      if (donor.data.email) emails.push(donor.data.email);
      if (donor.data.postalCode) postalCodes.push(...postalVariants(donor.data.postalCode));
      if (donor.data.externalId) externalIds.push(donor.data.externalId);
    }
  }
  const uniq = (a: string[]) => [...new Set(a)];
  const lookups = await batchLookups(
    orgDb(ctx),
    ctx.org.id,
    {
      giftKeys: uniq(giftKeys),
      transactions: uniq(transactions),
      donorKeys: uniq(donorKeys),
      emails: uniq(emails),
      postalCodes: uniq(postalCodes),
      externalIds: uniq(externalIds),
      campaigns: uniq(campaigns),
    },
    c.importId,
  );
  return planBatch({
    kind: c.kind,
    importId: c.importId,
    fileHash: c.fileHash,
    policy: c.options.matchPolicy,
    newDonorRows: new Set(c.options.newDonorRows ?? []),
    rows: c.rows,
    lookups,
    // Time-ordered: a batch's new gifts and donors fill the id indexes' last pages (decision 035).
    newId: timeOrderedId,
  });
}

/** The keys a new donor may be matched by, so the page can count a file's distinct new donors. */
function donorKeysOf(result: RowResult): string[] {
  if (!result.ok || !result.donor) return [];
  const v = result.donor.data;
  const keys: string[] = [];
  if (v.email) keys.push(`e:${v.email}`);
  if (v.postalCode && (v.firstName || v.lastName))
    keys.push(`n:${namePostalKey(v.firstName, v.lastName, v.postalCode)}`);
  if (v.externalId) keys.push(`x:${v.externalId}`);
  return keys;
}

export interface CheckInput {
  kind: ImportKind;
  fileHash: string;
  headers: string[];
  mapping: ImportMapping;
  options: ImportOptions;
  rows: ImportRow[];
}

/**
 * The dry run: what each row would do, and the row as it would be stored, writing nothing. The
 * page runs it on the first rows (the preview) and on every batch of the file (the counts).
 */
export async function checkRows(ctx: OrgActor, input: CheckInput) {
  const problem = mappingProblem(input.kind, input.mapping, input.headers.length);
  if (problem) fail("BAD_REQUEST", problem, { field: "mapping" });
  const options = checkOptions(input.options);
  const rows = normalized(input.kind, input, options, input.rows);
  const plan = await planRows(ctx, {
    kind: input.kind,
    importId: null,
    fileHash: input.fileHash,
    options,
    rows,
  });
  const byRow = new Map(rows.map((r) => [r.row, r]));
  return {
    counts: plan.counts,
    rows: plan.reports.map((r) => {
      const read = byRow.get(r.row);
      const result = read?.result;
      const ok = result?.ok ? result : null;
      return {
        ...r,
        // Who the row names, from its cells: a refused row is shown by it too (decision 052).
        label: read ? rowLabel(mapCells(input.mapping, read.cells)) : null,
        donorKeys: r.donor?.isNew && result ? donorKeysOf(result) : [],
        stored: ok
          ? {
              donor: ok.donor
                ? { ...ok.donor.data, addressLine2: ok.donor.addressLine2, since: ok.donor.since }
                : null,
              gift: ok.gift,
            }
          : null,
      };
    }),
  };
}

/** The statements of one planned batch, for the import `imp` from row `from` to row `to` (exclusive). */
async function batchStatements(
  ctx: OrgActor,
  imp: ImportRecord,
  plan: BatchPlan,
  c: { from: number; to: number; shift: number; token: string; now: number },
) {
  const db = orgDb(ctx);
  const org = ctx.org.id;
  const guard = batchGuard(imp.id, c.token);
  const who = { orgId: org, importId: imp.id, createdBy: ctx.user.id, now: c.now };
  const stmts: D1PreparedStatement[] = [
    claimBatch(
      db,
      {
        orgId: org,
        importId: imp.id,
        from: c.from + c.shift,
        to: c.to + c.shift,
        token: c.token,
        now: c.now,
      },
      plan.counts,
    ),
  ];
  if (plan.newCampaigns.length) {
    // Slugs as the campaign form makes them, past the ones the organization uses or used (one
    // read for every new campaign of the batch) and those given earlier in it.
    const bases = plan.newCampaigns.map((nc) => campaignSlug(nc.title));
    const used = await slugsTaken(db, org, bases);
    const withSlugs = plan.newCampaigns.map((nc, i) => {
      const slug = freeSlug(bases[i] as string, used);
      used.add(slug);
      return { ...nc, slug };
    });
    stmts.push(insertCampaigns(db, who, withSlugs, guard));
  }
  if (plan.newDonors.length) stmts.push(insertDonors(db, who, plan.newDonors, guard));
  if (plan.donorChanges.length) stmts.push(updateDonors(db, org, plan.donorChanges, c.now, guard));
  const gifts: ImportedGift[] = plan.gifts.map((g) => ({
    id: g.id,
    donor_id: g.donorId,
    campaign_id: g.campaignId,
    amount_minor: g.gift.amountMinor,
    processing_fee_minor: g.gift.processingFeeMinor,
    refunded_minor: g.gift.refundedMinor,
    currency: g.gift.currency,
    status: g.gift.status,
    frequency: g.gift.frequency,
    payment_method: g.gift.paymentMethod,
    gateway: g.gift.gateway,
    gateway_transaction_id: g.gift.transactionId,
    mode: g.gift.mode,
    anonymous: g.gift.anonymous ? 1 : 0,
    message: g.gift.message,
    tribute_type: g.gift.tributeType,
    tribute_name: g.gift.tributeName,
    internal_note: g.gift.internalNote,
    donated_at: g.gift.donatedAt,
    import_key: g.importKey,
  }));
  stmts.push(
    ...giftSetInsert(
      db,
      { org: ctx.org, importId: imp.id, token: c.token, createdBy: ctx.user.id, now: c.now },
      gifts,
      guard,
    ),
  );
  if (plan.touchedDonors.length) stmts.push(...donorSetStatsStatements(db, org, plan.touchedDonors, guard));
  if (plan.rejections.length)
    stmts.push(insertRejections(db, { orgId: org, importId: imp.id }, plan.rejections, guard));
  stmts.push(
    auditStatement(
      ctx,
      {
        action: "import.batch",
        entityType: "import",
        entityId: imp.id,
        after: {
          rows: [c.from, c.to - 1],
          ...plan.counts,
          campaignsCreated: plan.newCampaigns.map((n) => n.id),
          donorsUpdated: plan.donorChanges.map((d) => ({ id: d.id, columns: Object.keys(d.set) })),
        },
      },
      guard,
    ),
  );
  return stmts;
}

interface CommitInput {
  id: string;
  rows: ImportRow[];
}

/**
 * One batch of the import: the rows from `next_row` on, decided and written in ONE D1 batch.
 * A retry of a batch that landed (its answer was lost) answers as it would have, writing nothing;
 * rows that start elsewhere answer 409 with the row to resume from.
 */
export async function commitRows(ctx: OrgActor, input: CommitInput) {
  const db = orgDb(ctx);
  let imp = await loadImport(db, ctx.org.id, input.id);
  const options = JSON.parse(imp.options) as ImportOptions;
  // The file's rows, as `next_row` stores them (./present.ts storedRowShift).
  const shift = storedRowShift(options);
  const next = () => imp.next_row - shift;
  const from = (input.rows[0] as ImportRow).row;
  const to = (input.rows.at(-1) as ImportRow).row + 1;
  if (imp.status !== "running")
    fail("CONFLICT", imp.status === "completed" ? "This import is finished" : "This import was undone", {
      status: imp.status,
    });
  if (to <= next())
    return { nextRow: next(), alreadyImported: true, rejected: [], import: presentImport(imp) };
  if (from !== next()) fail("CONFLICT", `This import continues at row ${next()}`, { nextRow: next() });
  const kind = imp.kind as ImportKind;
  const mapping = JSON.parse(imp.mapping) as ImportMapping;
  const headers = JSON.parse(imp.headers) as string[];
  const rows = normalized(kind, { headers, mapping }, options, input.rows);
  // A batch that fails (a donor merged or a key taken by a concurrent run between the read and the
  // write) writes nothing: plan it once more from fresh reads.
  for (let attempt = 0; ; attempt++) {
    const plan = await planRows(ctx, { kind, importId: imp.id, fileHash: imp.file_hash, options, rows });
    const token = `imp:${imp.id}:${from}:${generateId().slice(0, 8)}`;
    const stmts = await batchStatements(ctx, imp, plan, { from, to, shift, token, now: Date.now() });
    try {
      const res = await db.batch(stmts);
      if (res[0]?.meta.changes) {
        imp = await loadImport(db, ctx.org.id, imp.id);
        return {
          nextRow: to,
          alreadyImported: false,
          counts: plan.counts,
          rejected: plan.rejections.map((r) => ({ row: r.row, reason: r.reason })),
          import: presentImport(imp),
        };
      }
      // Another request moved the import meanwhile (two tabs): answer from what it did.
      imp = await loadImport(db, ctx.org.id, imp.id);
      if (imp.status === "running" && to <= next())
        return { nextRow: next(), alreadyImported: true, rejected: [], import: presentImport(imp) };
      fail("CONFLICT", `This import continues at row ${next()}`, { nextRow: next() });
    } catch (e) {
      if (attempt >= 1 || !(e instanceof Error) || e instanceof Refusal) throw e;
    }
  }
}

/** The import is done: every row was sent. Idempotent. */
export async function finishImport(ctx: OrgActor, id: string) {
  const db = orgDb(ctx);
  const imp = await loadImport(db, ctx.org.id, id);
  if (imp.status === "completed") return presentImport(imp);
  if (imp.status !== "running") fail("CONFLICT", "This import was undone", { status: imp.status });
  // An import stopped half way stays open to resume: it is finished once every row was sent.
  const left = imp.total_rows - (imp.next_row - FIRST_DATA_ROW);
  const nextRow = presentImport(imp).nextRow;
  if (left > 0)
    fail("CONFLICT", `${formatCount(left)} rows are still to be imported; continue from row ${nextRow}`, {
      nextRow,
    });
  const now = Date.now();
  await db.batch([
    setImportStatus(db, { orgId: ctx.org.id, id, from: "running", to: "completed", now, completed: true }),
    // Finished from several tabs at once: only the call that completed it says so.
    auditStatement(
      ctx,
      {
        action: "import.complete",
        entityType: "import",
        entityId: id,
        after: {
          rows: imp.next_row - FIRST_DATA_ROW,
          giftsCreated: imp.gifts_created,
          donorsCreated: imp.donors_created,
          donorsUpdated: imp.donors_updated,
          campaignsCreated: imp.campaigns_created,
          rowsSkipped: imp.rows_skipped,
          rowsInvalid: imp.rows_invalid,
        },
      },
      previousWriteLanded,
    ),
  ]);
  return presentImport(await loadImport(db, ctx.org.id, id));
}

/** The rows an import refused, a page at a time, with the file's header: the download. */
export async function rejections(ctx: OrgActor, input: { id: string; after: number; limit: number }) {
  const db = orgDb(ctx);
  const imp = await loadImport(db, ctx.org.id, input.id);
  const rows = await rejectionsPage(db, ctx.org.id, imp.id, input.after, input.limit);
  return {
    headers: JSON.parse(imp.headers) as string[],
    rows: rows.map((r) => ({ row: r.row, reason: r.reason, cells: JSON.parse(r.cells) as string[] })),
    next: rows.length === input.limit ? (rows.at(-1)?.row ?? null) : null,
  };
}
