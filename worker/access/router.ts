import { authedProcedure, router } from "../trpc/init";
import { callerCapabilities } from "./service";

export const accessRouter = router({
  /**
   * Everything the signed-in caller may do in their current organization and on the platform: the
   * portal shows, hides and guards by this answer (src/lib/auth/can.ts), never by its own rules.
   * Any signed-in caller may ask, even without portal access (the answer says so).
   */
  capabilities: authedProcedure.query(({ ctx }) => callerCapabilities(ctx)),
});
