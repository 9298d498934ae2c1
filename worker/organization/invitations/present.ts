/** Invitations as the API gives them: the members card's list and the invitee's view of one. */
import type { InvitationRow, openInvitationsOf } from "./queries";

type Listed = Awaited<ReturnType<typeof openInvitationsOf>>[number];

/** Expired ones stay listed (so they can be resent), marked. */
export const presentOpenInvitation = (r: Listed, now: number) => ({ ...r, expired: r.expiresAt <= now });

/** Where an invitation stands: open until accepted, declined, revoked or past its expiry. */
type InvitationState = "open" | "accepted" | "declined" | "revoked" | "expired";

function invitationState(
  inv: Pick<InvitationRow, "accepted_at" | "declined_at" | "revoked_at" | "expires_at">,
  now: number,
): InvitationState {
  if (inv.accepted_at) return "accepted";
  if (inv.declined_at) return "declined";
  if (inv.revoked_at) return "revoked";
  return inv.expires_at <= now ? "expired" : "open";
}

/** What /accept-invitation shows the link's holder (the public id, never the secret); null signed out. */
export function presentInvitationView(
  inv: InvitationRow & {
    organization_name: string;
    organization_time_zone: string;
    invited_by_name: string | null;
    member_role: string | null;
  },
  user: { email: string; emailVerified: boolean } | null,
  now: number,
) {
  return {
    id: inv.id,
    state: invitationState(inv, now),
    organizationName: inv.organization_name,
    role: inv.role,
    email: inv.email,
    invitedBy: inv.invited_by_name,
    expiresAt: inv.expires_at,
    /** The organization's zone, which the page writes the expiry in (decision 026). */
    timeZone: inv.organization_time_zone,
    /** The signed-in visitor's address; the page offers to switch account when it is not `email`. */
    signedInAs: user?.email ?? null,
    /** Accepting needs the invited address verified; the page offers the mail first when false. */
    emailVerified: user ? user.emailVerified : null,
    /** The visitor's role in the organization now: an old invitation changes nothing for a member. */
    memberRole: user ? inv.member_role : null,
  };
}
