// What a run writes: a full run bench/results.json and docs/performance.md (the table, then the
// notes kept from the file it replaces); an --only run bench/results-<parts>.json and the table on
// stdout.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../lib.mjs";
import { config } from "./harness.mjs";

/** The results' rows as docs/performance.md's table. */
export const table = (rows) => [
  "| group | measure | value | budget | met |",
  "|---|---|---|---|---|",
  ...rows.map(
    (r) =>
      `| ${r.group} | ${r.name} | ${r.value} | ${r.budget} | ${r.ok === null ? "" : r.ok ? "yes" : "no"} |`,
  ),
];

export function writeFull(results) {
  mkdirSync(join(root, "bench"), { recursive: true });
  writeFileSync(join(root, "bench", "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const md = [
    "# Performance",
    "",
    `Measured by \`npm run bench\` on ${results.machine.at.slice(0, 10)}: ${results.machine.cpus} × ${results.machine.model}, ${results.machine.memGiB} GiB, Node ${results.machine.node}.`,
    `Scale: ${config.donations.toLocaleString()} donations (inserted in the order they were given, as a live table fills: scripts/bench-seed.mjs), ${config.donors.toLocaleString()} donors, ${config.campaigns} campaigns. The server is the production build (dist/server) in local workerd through Miniflare, on loopback, without \`wrangler dev\`'s reload proxy; /api/* is measured on a socket straight into the Worker's isolate (no Miniflare entry worker or assets RPC proxy, as a deployed Worker with run_worker_first: decision 042), pages and assets through Miniflare's entry;`,
    "local D1 is SQLite in the same process, so absolute numbers are for regression tracking, not production capacity.",
    "",
    ...table(results.rows),
    "",
    `workerd's resident memory (the process holding D1's SQLite and our Worker) before / after the two exports: ${results.memory?.beforeExport ?? "?"} / ${results.memory?.afterExport ?? "?"}; before / after the mixed load: ${results.memory?.beforeMixedLoad ?? "?"} / ${results.memory?.afterMixedLoad ?? "?"}.`,
    "",
  ];
  const perf = join(root, "docs", "performance.md");
  let notes = "";
  try {
    const old = readFileSync(perf, "utf8");
    const i = old.indexOf("## Notes");
    if (i >= 0) notes = old.slice(i);
  } catch {}
  writeFileSync(perf, md.join("\n") + (notes ? `\n${notes}` : ""));
  console.log("\nWrote bench/results.json and docs/performance.md");
}

/** An --only run's results: beside the full run's file, named by the parts asked for. */
export function writeOnly(results, asked, parts) {
  const name = `results-${asked.join("-")}.json`;
  mkdirSync(join(root, "bench"), { recursive: true });
  writeFileSync(join(root, "bench", name), `${JSON.stringify({ parts, ...results }, null, 2)}\n`);
  console.log(
    `\n${table(results.rows).join("\n")}\n\nWrote bench/${name} (docs/performance.md is a full run's)`,
  );
}
