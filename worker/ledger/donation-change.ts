// The one way a donation changes (decision 020, extending 006). Every path hands the row as read (`before`,
// with its change token) and as wanted (`after`) and gets ONE batch: the row write conditional on the token
// read, setting a fresh one; the rollup deltas, audit row and receipt guarded by that token; for a delete,
// DELETE by the fresh token; then stats and recounts guarded by the audit row. A lost race changes nothing,
// and writes that bypass this module still renew the token (the trigger of drizzle/0013).
import type { DonationStatus } from "@core/status";
import { orgDb } from "../db/databases";
import { camelPick, columnNames, type DonationRow, schemaDefaults } from "../db/rows";
import { donation } from "../db/schema";
import { type AuditAction, type AuditActor, auditStatement } from "../lib/audit";
import { anyAuditGuard, auditGuard, changeTokenGuard, type Guard } from "../lib/guard";
import { generateId } from "../lib/ids";
import { donorStatsStatements } from "./donor-stats";
import { planStatsStatements } from "./plan-rollups";
import { receiptStatements } from "./receipt-issue";
import {
  campaignStatsDeltas,
  type DonationFacts,
  FACT_COLUMNS,
  type GiftSet,
  giftSetCampaignStatements,
  giftSetRollupStatements,
  rollupStatements,
} from "./rollups";

/** What the rollups and stats read of a donation. */
export const facts = (d: DonationRow): DonationFacts => camelPick(d, FACT_COLUMNS);

/** Set once, at insert: the rest is what a change writes. */
const SET_AT_INSERT = new Set([
  "id",
  "organization_id",
  "number",
  "created_by",
  "created_at",
  "change_token",
  "import_id",
  "import_key",
]);
/** The columns a change writes: the schema's, but those set at insert. */
const COLUMNS = columnNames(donation).filter((c) => !SET_AT_INSERT.has(c));
/** A new gift's row before what the change gives: read from the schema once. */
const DONATION_DEFAULTS = schemaDefaults(donation);

/** A new gift's row for `writeDonation({ before: null, after })`; the insert sets number and change_token. */
export function newDonationRow(
  g: Pick<
    DonationRow,
    | "id"
    | "organization_id"
    | "donor_id"
    | "campaign_id"
    | "amount_minor"
    | "currency"
    | "frequency"
    | "payment_method"
    | "source"
    | "mode"
    | "donated_at"
  > & { status: DonationStatus; anonymous: boolean; now: number } & Partial<
      Pick<
        DonationRow,
        | "campaign_item_id"
        | "item_quantity"
        | "processing_fee_minor"
        | "refunded_minor"
        | "gateway"
        | "gateway_transaction_id"
        | "payment_reference"
        | "message"
        | "tribute_type"
        | "tribute_name"
        | "internal_note"
        | "created_by"
        | "plan_id"
      >
    >,
): DonationRow {
  const { now, anonymous, ...given } = g;
  const row: Record<string, unknown> = { ...DONATION_DEFAULTS, number: 0 };
  for (const [column, value] of Object.entries(given)) if (value !== undefined) row[column] = value;
  return { ...(row as DonationRow), anonymous: anonymous ? 1 : 0, created_at: now, updated_at: now };
}

export interface DonationChange {
  /** The row as read, change_token included; null for a new gift. */
  before: DonationRow | null;
  /** The row wanted; null deletes it permanently. */
  after: DonationRow | null;
  audit: { action: AuditAction; before?: unknown; after?: unknown; reason?: string | null };
  /** A further condition of the row write, checked in the same transaction (room left on an item, the donor
   * unmerged): a read-then-write check alone lets two concurrent requests both pass. */
  requires?: Guard;
  /** Inserts: statements that run first (the donor a webhook delivery creates). */
  prelude?: D1PreparedStatement[];
  /** Inserts: a second row for the same gateway transaction is not inserted (webhook idempotency). */
  ignoreDuplicate?: boolean;
  /** Inserts: the donor is the organization's donor with this e-mail, resolved in SQL. */
  donorEmail?: string | null;
  /** E-mail the donor the new receipt or a full refund's notice; undefined follows the organization's. */
  notify?: boolean;
}

/** Who: a tRPC context, or `{ env, user: null, org }` for the payment processor. */
export type DonationActor = AuditActor & { org: { id: string; timeZone: string } };

/** One donation change's batch and which statement is the row write. With `recounts: false` the donor and
 * plan recounts are the caller's, once for many changes (`auditId` guards them). */
export function donationChangeStatements(actor: DonationActor, c: DonationChange, recounts = true) {
  const db = orgDb(actor);
  const org = actor.org;
  const row = c.after ?? c.before;
  if (!row) throw new Error("A donation change needs a row before or after");
  const token = generateId();
  const auditId = generateId();
  const args: unknown[] = [];
  const p = (v: unknown) => `?${args.push(v)}`;
  const requires = () => {
    if (!c.requires) return "1";
    const sql = c.requires.sql(args.length + 1);
    args.push(...c.requires.args);
    return sql;
  };
  const stmts: D1PreparedStatement[] = [...(c.prelude ?? [])];
  if (!c.before && c.after) {
    const a = c.after;
    stmts.push(
      db
        .prepare(
          "INSERT INTO org_counter (organization_id, name, value) VALUES (?, 'donation', 1) ON CONFLICT DO UPDATE SET value = value + 1",
        )
        .bind(org.id),
    );
    const orgP = p(org.id);
    const values = COLUMNS.map((col) =>
      col === "donor_id" && c.donorEmail
        ? `(SELECT id FROM donor WHERE organization_id = ${orgP} AND email = ${p(c.donorEmail)})`
        : p(a[col]),
    );
    const sql = `INSERT INTO donation (id, organization_id, number, ${COLUMNS.join(", ")}, created_by, created_at, change_token)
      SELECT ${p(a.id)}, ${orgP}, (SELECT value FROM org_counter WHERE organization_id = ${orgP} AND name = 'donation'),
             ${values.join(", ")}, ${p(a.created_by ?? null)}, ${p(a.created_at)}, ${p(token)}
       WHERE ${requires()}${c.ignoreDuplicate ? " ON CONFLICT (organization_id, gateway_transaction_id) DO NOTHING" : ""}`;
    stmts.push(db.prepare(sql).bind(...args));
  } else if (c.before) {
    const b = c.before;
    const a = c.after;
    const set = a
      ? COLUMNS.filter((col) => col === "updated_at" || a[col] !== b[col]).map(
          (col) => `${col} = ${p(a[col])}`,
        )
      : [];
    set.push(`change_token = ${p(token)}`);
    const sql = `UPDATE donation SET ${set.join(", ")}
      WHERE id = ${p(b.id)} AND organization_id = ${p(org.id)} AND change_token IS ${p(b.change_token)} AND ${requires()}`;
    stmts.push(db.prepare(sql).bind(...args));
  }
  const writeIndex = stmts.length - 1;
  const own = changeTokenGuard(row.id, token);
  const before = c.before ? facts(c.before) : null;
  const after = c.after ? facts(c.after) : null;
  stmts.push(...rollupStatements(db, before, after, org.timeZone, own));
  stmts.push(
    auditStatement(
      actor,
      {
        id: auditId,
        action: c.audit.action,
        entityType: "donation",
        entityId: row.id,
        before: c.audit.before,
        after: c.audit.after,
        reason: c.audit.reason,
      },
      own,
    ),
  );
  // The gift's receipt as the change leaves it (decision 031). A purge voids it here, before the DELETE below
  // detaches it (ON DELETE set null): the ledger sees the gift as gone though its row is still there.
  const receipt = receiptStatements(
    db,
    {
      organizationId: org.id,
      donationId: row.id,
      at: Date.now(),
      reason: c.audit.reason ?? c.audit.action,
      gone: !c.after,
      notify: c.notify,
    },
    own,
  );
  const receiptVoidIndex = stmts.push(receipt.void) - 1;
  stmts.push(receipt.counter);
  const receiptInsertIndex = stmts.push(receipt.issue) - 1;
  if (!c.after)
    stmts.push(db.prepare("DELETE FROM donation WHERE id = ? AND change_token = ?").bind(row.id, token));
  const done = auditGuard(auditId);
  // A delta, not a recount, even in a bulk batch (decision 037): a recount of a general fund reads all its
  // gifts. Each delta reads the table as the statements before it left it, as a lone write's would.
  stmts.push(...campaignStatsDeltas(db, before, after, done));
  if (recounts) {
    stmts.push(...donorStatsStatements(db, org.id, donorsOf(c), done));
    stmts.push(...planStatsStatements(db, plansOf(c), done));
  }
  return { statements: stmts, writeIndex, auditId, receiptInsertIndex, receiptVoidIndex };
}

const donorsOf = (c: DonationChange) =>
  [c.before?.donor_id, c.after?.donor_id].filter((x): x is string => !!x);
/** The recurring plans a change touches: their gift totals are recounted in its batch (decision 030). */
const plansOf = (c: DonationChange) => [c.before?.plan_id, c.after?.plan_id].filter((x): x is string => !!x);

/** `landed`: false when another write changed the row since `before` was read or `requires` failed, and
 * nothing was written. The ledger sends no mail: the caller delivers what was queued. */
export interface DonationWrite {
  landed: boolean;
  receiptsQueued: boolean;
}

export async function writeDonation(actor: DonationActor, c: DonationChange): Promise<DonationWrite> {
  const { statements, writeIndex, receiptInsertIndex, receiptVoidIndex } = donationChangeStatements(actor, c);
  const res = await orgDb(actor).batch(statements);
  return {
    landed: !!res[writeIndex]?.meta.changes,
    receiptsQueued: !!(res[receiptInsertIndex]?.meta.changes || res[receiptVoidIndex]?.meta.changes),
  };
}

/** Many changes in ONE batch (a bulk action, decision 024), each as `writeDonation` writes it, then each
 * donor and plan recounted once, if any change touching it landed (recounts are idempotent). */
export async function writeDonations(actor: DonationActor, changes: readonly DonationChange[]) {
  const db = orgDb(actor);
  const statements: D1PreparedStatement[] = [];
  const writes: number[] = [];
  const donors = new Map<string, string[]>();
  const plans = new Map<string, string[]>();
  const touch = (m: Map<string, string[]>, key: string | null | undefined, auditId: string) => {
    if (key) m.set(key, [...(m.get(key) ?? []), auditId]);
  };
  const receiptWrites: number[] = [];
  for (const c of changes) {
    const one = donationChangeStatements(actor, c, false);
    writes.push(statements.length + one.writeIndex);
    receiptWrites.push(statements.length + one.receiptInsertIndex, statements.length + one.receiptVoidIndex);
    statements.push(...one.statements);
    for (const id of new Set(donorsOf(c))) touch(donors, id, one.auditId);
    for (const id of new Set(plansOf(c))) touch(plans, id, one.auditId);
  }
  for (const [donorId, audits] of donors)
    statements.push(...donorStatsStatements(db, actor.org.id, [donorId], anyAuditGuard(audits)));
  for (const [planId, audits] of plans)
    statements.push(...planStatsStatements(db, [planId], anyAuditGuard(audits)));
  const res = await db.batch(statements);
  return {
    landed: writes.map((i) => !!res[i]?.meta.changes),
    receiptsQueued: receiptWrites.some((i) => !!res[i]?.meta.changes),
  };
}

/** New gifts written at once (an import's batch, decision 028), as statements for the caller's batch: the
 * counter, the rows (all carrying `token`) and their deltas. The donors' stats are the caller's. */
export function giftSetInsert(
  db: ReturnType<typeof orgDb>,
  c: {
    org: { id: string; timeZone: string };
    importId: string;
    token: string;
    createdBy: string;
    now: number;
  },
  gifts: readonly ImportedGift[],
  guard: Guard,
): D1PreparedStatement[] {
  if (!gifts.length) return [];
  const org = c.org.id;
  const cols = IMPORTED_COLUMNS;
  const rows = JSON.stringify(gifts.map((g) => cols.map((col) => g[col])));
  const set = giftSetOf(org, c.token, gifts);
  return [
    db
      .prepare(
        `INSERT INTO org_counter (organization_id, name, value) SELECT ?1, 'donation', ?2 WHERE ${guard.sql(3)}
         ON CONFLICT (organization_id, name) DO UPDATE SET value = value + excluded.value`,
      )
      .bind(org, gifts.length, ...guard.args),
    // A gift's donor must still take gifts when the batch runs (decision 020); if one stopped since the read,
    // organization_id becomes NULL, the NOT NULL rule fails the batch and the service plans it again.
    db
      .prepare(
        `INSERT INTO donation (number, organization_id, source, import_id, change_token, created_by, created_at, updated_at, ${cols.join(", ")})
         SELECT (SELECT value FROM org_counter WHERE organization_id = ?1 AND name = 'donation') - ?2 + j.key + 1,
                CASE WHEN j.value ->> '$[1]' IS NULL OR EXISTS (SELECT 1 FROM donor dn WHERE dn.id = j.value ->> '$[1]'
                       AND dn.organization_id = ?1 AND dn.merged_into_id IS NULL AND dn.anonymized_at IS NULL) THEN ?1 END,
                'import', ?3, ?4, ?5, ?6, ?6, ${cols.map((_, i) => `j.value ->> '$[${i}]'`).join(", ")}
           FROM json_each(?7) j WHERE ${guard.sql(8)}`,
      )
      .bind(org, gifts.length, c.importId, c.token, c.createdBy, c.now, rows, ...guard.args),
    ...giftSetRollupStatements(db, set, c.org.timeZone, 1, guard),
    giftSetCampaignStatements(db, set, 1, guard),
  ];
}

/** The rows one write gives `token`, and the span of days their rollups move. */
function giftSetOf(
  organizationId: string,
  token: string,
  gifts: readonly Pick<DonationRow, "id" | "donated_at">[],
): GiftSet {
  return {
    organizationId,
    idsJson: JSON.stringify(gifts.map((g) => g.id)),
    token,
    from: Math.min(...gifts.map((g) => g.donated_at)),
    until: Math.max(...gifts.map((g) => g.donated_at)) + 1,
  };
}

/** The columns an import writes of a gift (giftSetInsert); anonymous 0/1 as stored. */
const IMPORTED_COLUMNS = [
  "id",
  "donor_id",
  "campaign_id",
  "amount_minor",
  "processing_fee_minor",
  "refunded_minor",
  "currency",
  "status",
  "frequency",
  "payment_method",
  "gateway",
  "gateway_transaction_id",
  "mode",
  "anonymous",
  "message",
  "tribute_type",
  "tribute_name",
  "internal_note",
  "donated_at",
  "import_key",
] as const satisfies readonly (keyof DonationRow)[];
export type ImportedGift = Pick<DonationRow, (typeof IMPORTED_COLUMNS)[number]>;

/** An import's undo: rows still carrying a token starting with `tokenPrefix` (unchanged since written) are
 * claimed with `token`, their deltas taken back, and deleted; a row changed since is left alone. */
export function giftSetDelete(
  db: ReturnType<typeof orgDb>,
  c: { org: { id: string; timeZone: string }; tokenPrefix: string; token: string },
  gifts: readonly Pick<DonationRow, "id" | "donated_at" | "campaign_id">[],
  guard: Guard,
): D1PreparedStatement[] {
  if (!gifts.length) return [];
  const org = c.org.id;
  const set = giftSetOf(org, c.token, gifts);
  return [
    db
      .prepare(
        `UPDATE donation SET change_token = ?1
          WHERE organization_id = ?2 AND id IN (SELECT value FROM json_each(?3)) AND substr(change_token, 1, length(?4)) = ?4
            AND ${guard.sql(5)}`,
      )
      .bind(c.token, org, set.idsJson, c.tokenPrefix, ...guard.args),
    ...giftSetRollupStatements(db, set, c.org.timeZone, -1, guard),
    giftSetCampaignStatements(db, set, -1, guard),
    db
      .prepare(
        `DELETE FROM donation WHERE organization_id = ?1 AND id IN (SELECT value FROM json_each(?2)) AND change_token = ?3
           AND ${guard.sql(4)}`,
      )
      .bind(org, set.idsJson, c.token, ...guard.args),
  ];
}
