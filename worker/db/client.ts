import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof getDb>;

/** One drizzle instance per request is cheap: it only wraps the binding. */
export function getDb(env: { DB: D1Database }) {
  return drizzle(env.DB, { schema });
}

export { schema };
