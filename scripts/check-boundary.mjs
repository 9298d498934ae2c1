// The boundary lint rules (lint/*.grit: the browser/server boundary, one way to a database) still
// refuse what they must, and only that:
// biome lints lint/fixtures, whose lines marked `// REFUSED` are exactly the expected refusals. A
// Biome upgrade that changed how the rule matches would otherwise let `npm run lint` pass silently.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { root } from "./lib.mjs";

const dir = join(root, "lint", "fixtures");
const files = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".ts"));
const expected = files
  .flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .map((line, i) => (/\/\/ REFUSED/.test(line) ? `${f}:${i + 1}` : null)),
  )
  .filter(Boolean)
  .sort();
const res = spawnSync("npx", ["biome", "lint", "--reporter=json", "."], { cwd: dir, encoding: "utf8" });
const report = JSON.parse(res.stdout.slice(res.stdout.indexOf("{")));
const got = report.diagnostics
  .filter((d) => d.category === "plugin")
  .map((d) => `${d.location.path}:${d.location.start.line}`)
  .sort();
const missing = expected.filter((x) => !got.includes(x));
const extra = got.filter((x) => !expected.includes(x));
if (missing.length || extra.length) {
  console.error(`lint/*.grit no longer match ${relative(root, dir)} as expected`);
  if (missing.length) console.error(`  not refused: ${missing.join(", ")}`);
  if (extra.length) console.error(`  refused unexpectedly: ${extra.join(", ")}`);
  process.exit(1);
}
console.log(`boundary rules: ${got.length} refusals, as the fixtures expect`);
