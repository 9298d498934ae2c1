/** badges.*: the platform's organization badges (DESIGN §4), platform admins only. */
import { manualBadges } from "@core/badges";
import { instant } from "@core/schemas";
import { z } from "zod";
import { adminProcedure, router } from "../trpc/init";
import { definitions, grantBadge, listBadges, revokeBadge } from "./service";

export const badgesRouter = router({
  /** The platform's badge definitions with how many organizations currently hold each. */
  definitions: adminProcedure({ user: ["list"] }).query(({ ctx }) => definitions(ctx)),

  list: adminProcedure({ user: ["list"] }).query(({ ctx }) => listBadges(ctx)),

  grant: adminProcedure({ user: ["update"] })
    .input(
      z.object({
        organizationId: z.string().min(1),
        badge: z.enum(manualBadges),
        /** Evidence: what was checked, a registry link… */
        reason: z.string().trim().max(500).optional(),
        expiresAt: z.optional(z.nullable(instant)),
      }),
    )
    .mutation(({ ctx, input }) => grantBadge(ctx, input)),

  revoke: adminProcedure({ user: ["update"] })
    .input(
      z
        .object({
          id: z.string().min(1).max(100),
          reason: z.string().trim().min(3, "Say why the badge is revoked").max(500),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => revokeBadge(ctx, input)),
});
