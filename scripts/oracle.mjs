// `node scripts/oracle.mjs [--no-build] [--report FILE]`: the auth contract suite. Builds the app
// (unless --no-build), then runs test/oracle/contract.oracle.ts with node --test: the real
// better-auth 1.3.34 server and our built Worker (workerd, real D1 and KV) answer the same requests
// and every difference not in test/oracle/kept-differences.ts fails
// (docs/decisions/023-auth-contract-differences.md).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { quietEnv, root, run } from "./lib.mjs";

const args = process.argv.slice(2);
if (!args.includes("--no-build") || !existsSync(join(root, "dist", "server", "index.js"))) {
  run("npx", ["vite", "build", "--logLevel", "warn"]);
}
const at = args.indexOf("--report");
const env = { ...quietEnv };
if (at >= 0 && args[at + 1]) env.ORACLE_REPORT = resolve(args[at + 1]);
const res = spawnSync(
  process.execPath,
  ["--test", "--test-concurrency=1", "--test-reporter=dot", "test/oracle/contract.oracle.ts"],
  { cwd: root, stdio: "inherit", env },
);
process.exit(res.status ?? 1);
