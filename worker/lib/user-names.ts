// Users live in the directory (decision 027), so their names are a second query by id, never a join.
import { directoryDatabase } from "../db/databases";

export async function userNames(
  env: Env,
  ids: Iterable<string | null | undefined>,
): Promise<Map<string, string>> {
  const wanted = [...new Set([...ids].filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const { results } = await directoryDatabase(env)
    .prepare("SELECT id, name FROM user WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(wanted))
    .all<{ id: string; name: string }>();
  return new Map(results.map((u) => [u.id, u.name]));
}

/** Rows with `actorId` (and `impersonatorId`) gain `actor` (and `impersonator`): the names, or null. */
export async function withActorNames<T extends { actorId: string | null; impersonatorId?: string | null }>(
  env: Env,
  rows: T[],
): Promise<(T & { actor: string | null; impersonator: string | null })[]> {
  const names = await userNames(
    env,
    rows.flatMap((r) => [r.actorId, r.impersonatorId]),
  );
  return rows.map((r) => ({
    ...r,
    actor: (r.actorId && names.get(r.actorId)) ?? null,
    impersonator: (r.impersonatorId && names.get(r.impersonatorId)) ?? null,
  }));
}
