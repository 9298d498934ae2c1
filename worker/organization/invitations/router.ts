/**
 * organization.* procedures about invitations (DESIGN §4, decision 017). Spread into the
 * organization router (worker/organization/router.ts), so their paths stay `organization.<name>`.
 */
import { memberInviteInput } from "@core/organization";
import { z } from "zod";
import { orgProcedure } from "../../trpc/init";
import { inviteMember, listOpenInvitations, resendInvitation, revokeInvitation } from "./service";

export const invitationProcedures = {
  /**
   * Open invitations (not accepted, not revoked); expired ones stay visible so they can be resent.
   * The id is public: the accept secret is only ever in the mailed link (decision 017).
   */
  invitations: orgProcedure({ member: ["view"] }).query(({ ctx }) => listOpenInvitations(ctx)),

  /** Invites by e-mail with a 7-day link to /accept-invitation?id=<secret> (DESIGN §4, decision 017). */
  invite: orgProcedure({ member: ["create"] })
    .input(memberInviteInput)
    .mutation(({ ctx, input }) => inviteMember(ctx, input)),

  /** Mails a new link for an open invitation (the old link dies) and restarts its 7 days. */
  resendInvitation: orgProcedure({ member: ["create"] })
    .input(z.object({ id: z.string().min(1).max(100) }).strict())
    .mutation(({ ctx, input }) => resendInvitation(ctx, input.id)),

  revokeInvitation: orgProcedure({ member: ["delete"] })
    .input(z.object({ id: z.string().min(1).max(100) }).strict())
    .mutation(({ ctx, input }) => revokeInvitation(ctx, { id: input.id, organizationId: ctx.org.id })),
};
