// `node scripts/bench-export.mjs`: the streamed CSV export of every donation alone, for quick
// iterations on its throughput and memory (the full `npm run bench` takes 20+ minutes). Seeds the
// bench's world (scripts/bench-seed.mjs: BENCH_DONATIONS gifts in Harbor Light, default 200 000;
// 1 000 000 is the budget's scale) into a temporary local D1, builds, runs the built worker in
// workerd through Miniflare (serveBuildDirect, as bench.mjs does), signs in as the demo admin,
// streams /api/export/donations.csv and prints rows/s, MiB, the SHA-256 of the body (the same
// data gives the same bytes, so a refactor can be checked byte for byte), workerd's CPU per row
// and its memory (sampled while the export runs, to show whether it grows with the rows).
//
//   BENCH_DONATIONS=200000 node scripts/bench-export.mjs [--no-build] [--runs 3]
//     [--state <dir>]   reuse (or create and keep) a seeded state folder between runs
//     [--scrambled]     insert the gifts in a random date order (the worst case; see bench-seed.mjs)
//     [--demo]          seed the demo world at that size instead (scripts/seed.mjs: messages,
//                       fees, items, addresses: more rows that need CSV escaping)
//     [--out <file>]    also write the CSV body there
//
// Reports; never fails on a budget.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { seedBench } from "./bench-seed.mjs";
import { DEMO_PASSWORD } from "./demo-users.mjs";
import {
  ensureDevVars,
  exportLiveHeap,
  localD1File,
  migrateLocal,
  quietEnv,
  run,
  serveBuildDirect,
  signInCookie,
  warmFile,
} from "./lib.mjs";

const { values: args } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    runs: { type: "string", default: "1" },
    state: { type: "string" },
    out: { type: "string" },
    scrambled: { type: "boolean", default: false },
    demo: { type: "boolean", default: false },
  },
});
const DONATIONS = Number(process.env.BENCH_DONATIONS ?? 200_000);
const RUNS = Math.max(1, Number(args.runs));
const keepState = !!args.state;
const stateDir = args.state ?? mkdtempSync(join(tmpdir(), "almoner-bench-export-"));
const env = { ...quietEnv, ALMONER_STATE_DIR: stateDir };

ensureDevVars();
if (!args["no-build"]) {
  console.log("Building…");
  run("npx", ["vite", "build", "--logLevel", "warn"], { env });
}

const seeded = existsSync(join(stateDir, "v3", "d1")) && readdirSync(join(stateDir, "v3", "d1")).length > 0;
if (!seeded) {
  mkdirSync(stateDir, { recursive: true });
  console.log(`Seeding ${DONATIONS.toLocaleString()} donations into ${stateDir}…`);
  const t = performance.now();
  // A fixed "now": the same folder always holds the same rows, so the CSV's hash is comparable.
  const now = 1767225600000;
  if (args.demo) {
    migrateLocal(stateDir);
    run(
      process.execPath,
      [
        "scripts/seed.mjs",
        "--force",
        "--now",
        String(now),
        "--donations",
        String(DONATIONS),
        "--donors",
        String(Math.max(2_500, Math.round(DONATIONS / 10))),
      ],
      { env, stdio: ["ignore", "ignore", "inherit"] },
    );
  } else {
    await seedBench(stateDir, env, {
      donations: DONATIONS,
      donors: Math.max(2_500, Math.round(DONATIONS / 10)),
      campaigns: 500,
      layout: args.scrambled ? "scrambled" : "date",
      now,
    });
  }
  console.log(`  seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
} else {
  console.log(`Reusing the seeded state in ${stateDir} (applying any newer migrations)`);
  migrateLocal(stateDir);
}

/** The workerd processes started under `pid` (this run's Miniflare only, not anyone else's). */
function descendants(pid) {
  const out = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    const kids = spawnSync("pgrep", ["-P", String(p)], { encoding: "utf8" }).stdout.trim();
    for (const k of kids ? kids.split("\n") : []) {
      out.push(Number(k));
      stack.push(Number(k));
    }
  }
  return out;
}
function workerdMemory(serverPid) {
  const rows = [];
  for (const p of descendants(serverPid)) {
    const status = spawnSync("cat", [`/proc/${p}/status`], { encoding: "utf8" }).stdout;
    if (!/^Name:\s*workerd/m.test(status)) continue;
    const kb = (k) => Number(new RegExp(`${k}:\\s*(\\d+)`).exec(status)?.[1] ?? 0);
    const mib = (k) => +(kb(k) / 1024).toFixed(0);
    // RssAnon is memory workerd allocated (heaps, buffers); RssFile is mapped file pages (SQLite).
    rows.push({
      pid: p,
      hwmMiB: mib("VmHWM"),
      rssMiB: mib("VmRSS"),
      anonMiB: mib("RssAnon"),
      fileMiB: mib("RssFile"),
    });
  }
  return rows;
}
/** CPU seconds (user + system) of this run's workerd processes: the cost per row, whatever the load. */
function workerdCpu(serverPid) {
  let ticks = 0;
  for (const p of descendants(serverPid)) {
    const stat = spawnSync("cat", [`/proc/${p}/stat`], { encoding: "utf8" }).stdout;
    if (!stat.includes("(workerd)")) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}
const mem = (rows) =>
  rows
    .map(
      (r) =>
        `workerd ${r.pid}: RSS ${r.rssMiB} MiB (anon ${r.anonMiB}, file ${r.fileMiB}), HWM ${r.hwmMiB} MiB`,
    )
    .join("; ");

// Miniflare spawns workerd as a child of this process: its memory is found under process.pid.
const { apiBase, stop } = await serveBuildDirect(stateDir);
try {
  // /api/* through the direct socket into the Worker (no Miniflare entry worker piping the body).
  const cookie = await signInCookie(apiBase, "admin@almoner.test", DEMO_PASSWORD);

  for (let i = 0; i < RUNS; i++) {
    warmFile(localD1File(stateDir));
    const before = workerdMemory(process.pid);
    const cpu0 = workerdCpu(process.pid);
    const t0 = performance.now();
    const url = `${apiBase}/api/export/donations.csv`;
    // workerd now and then closes the kept-alive connection of the previous run just as it is
    // reused ("other side closed", same workerd process): that request is asked again, once.
    const res = await fetch(url, { headers: { cookie } }).catch((e) => {
      if (e.cause?.code !== "UND_ERR_SOCKET") throw e;
      return fetch(url, { headers: { cookie } });
    });
    if (!res.ok) throw new Error(`export: HTTP ${res.status}`);
    const file = args.out && i === 0 ? createWriteStream(args.out) : null;
    const hash = createHash("sha256");
    let bytes = 0;
    let lines = 0;
    let firstByteMs = null;
    // workerd's allocated memory (RssAnon) every 250 ms with the rows received so far: flat
    // memory means the same figure a tenth of the way in as at the end.
    const samples = [];
    const sampler = setInterval(() => {
      const anon = workerdMemory(process.pid).reduce((t, r) => t + r.anonMiB, 0);
      samples.push({ lines, anon });
    }, 250);
    for await (const chunk of res.body) {
      firstByteMs ??= performance.now() - t0;
      bytes += chunk.length;
      hash.update(chunk);
      file?.write(chunk);
      for (let j = chunk.indexOf(10); j !== -1; j = chunk.indexOf(10, j + 1)) lines++;
    }
    clearInterval(sampler);
    if (file) await new Promise((r) => file.end(r));
    const secs = (performance.now() - t0) / 1000;
    const rows = lines - 1;
    console.log(
      `run ${i + 1}: ${rows.toLocaleString()} rows, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${secs.toFixed(2)} s` +
        ` → ${Math.round(rows / secs).toLocaleString()} rows/s (first byte ${firstByteMs?.toFixed(0)} ms)`,
    );
    const cpu = workerdCpu(process.pid) - cpu0;
    console.log(`  sha256 ${hash.digest("hex")}`);
    console.log(`  workerd CPU ${cpu.toFixed(2)} s (${((cpu / rows) * 1e6).toFixed(1)} µs/row)`);
    console.log(`  before: ${mem(before)}`);
    console.log(`  after:  ${mem(workerdMemory(process.pid))}`);
    const at = (share) => samples.find((x) => x.lines >= share * lines)?.anon ?? "?";
    console.log(
      `  workerd RssAnon at 10% / 50% / 90% of the rows: ${at(0.1)} / ${at(0.5)} / ${at(0.9)} MiB; peak ${Math.max(...samples.map((x) => x.anon))} MiB`,
    );
  }
} finally {
  await stop();
}
{
  // One more export for memory alone, on a server with workerd's inspector open (which slows the
  // Worker, so not for the runs above): our Worker's live JS heap (after a forced GC) before, at
  // every 20th chunk and after. Flat memory: the same band from the first pages to the last.
  const server = await serveBuildDirect(stateDir, { inspect: true });
  try {
    const cookie = await signInCookie(server.apiBase, "admin@almoner.test", DEMO_PASSWORD);
    const live = await exportLiveHeap(server.apiBase, cookie, server.heap);
    console.log(
      `memory run: Worker live heap before ${live.before} MiB; during ${live.min}–${live.max} MiB (first tenth ${live.first}, last tenth ${live.last}); after ${live.after} MiB`,
    );
  } finally {
    await server.stop();
    if (!keepState) rmSync(stateDir, { recursive: true, force: true });
  }
}
