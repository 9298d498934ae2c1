import { z } from "zod";
import { adminProcedure, router } from "../init";

/** Platform-admin views of one user that the auth contract has no endpoint for. */
export const usersRouter = router({
  accounts: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const { results } = await ctx.env.DB.prepare(
        "SELECT id, provider_id AS providerId, account_id AS accountId, created_at AS createdAt FROM account WHERE user_id = ? ORDER BY created_at",
      )
        .bind(input.userId)
        .all<{ id: string; providerId: string; accountId: string; createdAt: number }>();
      return results;
    }),
  history: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const { results } = await ctx.env.DB.prepare(
        `SELECT a.id, a.action, a.reason, a.at, a.entity_type AS entityType, u.name AS actor
           FROM audit_event a LEFT JOIN user u ON u.id = a.actor_id
          WHERE (a.entity_type = 'user' AND a.entity_id = ?1) OR a.actor_id = ?1 OR a.impersonator_id = ?1
          ORDER BY a.at DESC LIMIT 100`,
      )
        .bind(input.userId)
        .all<{
          id: string;
          action: string;
          reason: string | null;
          at: number;
          entityType: string;
          actor: string | null;
        }>();
      return results;
    }),
});
