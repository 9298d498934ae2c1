import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL here; wrangler applies it (`npm run db:migrate`), so the
// migrations table is wrangler's d1_migrations and the same files run in dev, tests and production.
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/schema.ts",
  out: "./drizzle",
});
