// `npm test` step: imports in worker/ point down or sideways, never up a floor
// (docs/architecture.md "Floors"). The known exceptions are listed; a new one fails.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { root } from "./lib.mjs";

const worker = join(root, "worker");

/** A file's floor, from its path under worker/. */
export function floorOf(path) {
  const top = path.split("/")[0];
  if (top === "db" || top === "lib" || path === "config.ts" || path === "env.d.ts") return 0;
  if (top === "ledger" || top === "auth" || top === "mail") return 1;
  if (top === "trpc") return 2;
  if (top === "http" || !path.includes("/")) return 4;
  return 3;
}

/** Imports that point up today, to be moved down rather than added to. */
const KNOWN = new Set([
  "auth/admin.ts -> organization/ownership/sole-owner.ts",
  "auth/endpoints.ts -> organization/ownership/sole-owner.ts",
  "auth/guards.ts -> http/origin-gate.ts",
  "auth/memberships.ts -> http/headers.ts",
  "lib/audit.ts -> users/audit/sentences.ts",
  "mail/outbox.ts -> http/headers.ts",
  "trpc/context.ts -> http/api-limit.ts",
]);

const files = [];
const walk = (p) => {
  if (statSync(p).isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  else if (/\.tsx?$/.test(p)) files.push(p);
};
walk(worker);

const target = (from, spec) => {
  let t;
  if (spec.startsWith(".")) t = resolve(dirname(from), spec);
  else if (spec.startsWith("@worker/")) t = join(worker, spec.slice(8));
  else return null;
  if (!t.startsWith(`${worker}/`)) return null; // core/ and app.config.ts sit below every floor
  for (const c of [t, `${t}.ts`, `${t}.tsx`, join(t, "index.ts")])
    try {
      if (statSync(c).isFile()) return relative(worker, c);
    } catch {}
  return null;
};

const up = [];
// The transport stays at the top: services, the ledger and the cron refuse with worker/lib/fail.ts.
const transport = [];
for (const file of files) {
  const from = relative(worker, file);
  for (const m of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    if (m[1].startsWith("@trpc/") && !from.startsWith("trpc/") && from !== "app.ts") transport.push(from);
    const to = target(file, m[1]);
    if (to && floorOf(to) > floorOf(from)) up.push(`${from} -> ${to}`);
  }
}
const unknown = [...new Set(up)].filter((a) => !KNOWN.has(a));
const gone = [...KNOWN].filter((a) => !up.includes(a));
if (transport.length) {
  console.error(
    `Only worker/trpc/ and worker/app.ts import tRPC; refuse with fail():\n  ${transport.join("\n  ")}`,
  );
  process.exit(1);
}
if (unknown.length || gone.length) {
  if (unknown.length)
    console.error(
      `Imports that point up a floor (docs/architecture.md "Floors"):\n  ${unknown.join("\n  ")}`,
    );
  if (gone.length)
    console.error(`Known upward imports no longer there (take them off KNOWN):\n  ${gone.join("\n  ")}`);
  process.exit(1);
}
console.log(`layers: ${files.length} files in worker/, ${new Set(up).size} known imports point up a floor`);
