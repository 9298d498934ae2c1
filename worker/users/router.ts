/** users.*: platform-admin views of one user that the auth contract has no endpoint for. */
import { z } from "zod";
import { adminProcedure, router } from "../trpc/init";
import { userAccounts, userHistory } from "./service";

export const usersRouter = router({
  accounts: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1) }))
    .query(({ ctx, input }) => userAccounts(ctx, input.userId)),

  history: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1) }))
    .query(({ ctx, input }) => userHistory(ctx, input.userId)),
});
