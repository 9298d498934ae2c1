// The CSV import measured end to end (issue 23): a donations file of IMPORT_ROWS gifts from
// IMPORT_DONORS people (one in four already a donor of the organization, matched by e-mail; the
// rest new), naming 20 campaigns (two of them new), read with the page's own reader
// (core/import/read.ts: Papa Parse) and sent batch by batch through the page's own loop
// (core/import/runner.ts) to the built Worker over HTTP, exactly as the browser sends it.
//
// `benchImport` is a step of `npm run bench` (into its 1M world); run alone it seeds its own world:
//
//   BENCH_DONATIONS=200000 node scripts/bench-import.mjs [--no-build] [--state <dir>] [--rows N]
//     [--donors N] [--scrambled] [--prefix P]
//
// Reports rows/s end to end (parse + requests + D1), the time per batch, and our Worker's memory.
// Reports; never fails on a budget.
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readShape } from "../core/import/read.ts";
import { sendRows } from "../core/import/runner.ts";
import { percentile } from "./lib.mjs";

/** The import's budget: rows per second end to end on this machine (issue 23). */
export const IMPORT_ROWS_PER_SECOND_BUDGET = 3_000;

const HEADER = [
  "Donation ID",
  "Donor First Name",
  "Donor Last Name",
  "Donor Email",
  "Amount",
  "Currency",
  "Donation Date",
  "Status",
  "Campaign",
  "Recurring",
  "Comment",
];
const FIELDS = {
  "Donation ID": "giftExternalId",
  "Donor First Name": "firstName",
  "Donor Last Name": "lastName",
  "Donor Email": "email",
  Amount: "amount",
  Currency: "currency",
  "Donation Date": "donatedAt",
  Status: "status",
  Campaign: "campaign",
  Recurring: "frequency",
  Comment: "message",
};

const cell = (s) => (/[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/**
 * The file: gift i by person (i * 7919) % donors; a person p < donors / 4 is the world's existing
 * donor `donor{p+1}@bench.test` (bench-seed.mjs), the others new people. US dates, dollar amounts
 * with thousands separators, every 20th refunded, every 6th monthly, every 9th with a comment.
 */
export function importFile(rows, donors, now = Date.now(), { scrambled = false, idPrefix = "IMP" } = {}) {
  const lines = [HEADER.join(",")];
  const existing = Math.floor(donors / 4);
  for (let i = 0; i < rows; i++) {
    const p = (i * 7919) % donors;
    const known = p < existing;
    const email = known ? `donor${p + 1}@bench.test` : `imported${p}@example.org`;
    const first = known ? "Donor" : `Given${p % 97}`;
    const last = known ? `Number${p + 1}` : `Family${p}`;
    // Exports list gifts newest first (Stripe, GiveWP, Donorbox): spread over 700 days. Scrambled:
    // the same dates in a pseudo-random order, the worst case for the date-led indexes.
    const step = scrambled ? (i * 104729) % rows : i;
    const at = new Date(now - 86400_000 - Math.floor((step / rows) * 700 * 86400) * 1000);
    const date = `${at.getUTCMonth() + 1}/${at.getUTCDate()}/${at.getUTCFullYear()}`;
    const cents = 500 + ((i * 2654435761) % 250_000);
    const amount = cell(
      `$${Math.floor(cents / 100).toLocaleString("en-US")}.${String(cents % 100).padStart(2, "0")}`,
    );
    const campaign = i % 10 === 9 ? `Imported appeal ${i % 2}` : `Bench campaign ${1 + (i % 18)}`;
    lines.push(
      [
        `${idPrefix}-${i}`,
        first,
        last,
        email,
        amount,
        "USD",
        date,
        i % 20 === 0 ? "Refunded" : "Completed",
        campaign,
        i % 6 === 0 ? "Monthly" : "One-time",
        i % 9 === 0 ? cell(`Thanks, from row ${i}\nand family`) : "",
      ].join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** One tRPC mutation over HTTP as the signed-in admin (the bench steps drive the API as the portal does). */
export async function trpc(apiBase, cookie, path, input) {
  const res = await fetch(`${apiBase}/api/trpc/${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", origin: apiBase },
    body: JSON.stringify({ json: input }),
  });
  const body = await res.json();
  if (!res.ok)
    throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(body.error?.json?.message ?? body)}`);
  return body.result.data.json;
}

/**
 * Imports `rows` gifts from `donors` people into the signed-in admin's organization through
 * `apiBase`, sampling `memory()` (a string or number) every few batches. Returns the figures.
 */
export async function benchImport({
  apiBase,
  cookie,
  rows = 100_000,
  donors = 20_000,
  scrambled = false,
  idPrefix = "IMP",
  memory = null,
  memoryEvery = 20,
  log = console.log,
}) {
  const t0 = performance.now();
  const text = importFile(rows, donors, Date.now(), { scrambled, idPrefix });
  const built = performance.now() - t0;
  const started = performance.now();
  const shape = readShape(text);
  const fileHash = createHash("sha256").update(text).digest("hex");
  const imp = await trpc(apiBase, cookie, "imports.start", {
    kind: "donations",
    fileName: "bench-import.csv",
    fileHash,
    fileSize: text.length,
    totalRows: rows,
    headers: shape.headers,
    mapping: shape.headers.map((h) => FIELDS[h] ?? null),
    options: {
      dateOrder: "mdy",
      decimal: ".",
      currency: "USD",
      timeZone: "America/Los_Angeles",
      matchPolicy: "fill",
    },
  });
  const batchMs = [];
  const memorySamples = [];
  let rejected = 0;
  let batches = 0;
  await sendRows({
    text,
    delimiter: shape.delimiter,
    columns: shape.headers.length,
    nextRow: imp.nextRow,
    totalRows: rows,
    commit: async (batch) => {
      const b0 = performance.now();
      const answer = await trpc(apiBase, cookie, "imports.commit", { id: imp.id, rows: batch });
      batchMs.push(performance.now() - b0);
      return answer;
    },
    onProgress: async (p, r) => {
      rejected += r.length;
      batches++;
      if (memory && batches % memoryEvery === 0) memorySamples.push(await memory());
      if (batches % 40 === 0)
        log(`  import: ${p.done.toLocaleString()} rows, ${Math.round(p.rowsPerSecond)} rows/s`);
    },
  });
  const done = await trpc(apiBase, cookie, "imports.finish", { id: imp.id });
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...batchMs].sort((a, b) => a - b);
  const q = (p) => percentile(sorted, p * 100);
  return {
    id: imp.id,
    rows,
    seconds,
    rowsPerSecond: rows / seconds,
    buildMs: built,
    batches: batchMs.length,
    batchP50: q(0.5),
    batchP95: q(0.95),
    rejected,
    counts: done.counts,
    memorySamples,
  };
}

// Alone: seed a world, serve the build, import, print.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      "no-build": { type: "boolean", default: false },
      state: { type: "string" },
      rows: { type: "string", default: "100000" },
      donors: { type: "string", default: "20000" },
      scrambled: { type: "boolean", default: false },
      // Gift ids IMP-0, IMP-1, …: another prefix imports the file again as new gifts (a reused --state).
      prefix: { type: "string", default: "IMP" },
    },
  });
  const { standaloneWorld } = await import("./bench-seed.mjs");
  const { DEMO_PASSWORD } = await import("./demo-users.mjs");
  const { serveBuildDirect, signInCookie } = await import("./lib.mjs");
  const world = await standaloneWorld("import", { build: !args["no-build"], state: args.state });
  const stateDir = world.stateDir;
  const server = await serveBuildDirect(stateDir);
  try {
    const cookie = await signInCookie(server.apiBase, "admin@almoner.test", DEMO_PASSWORD);
    const r = await benchImport({
      apiBase: server.apiBase,
      cookie,
      rows: Number(args.rows),
      donors: Number(args.donors),
      scrambled: args.scrambled,
      idPrefix: args.prefix,
    });
    console.log(
      `Imported ${r.rows.toLocaleString()} rows in ${r.seconds.toFixed(1)} s: ${Math.round(r.rowsPerSecond).toLocaleString()} rows/s` +
        ` (budget ≥ ${IMPORT_ROWS_PER_SECOND_BUDGET}); ${r.batches} batches, p50 ${r.batchP50.toFixed(0)} ms, p95 ${r.batchP95.toFixed(0)} ms;` +
        ` rejected ${r.rejected}; counts ${JSON.stringify(r.counts)}`,
    );
  } finally {
    await server.stop();
    world.done();
  }
}
