import { env as testEnv } from "cloudflare:test";

/**
 * The test D1, except that the first batch after a statement containing `marker` was prepared
 * lets `meanwhile` run before it is sent: the service has read and is about to write, exactly the
 * window of a race. Races made deterministic this way: test/campaigns/currency-race.test.ts,
 * the bulk tests of donors, campaigns and organizers.
 */
export function racingDb(marker: string, meanwhile: () => Promise<unknown>): D1Database {
  const db = testEnv.DB;
  let writing = false;
  let fired = false;
  return new Proxy(db, {
    get(target, key) {
      if (key === "prepare")
        return (sql: string) => {
          if (sql.includes(marker)) writing = true;
          return target.prepare(sql);
        };
      if (key === "batch")
        return async (stmts: D1PreparedStatement[]) => {
          if (writing && !fired) {
            fired = true;
            await meanwhile();
          }
          return target.batch(stmts);
        };
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
