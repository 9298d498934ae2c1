/**
 * Organizers (DESIGN §4, the platform admin's /organizers): the statuses a row of the list has and
 * the keys it sorts by. The server's list input (worker/organizers/router.ts) is built from them.
 */

/** active / banned: a member; invited / expired: an open invitation, before or past its 7 days. */
export const organizerStatuses = ["active", "banned", "invited", "expired"] as const;
export type OrganizerStatus = (typeof organizerStatuses)[number];

export const organizerSorts = ["joined", "name", "email", "organization", "status"] as const;
export type OrganizerSort = (typeof organizerSorts)[number];
