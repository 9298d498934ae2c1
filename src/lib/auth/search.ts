/**
 * Search parameters of the auth pages (/login, /sign-up, /reset-password, /profile): zod/mini only,
 * as these schemas load with the first page (src/lib/search-params.ts says why).
 */
import { z } from "zod/mini";

/** An optional value; a malformed one (wrong type, a list) is dropped rather than an error page. */
export function lenient<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}
