// `npm test` step: every document a comment cites is in the repository (issue 19: comments cite
// docs/ and ADRs, not documents outside the repo). Checks docs/… paths, "decision NNN" / "ADR NNN" /
// "decisions/NNN", research/<name>.md, and "SPEC §n" / "DESIGN §n" against the headings of the
// copies in docs/steering/ (docs/steering/README.md says why they are copied). Paths of the code
// (worker/…, core/…, src/…, test/… and the like) must exist too, except in decision records: those
// are dated and describe the code as it was when they were decided. The decision records' headers
// agree with each other and with their index (scripts/decisions-index.mjs).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { indexFile, indexText, readRecords } from "./decisions-index.mjs";
import { root } from "./lib.mjs";

const roots = [
  "worker",
  "src",
  "core",
  "scripts",
  "test",
  "e2e",
  "lint",
  "docs/decisions",
  "docs/architecture.md",
  "README.md",
];
const skip = new Set(["node_modules", "dist", ".wrangler", "routeTree.gen.ts"]);
const files = [];
const walk = (p) => {
  if (skip.has(p.split("/").pop())) return;
  if (statSync(p).isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  else if (/\.(ts|tsx|mjs|md|grit)$/.test(p)) files.push(p);
};
for (const r of roots) if (existsSync(join(root, r))) walk(join(root, r));

const adrs = readdirSync(join(root, "docs/decisions")).map((f) => f.slice(0, 3));
const sections = (doc) =>
  new Set(
    [...readFileSync(join(root, "docs/steering", doc), "utf8").matchAll(/^##+ (\d+)\./gm)].map((m) => m[1]),
  );
const spec = sections("SPEC.md");
const design = sections("DESIGN.md");

const codePath =
  /(?<![\w@./-])(?:worker|core|src|test|e2e|scripts|lint|drizzle|bench)\/[A-Za-z0-9_./$-]*\.(?:tsx|ts|mjs|sql|grit|json)\b/g;
const missing = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const where = (i) => `${relative(root, file)}:${text.slice(0, i).split("\n").length}`;
  for (const m of text.matchAll(/\bdocs\/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b/g))
    if (!existsSync(join(root, m[0]))) missing.push(`${where(m.index)} ${m[0]}`);
  for (const m of text.matchAll(/\b(?:decisions?[ /]|ADR )(\d{3})\b/g))
    if (!adrs.includes(m[1])) missing.push(`${where(m.index)} ${m[0]}`);
  for (const m of text.matchAll(/\bresearch\/([a-z-]+\.md)/g))
    if (!existsSync(join(root, "docs/steering/research", m[1]))) missing.push(`${where(m.index)} ${m[0]}`);
  if (!relative(root, file).startsWith("docs/decisions/"))
    for (const m of text.matchAll(codePath))
      if (!existsSync(join(root, m[0]))) missing.push(`${where(m.index)} ${m[0]}`);
  for (const m of text.matchAll(/\b(SPEC|DESIGN) §(\d+)/g))
    if (!(m[1] === "SPEC" ? spec : design).has(m[2])) missing.push(`${where(m.index)} ${m[0]}`);
}
const decisions = readRecords();
missing.push(...decisions.problems);
if (!existsSync(indexFile) || readFileSync(indexFile, "utf8") !== indexText(decisions.records))
  missing.push("docs/decisions/README.md is stale: run node scripts/decisions-index.mjs");
if (missing.length) {
  console.error(
    `Citations of documents that are not in the repository, or decision records out of step:\n  ${missing.join("\n  ")}`,
  );
  process.exit(1);
}
console.log(`citations: ${files.length} files, every cited document and section is in the repo`);
