/** The platform admin's views of one user that the auth contract (worker/auth) has no endpoint for. */
import { databaseNamed, databaseNames, directoryDatabase } from "../db/databases";
import type { AdminCtx } from "../trpc/init";
import { presentAuditRows } from "./audit/present";
import { accountsOf, historyOf } from "./queries";

type Ctx = Pick<AdminCtx, "env">;

/** How the user signs in: password and providers. */
export const userAccounts = (ctx: Ctx, userId: string) => accountsOf(directoryDatabase(ctx.env), userId);

/** What was done to the user, by them or while impersonating them (the newest 100), each as a sentence. */
export async function userHistory(ctx: Ctx, userId: string) {
  // A user acts in every organization they belong to, whichever database holds it (decision 027):
  // the newest 100 of each database, merged; each database then names its own rows' records.
  const names = databaseNames(ctx.env);
  const each = await Promise.all(names.map((name) => historyOf(databaseNamed(ctx.env, name), userId)));
  const newest = each
    .flatMap((rows, i) => rows.map((r) => ({ ...r, database: i })))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
    .slice(0, 100);
  const presented = await Promise.all(
    names.map((name, i) =>
      presentAuditRows(
        directoryDatabase(ctx.env),
        databaseNamed(ctx.env, name),
        newest.filter((r) => r.database === i),
        { here: { entityType: "user", entityId: userId }, organizationId: null, canSeeIp: true },
      ),
    ),
  );
  const order = new Map(newest.map((r, i) => [r.id, i]));
  return presented.flat().sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}
