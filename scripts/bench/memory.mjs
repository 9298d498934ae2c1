// The `memory` part: our Worker's live JS heap (after a forced GC) through workerd's inspector
// during an export, an import, a statements run and the mixed load, on a server of its own (an open
// inspector slows the Worker, so not during the other parts, and after them). Its statements run
// takes a year other than the `statements` part's, if that ran.

import { benchImport } from "../bench-import.mjs";
import { runMixed } from "../bench-peer.mjs";
import { benchStatements, seedStatementReceipts } from "../bench-statements.mjs";
import { exportLiveHeap, heapSummary, mib, serveBuildDirect } from "../lib.mjs";
import {
  answersWith,
  config,
  DEMO_PASSWORD,
  loadDonorIds,
  mixedRequests,
  signInCookie,
  tokenOnlyOf,
} from "./harness.mjs";

export async function memory(h) {
  const server = await serveBuildDirect(h.stateDir, { inspect: true });
  try {
    const cookie = await signInCookie(server.apiBase, "admin@almoner.test", DEMO_PASSWORD);
    const s = { ...h, server, cookie };
    await exportHeap(s);
    await importHeap(s);
    await statementsHeap(s);
    await mixedHeap(s);
  } finally {
    await server.stop();
  }
}

async function exportHeap({ server, cookie, row }) {
  const live = await exportLiveHeap(server.apiBase, cookie, server.heap);
  row(
    "export",
    `Worker live JS heap during the export (${live.samples} samples after a GC): min–max; first / last tenth`,
    `${live.min}–${live.max} MiB; ${live.first} / ${live.last} MiB`,
    `before ${live.before} / after ${live.after} MiB`,
  );
}

/** 20 000 more gifts with our Worker's live heap sampled every 20 batches. */
async function importHeap({ server, cookie, row }) {
  const before = mib(await server.heap.live());
  const samples = [];
  await benchImport({
    apiBase: server.apiBase,
    cookie,
    rows: 20_000,
    donors: 4_000,
    idPrefix: "HEAP",
    memoryEvery: 4,
    memory: async () => samples.push(mib(await server.heap.live())),
    log: () => {},
  });
  const ih = heapSummary(samples, before, mib(await server.heap.live()), 2);
  row(
    "import",
    `Worker live JS heap during a 20 000-row import (${ih.samples} samples after a GC): min–max; first / last half`,
    `${ih.min}–${ih.max} MiB; ${ih.first} / ${ih.last} MiB`,
    `before ${ih.before} / after ${ih.after} MiB`,
  );
}

/** A statements run of its own (another year's receipts, 2 000 donors), the heap every 10 steps. */
async function statementsHeap({ server, cookie, row, orgId, mailSink, state }) {
  const heapYear = await seedStatementReceipts(await server.mf.getD1Database("DB", "almoner"), {
    orgId,
    donors: 2_000,
    notYear: state.statementYear,
    fewer: true,
  });
  const before = mib(await server.heap.live());
  const samples = [];
  const heapRun = await benchStatements({
    apiBase: server.apiBase,
    cookie,
    year: heapYear.year,
    sink: mailSink,
    memoryEvery: 10,
    memory: async () => samples.push(mib(await server.heap.live())),
    log: () => {},
  });
  const sh = heapSummary(samples, before, mib(await server.heap.live()), 2);
  row(
    "statements",
    `Worker live JS heap during statements ${heapRun.label} for ${heapRun.sent.toLocaleString()} donors (${sh.samples} samples after a GC): min–max; first / last half`,
    `${sh.min}–${sh.max} MiB; ${sh.first} / ${sh.last} MiB`,
    `before ${sh.before} / after ${sh.after} MiB`,
  );
}

/** The mixed load's mix, half as long, with the live heap sampled every 3 s. */
async function mixedHeap({ server, cookie, row, from, stateDir }) {
  const before = mib(await server.heap.live());
  const samples = [];
  const { mixed } = mixedRequests(
    server.apiBase,
    cookie,
    tokenOnlyOf(cookie),
    from,
    await loadDonorIds(stateDir),
  );
  const load = await runMixed(
    server.apiBase,
    mixed,
    Math.max(10, Math.round(config.loadSeconds / 2)),
    () => server.heap.live().then((b) => samples.push(mib(b))),
    3000,
  );
  await new Promise((r) => setTimeout(r, 500));
  const heap = heapSummary(samples, before, mib(await server.heap.live()), 3);
  const bad = load.failures + load.timeouts + answersWith(load.statusCounts, 400, 600);
  row(
    "load",
    `Worker live JS heap during ${load.seconds.toFixed(1)} s of the mixed load @50 (${heap.samples} samples after a GC; ${load.all.length} answers, ${bad} bad): min–max; first / last third`,
    `${heap.min}–${heap.max} MiB; ${heap.first} / ${heap.last} MiB`,
    `before ${heap.before} / after ${heap.after} MiB`,
  );
}
