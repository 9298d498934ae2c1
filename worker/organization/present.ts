/** The organization profile as the API gives it (organization.current). */
import { safeHttpUrl } from "@core/url";
import type { OrganizationRow } from "./queries";

export function presentOrganization(o: OrganizationRow, caller: { role: string | null; canEdit: boolean }) {
  return {
    id: o.id,
    name: o.name,
    slug: o.slug,
    legalName: o.legal_name,
    type: o.type,
    registrationId: o.registration_id,
    taxId: o.tax_id,
    country: o.country,
    addressLine1: o.address_line1,
    addressLine2: o.address_line2,
    city: o.city,
    region: o.region,
    postalCode: o.postal_code,
    logoUrl: o.logo_url,
    contactEmail: o.contact_email,
    contactPhone: o.contact_phone,
    // A stored link that is not http(s) is never handed to a page (decision 019).
    website: safeHttpUrl(o.website),
    mission: o.mission,
    description: o.description,
    defaultCurrency: o.default_currency,
    timeZone: o.time_zone,
    fiscalYearStartMonth: o.fiscal_year_start_month,
    status: o.status,
    role: caller.role,
    canEdit: caller.canEdit,
  };
}
