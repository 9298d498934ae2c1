/**
 * What the signed-in caller may do, for the portal (issue 19, decision 017): the same decision the
 * guard rungs take (`refusal` of core/permissions.ts), for the caller's platform roles, the
 * configured `adminUserIds` (Worker config the browser cannot see) and their role in the
 * organization the org rung would pick for them now (worker/trpc/org.ts).
 */
import { type Capabilities, capabilities } from "@core/permissions";
import { directoryDatabase } from "../db/databases";
import type { OrgCtx } from "../trpc/init";
import { resolveOrganization } from "../trpc/org";

type CallerCtx = Pick<OrgCtx, "env" | "config" | "user" | "session">;

export async function callerCapabilities(ctx: CallerCtx): Promise<Capabilities & { timeZone: string }> {
  const org = await resolveOrganization(directoryDatabase(ctx.env), ctx.user, ctx.config);
  const allowed = capabilities(
    { userId: ctx.user.id, role: ctx.user.role, impersonatedBy: ctx.session.impersonatedBy },
    org ? { role: org.role } : null,
    {
      // Anyone but a platform admin is given an organization only through a membership
      // (resolveOrganization), and a platform admin's access does not depend on one.
      hasMembership: org?.role != null,
      adminUserIds: ctx.config.auth.adminUserIds,
    },
  );
  // The zone the portal shows dates in: the organization's, where its reports, filters and
  // exports count days (worker/donations/filters.ts), UTC without one. It rides with the session
  // so the server's render and the browser's agree on every date (src/lib/format.ts).
  return { ...allowed, timeZone: org?.timeZone ?? "UTC" };
}
