/**
 * A failed access check (decision 044, spec-audit deviation 1): `access.capabilities` answered 5xx
 * or 429, or the network failed. That is not "no access". SPEC §6 lets platform admins and
 * organizers in by their role alone, so for them the portal goes on with what their role grants
 * without an organization (core/permissions.ts `capabilities`, the server's own rule) until a later
 * check answers; for role user, whose access depends on the memberships the check reads, it is an
 * error with a retry, never a sign-out.
 */
import { capabilities, parseRoles } from "@core/permissions";
import type { RouterOutputs } from "../api-types";

type Capabilities = RouterOutputs["access"]["capabilities"];

export const ACCESS_CHECK_FAILED = "ACCESS_CHECK_FAILED";
export const ACCESS_CHECK_FAILED_MESSAGE = "We couldn't check your access. Try again.";

/** What the portal assumes for `user` while the check fails: null for role user (no guess). */
export function capabilitiesWithoutCheck(
  user: { id: string; role?: string | null },
  impersonatedBy?: string | null,
): Capabilities | null {
  const roles = parseRoles(user.role);
  if (!roles.includes("admin") && !roles.includes("organizer")) return null;
  return {
    ...capabilities({ userId: user.id, role: user.role, impersonatedBy }, null, { hasMembership: false }),
    timeZone: "UTC",
    country: null,
    newOrganization: null,
    organizationRequest: null,
  };
}
