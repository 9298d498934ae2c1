/**
 * The auth contract suite: every case of test/oracle/cases.ts (endpoint × variant) sent the same
 * way to the real better-auth 1.3.34 server (test/oracle/server.ts) and to our built Worker in
 * workerd with real D1 and KV (scripts/lib.mjs serveBuildDirect, as the benchmarks run it), and
 * their answers compared: status, body code and message, body shape, redirect, cookies set or
 * cleared. A difference fails unless test/oracle/kept-differences.ts lists it.
 *
 * Run through `node scripts/oracle.mjs` (builds, then runs this file with node --test). With
 * ORACLE_REPORT=<file> it also writes every difference found, listed or not, as Markdown.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ensureDevVars, migrateLocal, serveBuildDirect } from "../../scripts/lib.mjs";
import { allCases, type Case, runCase, THEN } from "./cases.ts";
import {
  type Actor,
  COMPARED,
  makeAdmin,
  type Observed,
  observe,
  observeState,
  oracleSide,
  oursSide,
  SetupError,
  type Side,
} from "./harness.ts";
import { type KeptDifference, keptDifferences } from "./kept-differences.ts";
import { startOracle } from "./server.ts";

interface Difference {
  endpoint: string;
  variant: string;
  field: string;
  ours: string;
  theirs: string;
  kept: KeptDifference | undefined;
}

const started = Date.now();
const stateDir = mkdtempSync(join(tmpdir(), "almoner-oracle-"));
ensureDevVars();
migrateLocal(stateDir);
const oracle = await startOracle();
const worker = await serveBuildDirect(stateDir);
const theirs = oracleSide(oracle);
const ours = oursSide(
  worker.apiBase,
  (await worker.mf.getD1Database("DB", "almoner")) as never,
  (await worker.mf.getKVNamespace("KV", "almoner")) as never,
);

const differences: Difference[] = [];
const usedKept = new Set<KeptDifference>();
let pairs = 0;
let differing = 0;

function keptFor(endpoint: string, variant: string, field: string) {
  return keptDifferences.find(
    (k) =>
      (k.endpoint === "*" || k.endpoint === endpoint) &&
      (k.variant === "*" || k.variant === variant || variant === k.variant + THEN) &&
      (k.field === "*" || k.field === field),
  );
}

const shared = new Map<Side, { admin: Actor }>([
  [ours, { admin: await makeAdmin(ours, "shared-admin@example.test") }],
  [theirs, { admin: await makeAdmin(theirs, "shared-admin@example.test") }],
]);

interface Seen {
  main: Observed;
  after: Observed | null;
}

async function observeCase(side: Side, c: Case, n: number): Promise<Seen | string> {
  try {
    const { main, after: next } = await runCase(side, c, n, shared.get(side));
    return { main: await observe(side, main), after: next ? await observeState(next) : null };
  } catch (error) {
    if (error instanceof SetupError) return `setup failed: ${error.message}`;
    // Anything else (a connection dropped…) fails this case, not the run.
    console.error(`${side.name}: ${c.endpoint.name} | ${c.variant}:`, error);
    return `harness error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const show = (o: Observed, field: string) => {
  const v = (o as unknown as Record<string, unknown>)[field];
  return v === undefined ? "(none)" : String(v);
};

/** Compares one case (its request and the get-session after it); every field that differs. */
function compare(c: Case, o: Seen | string, th: Seen | string): Difference[] {
  const endpoint = c.endpoint.name;
  const diff = (variant: string, field: string, ours: string, theirs: string): Difference => ({
    endpoint,
    variant,
    field,
    ours,
    theirs,
    kept: keptFor(endpoint, variant, field),
  });
  if (typeof o === "string" || typeof th === "string") {
    return o === th
      ? []
      : [diff(c.variant, "setup", typeof o === "string" ? o : "ok", typeof th === "string" ? th : "ok")];
  }
  const fields = (variant: string, a: Observed, b: Observed) =>
    COMPARED.filter((field) => show(a, field) !== show(b, field)).map((field) =>
      diff(variant, field, show(a, field), show(b, field)),
    );
  const out = fields(c.variant, o.main, th.main);
  if (o.after && th.after) out.push(...fields(c.variant + THEN, o.after, th.after));
  return out;
}

// Every case first, a few at a time (each has users of its own; both servers answer meanwhile),
// then one test per case over the results.
const cases = allCases();
const found = new Map<Case, Difference[]>();
const concurrency = Number(process.env.ORACLE_CONCURRENCY ?? 4);
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < cases.length) {
      const i = next++;
      const c = cases[i] as Case;
      let [o, th] = await Promise.all([observeCase(ours, c, i + 1), observeCase(theirs, c, i + 1)]);
      // Miniflare's socket now and then drops a connection under load (ECONNRESET; scripts/lib.mjs
      // serveBuildDirect): the whole case again, on new users, at most twice.
      for (
        let retry = 1;
        retry <= 2 && [o, th].some((x) => typeof x === "string" && x.startsWith("harness error"));
        retry++
      ) {
        const again = retry * 10_000 + i + 1;
        [o, th] = await Promise.all([observeCase(ours, c, again), observeCase(theirs, c, again)]);
      }
      found.set(c, compare(c, o, th));
      pairs += typeof o !== "string" && typeof th !== "string" && o.after && th.after ? 2 : 1;
    }
  }),
);
for (const list of found.values()) {
  differing += new Set(list.map((d) => d.variant)).size;
  differences.push(...list);
  for (const d of list) if (d.kept) usedKept.add(d.kept);
}

const byEndpoint = new Map<string, Case[]>();
for (const c of cases) byEndpoint.set(c.endpoint.name, [...(byEndpoint.get(c.endpoint.name) ?? []), c]);
for (const [endpoint, list] of byEndpoint) {
  test(endpoint, async (t) => {
    for (const c of list) {
      await t.test(c.variant, () => {
        const unlisted = (found.get(c) ?? []).filter((d) => !d.kept);
        assert.equal(
          unlisted.length,
          0,
          unlisted.map((d) => `${d.field}: ours ${d.ours} | better-auth ${d.theirs}`).join("\n"),
        );
      });
    }
  });
}

test("every kept difference still occurs", () => {
  const stale = keptDifferences.filter((k) => !usedKept.has(k));
  assert.deepEqual(
    stale.map((k) => `${k.endpoint} | ${k.variant} | ${k.field}`),
    [],
    "kept differences that no longer occur: remove them from test/oracle/kept-differences.ts",
  );
});

function report() {
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const lines = [
    "# Auth contract: our /api/auth against better-auth 1.3.34",
    "",
    `${pairs} request pairs compared, ${differing} differing (${differences.length} field differences, ${differences.filter((d) => !d.kept).length} not in kept-differences.ts); ${seconds} s.`,
    "",
    "One line per difference: variant — field: ours ⟂ better-auth. [kept] marks listed ones.",
    "",
  ];
  // By kind of variant: how many cases of each kind differ, and in which fields.
  const kindOf = (c: Case) =>
    c.variant.startsWith("missing ")
      ? "missing field"
      : c.variant.startsWith("wrong-typed ")
        ? "wrong-typed field"
        : c.endpoint.extras?.[c.variant]
          ? "endpoint-specific"
          : c.variant;
  const kinds = new Map<string, { cases: number; differing: number; fields: Map<string, number> }>();
  for (const c of cases) {
    const k = kinds.get(kindOf(c)) ?? { cases: 0, differing: 0, fields: new Map() };
    const list = found.get(c) ?? [];
    k.cases += 1;
    if (list.length) k.differing += 1;
    for (const d of list) k.fields.set(d.field, (k.fields.get(d.field) ?? 0) + 1);
    kinds.set(kindOf(c), k);
  }
  lines.push("| variant | cases | differing | fields that differ |", "|---|---|---|---|");
  for (const [kind, k] of kinds) {
    const fields = [...k.fields].map(([f, count]) => `${f} ${count}`).join(", ");
    lines.push(`| ${kind} | ${k.cases} | ${k.differing} | ${fields} |`);
  }
  lines.push("");
  const groups = new Map<string, Difference[]>();
  for (const d of differences) groups.set(d.endpoint, [...(groups.get(d.endpoint) ?? []), d]);
  for (const [endpoint, list] of groups) {
    const cases = new Set(list.map((d) => d.variant)).size;
    lines.push(`## ${endpoint} (${cases} of ${byEndpoint.get(endpoint)?.length ?? 0} cases differ)`, "");
    for (const d of list) {
      const clip = (s: string) => (s.length > 400 ? `${s.slice(0, 400)}…` : s);
      lines.push(
        `- ${d.variant} — ${d.field}: ours \`${clip(d.ours)}\` ⟂ better-auth \`${clip(d.theirs)}\`${d.kept ? " [kept]" : ""}`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}

after(async () => {
  const file = process.env.ORACLE_REPORT;
  if (file) writeFileSync(file, report());
  if (process.env.ORACLE_JSON) writeFileSync(process.env.ORACLE_JSON, JSON.stringify(differences, null, 1));
  console.log(`auth contract: ${pairs} request pairs, ${differing} differing`);
  await oracle.close();
  await worker.stop();
  rmSync(stateDir, { recursive: true, force: true });
});
