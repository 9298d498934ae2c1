/**
 * The tenant of a request (DESIGN §3/§5.2): always from the caller's memberships, never from input.
 * A user with several memberships picks one (remembered in user.active_organization_id); platform
 * admins may act on any organization.
 */

import type { AppConfig } from "../../app.config";
import { isPlatformAdmin } from "../access/permissions";

export interface OrgContext {
  id: string;
  name: string;
  slug: string;
  timeZone: string;
  defaultCurrency: string;
  /** The membership role, or null for a platform admin acting without one. */
  role: string | null;
  isPlatformAdmin: boolean;
}

interface OrgRow {
  id: string;
  name: string;
  slug: string;
  timeZone: string;
  defaultCurrency: string;
  role: string | null;
}

export interface SelectableOrganization {
  id: string;
  name: string;
  slug: string;
  role: string | null;
}

export async function listSelectableOrganizations(
  db: D1Database,
  user: { id: string; role?: string | null },
  config: AppConfig,
): Promise<SelectableOrganization[]> {
  const admin = isPlatformAdmin({ userId: user.id, role: user.role }, config.auth.adminUserIds);
  const sql = admin
    ? `SELECT o.id, o.name, o.slug, m.role FROM organization o
         LEFT JOIN membership m ON m.organization_id = o.id AND m.user_id = ?1
        ORDER BY o.name LIMIT 500`
    : `SELECT o.id, o.name, o.slug, m.role FROM membership m JOIN organization o ON o.id = m.organization_id
        WHERE m.user_id = ?1 ORDER BY o.name`;
  const { results } = await db.prepare(sql).bind(user.id).all<SelectableOrganization>();
  return results;
}

export async function resolveOrganization(
  db: D1Database,
  user: { id: string; role?: string | null },
  config: AppConfig,
): Promise<OrgContext | null> {
  const admin = isPlatformAdmin({ userId: user.id, role: user.role }, config.auth.adminUserIds);
  const active = await db
    .prepare("SELECT active_organization_id AS id FROM user WHERE id = ?")
    .bind(user.id)
    .first<{ id: string | null }>();
  const select = `SELECT o.id, o.name, o.slug, o.time_zone AS timeZone, o.default_currency AS defaultCurrency, m.role
                    FROM organization o LEFT JOIN membership m ON m.organization_id = o.id AND m.user_id = ?1`;
  let row: OrgRow | null = null;
  if (active?.id) {
    row = await db.prepare(`${select} WHERE o.id = ?2`).bind(user.id, active.id).first<OrgRow>();
    if (row && !row.role && !admin) row = null; // membership ended since it was chosen
  }
  if (!row) {
    row = await db
      .prepare(`${select} WHERE m.user_id IS NOT NULL ORDER BY m.created_at, o.name LIMIT 1`)
      .bind(user.id)
      .first<OrgRow>();
  }
  if (!row && admin) {
    row = await db.prepare(`${select} ORDER BY o.created_at, o.name LIMIT 1`).bind(user.id).first<OrgRow>();
  }
  if (!row) return null;
  return { ...row, isPlatformAdmin: admin };
}
