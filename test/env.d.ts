import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** The previous release's last migration and data (vitest.config.ts, test/migrations/). */
      TEST_PREVIOUS_RELEASE: { lastMigration: string; statements: string[] };
      /** Left unmigrated for test/migrations/upgrade.test.ts. */
      UPGRADE_DB: D1Database;
      /** The second database, holding the organization "org-apart" (vitest.config.ts). */
      DB_TWO: D1Database;
      /** A Rate Limiting binding with a limit of 3 a minute (vitest.config.ts), for the limiter tests. */
      TEST_RATE_LIMITER: RateLimit;
    }
  }
}
