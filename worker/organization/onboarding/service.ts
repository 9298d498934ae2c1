/**
 * New organizations (decision 045): organizations.creation is "open", "approval" or "closed"; platform
 * admins may always create one. A verified address is needed: the owner is who the platform writes to.
 * One batch each (queries.ts newOrganizationStatements), conditional on what it read (decision 020).
 */

import { freeSlug, slugWords } from "@core/campaign";
import {
  defaultDonorTiers,
  type NewOrganizationInput,
  type OrganizationRequestStatus,
} from "@core/onboarding";
import { isPlatformAdmin } from "@core/permissions";
import { directoryDatabase } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { constraintRule, fail } from "../../lib/fail";
import { previousWriteLanded } from "../../lib/guard";
import { generateId } from "../../lib/ids";
import { getMailer, renderMail } from "../../mail";
import type { AdminCtx } from "../../trpc/init";
import { presentQueued, presentRequest } from "./present";
import {
  approveStatement,
  declineStatement,
  insertRequestStatement,
  latestRequestOf,
  latestRequestStatusOf,
  newOrganizationStatements,
  organizationInserted,
  requestById,
  requestPending,
  requestQueue,
  slugsLike,
} from "./queries";

type Caller = Pick<AdminCtx, "env" | "config" | "user" | "session" | "ip">;
type Policy = Pick<AdminCtx, "config" | "user" | "session">;

/** Create, request or neither; an impersonated session neither (the admin would act as the person). */
export function newOrganizationFor(ctx: Policy): "create" | "request" | null {
  if (ctx.session.impersonatedBy) return null;
  if (isPlatformAdmin({ userId: ctx.user.id, role: ctx.user.role }, ctx.config.auth.adminUserIds))
    return "create";
  const creation = ctx.config.organizations.creation;
  return creation === "open" ? "create" : creation === "approval" ? "request" : null;
}

/** The policy as anyone may read it (the sign-up and sign-in pages say what comes next). */
export const onboardingPolicy = (ctx: Pick<AdminCtx, "config">) => ({
  creation: ctx.config.organizations.creation,
  contactEmail: ctx.config.organizations.contactEmail,
});

/** The latest request's status while /onboarding has something to say about it (pending, declined). */
export async function requestStatusOf(ctx: Pick<AdminCtx, "env" | "user">) {
  const status = await latestRequestStatusOf(directoryDatabase(ctx.env), ctx.user.id);
  return status === "pending" || status === "declined" ? (status as OrganizationRequestStatus) : null;
}

/** What /onboarding shows its signed-in visitor. */
export async function onboardingStatus(ctx: Caller) {
  const request = await latestRequestOf(directoryDatabase(ctx.env), ctx.user.id);
  return {
    ...onboardingPolicy(ctx),
    newOrganization: newOrganizationFor(ctx),
    email: ctx.user.email,
    emailVerified: ctx.user.emailVerified,
    request: request ? presentRequest(request) : null,
  };
}

function refuseUnless(ctx: Caller, wanted: "create" | "request") {
  if (ctx.session.impersonatedBy) fail("FORBIDDEN", "Not while impersonating");
  const may = newOrganizationFor(ctx);
  if (may !== wanted) {
    if (may === "create") fail("FORBIDDEN", "Create the organization: no request is needed");
    if (may === "request")
      fail("FORBIDDEN", "New organizations need a platform administrator's approval: send a request");
    fail(
      "FORBIDDEN",
      `New organizations are set up by the platform's administrators: write to ${ctx.config.organizations.contactEmail}`,
    );
  }
  if (!ctx.user.emailVerified)
    fail(
      "FORBIDDEN",
      `Verify your e-mail address (${ctx.user.email}) first: open the link we mailed you, or send a new one`,
      {
        code: "EMAIL_NOT_VERIFIED",
      },
    );
}

const ALREADY_OWNED = (name: string) => `You already own an organization named ${name}`;

/**
 * Writes a new organization for `ownerId` with the first free slug of its name (of two racing for a
 * slug, the unique index lets one win and the other tries the next). Null when nothing was written.
 */
async function writeOrganization(
  actor: Caller,
  ownerId: string,
  input: NewOrganizationInput,
  extra: { when?: ReturnType<typeof requestPending>; after?: (orgId: string) => D1PreparedStatement[] } = {},
): Promise<{ id: string; slug: string } | null> {
  const db = directoryDatabase(actor.env);
  const base = slugWords(input.name) || "organization";
  const taken = await slugsLike(db, base);
  for (let attempt = 0; ; attempt++) {
    const id = generateId();
    const slug = freeSlug(base, taken);
    const now = Date.now();
    const statements = [
      ...newOrganizationStatements(
        db,
        {
          id,
          slug,
          input,
          ownerId,
          membershipId: generateId(),
          tiers: defaultDonorTiers(input.defaultCurrency).map((t) => ({ ...t, id: generateId() })),
          now,
        },
        extra.when,
      ),
      ...(extra.after?.(id) ?? []),
      auditStatement(
        actor,
        {
          action: "organization.create",
          entityType: "organization",
          entityId: id,
          after: { ...input, slug, ownerId },
          organizationId: id,
        },
        organizationInserted(id),
      ),
    ];
    try {
      const [inserted] = await db.batch(statements);
      return inserted?.meta.changes ? { id, slug } : null;
    } catch (e) {
      const rule = constraintRule(e);
      if (rule !== "organization.slug" || attempt >= 3) throw e;
      taken.add(slug);
    }
  }
}

/** "open" (or a platform admin): the caller's new organization, they its owner, the portal opening on it. */
export async function createOrganization(ctx: Caller, input: NewOrganizationInput) {
  refuseUnless(ctx, "create");
  const made = await writeOrganization(ctx, ctx.user.id, input);
  if (!made) fail("CONFLICT", ALREADY_OWNED(input.name), { field: "name" });
  return made;
}

/** "approval": the caller's request, one pending at a time, audited. */
export async function requestOrganization(ctx: Caller, input: NewOrganizationInput) {
  refuseUnless(ctx, "request");
  const db = directoryDatabase(ctx.env);
  const id = generateId();
  const [inserted] = await db.batch([
    insertRequestStatement(db, { id, userId: ctx.user.id, input, now: Date.now() }),
    auditStatement(
      ctx,
      {
        action: "organization_request.create",
        entityType: "organization_request",
        entityId: id,
        after: input,
      },
      previousWriteLanded,
    ),
  ]);
  if (!inserted?.meta.changes) fail("CONFLICT", "You already have a request under review");
  return { id };
}

/** The platform admins' queue (pending first). */
export async function listRequests(ctx: Pick<AdminCtx, "env">) {
  return (await requestQueue(directoryDatabase(ctx.env))).map(presentQueued);
}

async function pendingRequest(ctx: Pick<AdminCtx, "env">, id: string) {
  const row = await requestById(directoryDatabase(ctx.env), id);
  if (!row) fail("NOT_FOUND", "Request not found");
  if (row.status !== "pending") fail("CONFLICT", `This request was already ${row.status}`);
  return row;
}

async function requesterOf(ctx: Pick<AdminCtx, "env">, userId: string) {
  return directoryDatabase(ctx.env)
    .prepare("SELECT name, email FROM user WHERE id = ?")
    .bind(userId)
    .first<{ name: string; email: string }>();
}

/** A platform admin approves: the organization created in the batch that marks the request approved. */
export async function approveRequest(ctx: Caller, id: string) {
  const row = await pendingRequest(ctx, id);
  const input: NewOrganizationInput = {
    name: row.name,
    country: row.country,
    defaultCurrency: row.default_currency as NewOrganizationInput["defaultCurrency"],
    timeZone: row.time_zone,
    fiscalYearStartMonth: row.fiscal_year_start_month,
  };
  const now = Date.now();
  const made = await writeOrganization(ctx, row.user_id, input, {
    when: requestPending(id),
    after: (orgId) => [
      approveStatement(directoryDatabase(ctx.env), id, orgId, ctx.user.id, now),
      auditStatement(
        ctx,
        {
          action: "organization_request.approve",
          entityType: "organization_request",
          entityId: id,
          before: { status: "pending" },
          after: { status: "approved", organizationId: orgId },
        },
        previousWriteLanded,
      ),
    ],
  });
  if (!made) {
    const current = await requestById(directoryDatabase(ctx.env), id);
    if (current?.status !== "pending")
      fail("CONFLICT", `This request was already ${current?.status ?? "removed"}`);
    fail("CONFLICT", `${ALREADY_OWNED(row.name)}: the person owns one`);
  }
  const to = await requesterOf(ctx, row.user_id);
  if (to)
    await getMailer(ctx.env).send(
      renderMail({
        to: to.email,
        subject: `${row.name} is ready on Almoner`,
        intro: `Hello ${to.name}, your request was approved: ${row.name} is set up and you are its owner.`,
        action: { label: `Open ${row.name}`, url: `${ctx.config.app.url}/dashboard` },
        outro: "Invite your team from the Organization page, and fill in the rest of its profile there.",
      }),
    );
  return { organizationId: made.id };
}

/** A platform admin declines, saying why; the person is mailed the reason and may ask again. */
export async function declineRequest(ctx: Caller, input: { id: string; reason: string }) {
  const row = await pendingRequest(ctx, input.id);
  const db = directoryDatabase(ctx.env);
  const [declined] = await db.batch([
    declineStatement(db, input.id, input.reason, ctx.user.id, Date.now()),
    auditStatement(
      ctx,
      {
        action: "organization_request.decline",
        entityType: "organization_request",
        entityId: input.id,
        before: { status: "pending" },
        after: { status: "declined" },
        reason: input.reason,
      },
      previousWriteLanded,
    ),
  ]);
  if (!declined?.meta.changes) fail("CONFLICT", "This request was decided meanwhile");
  const to = await requesterOf(ctx, row.user_id);
  if (to)
    await getMailer(ctx.env).send(
      renderMail({
        to: to.email,
        subject: `Your request for ${row.name} on Almoner`,
        intro: `Hello ${to.name}, your request for ${row.name} was declined: ${input.reason}`,
        action: { label: "See your request", url: `${ctx.config.app.url}/onboarding` },
        outro: `You may send a new request from there. Questions: ${ctx.config.organizations.contactEmail}.`,
      }),
    );
  return { id: input.id };
}
