import { authedProcedure, router } from "../trpc/init";
import { callerCapabilities } from "./service";

export const accessRouter = router({
  /** The portal shows and guards by this answer (src/lib/auth/can.ts), never by rules of its own. */
  capabilities: authedProcedure.query(({ ctx }) => callerCapabilities(ctx)),
});
