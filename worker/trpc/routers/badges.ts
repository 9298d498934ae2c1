import { instant } from "@core/schemas";
import { z } from "zod";
import { generateId } from "../../auth/crypto";
import { auditStatement } from "../../lib/audit";
import { adminProcedure, fail, router } from "../init";

/** Platform-defined badges (DESIGN §4): manual ones granted by admins, automatic ones by the cron. */
export const BADGES = {
  verified_organization: { name: "Verified organization", kind: "manual" },
  registered_charity: { name: "Registered charity", kind: "manual" },
  transparent: { name: "Transparent", kind: "manual" },
  top_fundraiser: { name: "Top fundraiser", kind: "automatic" },
  goal_achiever: { name: "Goal achiever", kind: "automatic" },
} as const;
const manual = ["verified_organization", "registered_charity", "transparent"] as const;
const DESCRIPTIONS: Record<keyof typeof BADGES, string> = {
  verified_organization: "Identity and bank details checked by the platform.",
  registered_charity: "Registration with a charity regulator confirmed.",
  transparent: "Publishes finances and reports on how gifts are used.",
  top_fundraiser: "Automatic: top 10 % of organizations by gifts in the last 12 months.",
  goal_achiever: "Automatic: has a campaign that reached its goal.",
};

export const badgesRouter = router({
  /** The platform's badge definitions with how many organizations currently hold each. */
  definitions: adminProcedure({ user: ["list"] }).query(async ({ ctx }) => {
    const { results } = await ctx.env.DB.prepare(
      "SELECT badge, count(*) AS holders FROM organization_badge WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) GROUP BY badge",
    )
      .bind(Date.now())
      .all<{ badge: string; holders: number }>();
    const held = new Map(results.map((r) => [r.badge, r.holders]));
    return Object.entries(BADGES).map(([key, b]) => ({
      key,
      name: b.name,
      kind: b.kind,
      description: DESCRIPTIONS[key as keyof typeof BADGES],
      holders: held.get(key) ?? 0,
    }));
  }),
  list: adminProcedure({ user: ["list"] }).query(async ({ ctx }) => {
    const { results } = await ctx.env.DB.prepare(
      `SELECT b.id, b.badge, b.reason, b.expires_at AS expiresAt, b.created_at AS grantedAt, o.id AS organizationId, o.name AS organizationName, u.name AS grantedBy
         FROM organization_badge b JOIN organization o ON o.id = b.organization_id LEFT JOIN user u ON u.id = b.granted_by
        WHERE b.revoked_at IS NULL ORDER BY o.name, b.badge`,
    ).all<{
      id: string;
      badge: keyof typeof BADGES;
      reason: string | null;
      expiresAt: number | null;
      grantedAt: number;
      organizationId: string;
      organizationName: string;
      grantedBy: string | null;
    }>();
    return results.map((r) => ({
      ...r,
      name: BADGES[r.badge]?.name ?? r.badge,
      expired: r.expiresAt !== null && r.expiresAt <= Date.now(),
    }));
  }),
  grant: adminProcedure({ user: ["update"] })
    .input(
      z.object({
        organizationId: z.string().min(1),
        badge: z.enum(manual),
        /** Evidence: what was checked, a registry link… */
        reason: z.string().trim().max(500).optional(),
        expiresAt: z.optional(z.nullable(instant)),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const org = await ctx.env.DB.prepare("SELECT id FROM organization WHERE id = ?")
        .bind(input.organizationId)
        .first();
      if (!org) fail("NOT_FOUND", "Organization not found");
      if (input.expiresAt && input.expiresAt <= Date.now())
        fail("BAD_REQUEST", "The expiry must be in the future", { field: "expiresAt" });
      const held = await ctx.env.DB.prepare(
        "SELECT id FROM organization_badge WHERE organization_id = ? AND badge = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
      )
        .bind(input.organizationId, input.badge, Date.now())
        .first();
      if (held) fail("CONFLICT", "The organization already holds this badge");
      const id = generateId();
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          "INSERT INTO organization_badge (id, organization_id, badge, granted_by, reason, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).bind(
          id,
          input.organizationId,
          input.badge,
          ctx.user.id,
          input.reason ?? null,
          input.expiresAt ?? null,
          Date.now(),
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
    }),
  revoke: adminProcedure({ user: ["update"] })
    .input(
      z
        .object({
          id: z.string().min(1).max(100),
          reason: z.string().trim().min(3, "Say why the badge is revoked").max(500),
        })
        .strict(),
    )
    .mutation(async ({ ctx, input }) => {
      const b = await ctx.env.DB.prepare(
        "SELECT organization_id, badge FROM organization_badge WHERE id = ? AND revoked_at IS NULL",
      )
        .bind(input.id)
        .first<{ organization_id: string; badge: string }>();
      if (!b) fail("NOT_FOUND", "Badge not found");
      await ctx.env.DB.batch([
        ctx.env.DB.prepare("UPDATE organization_badge SET revoked_at = ?, updated_at = ? WHERE id = ?").bind(
          Date.now(),
          Date.now(),
          input.id,
        ),
        auditStatement(ctx, {
          action: "badge.revoke",
          entityType: "organization",
          entityId: b.organization_id,
          before: b,
          reason: input.reason,
          organizationId: b.organization_id,
        }),
      ]);
      return { id: input.id };
    }),
});
