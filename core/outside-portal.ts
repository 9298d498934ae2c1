/**
 * Pages where a signed-in person without portal access (SPEC §6) stays signed in (decisions 044, 045):
 * SPEC §4's "signed out at once" is for every other destination.
 */
const OUTSIDE_PORTAL_PATHS = ["/accept-invitation", "/onboarding"] as const;

/** Whether a same-origin href (a path with its search) leads to a page outside the portal. */
export function isOutsidePortal(href: string | null | undefined): boolean {
  if (!href) return false;
  let path: string;
  try {
    const url = new URL(href, "http://x");
    if (url.origin !== "http://x") return false;
    path = url.pathname;
  } catch {
    return false;
  }
  return (OUTSIDE_PORTAL_PATHS as readonly string[]).includes(path);
}
