// `npm run e2e`: builds the app, starts the built worker (vite preview, workerd) on free ports, one
// per shard, each with its own migrated and seeded local state, runs e2e/*.test.ts in real
// Chromium (the shards side by side), stops them.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureChromium } from "./ensure-chromium.mjs";
import { d1Query, ensureDevVars, freePort, migrateLocal, quietEnv, root, run, start } from "./lib.mjs";
import { DEV_CLIENT_ID, DEV_CLIENT_SECRET, startOidcServer } from "./oidc-dev.mjs";

// `TEST_TODAY=2027-03-01T07:30:00Z npm run e2e`: the seed, the Worker, the OpenID provider, the
// tests and the browser all on that day (worker/lib/shifted-clock.ts; README, "Testing on another day").
const { anchoredToday } = await import("../worker/lib/shifted-clock.ts");
const today = anchoredToday(process.env.TEST_TODAY);
if (today) {
  process.env.TEST_TODAY = today;
  await import("./clock-hook.mjs");
}
const clockHook = today
  ? {
      TEST_TODAY: today,
      NODE_OPTIONS:
        `${process.env.NODE_OPTIONS ?? ""} --import=${join(root, "scripts", "clock-hook.mjs")}`.trim(),
    }
  : {};

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

// Two shards side by side, each with its own state, seed and server, so no file sees another's
// data; the second takes the files that visit every route (about half the time). E2E_SHARDS=1 runs
// them in one, as before.
const SECOND_SHARD = [
  "accessibility.test.ts",
  "invitations.test.ts",
  "receipt-mail.test.ts",
  "routes.test.ts",
  "support.test.ts",
];
const requested = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const allFiles = requested.length
  ? requested
  : readdirSync(join(root, "e2e"))
      .filter((f) => f.endsWith(".test.ts"))
      .sort()
      .map((f) => `e2e/${f}`);
const shardCount = Math.max(1, Math.min(2, Number(process.env.E2E_SHARDS ?? 2)));
const groups =
  shardCount === 1
    ? [allFiles]
    : [
        allFiles.filter((f) => !SECOND_SHARD.some((s) => f.endsWith(s))),
        allFiles.filter((f) => SECOND_SHARD.some((s) => f.endsWith(s))),
      ].filter((g) => g.length);

const buildEnv = { ...quietEnv };
if (!process.argv.includes("--no-build"))
  run("npx", ["vite", "build", "--logLevel", "warn"], { env: buildEnv });

// Platform admins also come from config (AUTH_ADMIN_USER_IDS, decision 017): one seeded user whose
// role in the database is not admin is listed, so e2e/permissions.test.ts can prove the portal
// (guards, navigation) counts them as the server does (issue 19).
const CONFIGURED_ADMIN_EMAIL = "koyo@almoner.test";
const shards = [];
for (const files of groups) {
  const stateDir = mkdtempSync(join(tmpdir(), "almoner-e2e-"));
  const env = { ...quietEnv, ALMONER_STATE_DIR: stateDir, ALMONER_NO_INSPECTOR: "1" };
  migrateLocal(stateDir);
  run(process.execPath, ["scripts/seed.mjs"], {
    env: { ...env, ...clockHook },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const [configuredAdmin] = d1Query(
    `SELECT id, role FROM user WHERE email = '${CONFIGURED_ADMIN_EMAIL}' AND role NOT LIKE '%admin%'`,
    stateDir,
  );
  if (!configuredAdmin)
    throw new Error(`the seed has no non-admin ${CONFIGURED_ADMIN_EMAIL} to list as admin`);
  let port = await freePort();
  while (shards.some((s) => s.port === port)) port = await freePort();
  shards.push({ files, stateDir, env, adminId: configuredAdmin.id, port });
}

// Social sign-in: a real OpenID provider on loopback (scripts/oidc-dev.mjs), and the built
// Worker's vars pointing GitLab (arctic) and Hugging Face (generic OIDC) at it. vite preview reads
// dist/server/.dev.vars (one file for every shard); the original is put back afterwards.
const SOCIAL = ["gitlab", "huggingface"];
const oidc = await startOidcServer({
  redirectUris: shards.flatMap(({ port }) =>
    SOCIAL.map((id) => `http://127.0.0.1:${port}/api/auth/callback/${id}`),
  ),
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
// [vars] say (decision 018). Each shard's configured admin is a user id of its own database.
const harnessVars = [
  ...socialVars,
  "RATE_LIMIT_ENABLED='false'",
  `AUTH_ADMIN_USER_IDS='${shards.map((s) => s.adminId).join(",")}'`,
  ...(today ? [`TEST_TODAY='${today}'`] : []),
];
writeFileSync(devVarsFile, `${originalDevVars ?? ""}\n${harnessVars.join("\n")}\n`);

/** Lines of a shard's output, prefixed with its number when two run at once. */
function relay(stream, out, prefix) {
  let rest = "";
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) out.write(`${prefix}${line}\n`);
  });
  stream.on("end", () => rest && out.write(`${prefix}${rest}\n`));
}

let status = 1;
try {
  for (const shard of shards) {
    shard.server = start(
      "npx",
      ["vite", "preview", "--port", String(shard.port), "--strictPort", "--host", "127.0.0.1"],
      { env: shard.env, detached: true, stdio: ["ignore", "ignore", "inherit"] },
    );
  }
  for (const shard of shards) await waitFor(`http://127.0.0.1:${shard.port}/api/auth/ok`, 90_000);
  // Asynchronous: the OpenID provider lives in this process and must keep answering meanwhile.
  const codes = await Promise.all(
    shards.map((shard, i) => {
      const child = spawn(process.execPath, ["--test", "--test-concurrency=1", ...shard.files], {
        cwd: root,
        stdio: ["ignore", shards.length > 1 ? "pipe" : "inherit", shards.length > 1 ? "pipe" : "inherit"],
        env: {
          ...shard.env,
          ...clockHook,
          E2E_BASE_URL: `http://127.0.0.1:${shard.port}`,
          E2E_OIDC_ISSUER: oidc.issuer,
          E2E_CONFIGURED_ADMIN_EMAIL: CONFIGURED_ADMIN_EMAIL,
          CHROMIUM_PATH: chromium,
        },
      });
      if (shards.length > 1) {
        relay(child.stdout, process.stdout, `[${i + 1}] `);
        relay(child.stderr, process.stderr, `[${i + 1}] `);
      }
      return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
    }),
  );
  status = codes.every((c) => c === 0) ? 0 : 1;
} finally {
  for (const shard of shards)
    try {
      process.kill(-shard.server.pid, "SIGTERM");
    } catch {}
  await oidc.close().catch(() => {});
  if (originalDevVars === null) rmSync(devVarsFile, { force: true });
  else writeFileSync(devVarsFile, originalDevVars);
  for (const shard of shards) rmSync(shard.stateDir, { recursive: true, force: true });
}
process.exit(status);
