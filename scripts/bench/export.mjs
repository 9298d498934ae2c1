// The `export` part: the CSV export of every donation, twice (the first also warms the Worker's
// code), rows per second over both. The database is read once before each, so that the export is
// not timed against this machine's disk (lib.mjs, warmFile). The Worker's memory is measured in a
// run of its own by the `memory` part (exportLiveHeap).

import { localD1File, warmFile } from "../lib.mjs";
import { workerdRss } from "./harness.mjs";

export async function exportCsv({ apiBase, cookie, stateDir, row, results }) {
  const before = workerdRss();
  const rates = [];
  let exported = { lines: 0, bytes: 0 };
  for (let run = 0; run < 2; run++) {
    warmFile(localD1File(stateDir));
    const t0 = performance.now();
    const res = await fetch(`${apiBase}/api/export/donations.csv`, { headers: { cookie } });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (let j = chunk.indexOf(10); j !== -1; j = chunk.indexOf(10, j + 1)) lines++;
    }
    rates.push((lines - 1) / ((performance.now() - t0) / 1000));
    exported = { lines, bytes };
  }
  const rate = (rates[0] + rates[1]) / 2;
  row(
    "export",
    `CSV of all donations (${(exported.lines - 1).toLocaleString()} rows, ${(exported.bytes / 2 ** 20).toFixed(0)} MiB), mean of 2 runs (each)`,
    `${Math.round(rate).toLocaleString()} rows/s (${rates.map((r) => Math.round(r).toLocaleString()).join(" / ")})`,
    "≥ 100 000 rows/s",
    rate >= 100_000,
  );
  results.memory = { beforeExport: before, afterExport: workerdRss() };
}
