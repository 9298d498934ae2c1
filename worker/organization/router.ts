/**
 * organization.*: the profile, switching organizations, the platform's list, the badges held;
 * members (members/router.ts) and invitations (invitations/router.ts) are spread in, so every
 * path stays `organization.<name>`.
 */
import { organizationInput } from "@core/organization";
import { z } from "zod";
import { heldBadges } from "../badges/service";
import { adminProcedure, authedProcedure, orgProcedure, router } from "../trpc/init";
import { invitationProcedures } from "./invitations/router";
import { memberProcedures } from "./members/router";
import {
  currentOrganization,
  listAllOrganizations,
  selectableOrganizations,
  setActive,
  updateOrganization,
} from "./service";

export const organizationRouter = router({
  ...memberProcedures,
  ...invitationProcedures,

  /** Badges the current organization holds (shown on its profile). */
  badges: orgProcedure({ organization: ["view"] }).query(({ ctx }) => heldBadges(ctx)),

  all: adminProcedure({ user: ["list"] }).query(({ ctx }) => listAllOrganizations(ctx)),

  /** Organizations the caller can switch between (memberships; all for platform admins). */
  mine: authedProcedure.query(({ ctx }) => selectableOrganizations(ctx)),

  setActive: authedProcedure
    .input(z.object({ organizationId: z.string().min(1) }))
    .mutation(({ ctx, input }) => setActive(ctx, input.organizationId)),

  current: orgProcedure({ organization: ["view"] }).query(({ ctx }) => currentOrganization(ctx)),

  update: orgProcedure({ organization: ["update"] })
    .input(organizationInput)
    .mutation(({ ctx, input }) => updateOrganization(ctx, input)),
});
