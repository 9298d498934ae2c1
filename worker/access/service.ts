// What the caller may do, for the portal: the guard rungs' own decision (core/permissions.ts, decision 017).
import type { OrganizationRequestStatus } from "@core/onboarding";
import { type Capabilities, capabilities } from "@core/permissions";
import { directoryDatabase } from "../db/databases";
import { newOrganizationFor, requestStatusOf } from "../organization/onboarding/service";
import type { OrgCtx } from "../trpc/init";
import { resolveOrganization } from "../trpc/org";

type CallerCtx = Pick<OrgCtx, "env" | "config" | "user" | "session">;

export async function callerCapabilities(ctx: CallerCtx): Promise<
  Capabilities & {
    timeZone: string;
    country: string | null;
    newOrganization: "create" | "request" | null;
    organizationRequest: OrganizationRequestStatus | null;
  }
> {
  const org = await resolveOrganization(directoryDatabase(ctx.env), ctx.user, ctx.config);
  const allowed = capabilities(
    { userId: ctx.user.id, role: ctx.user.role, impersonatedBy: ctx.session.impersonatedBy },
    org ? { role: org.role } : null,
    {
      // Only a membership gives a non-admin an organization; a platform admin's access needs none.
      hasMembership: org?.role != null,
      adminUserIds: ctx.config.auth.adminUserIds,
    },
  );
  return {
    ...allowed,
    // Zone and country ride along so server and browser read dates and amounts alike (src/lib/format.ts).
    timeZone: org?.timeZone ?? "UTC",
    country: org?.country ?? null,
    newOrganization: newOrganizationFor(ctx), // decisions 044, 045
    organizationRequest: allowed.portalAccess ? null : await requestStatusOf(ctx),
  };
}
