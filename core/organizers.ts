/** Organizers (DESIGN §4): the list's statuses and sort keys; zod/mini (decision 012). */
import { z } from "zod/mini";

/** active / banned: a member; invited / expired: an open invitation, before or past its 7 days. */
export const organizerStatuses = ["active", "banned", "invited", "expired"] as const;
export type OrganizerStatus = (typeof organizerStatuses)[number];

/** What "Revoke invitations" acts on, in the page and in organizers.matchingIds. */
export const OPEN_INVITATION_STATUSES = ["invited", "expired"] as const satisfies readonly OrganizerStatus[];

export function isOpenInvitation(status: OrganizerStatus): boolean {
  return (OPEN_INVITATION_STATUSES as readonly OrganizerStatus[]).includes(status);
}

export const organizerSorts = ["joined", "name", "email", "organization", "status"] as const;
export type OrganizerSort = (typeof organizerSorts)[number];

export const organizerInviteInput = z.strictObject({
  email: z.email().check(z.maxLength(254)),
  organizationId: z.string().check(z.minLength(1), z.maxLength(100)),
});
