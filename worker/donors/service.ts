/**
 * Donor rules (docs/architecture.md: service): duplicates, what may be edited, deleted, anonymized
 * and merged, and the one D1 batch of each change, conditional on what it read (decision 020).
 */
import { MATCHING_MAX } from "@core/bulk";
import type { DonorInput } from "@core/donor";
import { formatCount } from "@core/labels";
import { generateId } from "../auth/crypto";
import { type Database, orgDb } from "../db/databases";
import { donorCampaignStatsStatement } from "../donations/rollups";
import { auditStatement } from "../lib/audit";
import { auditGuard } from "../lib/guard";
import { constraintRefusal, fail, type OrgCtx } from "../trpc/init";
import {
  anonymizableGuard,
  anonymizeStatements,
  mergeClaim,
  mergePreview,
  mergeStatements,
} from "./anonymize-merge-queries";
import { donorName, presentDonor } from "./present";
import {
  deletableGuard,
  deleteDonor,
  donorDonations,
  donorIdByEmail,
  donorIdByNameAndPostalCode,
  hasKeptDonation,
  insertDonor,
  listDonors,
  matchingDonorRows,
  otherDonorWithEmail,
  selectDonor,
  updateDonor,
} from "./queries";
import type { DonorFilterInput, DonorListInput } from "./router";
import { donorStatsStatements, tierStatement } from "./stats";

/** What a donor service reads of the org rung's context (worker/trpc/init.ts). */
export type DonorCtx = Pick<OrgCtx, "env" | "org" | "user" | "impersonatorId" | "ip">;

/** A donor of the organization; a merged donor's id keeps resolving to the donor it was merged into. */
export async function loadDonor(db: Database, orgId: string, id: string) {
  let row = await selectDonor(db, orgId, id);
  if (row?.merged_into_id) row = await selectDonor(db, orgId, row.merged_into_id);
  if (!row) fail("NOT_FOUND", "Donor not found");
  return row;
}

export async function listDonorsPage(ctx: DonorCtx, input: DonorListInput) {
  const res = await listDonors(orgDb(ctx), ctx.org.id, ctx.org.timeZone, input);
  return { ...res, rows: res.rows.map(presentDonor) };
}

/**
 * donors.matchingIds: the ids the list's filters match now (page and sort aside), for bulk tagging
 * on "all N matching" (decision 024) — a snapshot, so donors who start matching later are never
 * touched. More than MATCHING_MAX answers 422 naming the cap.
 */
export async function matchingDonorIds(ctx: DonorCtx, input: DonorFilterInput) {
  const ids = await matchingDonorRows(orgDb(ctx), ctx.org.id, ctx.org.timeZone, input, MATCHING_MAX + 1);
  if (ids.length > MATCHING_MAX)
    fail(
      "UNPROCESSABLE_CONTENT",
      `At most ${formatCount(MATCHING_MAX)} donors can be selected at once; narrow the filters`,
      { max: MATCHING_MAX },
    );
  return { ids };
}

export async function donorProfile(ctx: DonorCtx, id: string) {
  const d = await loadDonor(orgDb(ctx), ctx.org.id, id);
  const donations = await donorDonations(orgDb(ctx), d.id);
  return { ...presentDonor(d), donations };
}

/** Duplicate check on e-mail and on name + postal code: answers with the match unless forced. */
export async function createDonor(ctx: DonorCtx, input: { data: DonorInput; force: boolean }) {
  const db = orgDb(ctx);
  const d = input.data;
  const email = d.email || null;
  if (email) {
    const dup = await donorIdByEmail(db, ctx.org.id, email);
    if (dup) return { created: false as const, duplicate: { id: dup.id, reason: "email" as const } };
  }
  if (!input.force && d.lastName && d.postalCode) {
    const dup = await donorIdByNameAndPostalCode(db, ctx.org.id, {
      firstName: d.firstName,
      lastName: d.lastName,
      postalCode: d.postalCode,
    });
    if (dup)
      return { created: false as const, duplicate: { id: dup.id, reason: "name_postal_code" as const } };
  }
  const id = generateId();
  const now = Date.now();
  try {
    await db.batch([
      insertDonor(db, { id, orgId: ctx.org.id, data: d, email, createdBy: ctx.user.id, now }),
      tierStatement(db, ctx.org.id, id),
      auditStatement(ctx, { action: "donor.create", entityType: "donor", entityId: id, after: d }),
    ]);
  } catch (e) {
    // Two creates with one e-mail at once: the unique index lets one through; the other gets
    // the same duplicate answer as if it had come second.
    if (!email || constraintRefusal(e)?.code !== "CONFLICT") throw e;
    const dup = await donorIdByEmail(db, ctx.org.id, email);
    if (!dup) throw e;
    return { created: false as const, duplicate: { id: dup.id, reason: "email" as const } };
  }
  return { created: true as const, id };
}

export async function updateDonorProfile(ctx: DonorCtx, input: { id: string; data: DonorInput }) {
  const db = orgDb(ctx);
  const before = await loadDonor(db, ctx.org.id, input.id);
  if (before.anonymized_at) fail("UNPROCESSABLE_CONTENT", "An anonymized donor cannot be edited");
  const d = input.data;
  const email = d.email || null;
  const taken = () => fail("CONFLICT", "Another donor already has this e-mail", { field: "email" });
  if (email && email !== before.email && (await otherDonorWithEmail(db, ctx.org.id, email, before.id)))
    taken();
  await db
    .batch([
      updateDonor(db, { id: before.id, orgId: ctx.org.id, data: d, email }),
      auditStatement(ctx, {
        action: "donor.update",
        entityType: "donor",
        entityId: before.id,
        before: presentDonor(before),
        after: d,
      }),
    ])
    .catch((e) => {
      // The unique index on (organization, e-mail) refused a change that raced past the check.
      if (constraintRefusal(e)?.code === "CONFLICT") taken();
      throw e;
    });
  return { id: before.id };
}

export async function deleteDonorRecord(ctx: DonorCtx, id: string) {
  const db = orgDb(ctx);
  const d = await loadDonor(db, ctx.org.id, id);
  if (await hasKeptDonation(db, d.id))
    fail(
      "UNPROCESSABLE_CONTENT",
      "This donor has completed donations and cannot be deleted. Anonymize the donor instead.",
      { allowed: ["anonymize"] },
    );
  // The check again inside the write (decision 020): a gift completed, or a merge, meanwhile
  // keeps the donor. The audit row goes first, on the same condition.
  const deletable = deletableGuard(d.id);
  const res = await db.batch([
    auditStatement(
      ctx,
      { action: "donor.delete", entityType: "donor", entityId: d.id, before: presentDonor(d) },
      deletable,
    ),
    deleteDonor(db, d.id, ctx.org.id, deletable),
  ]);
  if (!res[1]?.meta.changes) fail("CONFLICT", "The donor changed meanwhile; reload and try again");
  return { id: d.id };
}

/**
 * Irreversible: personal data goes, amounts, dates and campaigns stay. Confirmed by the e-mail.
 * "Anywhere" means the donor row and the rows merged into it, the notes, the free text of its
 * donations, and the before/after values of the audit rows that described them (research
 * domain.md §5.5); the audit rows themselves stay, so the history still says who did what when.
 */
export async function anonymizeDonor(ctx: DonorCtx, input: { id: string; confirm: string }) {
  const db = orgDb(ctx);
  const d = await loadDonor(db, ctx.org.id, input.id);
  if (d.anonymized_at) fail("UNPROCESSABLE_CONTENT", "This donor is already anonymized");
  const expected = d.email ?? donorName(d);
  if (input.confirm.trim().toLowerCase() !== expected.toLowerCase())
    fail("BAD_REQUEST", "Type the donor's e-mail to confirm", { field: "confirm" });
  // Conditional on the donor as read (decision 020). The audit row is the claim; every statement
  // after it checks that it exists, so a lost race changes nothing.
  const claimId = generateId();
  const res = await db.batch([
    auditStatement(
      ctx,
      { id: claimId, action: "donor.anonymize", entityType: "donor", entityId: d.id },
      anonymizableGuard(d, ctx.org.id),
    ),
    ...anonymizeStatements(db, d, ctx.org.id, Date.now(), auditGuard(claimId)),
  ]);
  if (!res[0]?.meta.changes) {
    if ((await loadDonor(db, ctx.org.id, d.id)).anonymized_at)
      fail("UNPROCESSABLE_CONTENT", "This donor is already anonymized");
    fail("CONFLICT", "The donor changed meanwhile; reload and try again");
  }
  return { id: d.id };
}

/**
 * Merge `sourceId` into `targetId`: donations, notes and tags move; the source keeps a pointer
 * (and so do records merged into it before), so every old id resolves to the survivor. The dry
 * run answers exactly what the real merge will do, resulting stats included.
 */
export async function mergeDonors(
  ctx: DonorCtx,
  input: { sourceId: string; targetId: string; dryRun: boolean },
) {
  const db = orgDb(ctx);
  const source = await loadDonor(db, ctx.org.id, input.sourceId);
  const target = await loadDonor(db, ctx.org.id, input.targetId);
  if (source.id === target.id) fail("BAD_REQUEST", "Choose two different donors", { field: "targetId" });
  if (source.anonymized_at || target.anonymized_at)
    fail("UNPROCESSABLE_CONTENT", "An anonymized donor cannot be merged");
  const { counts: c, result } = await mergePreview(db, source.id, target.id);
  const preview = {
    source: { id: source.id, name: donorName(source) },
    target: { id: target.id, name: donorName(target) },
    donations: c.donations,
    notes: c.notes,
    tags: c.tags,
    email: !target.email && source.email ? source.email : null,
    result,
  };
  if (input.dryRun) return { dryRun: true, ...preview };
  const now = Date.now();
  // No names in the audit values: they would outlive an anonymization of either donor.
  const audit = {
    sourceId: source.id,
    targetId: target.id,
    donations: c.donations,
    notes: c.notes,
    tags: c.tags,
  };
  // The merge's own audit row is its claim (decision 020): it is written only if both donors
  // are still unmerged and not anonymized and the source still has the e-mail read above, and
  // every later statement applies only if it exists. Of two merges that race (A into B and B
  // into A, or the same one twice) one lands whole and the other changes nothing: 409.
  const claimId = generateId();
  const claimed = auditGuard(claimId);
  const res = await db.batch([
    auditStatement(
      ctx,
      { id: claimId, action: "donor.merge", entityType: "donor", entityId: target.id, after: audit },
      mergeClaim(source, target.id, ctx.org.id),
    ),
    auditStatement(
      ctx,
      { action: "donor.merged_into", entityType: "donor", entityId: source.id, after: audit },
      claimed,
    ),
    ...mergeStatements(db, { source, targetId: target.id, orgId: ctx.org.id, now }, claimed),
    ...donorStatsStatements(db, ctx.org.id, [target.id, source.id], claimed),
    donorCampaignStatsStatement(db, ctx.org.id, target.id, claimed),
  ]);
  if (!res[0]?.meta.changes) fail("CONFLICT", "The donors changed meanwhile; reload and try again");
  return { dryRun: false, ...preview };
}
