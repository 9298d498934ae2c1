// Organizers (DESIGN §4): inviting and revoking go through the one invitation service
// (worker/organization/invitations); removing a membership keeps the person and their history.
import { MATCHING_MAX } from "@core/bulk";
import { formatCount } from "@core/labels";
import { OPEN_INVITATION_STATUSES, type OrganizerSort } from "@core/organizers";
import {
  databaseNamed,
  databaseNameOf,
  databaseNames,
  directoryDatabase,
  placedApart,
} from "../db/databases";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import {
  bulkRevokeInvitations,
  createInvitation,
  revokeInvitation,
} from "../organization/invitations/service";
import type { AdminCtx } from "../trpc/init";
import {
  campaignCounts,
  campaignsCreatedBy,
  exportCountStatement,
  exportPageStatement,
  membershipsWithCampaigns,
  type OrganizerFilters,
  type OrganizerRow,
  openInvitationIds,
  organizationNamed,
  organizerPage,
} from "./queries";

type Db = Pick<AdminCtx, "env">;

export async function listOrganizers(
  ctx: Db,
  input: OrganizerFilters & { sort: OrganizerSort; desc: boolean; page: number; pageSize: number },
) {
  const page = await organizerPage(directoryDatabase(ctx.env), Date.now(), input);
  return { ...page, rows: await withCampaignsOwned(ctx.env, page.rows) };
}

/**
 * The directory's campaign counts only see organizations whose data lives there; the others' are
 * asked of their own databases (decision 027).
 */
async function withCampaignsOwned<
  T extends { organizationId: string; userId: string | null; campaignsOwned: number },
>(env: Env, rows: T[]): Promise<T[]> {
  const apart = new Map<string, { organizationId: string; userId: string }[]>();
  for (const r of rows) {
    if (!r.userId || !placedApart(env, r.organizationId)) continue;
    const name = databaseNameOf(env, r.organizationId);
    apart.set(name, [...(apart.get(name) ?? []), { organizationId: r.organizationId, userId: r.userId }]);
  }
  if (!apart.size) return rows;
  const counts = new Map<string, number>();
  for (const [name, pairs] of apart) {
    for (const c of await campaignCounts(databaseNamed(env, name), pairs)) {
      counts.set(`${c.organizationId} ${c.userId}`, c.n);
    }
  }
  return rows.map((r) =>
    r.userId && placedApart(env, r.organizationId)
      ? { ...r, campaignsOwned: counts.get(`${r.organizationId} ${r.userId}`) ?? 0 }
      : r,
  );
}

/** Keyset paging on id, so the export never truncates or skips; the first page also counts and audits. */
export async function exportPage(ctx: AdminCtx, input: OrganizerFilters & { after?: string; limit: number }) {
  const db = directoryDatabase(ctx.env);
  const now = Date.now();
  const stmts: D1PreparedStatement[] = [exportPageStatement(db, now, input)];
  if (!input.after) {
    stmts.push(
      exportCountStatement(db, now, input),
      auditStatement(ctx, {
        action: "organizer.export",
        entityType: "organizer",
        entityId: "export",
        after: { q: input.q, organizationId: input.organizationId, status: input.status },
        organizationId: input.organizationId ?? null,
      }),
    );
  }
  const [page, count] = await db.batch(stmts);
  const rows = await withCampaignsOwned(ctx.env, (page?.results ?? []) as OrganizerRow[]);
  return {
    rows,
    total: input.after ? undefined : ((count?.results[0] as { total: number } | undefined)?.total ?? 0),
    next: rows.length === input.limit ? rows[rows.length - 1]?.id : undefined,
  };
}

/** Invites an organizer into an organization by e-mail (7-day link, accepted at /accept-invitation). */
export async function inviteOrganizer(ctx: AdminCtx, input: { email: string; organizationId: string }) {
  const org = await organizationNamed(directoryDatabase(ctx.env), input.organizationId);
  if (!org) fail("NOT_FOUND", "Organization not found");
  return createInvitation(ctx, {
    organizationId: org.id,
    organizationName: org.name,
    email: input.email,
    role: "organizer",
  });
}

export async function organizerMemberships(ctx: Db, userId: string) {
  const rows = await membershipsWithCampaigns(directoryDatabase(ctx.env), userId);
  return withCampaignsOwned(
    ctx.env,
    rows.map((r) => ({ ...r, userId })),
  ).then((named) => named.map(({ userId: _u, ...r }) => r));
}

export async function organizerCampaigns(ctx: Db, userId: string) {
  // The newest 100 of each database holding organizations, merged (decision 027).
  const each = await Promise.all(
    databaseNames(ctx.env).map((name) => campaignsCreatedBy(databaseNamed(ctx.env, name), userId)),
  );
  return each
    .flat()
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, 100);
}

export const revokeOrganizerInvitation = (ctx: AdminCtx, input: { id: string; reason?: string }) =>
  revokeInvitation(ctx, { id: input.id, organizationId: null, reason: input.reason });

/** A snapshot for "Revoke invitations" on all N matching (decision 024): one sent later is never revoked. */
export async function matchingInvitationIds(ctx: Db, input: OrganizerFilters) {
  const status = input.status?.length
    ? OPEN_INVITATION_STATUSES.filter((s) => input.status?.includes(s))
    : OPEN_INVITATION_STATUSES;
  if (!status.length) return { ids: [] };
  const ids = await openInvitationIds(
    directoryDatabase(ctx.env),
    Date.now(),
    { ...input, status },
    MATCHING_MAX + 1,
  );
  if (ids.length > MATCHING_MAX)
    fail(
      "UNPROCESSABLE_CONTENT",
      `At most ${formatCount(MATCHING_MAX)} invitations can be selected at once; narrow the filters`,
      { max: MATCHING_MAX },
    );
  return { ids };
}

export const bulkRevokeOrganizerInvitations = (ctx: AdminCtx, input: { ids: string[]; reason?: string }) =>
  bulkRevokeInvitations(ctx, { ids: input.ids, organizationId: null, reason: input.reason });
