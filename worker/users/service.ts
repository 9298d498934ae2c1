/** The platform admin's views of one user that the auth contract (worker/auth) has no endpoint for. */
import type { AdminCtx } from "../trpc/init";
import { accountsOf, historyOf } from "./queries";

type Ctx = Pick<AdminCtx, "env">;

/** How the user signs in: password and providers. */
export const userAccounts = (ctx: Ctx, userId: string) => accountsOf(ctx.env.DB, userId);

/** What was done to the user, by them, or while impersonating as them (newest first, at most 100). */
export const userHistory = (ctx: Ctx, userId: string) => historyOf(ctx.env.DB, userId);
