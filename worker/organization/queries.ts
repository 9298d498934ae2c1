/** SQL of the organization profile and of choosing the organization a user works in. */
import type { OrganizationInput } from "@core/organization";
import type { Database } from "../db/databases";
import type { Row } from "../db/rows";
import type { organization } from "../db/schema";

export type OrganizationRow = Row<typeof organization>;

export const organizationById = (db: Database, id: string) =>
  db.prepare("SELECT * FROM organization WHERE id = ?").bind(id).first<OrganizationRow>();

/** Every profile field the form edits; blank optional text is stored as NULL, the country upper-cased. */
export function updateProfileStatement(db: Database, id: string, input: OrganizationInput, now: number) {
  return db
    .prepare(
      `UPDATE organization SET name = ?, legal_name = ?, type = ?, registration_id = ?, tax_id = ?, country = ?, address_line1 = ?, address_line2 = ?, city = ?, region = ?, postal_code = ?,
           contact_email = ?, contact_phone = ?, website = ?, logo_url = ?, mission = ?, description = ?, default_currency = ?, time_zone = ?, fiscal_year_start_month = ?, updated_at = ? WHERE id = ?`,
    )
    .bind(
      input.name,
      input.legalName || null,
      input.type,
      input.registrationId || null,
      input.taxId || null,
      input.country ? input.country.toUpperCase() : null,
      input.addressLine1 || null,
      input.addressLine2 || null,
      input.city || null,
      input.region || null,
      input.postalCode || null,
      input.contactEmail || null,
      input.contactPhone || null,
      input.website || null,
      input.logoUrl || null,
      input.mission || null,
      input.description || null,
      input.defaultCurrency,
      input.timeZone,
      input.fiscalYearStartMonth,
      now,
      id,
    );
}

export const setActiveOrganization = (db: Database, userId: string, organizationId: string) =>
  db.prepare("UPDATE user SET active_organization_id = ? WHERE id = ?").bind(organizationId, userId).run();

/** The platform's organizations, for the admin screens' pickers. */
export async function allOrganizations(db: Database) {
  const { results } = await db
    .prepare("SELECT id, name, slug FROM organization WHERE status != 'archived' ORDER BY name LIMIT 500")
    .all<Pick<OrganizationRow, "id" | "name" | "slug">>();
  return results;
}
