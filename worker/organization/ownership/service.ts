/**
 * Handing an organization on (decision 046): one open offer of ownership at a time, each step audited
 * in its batch. Also who is an organization's only owner, which holds back deleting an account
 * (worker/auth) until ownership is handed on or the organization is deleted.
 */

import type { AppConfig } from "../../../app.config";
import { type Database, directoryDatabase } from "../../db/databases";
import { type AuditActor, auditStatement } from "../../lib/audit";
import { fail } from "../../lib/fail";
import { auditGuard, previousWriteLanded } from "../../lib/guard";
import { generateId } from "../../lib/ids";
import { logError } from "../../lib/request-log";
import { getMailer, renderMail } from "../../mail";
import type { OrgCtx } from "../../trpc/init";
import { membershipIn } from "../members/queries";
import {
  becomeOwnerStatement,
  decideStatement,
  expireLapsedStatement,
  insertOfferStatement,
  lapsedOffers,
  type NamedOffer,
  offerById,
  openOfferOf,
  openOffersTo,
  soleOwnedOrganizations,
  stepDownStatement,
} from "./queries";

/** What someone acting on an offer outside their current organization brings (the authed rung). */
type Person = Pick<OrgCtx, "env" | "config" | "user" | "ip"> & {
  session: { impersonatedBy?: string | null };
};

function presentOffer(o: NamedOffer, now: number) {
  return {
    id: o.id,
    organizationId: o.organization_id,
    organizationName: o.organization_name,
    from: { userId: o.from_user_id, name: o.from_name, email: o.from_email },
    to: { userId: o.to_user_id, name: o.to_name, email: o.to_email },
    fromBecomes: o.from_becomes as "owner" | "admin",
    expiresAt: o.expires_at,
    expired: o.expires_at <= now,
    createdAt: o.created_at,
  };
}

/** Handing ownership on is a person's own act: never done while impersonating them. */
function refuseWhileImpersonating(impersonatedBy: string | null | undefined) {
  if (impersonatedBy) fail("FORBIDDEN", "Ownership cannot change while impersonating");
}

function mustBeOwner(ctx: Pick<OrgCtx, "org">) {
  if (ctx.org.role !== "owner") fail("FORBIDDEN", "Only an owner of the organization can do this");
}

const offerLink = (config: AppConfig) => `${config.app.url}/organization?section=members`;

async function mail(env: Env, message: Parameters<ReturnType<typeof getMailer>["send"]>[0]) {
  // The change has landed; a mail that fails to go is logged, the offer stays in the portal.
  await getMailer(env)
    .send(message)
    .catch((e) => logError("ownership mail failed", e));
}

/** The current organization's open offer, for its owners and for the member it names. */
export async function currentOffer(ctx: Pick<OrgCtx, "env" | "org" | "user">) {
  const o = await openOfferOf(directoryDatabase(ctx.env), ctx.org.id);
  if (!o) return null;
  if (ctx.org.role !== "owner" && o.to_user_id !== ctx.user.id && !ctx.org.isPlatformAdmin) return null;
  return presentOffer(o, Date.now());
}

/** Offers made to the caller, in any of their organizations (the portal shows them). */
export async function offersToMe(ctx: Pick<Person, "env" | "user">) {
  const now = Date.now();
  return (await openOffersTo(directoryDatabase(ctx.env), ctx.user.id, now)).map((o) => presentOffer(o, now));
}

/** The organizations the caller is the only owner of (what deleting their account waits for). */
export const soleOwnerships = (ctx: Pick<Person, "env" | "user">) =>
  soleOwnedOrganizations(directoryDatabase(ctx.env), ctx.user.id);

export async function offerOwnership(ctx: OrgCtx, input: { membershipId: string; stepDown: boolean }) {
  refuseWhileImpersonating(ctx.impersonatorId);
  mustBeOwner(ctx);
  const db = directoryDatabase(ctx.env);
  const target = await membershipIn(db, ctx.org.id, input.membershipId);
  if (!target) fail("NOT_FOUND", "Member not found");
  if (target.user_id === ctx.user.id) fail("UNPROCESSABLE_CONTENT", "You are an owner already");
  if (target.role === "owner") fail("UNPROCESSABLE_CONTENT", "This member is an owner already");
  const now = Date.now();
  const open = await openOfferOf(db, ctx.org.id);
  if (open && open.expires_at > now)
    fail("CONFLICT", `Ownership is offered to ${open.to_name} already: withdraw that offer first`);
  const id = generateId();
  const fromBecomes = input.stepDown ? "admin" : "owner";
  const expiresAt = now + ctx.config.organizations.ownershipOfferExpiresIn * 1000;
  // A lapsed offer still marked open closes first (the cron may not have come by yet).
  const closeLapsed = open
    ? [
        expireLapsedStatement(db, ctx.org.id, now),
        auditStatement(
          { env: ctx.env, user: null, org: ctx.org },
          {
            action: "ownership.expire",
            entityType: "user",
            entityId: open.to_user_id,
            before: { offer: open.id },
          },
          previousWriteLanded,
        ),
      ]
    : [];
  const results = await db.batch([
    ...closeLapsed,
    insertOfferStatement(db, {
      id,
      organization_id: ctx.org.id,
      from_user_id: ctx.user.id,
      to_user_id: target.user_id,
      from_becomes: fromBecomes,
      expires_at: expiresAt,
      created_at: now,
    }),
    auditStatement(
      ctx,
      {
        action: "ownership.offer",
        entityType: "user",
        entityId: target.user_id,
        before: { role: target.role },
        after: { offer: id, fromBecomes, expiresAt },
      },
      previousWriteLanded,
    ),
  ]);
  if (!results[closeLapsed.length]?.meta.changes)
    fail("CONFLICT", "The members changed meanwhile; reload and try again");
  const offer = await offerById(db, id);
  if (offer) {
    await mail(
      ctx.env,
      renderMail({
        to: offer.to_email,
        subject: `${offer.from_name} offers you the ownership of ${offer.organization_name}`,
        intro: `Hello ${offer.to_name}, ${offer.from_name} offers to make you an owner of ${offer.organization_name} on Almoner. Owners manage members, can delete the organization and hand it on.${fromBecomes === "admin" ? ` When you accept, ${offer.from_name} becomes an admin.` : ""}`,
        action: { label: "Accept or decline", url: offerLink(ctx.config) },
        outro: `The offer is open until ${new Date(expiresAt).toUTCString()}. If you do not want it, decline it or let it expire.`,
      }),
    );
  }
  return { id, expiresAt };
}

/** Any owner (or a platform admin, who may set roles anyway) withdraws the open offer. */
export async function withdrawOffer(ctx: OrgCtx) {
  const db = directoryDatabase(ctx.env);
  const open = await openOfferOf(db, ctx.org.id);
  const now = Date.now();
  if (!open || open.expires_at <= now) fail("NOT_FOUND", "There is no open offer of ownership");
  const [r] = await db.batch([
    decideStatement(db, open.id, "withdrawn", now),
    auditStatement(
      ctx,
      {
        action: "ownership.withdraw",
        entityType: "user",
        entityId: open.to_user_id,
        before: { offer: open.id },
      },
      previousWriteLanded,
    ),
  ]);
  if (!r?.meta.changes) fail("CONFLICT", "The offer was decided meanwhile; reload");
  return { ok: true };
}

/** The auditing actor of an offer's decision: the person, in the offer's organization. */
const actorIn = (ctx: Person, organizationId: string): AuditActor => ({
  env: ctx.env,
  user: ctx.user,
  impersonatorId: ctx.session.impersonatedBy ?? null,
  ip: ctx.ip,
  org: { id: organizationId },
});

/** The offer made to the caller, or NOT_FOUND (another's offer is no business of theirs). */
async function offerToCaller(db: Database, ctx: Person, id: string) {
  const o = await offerById(db, id);
  if (!o || o.to_user_id !== ctx.user.id) fail("NOT_FOUND", "Offer not found");
  if (o.status !== "open") fail("CONFLICT", `This offer was ${o.status} already`);
  if (o.expires_at <= Date.now()) fail("CONFLICT", "This offer has expired");
  return o;
}

/** Accept: in one batch the offer closes, the caller becomes owner and the offerer steps down if chosen. */
export async function acceptOffer(ctx: Person, id: string) {
  refuseWhileImpersonating(ctx.session.impersonatedBy);
  const db = directoryDatabase(ctx.env);
  const o = await offerToCaller(db, ctx, id);
  const now = Date.now();
  const auditId = generateId();
  const member = `AND EXISTS (SELECT 1 FROM membership m WHERE m.organization_id = ownership_offer.organization_id AND m.user_id = ownership_offer.to_user_id)
    AND EXISTS (SELECT 1 FROM organization o WHERE o.id = ownership_offer.organization_id AND o.status != 'archived')`;
  const actor = actorIn(ctx, o.organization_id);
  const [r] = await db.batch([
    decideStatement(db, o.id, "accepted", now, member),
    auditStatement(
      actor,
      {
        id: auditId,
        action: "ownership.accept",
        entityType: "user",
        entityId: ctx.user.id,
        after: { role: "owner", offer: o.id, offeredBy: o.from_user_id, offeredByBecomes: o.from_becomes },
      },
      previousWriteLanded,
    ),
    becomeOwnerStatement(db, o.organization_id, ctx.user.id, now, auditGuard(auditId)),
    ...(o.from_becomes === "admin"
      ? [stepDownStatement(db, o.organization_id, o.from_user_id, now, auditGuard(auditId))]
      : []),
  ]);
  if (!r?.meta.changes) fail("CONFLICT", "This offer can no longer be accepted; reload");
  await mail(
    ctx.env,
    renderMail({
      to: o.from_email,
      subject: `${o.to_name} is now an owner of ${o.organization_name}`,
      intro: `${o.to_name} accepted your offer and is now an owner of ${o.organization_name}.${o.from_becomes === "admin" ? " As you chose, you are now an admin." : ""}`,
    }),
  );
  return { organizationId: o.organization_id };
}

export async function declineOffer(ctx: Person, id: string) {
  const db = directoryDatabase(ctx.env);
  const o = await offerToCaller(db, ctx, id);
  const [r] = await db.batch([
    decideStatement(db, o.id, "declined", Date.now()),
    auditStatement(
      actorIn(ctx, o.organization_id),
      { action: "ownership.decline", entityType: "user", entityId: ctx.user.id, before: { offer: o.id } },
      previousWriteLanded,
    ),
  ]);
  if (!r?.meta.changes) fail("CONFLICT", "This offer was decided meanwhile; reload");
  await mail(
    ctx.env,
    renderMail({
      to: o.from_email,
      subject: `${o.to_name} declined the ownership of ${o.organization_name}`,
      intro: `${o.to_name} declined your offer to become an owner of ${o.organization_name}. You can offer it to another member.`,
    }),
  );
  return { ok: true };
}

/** The cron: offers past their expiry close, each with its audit row (at most `limit` a run). */
export async function expireOffers(env: Env, now: number, limit = 100) {
  const db = directoryDatabase(env);
  let n = 0;
  for (const o of await lapsedOffers(db, now, limit)) {
    const [r] = await db.batch([
      expireLapsedStatement(db, o.organization_id, now),
      auditStatement(
        { env, user: null, org: { id: o.organization_id } },
        { action: "ownership.expire", entityType: "user", entityId: o.to_user_id, before: { offer: o.id } },
        previousWriteLanded,
      ),
    ]);
    n += r?.meta.changes ?? 0;
  }
  return n;
}
