// The `import` part: the CSV import (issue 23): BENCH_IMPORT_ROWS gifts from BENCH_IMPORT_DONORS
// people (a quarter of them donors already) into this world through the page's own reader and loop
// (scripts/bench-import.mjs), end to end; then the list and dashboard measured again against their
// budgets (the "after the import" rows belong here).

import { benchImport, IMPORT_ROWS_PER_SECOND_BUDGET } from "../bench-import.mjs";
import { COLD_SAMPLES, config, input, workerdRss } from "./harness.mjs";

export async function importCsv(h) {
  const { apiBase, cookie, row } = h;
  const { importRows, importDonors } = config;
  const rssSamples = [];
  const rssBefore = workerdRss();
  const imp = await benchImport({
    apiBase,
    cookie,
    rows: importRows,
    donors: importDonors,
    memory: async () => rssSamples.push(workerdRss()),
    log: () => {},
  });
  row(
    "import",
    `CSV import: ${importRows.toLocaleString()} gifts from ${importDonors.toLocaleString()} donors, file in date order, end to end (parse + HTTP + D1)`,
    `${Math.round(imp.rowsPerSecond).toLocaleString()} rows/s (${imp.seconds.toFixed(1)} s)`,
    `≥ ${IMPORT_ROWS_PER_SECOND_BUDGET.toLocaleString()} rows/s`,
    imp.rowsPerSecond >= IMPORT_ROWS_PER_SECOND_BUDGET,
  );
  row(
    "import",
    `one batch of 500 rows (one D1 batch), p50 / p95; created ${imp.counts.giftsCreated.toLocaleString()} gifts, ${imp.counts.donorsCreated.toLocaleString()} donors; refused ${imp.rejected}`,
    `${imp.batchP50.toFixed(0)} / ${imp.batchP95.toFixed(0)} ms`,
  );
  row(
    "import",
    "workerd resident memory before; during (every 20 batches); after",
    `${rssBefore}; ${rssSamples[0] ?? "?"} … ${rssSamples.at(-1) ?? "?"}; ${workerdRss()}`,
  );
  await afterTheImport(h);
}

async function afterTheImport({ lat, coldLat, from }) {
  await lat(
    "after the import: donations.list (completed, 30 d, sort amount)",
    `/api/trpc/donations.list${input({ status: ["completed"], from, sort: "amount" })}`,
    60,
    25,
  );
  await coldLat(
    "after the import: dashboard.summary 30 days, cold (computed)",
    `/api/trpc/dashboard.summary${input({ days: 30 })}`,
    COLD_SAMPLES,
  );
  await lat(
    "after the import: dashboard.summary 30 days, warm (cached)",
    `/api/trpc/dashboard.summary${input({ days: 30 })}`,
    30,
    50,
  );
  await lat(
    "after the import: donors.list with a tag filter",
    `/api/trpc/donors.list${input({ tagId: "btag1" })}`,
    30,
  );
}
