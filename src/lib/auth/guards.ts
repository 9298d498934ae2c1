/**
 * Route guards (SPEC §2). They read the one session query, so SSR and client navigation agree;
 * hiding a link is never the protection: every procedure checks again on the server.
 */
import { redirect } from "@tanstack/react-router";
import type { RouterContext } from "~/routes/__root";
import { hasPortalAccess, isPlatformAdmin } from "./access";
import { sessionQueryOptions } from "./session";

/** Only same-site relative paths are followed after sign-in (no "//host" or "/\host" tricks). */
export function safeRedirect(value: unknown, fallback = "/dashboard"): string {
  if (
    typeof value !== "string" ||
    !value.startsWith("/") ||
    value.startsWith("//") ||
    value.startsWith("/\\")
  ) {
    return fallback;
  }
  return value;
}

export async function requireUser(context: RouterContext, location: { href: string }) {
  const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
  const payload = snapshot.payload;
  if (!payload?.user) {
    throw redirect({ to: "/login", search: { redirect: location.href } });
  }
  if (!hasPortalAccess(payload.user, snapshot.memberships)) {
    throw redirect({ to: "/login", search: { denied: true } });
  }
  return payload;
}

export async function requireAdmin(context: RouterContext) {
  const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
  if (!isPlatformAdmin(snapshot.payload?.user)) {
    throw redirect({ to: "/dashboard", search: { forbidden: true } as never });
  }
}
