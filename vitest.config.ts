import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations("./drizzle");

export default defineConfig({
  resolve: { tsconfigPaths: true },
  plugins: [
    cloudflareTest({
      // Start's virtual server entry only exists inside its vite plugin (stack-facts G8), so the
      // tests run a worker that mounts the very same router without the SSR handler.
      main: "./test/worker.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          AUTH_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
          ENVIRONMENT: "test",
          APP_URL: "http://localhost:3000",
          MAIL_TRANSPORT: "outbox",
          WEBHOOK_SECRET: "whsec-test-0123456789",
        },
      },
    }),
  ],
  test: {
    // vitest 5 + vitest-plugin 1.4: the fs module cache breaks every suite (stack-facts G4).
    fsModuleCache: false,
    include: ["test/**/*.test.ts", "worker/**/*.test.ts", "src/**/*.test.ts", "app.config.test.ts"],
    setupFiles: ["./test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
