// `npm run bench`: builds, seeds a separate local D1 at scale (BENCH_DONATIONS, default 1 000 000
// donations, 100 000 donors, 500 campaigns), runs the production build in workerd (Miniflare)
// on loopback, measures, prints one table and writes bench/results.json + docs/performance.md.
// Benchmarks report; they never fail the test suite.
//
// The measures are parts (scripts/bench/parts.mjs, one file each under scripts/bench/):
// `npm run bench -- --only http,import` builds, seeds and serves once, runs the parts named (and
// those they need, said on the way), prints their rows as the same table and writes
// bench/results-<parts>.json, never docs/performance.md. `-- --help` lists the parts.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  config,
  DEMO_PASSWORD,
  newResults,
  pct,
  signInCookie,
  timers,
  tokenOnlyOf,
} from "./bench/harness.mjs";
import { PARTS, STEPS, selectParts } from "./bench/parts.mjs";
import { writeFull, writeOnly } from "./bench/report.mjs";
import { seedBench } from "./bench-seed.mjs";
import { routeMailTo, startMailSink } from "./bench-statements.mjs";
import { ensureChromium } from "./ensure-chromium.mjs";
import { ensureDevVars, quietEnv, run, serveBuildDirect } from "./lib.mjs";

const usage = `npm run bench [-- --only PART[,PART…]]\n\nParts, in the full run's order:\n${Object.entries(
  PARTS,
)
  .map(
    ([name, p]) =>
      `  ${name.padEnd(11)}${p.about}${p.needs ? ` (needs ${Object.keys(p.needs).join(", ")})` : ""}`,
  )
  .join("\n")}`;
let only = null;
let selection;
try {
  const { values } = parseArgs({ options: { only: { type: "string" }, help: { type: "boolean" } } });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  only = values.only ?? null;
  selection = selectParts(only);
} catch (e) {
  console.error(`bench: ${e.message}\n\n${usage}`);
  process.exit(2);
}
const { parts, asked, added } = selection;
for (const line of added) console.log(line);
const steps = STEPS.filter((s) => parts.includes(s.part));
const stepsAt = (when) => steps.filter((s) => s.when === when);

ensureDevVars();
const chromiumPath = parts.includes("bundle") ? ensureChromium() : null;
const stateDir = mkdtempSync(join(tmpdir(), "almoner-bench-"));
const env = { ...quietEnv, ALMONER_STATE_DIR: stateDir };
const { results, row } = newResults();
/** The harness every part takes: the seed's, the server's, the sign-in and the timers join it later. */
const h = { config, results, row, pct, stateDir, env, chromiumPath, state: { statementYear: null } };
/** Seconds per part (summed over its steps), printed at the end. */
const took = {};
async function runSteps(when) {
  for (const step of stepsAt(when)) {
    // Signed in after the cron, as before the parts: the cookie cache (60 s) starts with the first
    // part that sends it.
    if (when === "served" && !step.anonymous && !h.cookie) {
      h.cookie = await signInCookie(h.base, "admin@almoner.test", DEMO_PASSWORD);
      h.tokenOnly = tokenOnlyOf(h.cookie);
      Object.assign(h, timers(h));
    }
    const t0 = performance.now();
    await step.run(h);
    took[step.part] = (took[step.part] ?? 0) + (performance.now() - t0) / 1000;
  }
}

console.log("Building…");
run("npx", ["vite", "build", "--logLevel", "warn"], { env });
// The build's mail goes to a sink on loopback for the whole run (only the statements steps send
// any): the D1 outbox would keep every statement's PDF in the bench database (bench-statements.mjs).
h.mailSink = await startMailSink();
const restoreMail = routeMailTo(h.mailSink.url);
try {
  console.log("\nResults");
  await runSteps("built");

  console.log(`Seeding ${config.donations.toLocaleString()} donations…`);
  const seedStarted = performance.now();
  const { orgId, T } = await seedBench(stateDir, env, {
    donations: config.donations,
    donors: config.donors,
    campaigns: config.campaigns,
  });
  row(
    "seed",
    `migrations, demo world, bulk rows (date order) and rollups (${config.donations.toLocaleString()} donations)`,
    `${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  // `from`: the first day of the last 30, the lists' and the loads' date filter.
  const since30 = T - 30 * 86400_000;
  Object.assign(h, { orgId, T, since30, from: new Date(since30).toISOString().slice(0, 10) });
  await runSteps("seeded");

  if (stepsAt("served").length) {
    // `apiBase` is a socket straight into our Worker's isolate (no Miniflare entry worker or assets
    // RPC proxy, which a deployed Worker with run_worker_first does not run: decision 042); /api/*
    // is measured there, pages and assets through `base`. `proxiedApiBase` is the harness before 042.
    const { base, apiBase, proxiedApiBase, stop, mf } = await serveBuildDirect(stateDir);
    try {
      Object.assign(h, { base, apiBase, proxiedApiBase, mf });
      await runSteps("served");
    } finally {
      await stop().catch(() => {});
    }
  }
  await runSteps("after");
} finally {
  rmSync(stateDir, { recursive: true, force: true });
  restoreMail();
  await h.mailSink.close();
}

console.log(
  `\nParts: ${Object.entries(took)
    .map(([part, s]) => `${part} ${s.toFixed(0)} s`)
    .join(", ")}`,
);
if (only === null) writeFull(results);
else writeOnly(results, asked, parts);
