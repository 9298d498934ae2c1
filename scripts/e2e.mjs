// `npm run e2e`: builds the app, starts the built worker (vite preview, workerd) on a free port
// with its own migrated and seeded local state, runs e2e/*.test.ts in real Chromium, stops it.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureChromium } from "./ensure-chromium.mjs";
import { d1Query, ensureDevVars, freePort, migrateLocal, quietEnv, root, run, start } from "./lib.mjs";
import { DEV_CLIENT_ID, DEV_CLIENT_SECRET, startOidcServer } from "./oidc-dev.mjs";

const chromium = ensureChromium();
ensureDevVars();

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url} within ${ms} ms`);
}

const stateDir = mkdtempSync(join(tmpdir(), "almoner-e2e-"));
const env = { ...quietEnv, ALMONER_STATE_DIR: stateDir };
if (!process.argv.includes("--no-build")) run("npx", ["vite", "build", "--logLevel", "warn"], { env });
migrateLocal(stateDir);
run(process.execPath, ["scripts/seed.mjs"], { env });

// Platform admins also come from config (AUTH_ADMIN_USER_IDS, decision 017): one seeded user whose
// role in the database is not admin is listed, so e2e/permissions.test.ts can prove the portal
// (guards, navigation) counts them as the server does (issue 19).
const CONFIGURED_ADMIN_EMAIL = "koyo@almoner.test";
const [configuredAdmin] = d1Query(
  `SELECT id, role FROM user WHERE email = '${CONFIGURED_ADMIN_EMAIL}' AND role NOT LIKE '%admin%'`,
  stateDir,
);
if (!configuredAdmin) throw new Error(`the seed has no non-admin ${CONFIGURED_ADMIN_EMAIL} to list as admin`);

const port = await freePort();

// Social sign-in: a real OpenID provider on loopback (scripts/oidc-dev.mjs), and the built
// Worker's vars pointing GitLab (arctic) and Hugging Face (generic OIDC) at it. vite preview reads
// dist/server/.dev.vars; the original is put back afterwards.
const SOCIAL = ["gitlab", "huggingface"];
const oidc = await startOidcServer({
  redirectUris: SOCIAL.map((id) => `http://127.0.0.1:${port}/api/auth/callback/${id}`),
});
const devVarsFile = join(root, "dist", "server", ".dev.vars");
const originalDevVars = existsSync(devVarsFile) ? readFileSync(devVarsFile, "utf8") : null;
const socialVars = SOCIAL.flatMap((id) => {
  const p = id.toUpperCase();
  return [
    `${p}_CLIENT_ID='${DEV_CLIENT_ID}'`,
    `${p}_CLIENT_SECRET='${DEV_CLIENT_SECRET}'`,
    `${p}_ISSUER='${oidc.issuer}'`,
  ];
});
// The browser tests sign in and click faster than a person: rate limits stay off whatever the
// [vars] say (decision 018).
const harnessVars = [
  ...socialVars,
  "RATE_LIMIT_ENABLED='false'",
  `AUTH_ADMIN_USER_IDS='${configuredAdmin.id}'`,
];
writeFileSync(devVarsFile, `${originalDevVars ?? ""}\n${harnessVars.join("\n")}\n`);

const server = start(
  "npx",
  ["vite", "preview", "--port", String(port), "--strictPort", "--host", "127.0.0.1"],
  {
    env,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
  },
);
let status = 1;
try {
  await waitFor(`http://127.0.0.1:${port}/api/auth/ok`, 60_000);
  const files = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  // Asynchronous: the OpenID provider lives in this process and must keep answering meanwhile.
  const child = spawn(
    process.execPath,
    [
      "--test",
      "--test-concurrency=1",
      ...(files.length
        ? files
        : readdirSync(join(root, "e2e"))
            .filter((f) => f.endsWith(".test.ts"))
            .sort()
            .map((f) => `e2e/${f}`)),
    ],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...env,
        E2E_BASE_URL: `http://127.0.0.1:${port}`,
        E2E_OIDC_ISSUER: oidc.issuer,
        E2E_CONFIGURED_ADMIN_EMAIL: CONFIGURED_ADMIN_EMAIL,
        CHROMIUM_PATH: chromium,
      },
    },
  );
  status = await new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
} finally {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
  await oidc.close().catch(() => {});
  if (originalDevVars === null) rmSync(devVarsFile, { force: true });
  else writeFileSync(devVarsFile, originalDevVars);
  rmSync(stateDir, { recursive: true, force: true });
}
process.exit(status);
