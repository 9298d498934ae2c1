/** badges.*: the platform's organization badges (DESIGN §4), platform admins only. */
import { badgeGrantInput, badgeRevokeInput } from "@core/badges";
import { adminProcedure, router } from "../trpc/init";
import { definitions, grantBadge, listBadges, revokeBadge } from "./service";

export const badgesRouter = router({
  /** The platform's badge definitions with how many organizations currently hold each. */
  definitions: adminProcedure({ user: ["list"] }).query(({ ctx }) => definitions(ctx)),

  list: adminProcedure({ user: ["list"] }).query(({ ctx }) => listBadges(ctx)),

  grant: adminProcedure({ user: ["update"] })
    .input(badgeGrantInput)
    .mutation(({ ctx, input }) => grantBadge(ctx, input)),

  revoke: adminProcedure({ user: ["update"] })
    .input(badgeRevokeInput)
    .mutation(({ ctx, input }) => revokeBadge(ctx, input)),
});
