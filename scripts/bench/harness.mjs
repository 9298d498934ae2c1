// What the bench's parts share (scripts/bench.mjs runs them): the scale read from BENCH_*, the
// results and their `row`, and the helpers more than one part uses: workerd's memory, tRPC inputs,
// the mixed load's requests and the HTTP timers.

import { execFile, spawnSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { promisify } from "node:util";
import { DEMO_PASSWORD } from "../demo-users.mjs";
import { percentile, persistArgs, quietEnv, root, signInCookie } from "../lib.mjs";

export { DEMO_PASSWORD, signInCookie };

/** The scale and durations, from the environment (the defaults are the full bench's). */
export const config = {
  donations: Number(process.env.BENCH_DONATIONS ?? 1_000_000),
  donors: Number(process.env.BENCH_DONORS ?? 100_000),
  campaigns: Number(process.env.BENCH_CAMPAIGNS ?? 500),
  importRows: Number(process.env.BENCH_IMPORT_ROWS ?? 100_000),
  importDonors: Number(process.env.BENCH_IMPORT_DONORS ?? 20_000),
  statementDonors: Number(process.env.BENCH_STATEMENT_DONORS ?? 10_000),
  /** The mixed loads' length (s); the autocannon and live-heap runs take half, at least 10 s. */
  loadSeconds: Number(process.env.BENCH_LOAD_SECONDS ?? 60),
};

/** The results (bench/results.json) and `row`, which prints a table row and records it. */
export function newResults() {
  const results = {
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memGiB: +(totalmem() / 2 ** 30).toFixed(1),
      node: process.version,
      at: new Date().toISOString(),
    },
    scale: { donations: config.donations, donors: config.donors, campaigns: config.campaigns },
    rows: [],
  };
  const row = (group, name, value, budget = "", ok = null) => {
    results.rows.push({ group, name, value, budget, ok });
    console.log(
      `  ${group.padEnd(10)} ${name.padEnd(58)} ${String(value).padStart(16)}  ${budget}${ok === null ? "" : ok ? "  ✔" : "  ✖"}`,
    );
  };
  return { results, row };
}

export const pct = (arr, p) => +percentile(arr, p).toFixed(2);

/** The largest workerd process's resident memory and high-water mark (the one running D1 and us). */
export const workerdRss = () => {
  const out = spawnSync(
    "sh",
    [
      "-c",
      `for p in $(pgrep -f 'workerd serve'); do grep -E 'VmHWM|VmRSS' /proc/$p/status | tr '\\n' ' '; echo; done`,
    ],
    { encoding: "utf8" },
  ).stdout;
  const kb = (line, key) => Number(new RegExp(`${key}:\\s*(\\d+)`).exec(line)?.[1] ?? 0);
  const biggest = out
    .trim()
    .split("\n")
    .map((line) => ({ rss: kb(line, "VmRSS"), hwm: kb(line, "VmHWM") }))
    .sort((a, b) => b.rss - a.rss)[0];
  return biggest
    ? `${Math.round(biggest.rss / 1024)} MiB (high-water ${Math.round(biggest.hwm / 1024)} MiB)`
    : "?";
};

export const input = (o) => `?input=${encodeURIComponent(JSON.stringify({ json: o }))}`;

/** How many answers of `counts` (status → count) have a status in [from, to). */
export const answersWith = (counts, from, to) =>
  Object.entries(counts).reduce((n, [st, c]) => (Number(st) >= from && Number(st) < to ? n + c : n), 0);

/** The session-token cookie alone (no cookie cache): get-session goes to KV or D1. */
export const tokenOnlyOf = (cookie) =>
  cookie
    .split("; ")
    .filter((c) => c.includes("session_token"))
    .join("; ");

/**
 * lib.mjs d1Query's read (wrangler's local D1, beside the server) without blocking the event loop.
 * A loop blocked past workerd's 5 s keep-alive (a wrangler process on a busy machine) leaves undici
 * a pooled socket that workerd has closed, and the next request fails "other side closed"; awaited,
 * undici drops the idle socket at its own 4 s.
 */
export async function d1Read(sql, stateDir) {
  const args = ["wrangler", "d1", "execute", "DB", "--local", ...persistArgs(stateDir), "--json"];
  const { stdout } = await promisify(execFile)("npx", [...args, "--command", sql], {
    cwd: root,
    env: quietEnv,
    maxBuffer: 64 * 2 ** 20,
  });
  return JSON.parse(stdout)[0]?.results ?? [];
}

export const loadDonorIds = async (stateDir) =>
  (
    await d1Read(
      "SELECT id FROM donor WHERE id GLOB 'bd[0-9]*' AND substr(id, 3) NOT GLOB '*[^0-9]*' LIMIT 50",
      stateDir,
    )
  ).map((r) => r.id);

/** The mixed load's nine request kinds against `apiBase`; `names[i]` names `mixed[i]`. */
export function mixedRequests(apiBase, cookie, tokenOnly, from, donorIds) {
  let noteN = 0;
  const trpcGet = (proc, o) => ({ method: "GET", path: `/api/trpc/${proc}${input(o)}`, headers: { cookie } });
  const mixed = [
    {
      method: "POST",
      path: "/api/auth/sign-in/email",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "member@almoner.test", password: DEMO_PASSWORD }),
    },
    { method: "GET", path: "/api/auth/get-session", headers: { cookie } },
    { method: "GET", path: "/api/auth/get-session?disableCookieCache=true", headers: { cookie: tokenOnly } },
    trpcGet("donations.list", { status: ["completed"], from, sort: "amount" }),
    trpcGet("donations.list", {}),
    trpcGet("donors.list", { tagId: "btag1" }),
    trpcGet("dashboard.summary", { days: 30 }),
    trpcGet("campaigns.analytics", { id: "bc1", days: 30 }),
    {
      method: "POST",
      path: "/api/trpc/donors.notes.create",
      headers: { cookie, "content-type": "application/json", origin: apiBase },
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({
          json: {
            donorId: donorIds[noteN++ % donorIds.length] ?? "bd1",
            body: `Load test note ${noteN}`,
          },
        }),
      }),
    },
  ];
  const names = [
    "sign-in",
    "get-session warm",
    "get-session D1",
    "donations.list amount",
    "donations.list default",
    "donors.list tag",
    "dashboard.summary 30 d",
    "campaigns.analytics",
    "donors.notes.create",
  ];
  return { mixed, names };
}

/**
 * Cold answers: a new gift (an audited change) before every request bumps the analytics version,
 * so each answer is computed from D1. Twenty answers per budgeted row: their p95 allows one slow
 * answer in twenty, as a p95 says (of 15, the p95 was the slowest; the first answer of a range
 * reads its pages from disk).
 */
export const COLD_SAMPLES = 20;

/** The HTTP timers of the harness `h` (its `base`, `apiBase`, `cookie` and `row`). */
export function timers({ base, apiBase, cookie, row }) {
  /** One latency row: p50 / p95 of `times`, against a p95 budget when there is one. */
  function latencyRow(name, times, budgetMs) {
    const p95 = pct(times, 95);
    row(
      "http",
      `${name} p50 / p95`,
      `${pct(times, 50)} / ${p95} ms`,
      budgetMs ? `p95 ≤ ${budgetMs} ms` : "",
      budgetMs ? p95 <= budgetMs : null,
    );
  }
  /** `n` GETs of `path` after 5 warm-ups (/api/* straight to the Worker, pages through `base`). */
  async function lat(name, path, n = 60, budgetMs = null, headers = { cookie }) {
    const times = [];
    for (let i = 0; i < n + 5; i++) {
      const t0 = performance.now();
      const res = await fetch((path.startsWith("/api/") ? apiBase : base) + path, { headers });
      await res.arrayBuffer();
      if (!res.ok) {
        row("http", `${name}`, `HTTP ${res.status}`, "no 5xx", false);
        return;
      }
      if (i >= 5) times.push(performance.now() - t0);
    }
    latencyRow(name, times, budgetMs);
  }
  /** `n` tRPC mutations after 3 warm-ups; `body(i)` gives the i-th call's `{ proc, json }`. */
  async function writeLat(name, n, budgetMs, body) {
    const times = [];
    for (let i = 0; i < n + 3; i++) {
      const { proc, json } = body(i);
      const t0 = performance.now();
      const res = await fetch(`${apiBase}/api/trpc/${proc}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: apiBase },
        body: JSON.stringify({ json }),
      });
      await res.arrayBuffer();
      if (!res.ok) {
        row("http", name, `HTTP ${res.status}`, "no 5xx", false);
        return;
      }
      if (i >= 3) times.push(performance.now() - t0);
    }
    latencyRow(name, times, budgetMs);
  }
  /** `n` cold answers of `path`, each after a new gift (into `campaignId`, else the general fund). */
  async function coldLat(name, path, n, budgetMs, campaignId = null) {
    const times = [];
    for (let i = 0; i < n; i++) {
      const gift = await fetch(`${apiBase}/api/trpc/donations.create`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: apiBase },
        body: JSON.stringify({
          json: {
            donorId: null,
            campaignId,
            amountMinor: 2_500,
            currency: "USD",
            paymentMethod: "cash",
            donatedAt: Date.now() - 60_000,
          },
        }),
      });
      await gift.arrayBuffer();
      if (!gift.ok) {
        row("http", name, `setup gift HTTP ${gift.status}`, "no 5xx", false);
        return;
      }
      const t0 = performance.now();
      const res = await fetch(apiBase + path, { headers: { cookie } });
      await res.arrayBuffer();
      if (!res.ok) {
        row("http", name, `HTTP ${res.status}`, "no 5xx", false);
        return;
      }
      times.push(performance.now() - t0);
    }
    latencyRow(name, times, budgetMs);
  }
  return { latencyRow, lat, writeLat, coldLat };
}
