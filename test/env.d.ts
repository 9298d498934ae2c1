import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** A Rate Limiting binding with a limit of 3 a minute (vitest.config.ts), for the limiter tests. */
      TEST_RATE_LIMITER: RateLimit;
    }
  }
}
