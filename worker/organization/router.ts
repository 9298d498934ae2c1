/**
 * organization.*: the profile, switching organizations, the badges held; members, invitations and
 * ownership are spread in from their folders, so every path stays `organization.<name>`.
 */
import { organizationInput } from "@core/organization";
import { z } from "zod";
import { heldBadges } from "../badges/service";
import { adminProcedure, authedProcedure, orgProcedure, router } from "../trpc/init";
import { deleteOrganization } from "./deletion/service";
import { invitationProcedures } from "./invitations/router";
import { memberProcedures } from "./members/router";
import { ownershipProcedures } from "./ownership/router";
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
  ...ownershipProcedures,

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

  /** The owner deletes the organization, typing its name (decision 047). */
  delete: orgProcedure({ organization: ["delete"] })
    .input(z.object({ confirmName: z.string().max(200) }).strict())
    .mutation(({ ctx, input }) => deleteOrganization(ctx, input)),
});
