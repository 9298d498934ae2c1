/**
 * Organizers (DESIGN §4, the platform admin's /organizers): the statuses a row of the list has and
 * the keys it sorts by. The server's list input (worker/organizers/router.ts) is built from them.
 */
// zod/mini, like the other form schemas in core (core/organization.ts says why).
import { z } from "zod/mini";

/** active / banned: a member; invited / expired: an open invitation, before or past its 7 days. */
export const organizerStatuses = ["active", "banned", "invited", "expired"] as const;
export type OrganizerStatus = (typeof organizerStatuses)[number];

/**
 * The rows of the list that are open invitations (not accepted, not revoked; past their 7 days
 * too): what the list's "Revoke invitations" acts on, in the page and in organizers.matchingIds.
 */
export const OPEN_INVITATION_STATUSES = ["invited", "expired"] as const satisfies readonly OrganizerStatus[];

export function isOpenInvitation(status: OrganizerStatus): boolean {
  return (OPEN_INVITATION_STATUSES as readonly OrganizerStatus[]).includes(status);
}

export const organizerSorts = ["joined", "name", "email", "organization", "status"] as const;
export type OrganizerSort = (typeof organizerSorts)[number];

/** Inviting an organizer into an organization by e-mail (organizers.invite and /organizers/create). */
export const organizerInviteInput = z.strictObject({
  email: z.email().check(z.maxLength(254)),
  organizationId: z.string().check(z.minLength(1), z.maxLength(100)),
});
export type OrganizerInviteInput = z.infer<typeof organizerInviteInput>;
