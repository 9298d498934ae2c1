import { applyD1Migrations, env } from "cloudflare:test";
import { shiftClock } from "../worker/lib/shifted-clock";

shiftClock(env.TEST_TODAY);

// Idempotent: applyD1Migrations records what it applied in d1_migrations.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Every database runs the same migrations (docs/scaling.md).
await applyD1Migrations(env.DB_TWO, env.TEST_MIGRATIONS);
