/**
 * Where a signed-in user lands (decision 044), the one rule of the sign-in, the /login route and
 * the login page: the destination with portal access, or when it is a page outside the portal
 * (core/outside-portal.ts); else /onboarding when it has something for them (starting or asking
 * for an organization, or their request); else nowhere: SPEC §4 signs them out at once.
 */
import { isOutsidePortal } from "@core/outside-portal";
import { safeRedirect } from "./guards";
import type { Capabilities } from "./session";

export function landingFor(
  capabilities: Pick<Capabilities, "portalAccess" | "newOrganization" | "organizationRequest"> | null,
  destination?: string | null,
): string | null {
  const wanted = safeRedirect(destination);
  if (capabilities?.portalAccess) return wanted;
  if (destination && isOutsidePortal(wanted)) return wanted;
  if (capabilities?.newOrganization || capabilities?.organizationRequest) return "/onboarding";
  return null;
}
