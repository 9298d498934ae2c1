/**
 * Route guards (SPEC §2). They read the one session query, so SSR and client navigation agree;
 * hiding a link is never the protection: every procedure checks again on the server.
 */

import type { Permissions } from "@core/permissions";
import { safeRedirectPath } from "@core/trusted-url";
import { redirect } from "@tanstack/react-router";
import type { RouterContext } from "~/routes/__root";
import { withoutNotice } from "../notice";
import { canWith } from "./can";
import { sessionQueryOptions } from "./session";

/**
 * Only paths on the portal's own origin are followed after sign-in, judged by parsing the value as
 * the browser will (core/trusted-url.ts, the rule the auth API applies to callback URLs):
 * "/\t/evil.example" is "//evil.example" to a browser, not a path.
 */
export function safeRedirect(value: unknown, fallback = "/dashboard"): string {
  return safeRedirectPath(value, fallback);
}

export async function requireUser(context: RouterContext, location: { href: string }) {
  const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
  const payload = snapshot.payload;
  // A success message the link carried (src/lib/notice.ts) is said on /login, where the user lands.
  const notice = new URL(location.href, "http://x").searchParams.get("notice") ?? undefined;
  if (!payload?.user) {
    throw redirect({ to: "/login", search: { redirect: withoutNotice(location.href), notice } });
  }
  if (!snapshot.capabilities?.portalAccess) {
    throw redirect({ to: "/login", search: { denied: true, notice } });
  }
  return { ...payload, capabilities: snapshot.capabilities };
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
