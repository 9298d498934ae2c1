/** The platform admin's views of one user that the auth contract (worker/auth) has no endpoint for. */
import { databaseNamed, databaseNames, directoryDatabase } from "../db/databases";
import { withActorNames } from "../lib/user-names";
import type { AdminCtx } from "../trpc/init";
import { accountsOf, historyOf } from "./queries";

type Ctx = Pick<AdminCtx, "env">;

/** How the user signs in: password and providers. */
export const userAccounts = (ctx: Ctx, userId: string) => accountsOf(directoryDatabase(ctx.env), userId);

/** What was done to the user, by them, or while impersonating as them (newest first, at most 100). */
export async function userHistory(ctx: Ctx, userId: string) {
  // A user acts in every organization they belong to, whichever database holds it (decision 027):
  // the newest 100 of each database, merged.
  const each = await Promise.all(
    databaseNames(ctx.env).map((name) => historyOf(databaseNamed(ctx.env, name), userId)),
  );
  const newest = each
    .flat()
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
    .slice(0, 100);
  return (await withActorNames(ctx.env, newest)).map(({ actorId: _a, impersonator: _i, ...row }) => row);
}
