// Donor rules: each change is one D1 batch, conditional on what it read (decision 020).
import { MATCHING_MAX } from "@core/bulk";
import type { DonorInput } from "@core/donor";
import { formatCount } from "@core/labels";
import { type Database, orgDb } from "../db/databases";
import { donorStatsStatements, tierStatement } from "../ledger/donor-stats";
import { donorCampaignStatsStatement } from "../ledger/rollups";
import { auditStatement } from "../lib/audit";
import { constraintRefusal, fail } from "../lib/fail";
import { auditGuard } from "../lib/guard";
import { generateId } from "../lib/ids";
import type { OrgActor } from "../trpc/init";
import {
  anonymizableGuard,
  anonymizeStatements,
  mergeClaim,
  mergePreview,
  mergeStatements,
} from "./anonymize-merge-queries";
import { donorName, donorSince, presentDonor } from "./present";
import type { DonorRow } from "./queries";
import {
  deletableGuard,
  deleteDonor,
  donorContacts,
  donorDonations,
  donorIdByEmail,
  donorIdByNameAndPostalCode,
  dropOwnContact,
  hasKeptDonation,
  insertDonor,
  listDonors,
  matchingDonorRows,
  otherDonorWithEmail,
  selectDonor,
  updateDonor,
} from "./queries";
import type { DonorFilterInput, DonorListInput } from "./router";

/** A merged donor's id keeps resolving to the donor it was merged into. */
export async function loadDonor(db: Database, orgId: string, id: string) {
  let row = await selectDonor(db, orgId, id);
  if (row?.merged_into_id) row = await selectDonor(db, orgId, row.merged_into_id);
  if (!row) fail("NOT_FOUND", "Donor not found");
  return row;
}

export async function listDonorsPage(ctx: OrgActor, input: DonorListInput) {
  const res = await listDonors(orgDb(ctx), ctx.org.id, ctx.org.timeZone, input);
  return { ...res, rows: res.rows.map(presentDonor) };
}

/** A snapshot (decision 024): donors who start matching later are never touched. */
export async function matchingDonorIds(ctx: OrgActor, input: DonorFilterInput) {
  const ids = await matchingDonorRows(orgDb(ctx), ctx.org.id, ctx.org.timeZone, input, MATCHING_MAX + 1);
  if (ids.length > MATCHING_MAX)
    fail(
      "UNPROCESSABLE_CONTENT",
      `At most ${formatCount(MATCHING_MAX)} donors can be selected at once; narrow the filters`,
      { max: MATCHING_MAX },
    );
  return { ids };
}

export async function donorProfile(ctx: OrgActor, id: string) {
  const d = await loadDonor(orgDb(ctx), ctx.org.id, id);
  const [donations, contacts] = await Promise.all([
    donorDonations(orgDb(ctx), d.id),
    donorContacts(orgDb(ctx), d.id),
  ]);
  return {
    ...presentDonor(d),
    donations,
    /** Kept by merges (decision 052); the import and processors match them. */
    otherEmails: contacts.filter((c) => c.kind === "email").map((c) => c.value),
    otherPhones: contacts.filter((c) => c.kind === "phone").map((c) => c.value),
  };
}

/** A duplicate by e-mail, or by name and postal code unless forced, answers with the match. */
export async function createDonor(ctx: OrgActor, input: { data: DonorInput; force: boolean }) {
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
    // Of two creates with one e-mail, the unique index lets one through; the other answers as if second.
    if (!email || constraintRefusal(e)?.code !== "CONFLICT") throw e;
    const dup = await donorIdByEmail(db, ctx.org.id, email);
    if (!dup) throw e;
    return { created: false as const, duplicate: { id: dup.id, reason: "email" as const } };
  }
  return { created: true as const, id };
}

export async function updateDonorProfile(ctx: OrgActor, input: { id: string; data: DonorInput }) {
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
      // An address made the main one stops being one of the donor's others.
      dropOwnContact(db, before.id, "email", email),
      dropOwnContact(db, before.id, "phone", d.phone ?? null),
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

export async function deleteDonorRecord(ctx: OrgActor, id: string) {
  const db = orgDb(ctx);
  const d = await loadDonor(db, ctx.org.id, id);
  if (await hasKeptDonation(db, d.id))
    fail(
      "UNPROCESSABLE_CONTENT",
      "This donor has completed donations and cannot be deleted. Anonymize the donor instead.",
      { allowed: ["anonymize"] },
    );
  // The check again inside the write (decision 020): a gift completed or a merge meanwhile keeps the donor.
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

// Irreversible: personal data goes from the donor, merged rows, notes, gifts' free text and audit values;
// amounts, dates, campaigns and the audit rows stay, so the history still says who did what when.
export async function anonymizeDonor(ctx: OrgActor, input: { id: string; confirm: string }) {
  const db = orgDb(ctx);
  const d = await loadDonor(db, ctx.org.id, input.id);
  if (d.anonymized_at) fail("UNPROCESSABLE_CONTENT", "This donor is already anonymized");
  const expected = d.email ?? donorName(d);
  if (input.confirm.trim().toLowerCase() !== expected.toLowerCase())
    fail("BAD_REQUEST", "Type the donor's e-mail to confirm", { field: "confirm" });
  // The audit row is the claim (decision 020): later statements check it, so a lost race changes nothing.
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

// The source keeps a pointer (as do records merged into it before), so every old id resolves to the
// survivor. The dry run answers exactly what the real merge will do, resulting stats included.
export async function mergeDonors(
  ctx: OrgActor,
  input: { sourceId: string; targetId: string; dryRun: boolean },
) {
  const db = orgDb(ctx);
  const source = await loadDonor(db, ctx.org.id, input.sourceId);
  const target = await loadDonor(db, ctx.org.id, input.targetId);
  if (source.id === target.id) fail("BAD_REQUEST", "Choose two different donors", { field: "targetId" });
  if (source.anonymized_at || target.anonymized_at)
    fail("UNPROCESSABLE_CONTENT", "An anonymized donor cannot be merged");
  const { counts: c, result } = await mergePreview(db, source.id, target.id);
  // Each record as a person tells two "Rosa Delgado"s apart: e-mail, donor since, gifts.
  const who = (d: DonorRow) => ({
    id: d.id,
    name: donorName(d),
    email: d.email,
    phone: d.phone,
    donorSince: donorSince(d),
    donationCount: d.donation_count,
    lifetimeMinor: d.lifetime_minor,
  });
  const kept = (kind: "email" | "phone") => target[kind] && source[kind] && target[kind] !== source[kind];
  const preview = {
    source: who(source),
    target: who(target),
    donations: c.donations,
    notes: c.notes,
    tags: c.tags,
    /** The source's e-mail (phone) becomes the target's own when it has none… */
    email: !target.email && source.email ? source.email : null,
    phone: !target.phone && source.phone ? source.phone : null,
    /** …and is kept as another one of the target's when it has its own (decision 052). */
    alternateEmail: kept("email") ? source.email : null,
    alternatePhone: kept("phone") ? source.phone : null,
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
    // Scrubbed with the rest when either donor is anonymized (anonymize-merge-queries.ts PII_KEYS).
    alternateEmail: preview.alternateEmail,
  };
  // The audit row is the merge's claim (decision 020): of two merges that race (A into B and B into A, or
  // the same one twice) one lands whole and the other changes nothing: 409.
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
