/**
 * The one way to a database (docs/scaling.md). D1 caps a database at 10 GB, so an organization's
 * data may live in a database of its own: every query reaches its database through one of these two
 * functions, and which database holds an organization is configuration, not code.
 *
 * - `organizationDatabase(env, organizationId)`: the organization's data — campaigns, items, donors,
 *   tags, notes, tiers, donations, rollups, media and the audit rows of those changes.
 * - `directoryDatabase(env)`: what the whole platform shares — users, sessions, accounts,
 *   verification, organizations and memberships, invitations, badges, rate limits and the mail
 *   outbox.
 */
export type Database = Pick<D1Database, "prepare" | "batch">;

export function organizationDatabase(env: Env, _organizationId: string): Database {
  return env.DB;
}

export function directoryDatabase(env: Env): Database {
  return env.DB;
}
