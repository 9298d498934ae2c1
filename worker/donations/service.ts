// The donations' rules (DESIGN §4). Every change is ONE batch, conditional on the row as read (decision 020):
// one that lost a race writes nothing and answers from a fresh read (409, or success if the goal holds).

import type { BulkOutcome } from "@core/bulk";
import { itemRoomProblem } from "@core/campaign";
import type { DonationChanges, ManualDonationInput } from "@core/donation";
import { formatMoney } from "@core/money";
import { EXPECTING, PLAN_STATUS_LABELS, type PlanStatus, planGiftCurrencyProblem } from "@core/plans";
import { formatReceiptNumber } from "@core/receipts";
import { allowedDonationTargets, type DonationStatus, isCounted, needsReason } from "@core/status";
import { type Database, orgDb } from "../db/databases";
import type { DonationRow } from "../db/rows";
import { type DonationChange, newDonationRow } from "../ledger/donation-change";
import { planRow } from "../ledger/plan-change";
import { giftJoinsPlan } from "../ledger/plan-gift";
import { fail, Refusal } from "../lib/fail";
import { allGuards } from "../lib/guard";
import { generateId } from "../lib/ids";
import { withActorNames } from "../lib/user-names";
import type { OrgActor, OrgCtx, OrgReader } from "../trpc/init";
import { changeDonation, changeDonations } from "./change";
import type { DonationFilters } from "./filters";
import { matchingDonationIds } from "./list";
import { presentDonation, statusTimeline, TIMELINE_ACTIONS } from "./present";
import {
  campaignCurrency,
  donationById,
  donationEvents,
  donationsByIds,
  donorTakesGifts,
  entityHistory,
  itemForEdit,
  itemForNewGift,
  itemFunding,
  itemRoom,
  liveDonorId,
} from "./queries";

const CHANGED_MEANWHILE = "The donation changed meanwhile; reload and try again";
/** A bulk change's skip reason. */
const CHANGED_MEANWHILE_SHORT = "The donation changed meanwhile";

async function loadDonation(db: Database, orgId: string, id: string) {
  const row = await donationById(db, orgId, id);
  if (!row) fail("NOT_FOUND", "Donation not found");
  return row;
}

const itemFacts = (i: {
  allow_overfunding: number | boolean;
  quantity_needed: number | null;
  funded: number;
}) => ({
  allowOverfunding: !!i.allow_overfunding,
  needed: i.quantity_needed,
  funded: i.funded,
});

/** Why `itemRoom` stopped a write, from a fresh read; null when there is room. */
async function overfunding(db: Database, itemId: string, quantity: number, donationId: string) {
  const item = await itemFunding(db, itemId, donationId);
  return item && itemRoomProblem(itemFacts(item), quantity);
}

export async function getDonation(ctx: OrgReader, id: string) {
  const d = await loadDonation(orgDb(ctx), ctx.org.id, id);
  const events = await withActorNames(
    ctx.env,
    await donationEvents(orgDb(ctx), ctx.org.id, d.id, TIMELINE_ACTIONS),
  );
  return { ...presentDonation(d), timeline: statusTimeline(d, events) };
}

export async function history(ctx: OrgReader, entityType: string, entityId: string) {
  const rows = await withActorNames(
    ctx.env,
    await entityHistory(orgDb(ctx), ctx.org.id, entityType, entityId),
  );
  return rows.map(({ actorId: _a, impersonatorId: _i, ...row }) => row);
}

export async function createDonation(ctx: OrgActor, input: ManualDonationInput) {
  const db = orgDb(ctx);
  // A merged donor's id resolves to the donor it was merged into, so a gift never lands on a merged record;
  // the write checks it is still unmerged (decision 020).
  const donor = input.donorId ? await liveDonorId(db, ctx.org.id, input.donorId) : null;
  if (input.donorId && !donor) fail("NOT_FOUND", "Donor not found");
  // Anonymization erased the person (GDPR erasure): a new gift would start a new record of them.
  if (donor?.anonymized)
    fail("UNPROCESSABLE_CONTENT", "An anonymized donor cannot receive new donations", { field: "donorId" });
  if (input.campaignId) {
    const c = await campaignCurrency(db, ctx.org.id, input.campaignId);
    if (!c) fail("NOT_FOUND", "Campaign not found");
    if (c.currency !== input.currency)
      fail("BAD_REQUEST", `This campaign collects ${c.currency}`, { field: "currency" });
  }
  if (input.campaignItemId) {
    const item = await itemForNewGift(db, ctx.org.id, input.campaignId, input.campaignItemId);
    if (!item) fail("NOT_FOUND", "Item not found");
    if (!item.active || item.archived_at)
      fail("UNPROCESSABLE_CONTENT", "This item no longer takes donations", { field: "campaignItemId" });
    const short = itemRoomProblem(itemFacts(item), Math.max(1, input.itemQuantity));
    if (short) fail("UNPROCESSABLE_CONTENT", short, { field: "itemQuantity" });
  }
  const plan = input.planId ? await planForManualGift(db, ctx, input, donor?.id ?? null) : null;
  const id = generateId();
  const row = newDonationRow({
    id,
    organization_id: ctx.org.id,
    plan_id: plan?.planId ?? null,
    donor_id: donor?.id ?? null,
    campaign_id: input.campaignId,
    campaign_item_id: input.campaignItemId ?? null,
    item_quantity: input.campaignItemId ? Math.max(1, input.itemQuantity) : 0,
    amount_minor: input.amountMinor,
    currency: input.currency,
    status: input.status,
    frequency: plan?.frequency ?? input.frequency,
    payment_method: input.paymentMethod,
    payment_reference: input.paymentReference || null,
    source: "manual",
    mode: input.mode,
    anonymous: input.anonymous,
    message: input.message ?? null,
    tribute_type: input.tributeType ?? null,
    tribute_name: input.tributeName ?? null,
    internal_note: input.internalNote ?? null,
    donated_at: input.donatedAt,
    created_by: ctx.user.id,
    now: Date.now(),
  });
  const landed = await changeDonation(ctx, {
    before: null,
    after: row,
    audit: { action: "donation.create", after: input },
    prelude: plan?.prelude,
    requires: allGuards(
      row.donor_id && donorTakesGifts(row.donor_id),
      row.campaign_item_id && itemRoom(row.campaign_item_id, row.item_quantity, id),
      plan?.requires,
    ),
  });
  if (!landed) {
    if (plan?.requires)
      fail("CONFLICT", "The plan changed meanwhile; reload and try again", { field: "planId" });
    // Since the checks, another gift took the item's last places, or the donor was merged or anonymized.
    const short =
      row.campaign_item_id && (await overfunding(db, row.campaign_item_id, row.item_quantity, id));
    if (short) fail("UNPROCESSABLE_CONTENT", short, { field: "itemQuantity" });
    fail("CONFLICT", "The donor was merged or anonymized meanwhile; reload and try again", {
      field: "donorId",
    });
  }
  return presentDonation(await loadDonation(db, ctx.org.id, id));
}

/** A stopped plan takes no gifts (resume it first); the gift brings the plan along in its batch. */
async function planForManualGift(
  db: Database,
  ctx: OrgActor,
  input: ManualDonationInput,
  donorId: string | null,
) {
  const plan = await planRow(db, ctx.org.id, input.planId as string);
  if (!plan) fail("NOT_FOUND", "Plan not found");
  if (plan.donor_id !== donorId)
    fail("UNPROCESSABLE_CONTENT", "This plan belongs to another donor", { field: "planId" });
  const otherCurrency = planGiftCurrencyProblem(plan.currency, input.currency);
  if (otherCurrency) fail("BAD_REQUEST", otherCurrency, { field: "currency" });
  if (!EXPECTING.includes(plan.status as PlanStatus))
    fail(
      "UNPROCESSABLE_CONTENT",
      `A ${PLAN_STATUS_LABELS[plan.status as PlanStatus].toLowerCase()} plan takes no donations`,
      {
        field: "planId",
      },
    );
  return giftJoinsPlan(db, ctx, plan, {
    donatedAt: input.donatedAt,
    completed: input.status === "completed" && input.mode === "live",
    action: "plan.gift_recovered",
  });
}

export async function updateDonation(ctx: OrgActor, id: string, d: DonationChanges) {
  const db = orgDb(ctx);
  const before = await loadDonation(db, ctx.org.id, id);
  if (d.amountMinor !== undefined && before.source !== "manual")
    fail("UNPROCESSABLE_CONTENT", "Only manual entries can change their amount", {
      field: "amountMinor",
    });
  if (d.amountMinor !== undefined && d.amountMinor < before.refunded_minor)
    fail("BAD_REQUEST", "Below the amount already refunded", { field: "amountMinor" });
  if (d.campaignId) {
    const c = await campaignCurrency(db, ctx.org.id, d.campaignId);
    if (!c) fail("NOT_FOUND", "Campaign not found");
    if (c.currency !== before.currency)
      fail("BAD_REQUEST", `This campaign collects ${c.currency}`, { field: "campaignId" });
  }
  const campaignAfter = d.campaignId !== undefined ? d.campaignId : before.campaign_id;
  const itemAfter =
    d.campaignItemId !== undefined
      ? d.campaignItemId
      : campaignAfter !== before.campaign_id
        ? null
        : before.campaign_item_id;
  const quantityAfter = itemAfter ? (d.itemQuantity ?? Math.max(1, before.item_quantity)) : 0;
  const counted = isCounted({ status: before.status, mode: before.mode, trashedAt: before.trashed_at });
  if (itemAfter) {
    if (!campaignAfter) fail("BAD_REQUEST", "An item needs a campaign", { field: "campaignItemId" });
    const item = await itemForEdit(db, ctx.org.id, campaignAfter, itemAfter, before.id);
    if (!item) fail("NOT_FOUND", "Item not found");
    const short = counted && itemRoomProblem(itemFacts(item), quantityAfter);
    if (short) fail("UNPROCESSABLE_CONTENT", short, { field: "itemQuantity" });
  }
  const after: DonationRow = {
    ...before,
    message: d.message !== undefined ? d.message : before.message,
    internal_note: d.internalNote !== undefined ? d.internalNote : before.internal_note,
    tribute_type: d.tributeType !== undefined ? d.tributeType : before.tribute_type,
    tribute_name: d.tributeName !== undefined ? d.tributeName : before.tribute_name,
    anonymous: d.anonymous !== undefined ? (d.anonymous ? 1 : 0) : before.anonymous,
    campaign_id: campaignAfter,
    campaign_item_id: itemAfter,
    item_quantity: quantityAfter,
    amount_minor: d.amountMinor ?? before.amount_minor,
    updated_at: Date.now(),
  };
  // The item check above, again inside the write: two edits could both pass it (decision 020).
  const requires = itemAfter && counted ? itemRoom(itemAfter, quantityAfter, before.id) : undefined;
  const landed = await changeDonation(ctx, {
    before,
    after,
    audit: { action: "donation.update", before: presentDonation(before), after: d },
    requires,
  });
  if (!landed) {
    const short = itemAfter && requires && (await overfunding(db, itemAfter, quantityAfter, before.id));
    if (short) fail("UNPROCESSABLE_CONTENT", short, { field: "itemQuantity" });
    fail("CONFLICT", CHANGED_MEANWHILE);
  }
  return presentDonation(await loadDonation(db, ctx.org.id, before.id));
}

interface StatusChange {
  id: string;
  status: DonationStatus;
  refundAmountMinor?: number;
  reason?: string;
  /** Platform admins: any status, also out of a terminal one. */
  correction: boolean;
  /** E-mail the donor what happens to their receipt; undefined: the organization's setting decides. */
  notifyDonor?: boolean;
}

interface StatusPlan {
  status: DonationStatus;
  refunded: number;
  action: "donation.status" | "donation.correction";
}

// The status machine of DESIGN §4, deciding for the single and the bulk change alike. A correction's refunded
// amount follows the new status: all for refunded, `refundAmountMinor` (the total) for partial, else none.
function planStatus(ctx: Pick<OrgCtx, "org">, before: DonationRow, input: StatusChange): StatusPlan {
  if (before.trashed_at)
    fail("UNPROCESSABLE_CONTENT", "Restore the donation from the trash first", { allowed: [] });
  if (input.correction) {
    if (!ctx.org.isPlatformAdmin) fail("FORBIDDEN", "Only platform admins can correct a status");
    if (needsReason(input.status, true) && !input.reason)
      fail("BAD_REQUEST", "Give a reason", { field: "reason" });
    if (input.status === before.status)
      fail("BAD_REQUEST", "The donation already has this status", { field: "status" });
    let refunded = 0;
    if (input.status === "refunded") refunded = before.amount_minor;
    if (input.status === "partially_refunded") {
      const total = input.refundAmountMinor;
      if (!total || total >= before.amount_minor)
        fail("BAD_REQUEST", "Enter the total refunded, less than the amount", {
          field: "refundAmountMinor",
        });
      refunded = total;
    }
    return { status: input.status, refunded, action: "donation.correction" };
  }
  // A further partial refund ("Refund more…") is a refund like the first: not a new status.
  const further = before.status === "partially_refunded" && input.status === "partially_refunded";
  const allowed = allowedDonationTargets(before.status, before.source);
  if (!further && !allowed.includes(input.status)) {
    fail(
      "UNPROCESSABLE_CONTENT",
      `A ${before.status.replace("_", " ")} donation cannot become ${input.status.replace("_", " ")}`,
      { from: before.status, allowed },
    );
  }
  if (needsReason(input.status) && !input.reason) {
    fail("BAD_REQUEST", "Give a reason", { field: "reason" });
  }
  let refunded = before.refunded_minor;
  if (input.status === "refunded") refunded = before.amount_minor;
  if (input.status === "partially_refunded") {
    const amount = input.refundAmountMinor;
    if (!amount) fail("BAD_REQUEST", "Enter the amount refunded", { field: "refundAmountMinor" });
    const leftMinor = before.amount_minor - refunded;
    const left = formatMoney(leftMinor, before.currency);
    if (amount > leftMinor)
      fail("BAD_REQUEST", `That is more than the ${left} left to refund`, {
        field: "refundAmountMinor",
        leftMinor,
      });
    if (amount === leftMinor)
      fail("BAD_REQUEST", `That refunds all ${left} left: choose Refund instead`, {
        field: "refundAmountMinor",
        leftMinor,
      });
    refunded += amount;
  }
  return { status: input.status, refunded, action: "donation.status" };
}

function statusChange(
  before: DonationRow,
  plan: StatusPlan,
  reason: string | undefined,
  notify?: boolean,
): DonationChange {
  const after: DonationRow = {
    ...before,
    status: plan.status,
    refunded_minor: plan.refunded,
    updated_at: Date.now(),
  };
  return {
    before,
    after,
    audit: {
      action: plan.action,
      before: { status: before.status, refundedMinor: before.refunded_minor },
      after: { status: after.status, refundedMinor: plan.refunded },
      reason,
    },
    notify,
  };
}

/** A lost race answers 409. */
export async function changeStatus(ctx: OrgActor, input: StatusChange) {
  const db = orgDb(ctx);
  const before = await loadDonation(db, ctx.org.id, input.id);
  const plan = planStatus(ctx, before, input);
  const landed = await changeDonation(ctx, statusChange(before, plan, input.reason, input.notifyDonor));
  if (!landed) fail("CONFLICT", CHANGED_MEANWHILE);
  return presentDonation(await loadDonation(db, ctx.org.id, before.id));
}

interface BulkStatusChange {
  ids: string[];
  status: DonationStatus;
  reason?: string;
}

// One call of a bulk status change (decision 024): every change `planStatus` passes goes into ONE batch; the
// rest are skipped with the reason. Partial refunds and corrections need a look at each gift: not in bulk.
export async function bulkChangeStatus(ctx: OrgActor, input: BulkStatusChange): Promise<BulkOutcome[]> {
  if (input.status === "partially_refunded")
    fail("BAD_REQUEST", "Partial refunds need an amount per donation: record them one at a time", {
      field: "status",
    });
  if (needsReason(input.status) && !input.reason) fail("BAD_REQUEST", "Give a reason", { field: "reason" });
  const rows = new Map((await donationsByIds(orgDb(ctx), ctx.org.id, input.ids)).map((r) => [r.id, r]));
  const outcomes = new Map<string, BulkOutcome>();
  const planned: { id: string; change: DonationChange }[] = [];
  for (const id of input.ids) {
    const before = rows.get(id);
    if (!before) {
      outcomes.set(id, { id, changed: false, reason: "Not found" });
      continue;
    }
    if (before.status === input.status && !before.trashed_at) {
      outcomes.set(id, { id, changed: false, reason: `Already ${input.status.replace("_", " ")}` });
      continue;
    }
    try {
      const plan = planStatus(ctx, before, { ...input, id, correction: false });
      planned.push({ id, change: statusChange(before, plan, input.reason) });
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      outcomes.set(id, { id, changed: false, reason: e.message });
    }
  }
  const landed = planned.length
    ? await changeDonations(
        ctx,
        planned.map((p) => p.change),
      )
    : [];
  planned.forEach((p, i) => {
    const outcome: BulkOutcome = landed[i]
      ? { id: p.id, changed: true }
      : { id: p.id, changed: false, reason: CHANGED_MEANWHILE_SHORT };
    outcomes.set(p.id, outcome);
  });
  return input.ids.map((id) => outcomes.get(id) as BulkOutcome);
}

// Trashing a gift already in the trash succeeds without a second change, also when another request just
// trashed it (decision 020); a purge that finds the gift gone answers NOT_FOUND, as it would a moment later.
export async function deleteDonation(ctx: OrgActor, id: string, permanent: boolean) {
  const db = orgDb(ctx);
  const before = await loadDonation(db, ctx.org.id, id);
  if (permanent) {
    if (!ctx.org.isPlatformAdmin) fail("FORBIDDEN", "Only platform admins can delete donations permanently");
    const landed = await changeDonation(ctx, {
      before,
      after: null,
      audit: { action: "donation.purge", before: presentDonation(before) },
    });
    if (!landed) {
      await loadDonation(db, ctx.org.id, before.id);
      fail("CONFLICT", CHANGED_MEANWHILE);
    }
    return { id: before.id };
  }
  if (before.trashed_at) return { id: before.id };
  const now = Date.now();
  const after = { ...before, trashed_at: now, updated_at: now };
  const landed = await changeDonation(ctx, { before, after, audit: { action: "donation.trash" } });
  if (!landed && !(await loadDonation(db, ctx.org.id, before.id)).trashed_at)
    fail("CONFLICT", CHANGED_MEANWHILE);
  return { id: before.id };
}

/** Each id trashed as deleteDonation would, in ONE batch (decision 024); the rest skipped with the reason. */
export async function bulkTrash(ctx: OrgActor, ids: string[]): Promise<BulkOutcome[]> {
  const rows = new Map((await donationsByIds(orgDb(ctx), ctx.org.id, ids)).map((r) => [r.id, r]));
  const outcomes = new Map<string, BulkOutcome>();
  const planned: { id: string; change: DonationChange }[] = [];
  const now = Date.now();
  for (const id of ids) {
    const before = rows.get(id);
    if (!before) outcomes.set(id, { id, changed: false, reason: "Not found" });
    else if (before.trashed_at) outcomes.set(id, { id, changed: false, reason: "Already in the trash" });
    else
      planned.push({
        id,
        change: {
          before,
          after: { ...before, trashed_at: now, updated_at: now },
          audit: { action: "donation.trash" },
        },
      });
  }
  const landed = planned.length
    ? await changeDonations(
        ctx,
        planned.map((p) => p.change),
      )
    : [];
  planned.forEach((p, i) => {
    outcomes.set(
      p.id,
      landed[i] ? { id: p.id, changed: true } : { id: p.id, changed: false, reason: CHANGED_MEANWHILE_SHORT },
    );
  });
  return ids.map((id) => outcomes.get(id) as BulkOutcome);
}

/** For the question asked first: how many issued receipts the trash will void, and the first few numbers. */
export async function trashPreview(ctx: OrgReader, input: { ids: string[] } | { matching: DonationFilters }) {
  const db = orgDb(ctx);
  const ids = "ids" in input ? input.ids : (await matchingDonationIds(ctx, input.matching)).ids;
  const { results } = await db
    .prepare(
      `SELECT r.number, json_extract(r.snapshot, '$.settings.numberPrefix') AS prefix FROM receipt r
        WHERE r.organization_id = ?1 AND r.status = 'issued'
          AND r.donation_id IN (SELECT value FROM json_each(?2)) ORDER BY r.number`,
    )
    .bind(ctx.org.id, JSON.stringify(ids))
    .all<{ number: number; prefix: string | null }>();
  return {
    gifts: ids.length,
    receipted: results.length,
    numbers: results.slice(0, 5).map((r) => formatReceiptNumber(r.prefix ?? "", r.number)),
  };
}

/** Restoring a gift that is not in the trash succeeds without a change (see deleteDonation). */
export async function restoreDonation(ctx: OrgActor, id: string) {
  const db = orgDb(ctx);
  const before = await loadDonation(db, ctx.org.id, id);
  if (!before.trashed_at) return presentDonation(before);
  const after = { ...before, trashed_at: null, updated_at: Date.now() };
  // The receipt the trash voided is issued again and nothing is mailed: a slip and its undo do not reach
  // the donor; "Send receipt" on the gift's page sends it when wanted.
  const landed = await changeDonation(ctx, {
    before,
    after,
    audit: { action: "donation.restore" },
    notify: false,
  });
  const now = await loadDonation(db, ctx.org.id, before.id);
  if (!landed && now.trashed_at) fail("CONFLICT", CHANGED_MEANWHILE);
  return presentDonation(now);
}
