/** SQL of ownership: offers of it between members, and who is an organization's only owner. */
import type { Database } from "../../db/databases";
import type { Row } from "../../db/rows";
import type { organization, ownershipOffer, user } from "../../db/schema";
import type { Guard } from "../../lib/guard";

type OfferRow = Row<typeof ownershipOffer>;
type U = Row<typeof user>;
type O = Row<typeof organization>;

/** An offer with the names the screens and mails show. */
export type NamedOffer = OfferRow & {
  organization_name: O["name"];
  from_name: U["name"];
  from_email: U["email"];
  to_name: U["name"];
  to_email: U["email"];
};

const NAMED = `SELECT f.*, o.name AS organization_name, a.name AS from_name, a.email AS from_email,
                      b.name AS to_name, b.email AS to_email
                 FROM ownership_offer f JOIN organization o ON o.id = f.organization_id
                 JOIN user a ON a.id = f.from_user_id JOIN user b ON b.id = f.to_user_id`;

/** The organization's open offer, lapsed or not (one at most: the partial unique index). */
export const openOfferOf = (db: Database, organizationId: string) =>
  db
    .prepare(`${NAMED} WHERE f.organization_id = ? AND f.status = 'open'`)
    .bind(organizationId)
    .first<NamedOffer>();

export const offerById = (db: Database, id: string) =>
  db.prepare(`${NAMED} WHERE f.id = ?`).bind(id).first<NamedOffer>();

/** Open, unexpired offers made to the user, in any organization still there. */
export async function openOffersTo(db: Database, userId: string, now: number) {
  const { results } = await db
    .prepare(
      `${NAMED} WHERE f.to_user_id = ? AND f.status = 'open' AND f.expires_at > ? AND o.status != 'archived'
        ORDER BY f.created_at`,
    )
    .bind(userId, now)
    .all<NamedOffer>();
  return results;
}

/** An open offer past its expiry becomes expired (a new offer's batch, the cron). */
export const expireLapsedStatement = (db: Database, organizationId: string, now: number) =>
  db
    .prepare(
      "UPDATE ownership_offer SET status = 'expired', decided_at = ?2, updated_at = ?2 WHERE organization_id = ?1 AND status = 'open' AND expires_at <= ?2",
    )
    .bind(organizationId, now);

/** Open offers past their expiry, oldest first (the cron closes them, a batch each). */
export async function lapsedOffers(db: Database, now: number, limit: number) {
  const { results } = await db
    .prepare(
      "SELECT id, organization_id, to_user_id FROM ownership_offer WHERE status = 'open' AND expires_at <= ? ORDER BY expires_at LIMIT ?",
    )
    .bind(now, limit)
    .all<Pick<OfferRow, "id" | "organization_id" | "to_user_id">>();
  return results;
}

/** A new offer, only if the offerer is still an owner and the member offered still is not. */
export const insertOfferStatement = (
  db: Database,
  o: Pick<
    OfferRow,
    "id" | "organization_id" | "from_user_id" | "to_user_id" | "from_becomes" | "expires_at" | "created_at"
  >,
) =>
  db
    .prepare(
      `INSERT INTO ownership_offer (id, organization_id, from_user_id, to_user_id, from_becomes, status, expires_at, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, 'open', ?6, ?7, ?7
        WHERE EXISTS (SELECT 1 FROM membership WHERE organization_id = ?2 AND user_id = ?3 AND role = 'owner')
          AND EXISTS (SELECT 1 FROM membership WHERE organization_id = ?2 AND user_id = ?4 AND role != 'owner')`,
    )
    .bind(o.id, o.organization_id, o.from_user_id, o.to_user_id, o.from_becomes, o.expires_at, o.created_at);

/** An open, unexpired offer is decided (withdrawn, declined, accepted), once. */
export const decideStatement = (
  db: Database,
  id: string,
  status: "withdrawn" | "declined" | "accepted",
  now: number,
  extra = "",
) =>
  db
    .prepare(
      `UPDATE ownership_offer SET status = ?2, decided_at = ?3, updated_at = ?3
        WHERE id = ?1 AND status = 'open' AND expires_at > ?3 ${extra}`,
    )
    .bind(id, status, now);

/** The recipient becomes owner, guarded on the accept's audit row (so only if the accept landed). */
export const becomeOwnerStatement = (
  db: Database,
  organizationId: string,
  userId: string,
  now: number,
  guard: Guard,
) =>
  db
    .prepare(
      `UPDATE membership SET role = 'owner', updated_at = ?3 WHERE organization_id = ?1 AND user_id = ?2 AND ${guard.sql(4)}`,
    )
    .bind(organizationId, userId, now, ...guard.args);

/** The offering owner steps down to admin, as they chose, once the new owner is in. */
export const stepDownStatement = (
  db: Database,
  organizationId: string,
  userId: string,
  now: number,
  guard: Guard,
) =>
  db
    .prepare(
      `UPDATE membership SET role = 'admin', updated_at = ?3
        WHERE organization_id = ?1 AND user_id = ?2 AND role = 'owner' AND ${guard.sql(4)}`,
    )
    .bind(organizationId, userId, now, ...guard.args);

/** SQL true when user `p` is no organization's only owner; deleting an account (worker/auth) needs it. */
export const ownsNothingAloneSql = (p: string) =>
  `NOT EXISTS (SELECT 1 FROM membership m WHERE m.user_id = ${p} AND m.role = 'owner'
     AND NOT EXISTS (SELECT 1 FROM membership x WHERE x.organization_id = m.organization_id AND x.role = 'owner' AND x.user_id != m.user_id))`;

/** The organizations the user is the only owner of, by name. */
export async function soleOwnedOrganizations(db: Database, userId: string) {
  const { results } = await db
    .prepare(
      `SELECT o.id, o.name FROM membership m JOIN organization o ON o.id = m.organization_id
        WHERE m.user_id = ? AND m.role = 'owner' AND o.status != 'archived'
          AND NOT EXISTS (SELECT 1 FROM membership x WHERE x.organization_id = m.organization_id AND x.role = 'owner' AND x.user_id != m.user_id)
        ORDER BY o.name`,
    )
    .bind(userId)
    .all<Pick<O, "id" | "name">>();
  return results;
}
