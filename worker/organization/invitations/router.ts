/** organization.* procedures about invitations (decision 017), spread into worker/organization/router.ts. */
import { memberInviteInput } from "@core/organization";
import { z } from "zod";
import { orgProcedure } from "../../trpc/init";
import { inviteMember, listOpenInvitations, resendInvitation, revokeInvitation } from "./service";

export const invitationProcedures = {
  /** Open invitations, the expired too (to resend); the id is public, the secret only in the mail. */
  invitations: orgProcedure({ member: ["view"] }).query(({ ctx }) => listOpenInvitations(ctx)),

  /** Invites by e-mail with a 7-day link to /accept-invitation?id=<secret> (DESIGN §4, decision 017). */
  invite: orgProcedure({ member: ["create"] })
    .input(memberInviteInput)
    .mutation(({ ctx, input }) => inviteMember(ctx, input)),

  resendInvitation: orgProcedure({ member: ["create"] })
    .input(z.object({ id: z.string().min(1).max(100) }).strict())
    .mutation(({ ctx, input }) => resendInvitation(ctx, input.id)),

  revokeInvitation: orgProcedure({ member: ["delete"] })
    .input(z.object({ id: z.string().min(1).max(100) }).strict())
    .mutation(({ ctx, input }) => revokeInvitation(ctx, { id: input.id, organizationId: ctx.org.id })),
};
