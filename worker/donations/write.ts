/**
 * The one way a donation changes (decision 020, extending 006). Every path that creates, edits,
 * moves between statuses, trashes, restores or permanently deletes a gift — the donations service,
 * the processor's webhook (webhook.ts) — hands this module the row as it read it (`before`, with
 * its change token) and the row it wants (`after`), and gets ONE batch (one D1 transaction):
 *
 *   1. the row write, conditional on the state read: an UPDATE … WHERE change_token IS <read token>
 *      setting a fresh token; an INSERT (its token is fresh too); for a permanent delete a first
 *      UPDATE that claims the row by changing its token;
 *   2. the rollup deltas (org_daily, donation_totals, donation_daily_totals), each guarded by the
 *      fresh token: they apply only if step 1 wrote this row;
 *   3. the audit row, guarded the same way (a lost race leaves no history);
 *   4. for a permanent delete, DELETE … WHERE change_token = <fresh token>;
 *   5. the campaigns' stats moved by the change's delta, and the donor and plan recounts, guarded
 *      by the audit row of step 3 (the row itself may be gone by now).
 *
 * So a request that lost a race to another write changes nothing at all, and its caller answers
 * from a fresh read (409, or success where the user's goal already holds). Writes that bypass this
 * module still invalidate the tokens others read: the trigger of drizzle/0013 gives every other
 * UPDATE of a donation a fresh token.
 */
import type { DonationStatus } from "@core/status";
import { generateId } from "../auth/crypto";
import { orgDb } from "../db/databases";
import { donorStatsStatements } from "../donors/stats";
import { type AuditActor, auditStatement } from "../lib/audit";
import { anyAuditGuard, auditGuard, changeTokenGuard, type Guard } from "../lib/guard";
import { planStatsStatements } from "../plans/rollups";
import { afterReceiptIssued } from "../receipts/delivery";
import { RECEIPT_INSERT_INDEX, receiptStatements } from "../receipts/ledger";
import type { DonationRow } from "./queries";
import {
  campaignStatsDeltas,
  type DonationFacts,
  type GiftSet,
  giftSetCampaignStatements,
  giftSetRollupStatements,
  rollupStatements,
} from "./rollups";

/** What the rollups and stats read of a donation. */
export const facts = (d: DonationRow): DonationFacts => ({
  id: d.id,
  organizationId: d.organization_id,
  campaignId: d.campaign_id,
  donorId: d.donor_id,
  status: d.status,
  mode: d.mode,
  trashedAt: d.trashed_at,
  amountMinor: d.amount_minor,
  refundedMinor: d.refunded_minor,
  currency: d.currency,
  donatedAt: d.donated_at,
  planId: d.plan_id,
  frequency: d.frequency,
  paymentMethod: d.payment_method,
});

/** The columns a change writes (id, organization_id, number and created_at are set at insert). */
const COLUMNS = [
  "donor_id",
  "campaign_id",
  "campaign_item_id",
  "item_quantity",
  "amount_minor",
  "fee_covered_minor",
  "processing_fee_minor",
  "platform_fee_minor",
  "refunded_minor",
  "currency",
  "status",
  "frequency",
  "payment_method",
  "gateway",
  "gateway_transaction_id",
  "source",
  "mode",
  "anonymous",
  "message",
  "tribute_type",
  "tribute_name",
  "internal_note",
  "donated_at",
  "trashed_at",
  "plan_id",
  "updated_at",
] as const satisfies readonly (keyof DonationRow)[];

/**
 * A new gift's row, for `writeDonation({ before: null, after })`: what the caller knows, the rest
 * as a fresh gift has it (no fees, refunds, tribute or note; not trashed). Manual entry and the
 * processor's webhook both start here; `number` and `change_token` are set by the insert.
 */
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
        | "message"
        | "tribute_type"
        | "tribute_name"
        | "internal_note"
        | "created_by"
        | "plan_id"
      >
    >,
): DonationRow {
  return {
    id: g.id,
    organization_id: g.organization_id,
    number: 0,
    donor_id: g.donor_id,
    campaign_id: g.campaign_id,
    campaign_item_id: g.campaign_item_id ?? null,
    item_quantity: g.item_quantity ?? 0,
    amount_minor: g.amount_minor,
    fee_covered_minor: 0,
    processing_fee_minor: g.processing_fee_minor ?? 0,
    platform_fee_minor: 0,
    refunded_minor: g.refunded_minor ?? 0,
    currency: g.currency,
    status: g.status,
    frequency: g.frequency,
    payment_method: g.payment_method,
    gateway: g.gateway ?? null,
    gateway_transaction_id: g.gateway_transaction_id ?? null,
    source: g.source,
    mode: g.mode,
    anonymous: g.anonymous ? 1 : 0,
    message: g.message ?? null,
    tribute_type: g.tribute_type ?? null,
    tribute_name: g.tribute_name ?? null,
    internal_note: g.internal_note ?? null,
    donated_at: g.donated_at,
    trashed_at: null,
    import_id: null,
    import_key: null,
    plan_id: g.plan_id ?? null,
    created_at: g.now,
    updated_at: g.now,
    created_by: g.created_by ?? null,
    change_token: null,
  };
}

export interface DonationChange {
  /** The row as read, change_token included; null for a new gift. */
  before: DonationRow | null;
  /** The row wanted; null deletes it permanently. */
  after: DonationRow | null;
  audit: { action: string; before?: unknown; after?: unknown; reason?: string | null };
  /**
   * A further condition of the row write, checked in the same transaction (e.g. room left on an
   * item that allows no overfunding, the donor still unmerged): a read-then-write check alone lets
   * two concurrent requests both pass.
   */
  requires?: Guard;
  /** Inserts: statements that run first (the donor a webhook delivery creates). */
  prelude?: D1PreparedStatement[];
  /** Inserts: a second row for the same gateway transaction is not inserted (webhook idempotency). */
  ignoreDuplicate?: boolean;
  /** Inserts: the donor is the organization's donor with this e-mail, resolved in SQL. */
  donorEmail?: string | null;
}

/**
 * Who: a tRPC context, or `{ env, user: null, org }` for the payment processor; `waitUntil` lets
 * the receipts a change issues go out after the response (worker/receipts/delivery.ts).
 */
export type DonationActor = AuditActor & {
  org: { id: string; timeZone: string };
  waitUntil?: (p: Promise<unknown>) => unknown;
};

/**
 * The batch of one donation change, and which statement is the row write. With `recounts: false`
 * the donor and plan recounts (step 5) are left to the caller, which runs them once for many
 * changes (`writeDonations`); `auditId` is the change's witness for their guard. The campaigns'
 * stats always move by this change's own delta, in its place in the batch.
 */
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
  // The gift's receipt as the change leaves it (issue 25, decision 031): voided, issued, replaced.
  const receiptInsertIndex = stmts.length + RECEIPT_INSERT_INDEX;
  stmts.push(
    ...receiptStatements(
      db,
      {
        organizationId: org.id,
        donationId: row.id,
        at: Date.now(),
        reason: c.audit.reason ?? c.audit.action,
      },
      own,
    ),
  );
  if (!c.after)
    stmts.push(db.prepare("DELETE FROM donation WHERE id = ? AND change_token = ?").bind(row.id, token));
  const done = auditGuard(auditId);
  // A delta, not a recount, in a bulk batch too: a recount of a general fund reads its hundreds
  // of thousands of gifts (decision 037), once per bulk call that touches it. Each delta reads the
  // table as the statements before it in the batch left it, as a lone write's would.
  stmts.push(...campaignStatsDeltas(db, before, after, done));
  if (recounts) {
    stmts.push(...donorStatsStatements(db, org.id, donorsOf(c), done));
    stmts.push(...planStatsStatements(db, plansOf(c), done));
  }
  return { statements: stmts, writeIndex, auditId, receiptInsertIndex };
}

const donorsOf = (c: DonationChange) =>
  [c.before?.donor_id, c.after?.donor_id].filter((x): x is string => !!x);
/** The recurring plans a change touches: their gift totals are recounted in its batch (decision 030). */
const plansOf = (c: DonationChange) => [c.before?.plan_id, c.after?.plan_id].filter((x): x is string => !!x);

/**
 * Runs one donation change. Returns whether it landed; false means another write changed (or
 * removed) the row since `before` was read, or `requires` no longer held, and nothing was written.
 */
export async function writeDonation(actor: DonationActor, c: DonationChange): Promise<boolean> {
  const { statements, writeIndex, receiptInsertIndex } = donationChangeStatements(actor, c);
  const res = await orgDb(actor).batch(statements);
  if (res[receiptInsertIndex]?.meta.changes) await afterReceiptIssued(actor);
  return !!res[writeIndex]?.meta.changes;
}

/**
 * Many donation changes in ONE batch (a bulk action, decision 024), each as `writeDonation` would
 * write it — its row conditional on what was read, its deltas (the campaigns' stats among them)
 * and audit row guarded by its own token — and then each donor and plan they touch recounted
 * ONCE, guarded by "any of the changes touching it landed" (a recount is idempotent, so once
 * after all of them equals once after each; a donor's or plan's gifts are few). Returns, per
 * change, whether it landed.
 */
export async function writeDonations(actor: DonationActor, changes: readonly DonationChange[]) {
  const db = orgDb(actor);
  const statements: D1PreparedStatement[] = [];
  const writes: number[] = [];
  const donors = new Map<string, string[]>();
  const plans = new Map<string, string[]>();
  const touch = (m: Map<string, string[]>, key: string | null | undefined, auditId: string) => {
    if (key) m.set(key, [...(m.get(key) ?? []), auditId]);
  };
  const receiptInserts: number[] = [];
  for (const c of changes) {
    const one = donationChangeStatements(actor, c, false);
    writes.push(statements.length + one.writeIndex);
    receiptInserts.push(statements.length + one.receiptInsertIndex);
    statements.push(...one.statements);
    for (const id of new Set(donorsOf(c))) touch(donors, id, one.auditId);
    for (const id of new Set(plansOf(c))) touch(plans, id, one.auditId);
  }
  for (const [donorId, audits] of donors)
    statements.push(...donorStatsStatements(db, actor.org.id, [donorId], anyAuditGuard(audits)));
  for (const [planId, audits] of plans)
    statements.push(...planStatsStatements(db, [planId], anyAuditGuard(audits)));
  const res = await db.batch(statements);
  if (receiptInserts.some((i) => res[i]?.meta.changes)) await afterReceiptIssued(actor);
  return writes.map((i) => !!res[i]?.meta.changes);
}

/**
 * A set of new gifts written at once (an import's batch, docs/decisions/028-csv-import.md), as
 * statements for the caller's one batch: the organization's number counter moved by their count,
 * the rows (numbered in order, all carrying `token`), and their rollup and campaign-stats deltas
 * computed from the rows themselves. The donors' stats are the caller's (it
 * recounts every donor its batch touches once). Every statement carries `guard`.
 */
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
  const cols = [
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
  const rows = JSON.stringify(gifts.map((g) => cols.map((col) => g[col])));
  const set: GiftSet = {
    organizationId: org,
    idsJson: JSON.stringify(gifts.map((g) => g.id)),
    token: c.token,
    from: Math.min(...gifts.map((g) => g.donated_at)),
    until: Math.max(...gifts.map((g) => g.donated_at)) + 1,
  };
  return [
    db
      .prepare(
        `INSERT INTO org_counter (organization_id, name, value) SELECT ?1, 'donation', ?2 WHERE ${guard.sql(3)}
         ON CONFLICT (organization_id, name) DO UPDATE SET value = value + excluded.value`,
      )
      .bind(org, gifts.length, ...guard.args),
    // A gift's donor must still take gifts when the batch runs (unmerged, not anonymized: the check
    // createDonation makes, decision 020); if one stopped since the read, organization_id becomes
    // NULL, the NOT NULL rule fails the whole batch and the service plans it again.
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

/** A gift as an import inserts it (giftSetInsert); anonymous 0/1 as stored. */
export type ImportedGift = Pick<
  DonationRow,
  | "id"
  | "donor_id"
  | "campaign_id"
  | "amount_minor"
  | "processing_fee_minor"
  | "refunded_minor"
  | "currency"
  | "status"
  | "frequency"
  | "payment_method"
  | "gateway"
  | "gateway_transaction_id"
  | "mode"
  | "anonymous"
  | "message"
  | "tribute_type"
  | "tribute_name"
  | "internal_note"
  | "donated_at"
  | "import_key"
>;

/**
 * Removing a set of gifts (an import's undo): the rows still carrying a token that starts with
 * `tokenPrefix` (nothing changed them since they were written) are claimed with `token`, their
 * rollup and campaign-stats deltas taken back, and deleted. A row changed since is left
 * alone, and so are its deltas. Statements for the caller's one batch, each carrying `guard`.
 */
export function giftSetDelete(
  db: ReturnType<typeof orgDb>,
  c: { org: { id: string; timeZone: string }; tokenPrefix: string; token: string },
  gifts: readonly Pick<DonationRow, "id" | "donated_at" | "campaign_id">[],
  guard: Guard,
): D1PreparedStatement[] {
  if (!gifts.length) return [];
  const org = c.org.id;
  const set: GiftSet = {
    organizationId: org,
    idsJson: JSON.stringify(gifts.map((g) => g.id)),
    token: c.token,
    from: Math.min(...gifts.map((g) => g.donated_at)),
    until: Math.max(...gifts.map((g) => g.donated_at)) + 1,
  };
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
