/**
 * Route guards (SPEC §2). They read the one session query, so SSR and client navigation agree;
 * hiding a link is never the protection: every procedure checks again on the server.
 */

import type { Permissions } from "@core/permissions";
import { safeRedirectPath } from "@core/trusted-url";
import { redirect } from "@tanstack/react-router";
import type { RouterContext } from "~/routes/__root";
import { withoutNotice } from "../notice";
import { ACCESS_CHECK_FAILED, ACCESS_CHECK_FAILED_MESSAGE } from "./access-check";
import { canWith } from "./can";
import { sessionQueryOptions } from "./session";
import { AuthError } from "./types";

/**
 * Only paths on the portal's own origin are followed after sign-in, judged by parsing the value as
 * the browser will (core/trusted-url.ts, the rule the auth API applies to callback URLs):
 * "/\t/evil.example" is "//evil.example" to a browser, not a path.
 */
export function safeRedirect(value: unknown, fallback = "/dashboard"): string {
  return safeRedirectPath(value, fallback);
}

/**
 * The portal's guard (SPEC §2, §6). Without portal access the user is never shown a portal page:
 * they go to /onboarding when there is something for them there (decision 044), else to /login,
 * which signs them out with SPEC §8's message. A failed access check of a role user is an error
 * with a retry (ACCESS_CHECK_FAILED), not "no access"; an admin's or organizer's goes on by role.
 */
export async function requireUser(context: RouterContext, location: { href: string }) {
  const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
  const payload = snapshot.payload;
  // A success message the link carried (src/lib/notice.ts) is said where the user lands.
  const notice = new URL(location.href, "http://x").searchParams.get("notice") ?? undefined;
  if (!payload?.user) {
    throw redirect({ to: "/login", search: { redirect: withoutNotice(location.href), notice } });
  }
  const capabilities = snapshot.capabilities;
  if (!capabilities && snapshot.accessCheckFailed)
    throw new AuthError(ACCESS_CHECK_FAILED, ACCESS_CHECK_FAILED_MESSAGE);
  if (!capabilities?.portalAccess) {
    if (capabilities?.newOrganization || capabilities?.organizationRequest)
      throw redirect({ to: "/onboarding", search: { notice } });
    throw redirect({ to: "/login", search: { denied: true, notice } });
  }
  return { ...payload, capabilities };
}

/**
 * The admin screens: platform admins as the server counts them (the role, or a configured admin
 * user id whatever the role: `capabilities.platformAdmin`).
 */
export async function requireAdmin(context: RouterContext) {
  const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
  if (!snapshot.capabilities?.platformAdmin) {
    throw redirect({ to: "/dashboard", search: { forbidden: true } as never });
  }
}

/**
 * A screen that only changes things (a create or edit form): a role that may not do it is sent to
 * `back` (the page it came from) rather than shown a form the server would refuse.
 */
export async function requireCan(context: RouterContext, permissions: Permissions, back: string) {
  const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
  if (!canWith(snapshot.capabilities)(permissions)) throw redirect({ href: back, replace: true });
}
