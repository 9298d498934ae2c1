import { organizationInput } from "@core/organization";
import { safeHttpUrl } from "@core/url";
import { z } from "zod";
import { generateId } from "../../auth/crypto";
import { rebuildRollups } from "../../donations/rollups";
import { auditStatement } from "../../lib/audit";
import { createInvitation, mailInvitation, newInvitationSecret } from "../../lib/invitations";
import { assertOwnMedia } from "../../media";
import { adminProcedure, authedProcedure, fail, orgProcedure, router } from "../init";
import { listSelectableOrganizations } from "../org";

export { organizationInput };

/** An organization always keeps at least one owner: the last one cannot leave or be demoted. */
async function assertNotLastOwner(
  db: D1Database,
  organizationId: string,
  userId: string,
  role: string,
  newRole: string | null,
) {
  if (role !== "owner" || newRole === "owner") return;
  const other = await db
    .prepare("SELECT 1 FROM membership WHERE organization_id = ? AND role = 'owner' AND user_id != ? LIMIT 1")
    .bind(organizationId, userId)
    .first();
  if (!other)
    fail("UNPROCESSABLE_CONTENT", "An organization needs at least one owner: make someone else owner first");
}

/** Only owners (and platform admins) hand out or take away the owner role. */
function assertMayGrant(org: { role: string | null; isPlatformAdmin: boolean }, role: string) {
  if (role === "owner" && org.role !== "owner" && !org.isPlatformAdmin)
    fail("FORBIDDEN", "Only an owner can make or change owners");
}

export const organizationRouter = router({
  members: orgProcedure({ member: ["view"] }).query(async ({ ctx }) => {
    const { results } = await ctx.env.DB.prepare(
      "SELECT m.id, m.role, m.created_at AS createdAt, u.id AS userId, u.name, u.email, u.role AS platformRole FROM membership m JOIN user u ON u.id = m.user_id WHERE m.organization_id = ? ORDER BY u.name",
    )
      .bind(ctx.org.id)
      .all<{
        id: string;
        role: string;
        createdAt: number;
        userId: string;
        name: string;
        email: string;
        platformRole: string;
      }>();
    return results;
  }),

  /** Organizers of SPEC §2 are users with role organizer and a membership (admin only). */
  memberships: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const { results } = await ctx.env.DB.prepare(
        "SELECT m.id, m.role, o.id AS organizationId, o.name AS organizationName FROM membership m JOIN organization o ON o.id = m.organization_id WHERE m.user_id = ? ORDER BY o.name",
      )
        .bind(input.userId)
        .all<{ id: string; role: string; organizationId: string; organizationName: string }>();
      return results;
    }),

  addMember: adminProcedure({ user: ["update"] })
    .input(
      z.object({
        userId: z.string().min(1),
        organizationId: z.string().min(1),
        role: z.enum(["owner", "admin", "organizer", "viewer"]),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const [u, o] = await ctx.env.DB.batch([
        ctx.env.DB.prepare("SELECT id FROM user WHERE id = ?").bind(input.userId),
        ctx.env.DB.prepare("SELECT id FROM organization WHERE id = ?").bind(input.organizationId),
      ]);
      if (!u?.results.length) fail("NOT_FOUND", "User not found");
      if (!o?.results.length) fail("NOT_FOUND", "Organization not found");
      const current = await ctx.env.DB.prepare(
        "SELECT role FROM membership WHERE organization_id = ? AND user_id = ?",
      )
        .bind(input.organizationId, input.userId)
        .first<{ role: string }>();
      if (current)
        await assertNotLastOwner(ctx.env.DB, input.organizationId, input.userId, current.role, input.role);
      const id = generateId();
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          "INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at",
        ).bind(id, input.organizationId, input.userId, input.role, Date.now(), Date.now()),
        auditStatement(ctx, {
          action: "member.add",
          entityType: "user",
          entityId: input.userId,
          after: input,
          organizationId: input.organizationId,
        }),
      ]);
      return { ok: true };
    }),

  /** Removing an organizer removes the membership; their history stays (DESIGN §4). */
  removeMember: adminProcedure({ user: ["update"] })
    .input(z.object({ membershipId: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const m = await ctx.env.DB.prepare("SELECT * FROM membership WHERE id = ?")
        .bind(input.membershipId)
        .first<{ organization_id: string; user_id: string; role: string }>();
      if (!m) fail("NOT_FOUND", "Membership not found");
      await assertNotLastOwner(ctx.env.DB, m.organization_id, m.user_id, m.role, null);
      await ctx.env.DB.batch([
        ctx.env.DB.prepare("DELETE FROM membership WHERE id = ?").bind(input.membershipId),
        auditStatement(ctx, {
          action: "member.remove",
          entityType: "user",
          entityId: m.user_id,
          before: m,
          organizationId: m.organization_id,
        }),
      ]);
      return { ok: true };
    }),

  /**
   * Open invitations (not accepted, not revoked); expired ones stay visible so they can be resent.
   * The id is public: the accept secret is only ever in the mailed link (decision 017).
   */
  invitations: orgProcedure({ member: ["view"] }).query(async ({ ctx }) => {
    const { results } = await ctx.env.DB.prepare(
      `SELECT i.id, i.email, i.role, i.expires_at AS expiresAt, i.created_at AS createdAt, u.name AS invitedBy
         FROM invitation i LEFT JOIN user u ON u.id = i.invited_by
        WHERE i.organization_id = ? AND i.revoked_at IS NULL AND i.accepted_at IS NULL
        ORDER BY i.created_at DESC LIMIT 100`,
    )
      .bind(ctx.org.id)
      .all<{
        id: string;
        email: string;
        role: string;
        expiresAt: number;
        createdAt: number;
        invitedBy: string | null;
      }>();
    const now = Date.now();
    return results.map((r) => ({ ...r, expired: r.expiresAt <= now }));
  }),

  /** Invites by e-mail with a 7-day link to /accept-invitation?id=<secret> (DESIGN §4, decision 017). */
  invite: orgProcedure({ member: ["create"] })
    .input(
      z
        .object({
          email: z.email().max(254),
          role: z.enum(["owner", "admin", "organizer", "viewer"]),
        })
        .strict(),
    )
    .mutation(async ({ ctx, input }) => {
      assertMayGrant(ctx.org, input.role);
      const res = await createInvitation(ctx, {
        organizationId: ctx.org.id,
        organizationName: ctx.org.name,
        email: input.email,
        role: input.role,
      });
      if ("alreadyMember" in res)
        fail("CONFLICT", "This person is already a member of the organization", { field: "email" });
      return res;
    }),

  /** Mails a new link for an open invitation (the old link dies) and restarts its 7 days. */
  resendInvitation: orgProcedure({ member: ["create"] })
    .input(z.object({ id: z.string().min(1).max(100) }).strict())
    .mutation(async ({ ctx, input }) => {
      const now = Date.now();
      const expiresAt = now + ctx.config.organizations.invitationExpiresIn * 1000;
      const inv = await ctx.env.DB.prepare(
        "SELECT id, email, role, expires_at FROM invitation WHERE id = ? AND organization_id = ? AND accepted_at IS NULL AND revoked_at IS NULL",
      )
        .bind(input.id, ctx.org.id)
        .first<{ id: string; email: string; role: string; expires_at: number }>();
      if (!inv) fail("NOT_FOUND", "Invitation not found");
      // A new secret: the link mailed before stops working (decision 017).
      const { secret, hash } = newInvitationSecret();
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          "UPDATE invitation SET expires_at = ?, secret_hash = ?, updated_at = ? WHERE id = ?",
        ).bind(expiresAt, hash, now, inv.id),
        auditStatement(ctx, {
          action: "member.resend_invitation",
          entityType: "invitation",
          entityId: inv.id,
          before: { expiresAt: inv.expires_at },
          after: { expiresAt },
        }),
      ]);
      await mailInvitation(ctx, { secret, email: inv.email, role: inv.role, organizationName: ctx.org.name });
      return { id: inv.id, expiresAt };
    }),

  /** Org owners and admins change a member's role; owners alone make or unmake owners. */
  setMemberRole: orgProcedure({ member: ["update"] })
    .input(
      z
        .object({
          membershipId: z.string().min(1).max(100),
          role: z.enum(["owner", "admin", "organizer", "viewer"]),
        })
        .strict(),
    )
    .mutation(async ({ ctx, input }) => {
      const m = await ctx.env.DB.prepare(
        "SELECT id, user_id, role FROM membership WHERE id = ? AND organization_id = ?",
      )
        .bind(input.membershipId, ctx.org.id)
        .first<{ id: string; user_id: string; role: string }>();
      if (!m) fail("NOT_FOUND", "Member not found");
      if (m.role === input.role) return { id: m.id, role: m.role };
      assertMayGrant(ctx.org, m.role);
      assertMayGrant(ctx.org, input.role);
      await assertNotLastOwner(ctx.env.DB, ctx.org.id, m.user_id, m.role, input.role);
      const now = Date.now();
      // The role guard in the WHERE makes a concurrent demotion of the other owner lose cleanly.
      const [r] = await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          `UPDATE membership SET role = ?, updated_at = ? WHERE id = ? AND role = ?
             AND (role != 'owner' OR ? = 'owner' OR EXISTS (SELECT 1 FROM membership o WHERE o.organization_id = membership.organization_id AND o.role = 'owner' AND o.id != membership.id))`,
        ).bind(input.role, now, m.id, m.role, input.role),
        auditStatement(ctx, {
          action: "member.set_role",
          entityType: "user",
          entityId: m.user_id,
          before: { role: m.role },
          after: { role: input.role },
        }),
      ]);
      if (!r?.meta.changes) fail("CONFLICT", "The member changed meanwhile; reload and try again");
      return { id: m.id, role: input.role };
    }),

  /** Removes a member from this organization; their past actions and records stay (DESIGN §4). */
  removeOrgMember: orgProcedure({ member: ["delete"] })
    .input(
      z
        .object({ membershipId: z.string().min(1).max(100), reason: z.string().trim().max(500).optional() })
        .strict(),
    )
    .mutation(async ({ ctx, input }) => {
      const m = await ctx.env.DB.prepare(
        "SELECT id, user_id, role FROM membership WHERE id = ? AND organization_id = ?",
      )
        .bind(input.membershipId, ctx.org.id)
        .first<{ id: string; user_id: string; role: string }>();
      if (!m) fail("NOT_FOUND", "Member not found");
      assertMayGrant(ctx.org, m.role);
      await assertNotLastOwner(ctx.env.DB, ctx.org.id, m.user_id, m.role, null);
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          `DELETE FROM membership WHERE id = ? AND (role != 'owner' OR EXISTS (SELECT 1 FROM membership o WHERE o.organization_id = membership.organization_id AND o.role = 'owner' AND o.id != membership.id))`,
        ).bind(m.id),
        ctx.env.DB.prepare(
          "UPDATE user SET active_organization_id = NULL WHERE id = ? AND active_organization_id = ?",
        ).bind(m.user_id, ctx.org.id),
        auditStatement(ctx, {
          action: "member.remove",
          entityType: "user",
          entityId: m.user_id,
          before: { role: m.role },
          reason: input.reason,
        }),
      ]);
      return { ok: true };
    }),

  /** The caller leaves the current organization (the last owner cannot). */
  leave: orgProcedure({ organization: ["view"] }).mutation(async ({ ctx }) => {
    if (!ctx.org.role) fail("NOT_FOUND", "You are not a member of this organization");
    await assertNotLastOwner(ctx.env.DB, ctx.org.id, ctx.user.id, ctx.org.role, null);
    await ctx.env.DB.batch([
      ctx.env.DB.prepare("DELETE FROM membership WHERE organization_id = ? AND user_id = ?").bind(
        ctx.org.id,
        ctx.user.id,
      ),
      ctx.env.DB.prepare("UPDATE user SET active_organization_id = NULL WHERE id = ?").bind(ctx.user.id),
      auditStatement(ctx, {
        action: "member.leave",
        entityType: "user",
        entityId: ctx.user.id,
        before: { role: ctx.org.role },
      }),
    ]);
    return { ok: true };
  }),

  /** Badges the current organization holds (shown on its profile). */
  badges: orgProcedure({ organization: ["view"] }).query(async ({ ctx }) => {
    const { results } = await ctx.env.DB.prepare(
      "SELECT id, badge, expires_at AS expiresAt, created_at AS grantedAt FROM organization_badge WHERE organization_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) ORDER BY badge",
    )
      .bind(ctx.org.id, Date.now())
      .all<{ id: string; badge: string; expiresAt: number | null; grantedAt: number }>();
    return results;
  }),

  revokeInvitation: orgProcedure({ member: ["delete"] })
    .input(z.object({ id: z.string().min(1).max(100) }).strict())
    .mutation(async ({ ctx, input }) => {
      const inv = await ctx.env.DB.prepare(
        "SELECT id, email, role FROM invitation WHERE id = ? AND organization_id = ? AND accepted_at IS NULL AND revoked_at IS NULL",
      )
        .bind(input.id, ctx.org.id)
        .first<{ id: string; email: string; role: string }>();
      if (!inv) fail("NOT_FOUND", "Invitation not found");
      const now = Date.now();
      await ctx.env.DB.batch([
        ctx.env.DB.prepare("UPDATE invitation SET revoked_at = ?, updated_at = ? WHERE id = ?").bind(
          now,
          now,
          inv.id,
        ),
        auditStatement(ctx, {
          action: "member.revoke_invitation",
          entityType: "invitation",
          entityId: inv.id,
          before: inv,
        }),
      ]);
      return { id: input.id };
    }),

  all: adminProcedure({ user: ["list"] }).query(async ({ ctx }) => {
    const { results } = await ctx.env.DB.prepare(
      "SELECT id, name, slug FROM organization ORDER BY name LIMIT 500",
    ).all<{ id: string; name: string; slug: string }>();
    return results;
  }),

  /** Organizations the caller can switch between (memberships; all for platform admins). */
  mine: authedProcedure.query(async ({ ctx }) =>
    listSelectableOrganizations(ctx.env.DB, ctx.user, ctx.config),
  ),

  setActive: authedProcedure
    .input(z.object({ organizationId: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const options = await listSelectableOrganizations(ctx.env.DB, ctx.user, ctx.config);
      if (!options.some((o) => o.id === input.organizationId)) fail("NOT_FOUND", "Organization not found");
      await ctx.env.DB.prepare("UPDATE user SET active_organization_id = ? WHERE id = ?")
        .bind(input.organizationId, ctx.user.id)
        .run();
      return { organizationId: input.organizationId };
    }),

  current: orgProcedure({ organization: ["view"] }).query(async ({ ctx }) => {
    const o = await ctx.env.DB.prepare("SELECT * FROM organization WHERE id = ?")
      .bind(ctx.org.id)
      .first<Record<string, unknown>>();
    if (!o) fail("NOT_FOUND", "Organization not found");
    return {
      id: o.id as string,
      name: o.name as string,
      slug: o.slug as string,
      legalName: o.legal_name as string | null,
      type: o.type as string,
      registrationId: o.registration_id as string | null,
      taxId: o.tax_id as string | null,
      country: o.country as string | null,
      addressLine1: o.address_line1 as string | null,
      addressLine2: o.address_line2 as string | null,
      city: o.city as string | null,
      region: o.region as string | null,
      postalCode: o.postal_code as string | null,
      logoUrl: o.logo_url as string | null,
      contactEmail: o.contact_email as string | null,
      contactPhone: o.contact_phone as string | null,
      // A link stored before http(s) was the rule is never handed to a page (decision 019).
      website: safeHttpUrl(o.website),
      mission: o.mission as string | null,
      description: o.description as string | null,
      defaultCurrency: o.default_currency as string,
      timeZone: o.time_zone as string,
      fiscalYearStartMonth: o.fiscal_year_start_month as number,
      status: o.status as string,
      role: ctx.org.role,
      canEdit: ctx.org.isPlatformAdmin || ctx.org.role === "owner" || ctx.org.role === "admin",
    };
  }),

  update: orgProcedure({ organization: ["update"] })
    .input(organizationInput)
    .mutation(async ({ ctx, input }) => {
      const before = await ctx.env.DB.prepare("SELECT * FROM organization WHERE id = ?")
        .bind(ctx.org.id)
        .first();
      // As a campaign's cover: an uploaded logo must be this organization's image.
      if (input.logoUrl !== before?.logo_url)
        await assertOwnMedia(ctx.env.DB, ctx.org.id, input.logoUrl, "logoUrl");
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          `UPDATE organization SET name = ?, legal_name = ?, type = ?, registration_id = ?, tax_id = ?, country = ?, address_line1 = ?, address_line2 = ?, city = ?, region = ?, postal_code = ?,
               contact_email = ?, contact_phone = ?, website = ?, logo_url = ?, mission = ?, description = ?, default_currency = ?, time_zone = ?, fiscal_year_start_month = ?, updated_at = ? WHERE id = ?`,
        ).bind(
          input.name,
          input.legalName || null,
          input.type,
          input.registrationId || null,
          input.taxId || null,
          input.country ? input.country.toUpperCase() : null,
          input.addressLine1 || null,
          input.addressLine2 || null,
          input.city || null,
          input.region || null,
          input.postalCode || null,
          input.contactEmail || null,
          input.contactPhone || null,
          input.website || null,
          input.logoUrl || null,
          input.mission || null,
          input.description || null,
          input.defaultCurrency,
          input.timeZone,
          input.fiscalYearStartMonth,
          Date.now(),
          ctx.org.id,
        ),
        auditStatement(ctx, {
          action: "organization.update",
          entityType: "organization",
          entityId: ctx.org.id,
          before,
          after: input,
        }),
        // Local days of the old zone no longer match the list's date filters (decision 013).
        ctx.env.DB.prepare(
          "DELETE FROM donation_daily_state WHERE organization_id = ? AND time_zone != ?",
        ).bind(ctx.org.id, input.timeZone),
      ]);
      // Every per-day rollup is keyed by local day: recompute them in the new zone. If this fails
      // part-way, the every-15-minutes cron rebuilds donation_daily_totals (its state row is gone).
      if (before?.time_zone !== input.timeZone) await rebuildRollups(ctx.env.DB, ctx.org.id, input.timeZone);
      return { id: ctx.org.id };
    }),
});
