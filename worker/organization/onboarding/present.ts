/** Organization requests as the API gives them: the person's own, and the platform admins' queue. */
import type { OrganizationRequestStatus } from "@core/onboarding";
import type { OrganizationRequestRow } from "./queries";

export function presentRequest(r: OrganizationRequestRow & { organization_name?: string | null }) {
  return {
    id: r.id,
    name: r.name,
    country: r.country,
    defaultCurrency: r.default_currency,
    timeZone: r.time_zone,
    fiscalYearStartMonth: r.fiscal_year_start_month,
    status: r.status as OrganizationRequestStatus,
    /** Why a platform admin declined it. */
    reason: r.reason,
    createdAt: r.created_at,
    decidedAt: r.decided_at,
    /** The organization an approval created (null once it is deleted). */
    organizationId: r.organization_id,
    organizationName: r.organization_name ?? null,
  };
}

export function presentQueued(
  r: OrganizationRequestRow & {
    user_name: string;
    user_email: string;
    decided_by_name: string | null;
    organization_name: string | null;
  },
) {
  return {
    ...presentRequest(r),
    requester: { id: r.user_id, name: r.user_name, email: r.user_email },
    decidedBy: r.decided_by_name,
  };
}
