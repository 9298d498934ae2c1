import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { ensureFonts } from "./scripts/fonts.mjs";
import { DEV_CLIENT_ID, DEV_CLIENT_SECRET } from "./scripts/oidc-dev.mjs";
import { pdfkitInWorkerd } from "./scripts/vite-pdfkit.mjs";
import { anchoredToday } from "./worker/lib/shifted-clock";

const migrations = await readD1Migrations("./drizzle");

// The receipt fonts the tests read through ASSETS (test/receipts/pdf.test.ts).
ensureFonts();

/**
 * The previous release's data (scripts/release-fixture.mjs): its last migration's name and its SQL
 * statements, for test/migrations/upgrade.test.ts. Statements end a line with ";" and the next
 * one starts a line with a keyword.
 */
const releaseSql = readFileSync("./test/migrations/previous-release.sql", "utf8");
const previousRelease = {
  lastMigration: /^-- release: (\S+)/.exec(releaseSql)?.[1] ?? "",
  statements: releaseSql
    .replace(/^--.*\n/gm, "")
    .split(/;\n(?=(?:INSERT|DELETE|UPDATE|WITH|REPLACE) )/)
    .map((s) => s.trim().replace(/;$/, ""))
    .filter(Boolean),
};

/** A free loopback port for the test OpenID providers (test/social/oidc-global.ts starts them). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
// The day the suite runs on, when not today, with the real moment it began (worker/lib/shifted-clock.ts).
process.env.TEST_TODAY = anchoredToday(process.env.TEST_TODAY) ?? "";
process.env.ALMONER_TEST_OIDC_PORT_A ??= String(await freePort());
process.env.ALMONER_TEST_OIDC_PORT_B ??= String(await freePort());
const issuerA = `http://127.0.0.1:${process.env.ALMONER_TEST_OIDC_PORT_A}`;
const issuerB = `http://127.0.0.1:${process.env.ALMONER_TEST_OIDC_PORT_B}`;

export default defineConfig({
  resolve: { tsconfigPaths: true },
  plugins: [
    // pdfkit in workerd (receipts and statements): the same settings as the build.
    pdfkitInWorkerd(),
    cloudflareTest({
      // Start's virtual server entry only exists inside its vite plugin (stack-facts G8), so the
      // tests run a worker that mounts the very same router without the SSR handler.
      main: "./test/worker.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        // The Worker's static assets as the built Worker has them under ASSETS (wrangler.toml leaves
        // the directory to the Vite plugin): public/, with the receipt fonts (scripts/fonts.mjs).
        assets: { directory: "./public", binding: "ASSETS" },
        // A small Rate Limiting binding the limiter tests put in place of the real ones
        // (test/security/requests.test.ts): wrangler.toml's limits are sized for people.
        ratelimits: { TEST_RATE_LIMITER: { namespace_id: "9001", simple: { limit: 3, period: 60 } } },
        // An empty database for the upgrade test: migrated up to the previous release, then upgraded.
        // A second database for organizations placed apart from the directory (worker/db/databases.ts,
        // test/ops/databases.test.ts): the whole suite runs with the seam configured, so every
        // platform-wide read fans out over two databases.
        d1Databases: { UPGRADE_DB: "upgrade-db", DB_TWO: "db-two" },
        bindings: {
          TEST_MIGRATIONS: migrations,
          TEST_PREVIOUS_RELEASE: previousRelease,
          AUTH_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
          ENVIRONMENT: "test",
          TEST_TODAY: process.env.TEST_TODAY,
          // One log line per request is noise across thousands of test requests; test/ops/logs.test.ts
          // turns it on for its own.
          LOG_REQUESTS: "false",
          ORGANIZATION_DATABASES: JSON.stringify({ "org-apart": "DB_TWO" }),
          APP_URL: "http://localhost:3000",
          MAIL_TRANSPORT: "outbox",
          WEBHOOK_SECRET: "whsec-test-0123456789",
          // Social sign-in against the real OpenID providers of test/social/oidc-global.ts.
          GITLAB_CLIENT_ID: DEV_CLIENT_ID,
          GITLAB_CLIENT_SECRET: DEV_CLIENT_SECRET,
          GITLAB_ISSUER: issuerA,
          HUGGINGFACE_CLIENT_ID: DEV_CLIENT_ID,
          HUGGINGFACE_CLIENT_SECRET: DEV_CLIENT_SECRET,
          HUGGINGFACE_ISSUER: issuerA,
          COGNITO_CLIENT_ID: DEV_CLIENT_ID,
          COGNITO_CLIENT_SECRET: DEV_CLIENT_SECRET,
          COGNITO_ISSUER: issuerB,
          TEST_OIDC_ISSUER_A: issuerA,
          TEST_OIDC_ISSUER_B: issuerB,
        },
      },
    }),
  ],
  test: {
    // vitest 5 + vitest-plugin 1.4: the fs module cache breaks every suite (stack-facts G4).
    fsModuleCache: false,
    // vitest's default leaves a core to itself (cores − 1): on two cores one file at a time, while a
    // workerd file mostly waits on D1. Two at once: 364 s for the suite here, against 548 s for one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One workerd per worker for all its files, not one per file: a file's own workerd, module
    // graph and migrations cost about 3 s here, most of the suite. test/setup.ts gives each file
    // the freshly migrated databases and an empty KV, as a workerd of its own did.
    isolate: false,
    include: [
      "test/**/*.test.ts",
      "core/**/*.test.ts",
      "worker/**/*.test.ts",
      "src/**/*.test.ts",
      "app.config.test.ts",
    ],
    globalSetup: ["./test/social/oidc-global.ts"],
    setupFiles: ["./test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
