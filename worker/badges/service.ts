/**
 * Organization badges (DESIGN §4): platform admins grant the manual ones with their evidence and an
 * optional expiry, and revoke any with a reason; the nightly job (worker/scheduled.ts) grants and
 * revokes the automatic ones. Granted and revoked rows are kept.
 */

import { BADGES, type BadgeGrantInput, type BadgeKey, badgeName } from "@core/badges";
import { databaseNamed, databaseNames, directoryDatabase } from "../db/databases";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { previousWriteLanded } from "../lib/guard";
import { generateId } from "../lib/ids";
import type { AdminCtx, OrgReader } from "../trpc/init";
import {
  goalAchievers,
  grantAutomaticStatement,
  grantStatement,
  heldBy,
  holderCounts,
  holdersOf,
  holds,
  organizationExists,
  rankedByGifts,
  revokeAutomaticStatement,
  revokeStatement,
  unrevokedBadge,
  unrevokedBadges,
} from "./queries";

/** The platform's badge definitions with how many organizations currently hold each. */
export async function definitions(ctx: Pick<AdminCtx, "env">) {
  const held = new Map(
    (await holderCounts(directoryDatabase(ctx.env), Date.now())).map((r) => [r.badge, r.holders]),
  );
  return Object.entries(BADGES).map(([key, b]) => ({
    key,
    name: b.name,
    kind: b.kind,
    description: b.description,
    holders: held.get(key) ?? 0,
  }));
}

/** Every badge not revoked, expired ones marked. */
export async function listBadges(ctx: Pick<AdminCtx, "env">) {
  const rows = await unrevokedBadges(directoryDatabase(ctx.env));
  const now = Date.now();
  return rows.map((r) => ({
    ...r,
    name: badgeName(r.badge),
    expired: r.expiresAt !== null && r.expiresAt <= now,
  }));
}

/** The badges the caller's organization holds (its profile). */
export const heldBadges = (ctx: OrgReader) => heldBy(directoryDatabase(ctx.env), ctx.org.id, Date.now());

export async function grantBadge(ctx: AdminCtx, input: BadgeGrantInput) {
  const db = directoryDatabase(ctx.env);
  if (!(await organizationExists(db, input.organizationId))) fail("NOT_FOUND", "Organization not found");
  if (input.expiresAt && input.expiresAt <= Date.now())
    fail("BAD_REQUEST", "The expiry must be in the future", { field: "expiresAt" });
  if (await holds(db, input.organizationId, input.badge, Date.now()))
    fail("CONFLICT", "The organization already holds this badge");
  const id = generateId();
  await db.batch([
    grantStatement(
      db,
      {
        id,
        organization_id: input.organizationId,
        badge: input.badge,
        granted_by: ctx.user.id,
        reason: input.reason ?? null,
        expires_at: input.expiresAt ?? null,
      },
      Date.now(),
    ),
    auditStatement(ctx, {
      action: "badge.grant",
      entityType: "organization",
      entityId: input.organizationId,
      after: input,
      organizationId: input.organizationId,
    }),
  ]);
  return { id };
}

export async function revokeBadge(ctx: AdminCtx, input: { id: string; reason: string }) {
  const db = directoryDatabase(ctx.env);
  const b = await unrevokedBadge(db, input.id);
  if (!b) fail("NOT_FOUND", "Badge not found");
  await db.batch([
    revokeStatement(db, input.id, Date.now()),
    auditStatement(
      ctx,
      {
        action: "badge.revoke",
        entityType: "organization",
        entityId: b.organization_id,
        before: b,
        reason: input.reason,
        organizationId: b.organization_id,
      },
      previousWriteLanded,
    ),
  ]);
  return { id: input.id };
}

/**
 * The nightly recomputation of the automatic badges: `goal_achiever` for an organization with a
 * campaign that reached its goal, `top_fundraiser` for the top 10 % (at least one) of organizations
 * by counted gifts in the last 12 months. Grants the newly qualified, revokes ("no longer
 * qualifies") those who dropped out; batches of 100 statements.
 */
export async function recomputeAutomaticBadges(env: Env, now = Date.now()) {
  // Gifts and campaigns are in each organization's database; badges in the directory (decision 027).
  const names = databaseNames(env);
  const goal = (await Promise.all(names.map((n) => goalAchievers(databaseNamed(env, n))))).flat();
  const ranked = (
    await Promise.all(names.map((n) => rankedByGifts(databaseNamed(env, n), now - 365 * 86400_000)))
  )
    .flat()
    .sort((a, b) => b.total - a.total);
  const db = directoryDatabase(env);
  const top = ranked.slice(0, Math.max(1, Math.ceil(ranked.length * 0.1))).map((r) => r.id);
  const want: Partial<Record<BadgeKey, Set<string>>> = {
    goal_achiever: new Set(goal),
    top_fundraiser: new Set(top),
  };
  const stmts: D1PreparedStatement[] = [];
  for (const [badge, orgs] of Object.entries(want)) {
    const held = await holdersOf(db, badge);
    const heldBy = new Set(held.map((h) => h.organization_id));
    for (const h of held)
      if (!orgs.has(h.organization_id)) stmts.push(revokeAutomaticStatement(db, h.id, now));
    for (const org of orgs)
      if (!heldBy.has(org)) stmts.push(grantAutomaticStatement(db, generateId(), org, badge, now));
  }
  for (let i = 0; i < stmts.length; i += 100) await db.batch(stmts.slice(i, i + 100));
  return { granted: stmts.length };
}
