import type { AuthUser, Membership } from "./types";

/** SPEC §8, verbatim. */
export const NO_PORTAL_ACCESS_MESSAGE =
  "You don't have permission to access the admin portal. Please contact an administrator to be added to an organization.";

export function rolesOf(role: string | null | undefined): string[] {
  return (role ?? "")
    .split(",")
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean);
}

export function isPlatformAdmin(user: Pick<AuthUser, "role"> | null | undefined): boolean {
  return !!user && rolesOf(user.role).includes("admin");
}

/** Membership is only looked up for plain users: admins and organizers always get in (SPEC §6). */
export function needsMembershipCheck(user: Pick<AuthUser, "role">): boolean {
  const roles = rolesOf(user.role);
  return !roles.includes("admin") && !roles.includes("organizer");
}

/** SPEC §6 portal access: admin and organizer; a user only with at least one membership. */
export function hasPortalAccess(user: Pick<AuthUser, "role">, memberships: Membership[] | null): boolean {
  if (!needsMembershipCheck(user)) return true;
  return (memberships?.length ?? 0) > 0;
}
