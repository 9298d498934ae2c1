/** Invitations as the API gives them: the members card's list and the invitee's view of one. */
import type { InvitationRow, openInvitationsOf } from "./queries";

type Listed = Awaited<ReturnType<typeof openInvitationsOf>>[number];

/** Expired ones stay listed (so they can be resent), marked. */
export const presentOpenInvitation = (r: Listed, now: number) => ({ ...r, expired: r.expiresAt <= now });

/** What /accept-invitation shows its invitee (the public id, never the secret). */
export function presentInvitationView(
  inv: InvitationRow & { organization_name: string },
  user: { emailVerified: boolean },
) {
  return {
    id: inv.id,
    organizationName: inv.organization_name,
    role: inv.role,
    email: inv.email,
    expiresAt: inv.expires_at,
    // The page offers the verification mail first when this is false.
    emailVerified: user.emailVerified,
  };
}
