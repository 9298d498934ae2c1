// The `load` part: throughput under concurrency: get-session (warm cookie cache, KV, D1; straight
// and through Miniflare's hops), sign-in, the mixed traffic (undici, then autocannon), the mix
// without sign-ins and our auth beside better-auth's (scripts/bench-peer.mjs). It needs the `cron`
// part first: the mix's campaign analytics read the general fund's rollups.

import { join } from "node:path";
import autocannon from "autocannon";
import { benchMixedNoSignIn, benchPeer, causesOf, runMixed } from "../bench-peer.mjs";
import { answersWith, config, DEMO_PASSWORD, loadDonorIds, mixedRequests, workerdRss } from "./harness.mjs";

export async function load(h) {
  const ac = cannon(h);
  await sessions(h, ac);
  await signIn(h);
  const { mixed, names } = mixedRequests(
    h.apiBase,
    h.cookie,
    h.tokenOnly,
    h.from,
    await loadDonorIds(h.stateDir),
  );
  await mixedLoad(h, mixed, names);
  await mixedAutocannon(h, mixed);
  // Issue 27: the portal's everyday traffic without sign-ins, then our auth beside the real
  // better-auth 1.3.34, served the same way in a workerd of their own (scripts/bench-peer.mjs).
  h.results.mixedNoSignIn = await benchMixedNoSignIn({
    apiBase: h.apiBase,
    cookie: h.cookie,
    from: h.from,
    donorIds: await loadDonorIds(h.stateDir),
    row: h.row,
    seconds: config.loadSeconds,
  });
  h.results.peer = await benchPeer({ row: h.row, stateDir: join(h.stateDir, "peer") });
}

/** 5 s of autocannon on one path: a row of req/s and latencies; returns the req/s. */
function cannon({ apiBase, row, pct }) {
  return async function ac(name, path, headers, connections, via = apiBase) {
    // autocannon's summary has no p95: every response's time is kept and the percentiles taken here.
    const times = [];
    const r = await autocannon({
      url: via + path,
      connections,
      duration: 5,
      headers,
      setupClient: (client) => client.on("response", (_status, _bytes, ms) => times.push(ms)),
    });
    const q = (p) => pct(times, p).toFixed(1);
    row(
      "load",
      `${name} @${connections}`,
      `${Math.round(r.requests.average)} req/s`,
      `p50 ${q(50)} / p95 ${q(95)} / p99 ${q(99)} ms`,
    );
    return r.requests.average;
  };
}

/** Throughput of get-session: warm cookie cache vs the D1 path. */
async function sessions({ apiBase, base, proxiedApiBase, cookie, tokenOnly, row }, ac) {
  // The cookie cache lives cookie.cacheMaxAge (60 s): take a fresh one before each warm run, as a
  // browser holds one (every read past the cookie cache issues it again).
  async function freshCookie() {
    const res = await fetch(`${apiBase}/api/auth/get-session`, { headers: { cookie: tokenOnly } });
    await res.arrayBuffer();
    const data = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => c.includes("session_data="));
    return data ? `${tokenOnly}; ${data}` : cookie;
  }
  for (const c of [1, 10, 50]) {
    const warm = await ac(
      "get-session, warm cookie cache",
      "/api/auth/get-session",
      { cookie: await freshCookie() },
      c,
    );
    const d1 = await ac(
      "get-session, disableCookieCache (D1)",
      "/api/auth/get-session?disableCookieCache=true",
      { cookie: tokenOnly },
      c,
    );
    row("load", `warm / D1 throughput ratio @${c}`, `${(warm / d1).toFixed(2)}×`, "≥ 3×", warm / d1 >= 3);
  }
  await ac("get-session, KV cache (no cookie cache)", "/api/auth/get-session", { cookie: tokenOnly }, 10);
  // The same pair through Miniflare's entry worker and through its assets RPC proxy alone (where
  // /api/* was measured before decision 042), for comparison with earlier tables.
  for (const [how, via] of [
    ["via Miniflare's entry", base],
    ["through the assets proxy (before decision 042)", proxiedApiBase],
  ]) {
    const warm = await ac(
      `get-session, warm, ${how}`,
      "/api/auth/get-session",
      { cookie: await freshCookie() },
      10,
      via,
    );
    const d1 = await ac(
      `get-session, D1, ${how}`,
      "/api/auth/get-session?disableCookieCache=true",
      { cookie: tokenOnly },
      10,
      via,
    );
    row("load", `warm / D1 throughput ratio ${how} @10`, `${(warm / d1).toFixed(2)}×`);
  }
}

async function signIn({ apiBase, row, pct }) {
  const siTimes = [];
  const si = await autocannon({
    url: `${apiBase}/api/auth/sign-in/email`,
    method: "POST",
    connections: 10,
    duration: 5,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@almoner.test", password: DEMO_PASSWORD }),
    setupClient: (client) => client.on("response", (_status, _bytes, ms) => siTimes.push(ms)),
  });
  row(
    "load",
    "sign-in (scrypt) @10",
    `${Math.round(si.requests.average)} req/s`,
    `p50 ${Math.round(pct(siTimes, 50))} / p95 ${Math.round(pct(siTimes, 95))} / p99 ${Math.round(pct(siTimes, 99))} ms`,
  );
}

/**
 * BENCH_LOAD_SECONDS (60) of mixed traffic at 50 connections: sign-in, get-session, lists,
 * analytics, a mutation. 50 closed-loop connections through Node's HTTP client (undici, keep-alive,
 * as a browser or a server-side client talks), each starting at a different kind and cycling
 * through all nine, a 10 s timeout per request; per-kind latencies, statuses and failures.
 */
async function mixedLoad({ apiBase, row, pct, results }, mixed, names) {
  const rssBefore = workerdRss();
  const {
    statusCounts,
    perKind,
    all,
    failures,
    timeouts,
    seconds: loadSecs,
  } = await runMixed(apiBase, mixed, config.loadSeconds);
  const fives = answersWith(statusCounts, 500, 600);
  const fours = answersWith(statusCounts, 400, 500);
  row(
    "load",
    `mixed ${loadSecs.toFixed(1)} s @50, ${mixed.length} request kinds (${all.length.toLocaleString()} answers)`,
    `${Math.round(all.length / loadSecs)} req/s`,
    `p50 ${Math.round(pct(all, 50))} / p95 ${Math.round(pct(all, 95))} / p99 ${Math.round(pct(all, 99))} / max ${Math.round(pct(all, 100))} ms`,
  );
  row(
    "load",
    "mixed: 5xx / 4xx / connection errors / timeouts",
    `${fives} / ${fours} / ${failures} / ${timeouts}`,
    "all 0",
    fives + fours + failures + timeouts === 0,
  );
  for (const [i, k] of perKind.entries())
    row(
      "load",
      `mixed: ${names[i]} (${k.times.length})`,
      `p50 ${Math.round(pct(k.times, 50))} / p95 ${Math.round(pct(k.times, 95))} / max ${Math.round(pct(k.times, 100))} ms`,
      k.errors + k.timeouts
        ? `${k.errors} errors${k.errors ? ` (${causesOf(k)})` : ""}, ${k.timeouts} timeouts`
        : "",
    );
  results.memory = { ...results.memory, beforeMixedLoad: rssBefore, afterMixedLoad: workerdRss() };
  results.mixedStatuses = statusCounts;
}

/**
 * The same mix from autocannon's raw-socket client, half as long, for comparison with earlier runs
 * (docs/performance.md, "Stability under load").
 */
async function mixedAutocannon({ apiBase, row }, mixed) {
  const acStatuses = {};
  let clientN = 0;
  const acRun = await autocannon({
    url: apiBase,
    connections: 50,
    duration: Math.max(10, Math.round(config.loadSeconds / 2)),
    requests: mixed,
    setupClient: (client) => {
      // autocannon starts every connection at the first request of the list: all 50 would sign
      // in at the same moment and stay in step. Start each at a different kind, as above.
      for (let k = clientN++ % mixed.length; k > 0; k--) client.requestIterator.nextRequest();
      client.on("response", (status) => {
        acStatuses[status] = (acStatuses[status] ?? 0) + 1;
      });
    },
  });
  const acBad = answersWith(acStatuses, 400, 600);
  row(
    "load",
    `mixed through autocannon ${acRun.duration} s @50: req/s; 4xx+5xx / socket errors / timeouts`,
    `${Math.round(acRun.requests.average)} req/s; ${acBad} / ${acRun.errors} / ${acRun.timeouts}`,
    `p50 ${acRun.latency.p50} / p97.5 ${acRun.latency.p97_5} / p99 ${acRun.latency.p99} / max ${acRun.latency.max} ms`,
  );
}
