// The tenant of a request (DESIGN §3/§5.2): from the caller's memberships, never from input. Platform admins
// may act on any organization; a deleted (archived) one is nobody's (decision 047).

import { isPlatformAdmin } from "@core/permissions";
import type { AppConfig } from "../../app.config";
import type { Database } from "../db/databases";

export interface OrgContext {
  id: string;
  name: string;
  slug: string;
  timeZone: string;
  defaultCurrency: string;
  /** ISO 3166 alpha-2, or null: the way its people write amounts (core/money.ts moneyLocale). */
  country: string | null;
  /** The membership role, or null for a platform admin acting without one. */
  role: string | null;
  isPlatformAdmin: boolean;
  /** analytics_version at the time of the request: keys the dashboard cache. */
  dataVersion: number;
}

interface OrgRow {
  id: string;
  name: string;
  slug: string;
  timeZone: string;
  defaultCurrency: string;
  country: string | null;
  role: string | null;
}

interface SelectableOrganization {
  id: string;
  name: string;
  slug: string;
  role: string | null;
}

export async function listSelectableOrganizations(
  db: Database,
  user: { id: string; role?: string | null },
  config: AppConfig,
): Promise<SelectableOrganization[]> {
  const admin = isPlatformAdmin({ userId: user.id, role: user.role }, config.auth.adminUserIds);
  const sql = admin
    ? `SELECT o.id, o.name, o.slug, m.role FROM organization o
         LEFT JOIN membership m ON m.organization_id = o.id AND m.user_id = ?1
        WHERE o.status != 'archived' ORDER BY o.name LIMIT 500`
    : `SELECT o.id, o.name, o.slug, m.role FROM membership m JOIN organization o ON o.id = m.organization_id
        WHERE m.user_id = ?1 AND o.status != 'archived' ORDER BY o.name`;
  const { results } = await db.prepare(sql).bind(user.id).all<SelectableOrganization>();
  return results;
}

export async function resolveOrganization(
  db: Database,
  user: { id: string; role?: string | null },
  config: AppConfig,
): Promise<OrgContext | null> {
  const admin = isPlatformAdmin({ userId: user.id, role: user.role }, config.auth.adminUserIds);
  // One round trip, paid by every business request: the remembered organization if the caller may still act
  // in it, else the first membership, else (platform admins) the first organization.
  const row = await db
    .prepare(
      `SELECT o.id, o.name, o.slug, o.time_zone AS timeZone, o.default_currency AS defaultCurrency, o.country,
              (SELECT m.role FROM membership m WHERE m.organization_id = o.id AND m.user_id = ?1) AS role,
              COALESCE((SELECT v.version FROM analytics_version v WHERE v.organization_id = o.id), 0) AS dataVersion
         FROM (SELECT id, rank FROM (
                 SELECT u.active_organization_id AS id, 0 AS rank FROM user u
                  WHERE u.id = ?1 AND u.active_organization_id IS NOT NULL
                    AND (?2 OR EXISTS (SELECT 1 FROM membership m
                                        WHERE m.organization_id = u.active_organization_id AND m.user_id = ?1))
                 UNION ALL
                 SELECT * FROM (SELECT m.organization_id, 1 FROM membership m JOIN organization o2 ON o2.id = m.organization_id
                                 WHERE m.user_id = ?1 ORDER BY m.created_at, o2.name LIMIT 1)
                 UNION ALL
                 SELECT * FROM (SELECT o3.id, 2 FROM organization o3 WHERE ?2 AND o3.status != 'archived'
                                 ORDER BY o3.created_at, o3.name LIMIT 1))
               ORDER BY rank) pick
         JOIN organization o ON o.id = pick.id
        WHERE o.status != 'archived'
        ORDER BY pick.rank LIMIT 1`,
    )
    .bind(user.id, admin ? 1 : 0)
    .first<OrgRow & { dataVersion: number }>();
  if (!row) return null;
  return { ...row, isPlatformAdmin: admin };
}
