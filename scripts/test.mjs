// `npm test`: the whole suite, in the order that fails fastest: typecheck, lint + format (and a
// check that the browser/server boundary rule still bites),
// unit and integration tests inside workerd, end-to-end in Chromium (set up if missing), then the
// auth contract against the real better-auth 1.3.34 server.
import { spawnSync } from "node:child_process";
import { ensureChromium } from "./ensure-chromium.mjs";
import { quietEnv, root } from "./lib.mjs";

const steps = [
  ["typecheck", "npx", ["tsc", "--noEmit"]],
  ["lint + format", "npx", ["biome", "check", "."]],
  ["boundary lint rule (lint/fixtures)", process.execPath, ["scripts/check-boundary.mjs"]],
  ["schema ≡ migrations, db:generate writes nothing", process.execPath, ["scripts/check-schema.mjs"]],
  ["every cited document is in the repo", process.execPath, ["scripts/check-citations.mjs"]],
  ["imports in worker/ point down a floor", process.execPath, ["scripts/check-layers.mjs"]],
  ["unit + integration (workerd)", "npx", ["vitest", "run"]],
  ["end-to-end (Chromium)", process.execPath, ["scripts/e2e.mjs"]],
  // The e2e step built dist/: what wrangler would upload, within the Worker's budget.
  [
    "Worker size within budget (wrangler deploy --dry-run)",
    process.execPath,
    ["scripts/size.mjs", "--no-build", "--check"],
  ],
  // The e2e step built dist/; the real better-auth 1.3.34 server answers beside it (decision 023).
  ["auth contract (better-auth 1.3.34 oracle)", process.execPath, ["scripts/oracle.mjs", "--no-build"]],
];

ensureChromium();
const results = [];
for (const [name, cmd, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: quietEnv });
  const ok = res.status === 0;
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  if (!ok) break;
}
console.log("\nSummary");
for (const r of results) console.log(`  ${r.ok ? "✔" : "✖"} ${r.name} (${r.seconds} s)`);
const failed = results.filter((r) => !r.ok).length;
console.log(
  `${results.length - failed} passed, ${failed} failed${results.length < steps.length ? `, ${steps.length - results.length} not run` : ""}`,
);
process.exit(failed ? 1 : 0);
