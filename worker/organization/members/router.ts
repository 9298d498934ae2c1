/** organization.* procedures about members (decision 017), spread into worker/organization/router.ts. */
import { memberRoles } from "@core/organization";
import { z } from "zod";
import { adminProcedure, orgProcedure } from "../../trpc/init";
import {
  addMember,
  leave,
  listMembers,
  removeMember,
  removeOrgMember,
  setMemberRole,
  userMemberships,
} from "./service";

export const memberProcedures = {
  members: orgProcedure({ member: ["view"] }).query(({ ctx }) => listMembers(ctx)),

  setMemberRole: orgProcedure({ member: ["update"] })
    .input(z.object({ membershipId: z.string().min(1).max(100), role: z.enum(memberRoles) }).strict())
    .mutation(({ ctx, input }) => setMemberRole(ctx, input)),

  removeOrgMember: orgProcedure({ member: ["delete"] })
    .input(
      z
        .object({ membershipId: z.string().min(1).max(100), reason: z.string().trim().max(500).optional() })
        .strict(),
    )
    .mutation(({ ctx, input }) => removeOrgMember(ctx, input)),

  leave: orgProcedure({ organization: ["view"] }).mutation(({ ctx }) => leave(ctx)),

  /** Organizers of SPEC §2 are users with role organizer and a membership (admin only). */
  memberships: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1) }))
    .query(({ ctx, input }) => userMemberships(ctx, input.userId)),

  addMember: adminProcedure({ user: ["update"] })
    .input(
      z.object({
        userId: z.string().min(1),
        organizationId: z.string().min(1),
        role: z.enum(memberRoles),
      }),
    )
    .mutation(({ ctx, input }) => addMember(ctx, input)),

  /** Removing an organizer removes the membership; their history stays (DESIGN §4). */
  removeMember: adminProcedure({ user: ["update"] })
    .input(z.object({ membershipId: z.string().min(1) }))
    .mutation(({ ctx, input }) => removeMember(ctx, input.membershipId)),
};
