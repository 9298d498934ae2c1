import { z } from "zod";
import { generateId } from "../../auth/crypto";
import { auditStatement } from "../../lib/audit";
import { CURRENCIES } from "../../lib/money";
import { getMailer, renderMail } from "../../mail";
import { adminProcedure, authedProcedure, fail, orgProcedure, router } from "../init";
import { listSelectableOrganizations } from "../org";

export const organizationInput = z
  .object({
    name: z.string().trim().min(2).max(120),
    legalName: z.string().trim().max(200).nullable().optional(),
    type: z.enum(["nonprofit", "charity", "foundation", "community_group", "school", "religious", "other"]),
    registrationId: z.string().trim().max(60).nullable().optional(),
    taxId: z.string().trim().max(60).nullable().optional(),
    country: z.string().trim().length(2).nullable().optional().or(z.literal("")),
    city: z.string().trim().max(100).nullable().optional(),
    contactEmail: z
      .union([z.email(), z.literal("")])
      .nullable()
      .optional(),
    contactPhone: z.string().trim().max(40).nullable().optional(),
    website: z
      .union([z.url(), z.literal("")])
      .nullable()
      .optional(),
    mission: z.string().trim().max(500).nullable().optional(),
    description: z.string().trim().max(5000).nullable().optional(),
    defaultCurrency: z.enum(CURRENCIES),
    timeZone: z.string().refine((tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, "Unknown time zone"),
    fiscalYearStartMonth: z.number().int().min(1).max(12),
  })
  .strict();

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

  invitations: orgProcedure({ member: ["view"] }).query(async ({ ctx }) => {
    const { results } = await ctx.env.DB.prepare(
      "SELECT id, email, role, expires_at AS expiresAt, accepted_at AS acceptedAt, created_at AS createdAt FROM invitation WHERE organization_id = ? AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 100",
    )
      .bind(ctx.org.id)
      .all<{
        id: string;
        email: string;
        role: string;
        expiresAt: number;
        acceptedAt: number | null;
        createdAt: number;
      }>();
    return results;
  }),

  /** Invites by e-mail with a 7-day link to /accept-invitation?id=… (DESIGN §4). */
  invite: orgProcedure({ member: ["create"] })
    .input(
      z.object({
        email: z.email().transform((e) => e.toLowerCase()),
        role: z.enum(["admin", "organizer", "viewer"]),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const id = generateId();
      const now = Date.now();
      const expiresAt = now + ctx.config.organizations.invitationExpiresIn * 1000;
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          "UPDATE invitation SET revoked_at = ? WHERE organization_id = ? AND email = ? AND accepted_at IS NULL AND revoked_at IS NULL",
        ).bind(now, ctx.org.id, input.email),
        ctx.env.DB.prepare(
          "INSERT INTO invitation (id, organization_id, email, role, invited_by, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).bind(id, ctx.org.id, input.email, input.role, ctx.user.id, expiresAt, now, now),
        auditStatement(ctx, {
          action: "member.invite",
          entityType: "organization",
          entityId: ctx.org.id,
          after: input,
        }),
      ]);
      const url = `${ctx.config.app.url}/accept-invitation?id=${id}`;
      await getMailer(ctx.env).send(
        renderMail({
          to: input.email,
          subject: `You're invited to ${ctx.org.name} on Almoner`,
          intro: `${ctx.user.name} invited you to join ${ctx.org.name} as ${input.role}.`,
          action: { label: "Accept the invitation", url },
          outro:
            "The invitation expires in 7 days. Sign in (or create an account) with this e-mail address to accept it.",
        }),
      );
      return { id, expiresAt };
    }),

  revokeInvitation: orgProcedure({ member: ["delete"] })
    .input(z.object({ id: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const r = await ctx.env.DB.prepare(
        "UPDATE invitation SET revoked_at = ? WHERE id = ? AND organization_id = ? AND accepted_at IS NULL",
      )
        .bind(Date.now(), input.id, ctx.org.id)
        .run();
      if (!r.meta.changes) fail("NOT_FOUND", "Invitation not found");
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
      city: o.city as string | null,
      contactEmail: o.contact_email as string | null,
      contactPhone: o.contact_phone as string | null,
      website: o.website as string | null,
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
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          `UPDATE organization SET name = ?, legal_name = ?, type = ?, registration_id = ?, tax_id = ?, country = ?, city = ?, contact_email = ?, contact_phone = ?, website = ?,
               mission = ?, description = ?, default_currency = ?, time_zone = ?, fiscal_year_start_month = ?, updated_at = ? WHERE id = ?`,
        ).bind(
          input.name,
          input.legalName || null,
          input.type,
          input.registrationId || null,
          input.taxId || null,
          input.country || null,
          input.city || null,
          input.contactEmail || null,
          input.contactPhone || null,
          input.website || null,
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
      ]);
      return { id: ctx.org.id };
    }),
});
