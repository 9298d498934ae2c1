// The peer baseline of issue 27: our /api/auth against the real better-auth 1.3.34, served the
// same way and measured side by side in one run; and the portal's traffic without sign-ins.
//
// The peer (bench/peer/worker.ts) is better-auth as a Cloudflare Worker: D1 through its drizzle
// adapter (bench/peer/schema.sql), the cookie cache on (60 s), once without and once with KV as
// its `secondaryStorage`; the contract oracle's options (test/oracle/server.ts), its password
// hasher too (scrypt at N=1024, r=8, through node:crypto as in the oracle), and a third copy
// hashing at our cost (N=16384, r=16) so that sign-in and sign-up also compare like with like.
// It is bundled here with esbuild (as wrangler bundles a Worker). Our production build
// (dist/server) and the peers run as Workers of one workerd through Miniflare (the package and
// workerd the bench serves our build with), each on a socket straight into it and with a D1 and KV
// of its own; `startSystems` says why ours is not measured through the bench's own server.
//
// Each system gets one new user (signed up, then signed in once for its cookies). Every
// measurement runs each system in turn, round after round, the order rotated each round, so the
// machine's noise falls on all of them alike; a warm run takes a fresh cookie cache first. Each row
// also gives workerd's CPU time per answer (the whole process, HTTP, D1 and KV included), which
// moves far less with the machine's load than requests per second do.
//
// `benchMixedNoSignIn` and `benchPeer` are steps of `npm run bench` (scripts/bench.mjs, its load
// section). Alone, the comparison needs only the build; the mixed load seeds a world
// (BENCH_DONATIONS, default 20 000 here) and serves it as the bench does:
//
//   npx node scripts/bench-peer.mjs [--no-build] [--state <dir>] [--seconds N] [--rounds N]
//                                   [--connections 1,10,50] [--no-peer] [--no-mixed] [--mixed-seconds N]
//                                   [--ours <dist/server>] [--baseline <another build's dist/server>]
//                                   [--rate-limits]
//
// `--baseline` adds a second build of ours (e.g. the last commit's, built in another folder) to
// every round: before / after figures from one run. `--rate-limits` serves every system with its
// production rate limiting on (RATE_LIMITS_ON below). Reports; never fails on a budget.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { capture, freePort, percentile, root } from "./lib.mjs";

/** The goal of issue 27: our get-session at least twice better-auth's throughput, every row. */
export const PEER_RATIO_BUDGET = 2;

/** The peer Workers: one script, three configurations. */
const PEERS = [
  { name: "peer-d1", label: "better-auth D1", bindings: { PEER_PASSWORD: "oracle" } },
  {
    name: "peer-kv",
    label: "better-auth D1 + KV",
    bindings: { PEER_PASSWORD: "oracle", PEER_SECONDARY_STORAGE: "kv" },
  },
  { name: "peer-hash", label: "better-auth D1, our scrypt cost", bindings: { PEER_PASSWORD: "ours" } },
];

/**
 * `--rate-limits`: every system counts requests as it does in production, with limits no run
 * reaches. Ours: RATE_LIMIT_ENABLED and every limit raised (its D1 counts and Rate Limiting
 * bindings); better-auth: its production default, counted in the isolate's memory. Every request
 * names a client address (better-auth counts none without one).
 */
const RATE_LIMITS_ON = Object.fromEntries(
  [
    "RATE_LIMIT_MAX",
    "RATE_LIMIT_STRICT_MAX",
    "RATE_LIMIT_MAIL_MAX",
    "RATE_LIMIT_ACCOUNT_MAX",
    "RATE_LIMIT_MAIL_ACCOUNT_MAX",
  ].map((k) => [k, "1000000000"]),
);
RATE_LIMITS_ON.RATE_LIMIT_ENABLED = "true";
let clientHeaders = {};

const sortedOf = (arr) => Float64Array.from(arr).sort();
const ms1 = (v) => v.toFixed(1);

/** The workerd processes this process started (Miniflare runs each instance in one). */
const workerdChildren = () =>
  execFileSync("sh", ["-c", `pgrep -P ${process.pid} workerd || true`], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map(Number);

/** CPU time (user + system, µs) the processes `pids` have used so far. */
const cpuMicros = (pids) =>
  pids.reduce((sum, pid) => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return sum + (Number(f[11]) + Number(f[12])) * 10_000;
    } catch {
      return sum;
    }
  }, 0);

/** Bundles bench/peer/worker.ts for workerd (esbuild, as wrangler bundles a Worker): the file. */
export async function buildPeer(outDir) {
  const { build } = await import("esbuild");
  const outfile = join(outDir, "peer.js");
  await build({
    entryPoints: [join(root, "bench", "peer", "worker.ts")],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["node:*", "cloudflare:*"],
    minify: true,
    logLevel: "warning",
  });
  return outfile;
}

/**
 * Every system of the comparison in one workerd through Miniflare, each on a socket straight into
 * its Worker: our production build (dist/server, its wrangler.json's bindings and compatibility,
 * rate limits off as in every harness, mail to the D1 outbox), the three peers, and four floors: a
 * Worker answering `null`, the same behind the assets proxy, one only reading ours' session from
 * ours' D1, one only reading a KV value. Each system has a D1 and a KV of its own (ours migrated
 * with our migrations, the peers' with bench/peer/schema.sql), persisted under `stateDir` as the
 * bench's are. Request logs are
 * written by our Worker as in production and dropped by the harness (not parsed and printed here).
 *
 * Why ours is served here without assets: Miniflare 5 points the "direct" socket of a Worker that
 * has static assets at its assets RPC proxy, a JavaScript Worker in front of ours (≈ 0.45–0.7 ms
 * of workerd CPU per request here, a quarter or less of the throughput of a Worker that does
 * nothing: the two floor rows). A deployed Worker with `run_worker_first` has no such hop in its
 * CPU. The peers have no assets, so ours is served without them too (get-session, sign-in and
 * sign-up never read them).
 * The bench's own server (scripts/lib.mjs serveBuildDirect) keeps the assets for its pages and
 * reaches its Worker past the proxy through a socket declared on another Worker (decision 042).
 */
export async function startSystems(
  stateDir,
  {
    ours = join(root, "dist", "server"),
    baseline = null,
    secret = randomBytes(32).toString("hex"),
    rateLimits = false,
  } = {},
) {
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  mkdirSync(join(stateDir, "empty-assets"), { recursive: true });
  // Our migrations into ours' D1 (wrangler's local layout is Miniflare's under v3/).
  capture("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir]);
  const before = new Set(workerdChildren());
  const script = await buildPeer(stateDir);
  /** A build of ours (a dist/server folder) as a Worker: serveBuildDirect's options without the assets. */
  const build = (name, dir) => {
    const { workerOptions } = unstable_getMiniflareWorkerOptions(join(dir, "wrangler.json"));
    // The keys scripts/lib.mjs serveBuildDirect leaves out, and the assets (see above).
    const { rootPath, cronTriggers, email, modulesRules, connectHandlers, assets, ...options } =
      workerOptions;
    return {
      assets,
      options,
      worker: {
        ...options,
        name,
        bindings: {
          // The run's secret, as the peers get it: a build made without .dev.vars (a fresh clone's
          // `--no-build`) carries none, and every auth answer would be a 500.
          AUTH_SECRET: secret,
          ...options.bindings,
          MAIL_TRANSPORT: "outbox",
          ...(rateLimits ? RATE_LIMITS_ON : { RATE_LIMIT_ENABLED: "false" }),
        },
        // --rate-limits: the bindings counting as in production, with limits no run reaches.
        ...(rateLimits && options.ratelimits
          ? {
              ratelimits: Object.fromEntries(
                Object.entries(options.ratelimits).map(([k, v]) => [
                  k,
                  { ...v, simple: { ...v.simple, limit: 1_000_000_000 } },
                ]),
              ),
            }
          : {}),
        modulesRoot: dir,
        modules: [
          "index.js",
          ...readdirSync(join(dir, "assets"))
            .filter((f) => f.endsWith(".js"))
            .map((f) => `assets/${f}`),
        ].map((f) => ({ type: "ESModule", path: join(dir, f) })),
        unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
      },
    };
  };
  const { assets, options, worker: oursWorker } = build("ours", ours);
  // A second build of ours (`baseline`, e.g. the last commit's), on the same D1 and KV: before /
  // after figures from one run.
  const baselineWorker = baseline ? [build("ours-baseline", baseline).worker] : [];
  const compatibility = {
    compatibilityDate: options.compatibilityDate,
    compatibilityFlags: options.compatibilityFlags,
  };
  const direct = { unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }] };
  const floor = {
    modules: true,
    script:
      'export default { fetch() { return new Response("null", { headers: { "content-type": "application/json" } }); } };',
    ...compatibility,
    ...direct,
  };
  // The store floors: a Worker that reads what a get-session past every cache must read and
  // answers it, nothing else. "floor-d1" runs ours' own statements (worker/auth/core.ts
  // findSessionAndUser: one batch on the primary, the session by its token's hash, then its user)
  // on ours' D1, the hash in `?h=`; "floor-kv" reads one session-sized JSON value from a KV of its
  // own, as better-auth with `secondaryStorage` reads it. Their CPU per answer is the least any
  // answer reading that store can cost here, and so bounds the ratio one store can reach against
  // the other (decision 034).
  const storeFloor = (read) => ({
    modules: true,
    script: `export default { async fetch(request, env) { return new Response(JSON.stringify(await (${read})(new URL(request.url), env)), { headers: { "content-type": "application/json" } }); } };`,
    ...compatibility,
    ...direct,
  });
  const floorD1 = storeFloor(`async (url, env) => {
    const db = env.DB.withSession("first-primary"), h = url.searchParams.get("h");
    const [s, u] = await db.batch([
      db.prepare("SELECT * FROM session WHERE token_hash = ?").bind(h),
      db.prepare("SELECT * FROM user WHERE id = (SELECT user_id FROM session WHERE token_hash = ?)").bind(h),
    ]);
    return { session: s.results[0] ?? null, user: u.results[0] ?? null };
  }`);
  const floorKv = storeFloor(`(url, env) => env.KV.get("session", "json")`);
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: join(stateDir, "v3"),
      host: "127.0.0.1",
      port: await freePort(),
      logRequests: false,
      handleStructuredLogs: () => {},
      workers: [
        oursWorker,
        ...baselineWorker,
        ...PEERS.map((p) => ({
          name: p.name,
          modulesRoot: stateDir,
          modules: [{ type: "ESModule", path: script }],
          ...compatibility,
          d1Databases: { DB: `${p.name}-d1` },
          kvNamespaces: { KV: `${p.name}-kv` },
          bindings: {
            AUTH_SECRET: secret,
            ...p.bindings,
            ...(rateLimits ? { PEER_RATE_LIMIT: "memory" } : {}),
          },
          ...direct,
        })),
        // The floors: a Worker answering `null` without reading anything. Nothing served the same
        // way can be faster; the second has static assets (an empty folder), so Miniflare's
        // assets RPC proxy stands in front of it as it stood in front of the bench's own /api/*
        // rows before decision 042.
        { name: "floor", ...floor },
        {
          name: "floor-assets",
          ...floor,
          assets: { ...assets, directory: join(stateDir, "empty-assets") },
        },
        { name: "floor-d1", ...floorD1, d1Databases: { DB: options.d1Databases.DB } },
        { name: "floor-kv", ...floorKv, kvNamespaces: { KV: "floor-kv" } },
      ],
    }),
  );
  await mf.ready;
  const schema = readFileSync(join(root, "bench", "peer", "schema.sql"), "utf8")
    .replace(/--.*$/gm, "")
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);
  const bases = {};
  for (const p of PEERS) {
    const db = await mf.getD1Database("DB", p.name);
    await db.batch(schema.map((s) => db.prepare(s)));
  }
  for (const name of [
    "ours",
    ...(baseline ? ["ours-baseline"] : []),
    ...PEERS.map((p) => p.name),
    "floor",
    "floor-assets",
    "floor-d1",
    "floor-kv",
  ])
    bases[name] = (await mf.unsafeGetDirectURL(name)).origin;
  // A session record's size: better-auth's KV value for the peer's user is ≈ 600–700 bytes.
  await (await mf.getKVNamespace("KV", "floor-kv")).put(
    "session",
    JSON.stringify({
      session: { id: "s".repeat(32), token: "t".repeat(32), userAgent: "Mozilla/5.0 ".repeat(10) },
      user: { id: "u".repeat(32), name: "Peer Bench", email: "peer@bench.example" },
      pad: "p".repeat(300),
    }),
  );
  const pids = workerdChildren().filter((pid) => !before.has(pid));
  return { mf, bases, pids, stop: () => mf.dispose() };
}

/** The Cookie header of a response's Set-Cookie lines (name=value only). */
const cookiesOf = (res) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="));
const tokenOnly = (cookie) =>
  cookie
    .split("; ")
    .filter((c) => c.includes("session_token="))
    .join("; ");

/** A new user on `base`: signed up, then signed in once. The session-token cookie. */
async function newUser(base, tag) {
  const email = `peer-${tag}-${Date.now()}-${randomBytes(3).toString("hex")}@bench.example`;
  const password = `Bench ${randomBytes(9).toString("base64url")} 27`;
  const up = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, name: "Peer Bench" }),
  });
  if (!up.ok) throw new Error(`sign-up on ${base}: HTTP ${up.status} ${await up.text()}`);
  await up.arrayBuffer();
  const inn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!inn.ok) throw new Error(`sign-in on ${base}: HTTP ${inn.status} ${await inn.text()}`);
  await inn.arrayBuffer();
  return { email, password, token: tokenOnly(cookiesOf(inn).join("; ")) };
}

/** The token cookie plus a cookie cache just issued (a read past the cookie cache issues one). */
async function freshCookie(base, token) {
  const res = await fetch(`${base}/api/auth/get-session`, { headers: { cookie: token } });
  const body = await res.json();
  if (!body?.session) throw new Error(`get-session on ${base} answered ${JSON.stringify(body)}`);
  const data = cookiesOf(res).find((c) => c.includes("session_data="));
  if (!data) throw new Error(`get-session on ${base} issued no cookie cache`);
  return `${token}; ${data}`;
}

/**
 * One autocannon run: requests per second over the run, every response's latency, what was not a
 * 2xx answer, and the CPU time the serving workerd (`pids`) spent.
 */
async function cannon(url, { connections, seconds, pids = [], ...opts }) {
  const times = [];
  const cpu0 = cpuMicros(pids);
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    ...opts,
    headers: { ...clientHeaders, ...opts.headers },
    setupClient: (client) => client.on("response", (_status, _bytes, ms) => times.push(ms)),
  });
  return {
    requests: r.requests.total,
    seconds: r.duration,
    cpu: cpuMicros(pids) - cpu0,
    times,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

/** Runs sum up: req/s over all rounds, pooled percentiles, and each round's req/s. */
function pooled(runs) {
  const requests = runs.reduce((s, r) => s + r.requests, 0);
  const seconds = runs.reduce((s, r) => s + r.seconds, 0);
  const sorted = sortedOf(runs.flatMap((r) => r.times));
  return {
    rps: requests / seconds,
    /** workerd CPU (user + system) per answer, µs: the whole process, HTTP and D1/KV included. */
    cpuPerRequest: runs.reduce((s, r) => s + r.cpu, 0) / Math.max(1, requests),
    each: runs.map((r) => Math.round(r.requests / r.seconds)),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    bad: runs.reduce((s, r) => s + r.bad, 0),
  };
}

/** `rounds` rounds of `run(system)` over `systems`, the order rotated each round. */
async function alternate(systems, rounds, run) {
  const runs = new Map(systems.map((s) => [s, []]));
  for (let round = 0; round < rounds; round++) {
    const order = systems.map((_, i) => systems[(i + round) % systems.length]);
    for (const s of order) runs.get(s).push(await run(s));
  }
  return new Map([...runs].map(([s, r]) => [s, pooled(r)]));
}

const fmt = (m) => `${Math.round(m.rps)} req/s`;
const lat = (m) =>
  `p50 ${ms1(m.p50)} / p95 ${ms1(m.p95)} / p99 ${ms1(m.p99)} ms; workerd CPU ${Math.round(m.cpuPerRequest)} µs/answer; rounds ${m.each.join(", ")}${m.bad ? `; ${m.bad} bad` : ""}`;

/**
 * Our get-session, sign-in and sign-up against better-auth's, side by side, in a workerd of their
 * own (`startSystems`, state under `stateDir`); `row(group, name, value, budget, ok)` prints and
 * records a table row. Returns the figures (also for bench/results.json).
 */
export async function benchPeer({
  row,
  stateDir,
  seconds = Number(process.env.BENCH_PEER_SECONDS ?? 3),
  rounds = Number(process.env.BENCH_PEER_ROUNDS ?? 3),
  connections = [1, 10, 50],
  ours,
  baseline = null,
  rateLimits = false,
  log = console.log,
}) {
  clientHeaders = rateLimits ? { "x-forwarded-for": "203.0.113.9", "cf-connecting-ip": "203.0.113.9" } : {};
  const served = await startSystems(stateDir, { ours, baseline, rateLimits });
  const out = { floor: [], storeCeiling: [], getSession: [], signIn: null, signUp: null };
  try {
    const system = (key, label) => ({ key, label, base: served.bases[key], pids: served.pids });
    const systems = [
      system("ours", "ours"),
      ...(baseline ? [system("ours-baseline", "ours before (baseline build)")] : []),
      ...PEERS.filter((p) => p.name !== "peer-hash").map((p) => system(p.name, p.label)),
    ];
    for (const s of systems) s.user = await newUser(s.base, s.key);
    // ours' session token (the signed cookie's value before its signature) hashed as ours stores it.
    const oursToken = decodeURIComponent(systems[0].user.token.split("=")[1]).split(".")[0];
    const floors = [
      system("floor", "floor: a Worker answering null"),
      system(
        "floor-assets",
        "floor behind Miniflare's assets proxy (the bench's own server before decision 042)",
      ),
      {
        ...system(
          "floor-d1",
          "floor: a Worker reading ours' session and user from D1 (one batch), nothing else",
        ),
        path: `/?h=${createHash("sha256").update(oursToken).digest("hex")}`,
      },
      system("floor-kv", "floor: a Worker reading one session-sized value from KV, nothing else"),
    ];
    const floorD1 = floors.find((f) => f.key === "floor-d1");
    const floorSession = await (await fetch(floorD1.base + floorD1.path)).json();
    if (!floorSession.session || !floorSession.user) throw new Error("floor-d1 found no session of ours");
    const path = { warm: "/api/auth/get-session", cold: "/api/auth/get-session?disableCookieCache=true" };
    // Warm-up: each system's code paths compiled before anything is timed.
    for (const s of systems)
      for (const mode of ["warm", "cold"])
        await cannon(s.base + path[mode], {
          connections: 10,
          seconds: 1,
          headers: { cookie: mode === "warm" ? await freshCookie(s.base, s.user.token) : s.user.token },
          pids: s.pids,
        });
    const MODES = [
      ["warm", "get-session, warm cookie cache"],
      ["cold", "get-session, disableCookieCache"],
    ];
    for (const c of connections) {
      log(`  peer: get-session @${c}…`);
      // Both modes inside one round, so a round is a few seconds apart for every row.
      const pairs = floors.map((s) => ({ s, mode: "floor" }));
      for (const s of systems) for (const [mode] of MODES) pairs.push({ s, mode });
      const results = await alternate(pairs, rounds, async ({ s, mode }) =>
        mode === "floor"
          ? cannon(s.base + (s.path ?? ""), { connections: c, seconds, pids: s.pids })
          : cannon(s.base + path[mode], {
              connections: c,
              seconds,
              headers: { cookie: mode === "warm" ? await freshCookie(s.base, s.user.token) : s.user.token },
              pids: s.pids,
            }),
      );
      for (const [i, f] of floors.entries()) {
        const m = results.get(pairs[i]);
        row("load", `peer: ${f.label} @${c}`, fmt(m), lat(m));
        out.floor.push({ floor: f.key, connections: c, rps: m.rps, cpuPerRequest: m.cpuPerRequest });
      }
      // The most a disableCookieCache answer reading a store could reach against each peer: a
      // floor (a Worker doing nothing but that read) over the peer's answer. The D1 floor bounds
      // ours as built (decision 034: D1 first, so a revoked session is refused at once); the KV
      // floor bounds any answer reading KV instead, so a row under 2× there is out of reach of
      // every design that reads a store, which disableCookieCache asks for.
      const floorKv = floors.find((f) => f.key === "floor-kv");
      const ceilings = [
        ["peer-d1", floorD1, "the most any D1 read can reach: the D1 floor"],
        ["peer-kv", floorD1, "the most any D1 read can reach: the D1 floor"],
        ["peer-kv", floorKv, "the most any store read can reach: the KV floor"],
      ];
      for (const [peerKey, f, what] of ceilings) {
        const peer = systems.find((s) => s.key === peerKey);
        if (!peer) continue;
        const theirs = results.get(pairs.find((p) => p.s === peer && p.mode === "cold"));
        const read = results.get(pairs[floors.indexOf(f)]);
        const ceiling = {
          connections: c,
          floor: f.key,
          peer: peerKey,
          rps: read.rps / theirs.rps,
          cpu: theirs.cpuPerRequest / read.cpuPerRequest,
        };
        row(
          "load",
          `peer: disableCookieCache @${c}, ${what} / ${peer.label}`,
          `${ceiling.rps.toFixed(2)}× (CPU ${ceiling.cpu.toFixed(2)}×)`,
        );
        out.storeCeiling.push(ceiling);
      }
      for (const [mode, title] of MODES) {
        const of = (s) => results.get(pairs.find((p) => p.s === s && p.mode === mode));
        const ours = of(systems[0]);
        for (const s of systems) {
          const m = of(s);
          row("load", `peer: ${title} @${c}, ${s.label}`, fmt(m), lat(m));
        }
        for (const s of systems.slice(1)) {
          const ratio = ours.rps / of(s).rps;
          // The budget is on throughput; the CPU ratio beside it moves far less with the machine.
          const value = `${ratio.toFixed(2)}× (CPU ${(of(s).cpuPerRequest / ours.cpuPerRequest).toFixed(2)}×)`;
          if (s.key === "ours-baseline") {
            row("load", `peer: ${title} @${c}, ours / ${s.label}`, value);
            continue;
          }
          row(
            "load",
            `peer: ${title} @${c}, ours / ${s.label}`,
            value,
            `≥ ${PEER_RATIO_BUDGET}×`,
            ratio >= PEER_RATIO_BUDGET && ours.bad === 0,
          );
          out.getSession.push({
            mode,
            connections: c,
            peer: s.key,
            ours: ours.rps,
            theirs: of(s).rps,
            ratio,
            oursP95: ours.p95,
            theirsP95: of(s).p95,
            oursCpu: ours.cpuPerRequest,
            theirsCpu: of(s).cpuPerRequest,
          });
        }
      }
    }

    // Sign-in and sign-up: the credential paths, @10, our scrypt (N=16384, r=16) against the
    // peer's with the oracle's hasher (N=1024, r=8) and with ours.
    const hashPeer = system("peer-hash", PEERS[2].label);
    hashPeer.user = await newUser(hashPeer.base, hashPeer.key);
    const credentialSystems = [...systems, hashPeer];
    const signIn = await alternate(credentialSystems, rounds, (s) =>
      cannon(`${s.base}/api/auth/sign-in/email`, {
        connections: 10,
        seconds: seconds + 1,
        pids: s.pids,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: s.user.email, password: s.user.password }),
      }),
    );
    let n = 0;
    const signUp = await alternate(credentialSystems, rounds, (s) =>
      cannon(`${s.base}/api/auth/sign-up/email`, {
        connections: 10,
        seconds: seconds + 1,
        pids: s.pids,
        method: "POST",
        headers: { "content-type": "application/json" },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({
                email: `peer-signup-${s.key}-${Date.now()}-${n++}@bench.example`,
                password: s.user.password,
                name: "Peer Bench",
              }),
            }),
          },
        ],
      }),
    );
    for (const [name, results] of [
      ["sign-in (e-mail and password) @10", signIn],
      ["sign-up (e-mail and password) @10", signUp],
    ]) {
      const ours = results.get(credentialSystems[0]);
      for (const s of credentialSystems) {
        const m = results.get(s);
        row(
          "load",
          `peer: ${name}, ${s.label}`,
          fmt(m),
          `p50 ${Math.round(m.p50)} / p95 ${Math.round(m.p95)} ms; workerd CPU ${(m.cpuPerRequest / 1000).toFixed(1)} ms/answer; rounds ${m.each.join(", ")}${m.bad ? `; ${m.bad} bad` : ""}`,
        );
      }
      for (const s of credentialSystems.slice(1))
        row(
          "load",
          `peer: ${name}, ours / ${s.label}`,
          `${(ours.rps / results.get(s).rps).toFixed(2)}× (CPU ${(results.get(s).cpuPerRequest / ours.cpuPerRequest).toFixed(2)}×)`,
        );
      out[name.startsWith("sign-in") ? "signIn" : "signUp"] = Object.fromEntries(
        credentialSystems.map((s) => [s.key, results.get(s).rps]),
      );
    }
  } finally {
    await served.stop();
  }
  return out;
}

/**
 * Closed-loop load from 50 connections through Node's HTTP client (undici, keep-alive, as a
 * browser or a server-side client talks) for `seconds`: connection c starts at kind c and cycles
 * through all of `mixed` (no convoy), a 10 s timeout per request. Statuses, failures, timeouts and
 * latencies per kind; `onTick` (if given) runs every `tickMs` during the load.
 */
/** A kind's connection errors by cause, as "ECONNRESET ×2, other side closed ×1". */
export const causesOf = (k) =>
  Object.entries(k.causes)
    .map(([c, n]) => `${c} ×${n}`)
    .join(", ");

export async function runMixed(apiBase, mixed, seconds, onTick = null, tickMs = 5000) {
  const statusCounts = {};
  // `causes`: what each connection error was (undici's cause code, else the message), counted, so a
  // run that sees some says which (a reset socket, a closed one, a refused one).
  const perKind = mixed.map(() => ({ times: [], errors: 0, timeouts: 0, statuses: {}, causes: {} }));
  const all = [];
  let failures = 0;
  let timeouts = 0;
  const loadStart = performance.now();
  const ticker = onTick && setInterval(onTick, tickMs);
  const loadEnd = loadStart + seconds * 1000;
  async function connection(c) {
    for (let i = c % mixed.length; performance.now() < loadEnd; i = (i + 1) % mixed.length) {
      const kind = mixed[i];
      const req = kind.setupRequest ? kind.setupRequest({ ...kind }) : kind;
      const t0 = performance.now();
      try {
        const res = await fetch(apiBase + req.path, {
          method: req.method,
          headers: req.headers,
          body: req.body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        statusCounts[res.status] = (statusCounts[res.status] ?? 0) + 1;
        perKind[i].statuses[res.status] = (perKind[i].statuses[res.status] ?? 0) + 1;
        const ms = performance.now() - t0;
        perKind[i].times.push(ms);
        all.push(ms);
      } catch (e) {
        if (e?.name === "TimeoutError") {
          timeouts++;
          perKind[i].timeouts++;
        } else {
          failures++;
          perKind[i].errors++;
          const cause = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(e);
          perKind[i].causes[cause] = (perKind[i].causes[cause] ?? 0) + 1;
        }
      }
    }
  }
  await Promise.all(Array.from({ length: 50 }, (_, c) => connection(c)));
  if (ticker) clearInterval(ticker);
  return { statusCounts, perKind, all, failures, timeouts, seconds: (performance.now() - loadStart) / 1000 };
}

const input = (o) => `?input=${encodeURIComponent(JSON.stringify({ json: o }))}`;

/**
 * The portal's everyday traffic at 50 connections without sign-ins (issue 27): a list
 * (donations.list, completed in the last 30 days by amount), a gift's page (donations.byId), the
 * dashboard (dashboard.summary, 30 days) and a write (donors.notes.create, which reads the session
 * in D1, decision 018). Throughput and p95 per kind, and every answer a 2xx.
 */
export async function benchMixedNoSignIn({ apiBase, cookie, from, donorIds, row, seconds = 60 }) {
  const list = `/api/trpc/donations.list${input({ status: ["completed"], from, sort: "amount" })}`;
  const page = await (await fetch(apiBase + list, { headers: { cookie } })).json();
  const giftIds = (page?.result?.data?.json?.rows ?? page?.result?.data?.json?.items ?? [])
    .map((r) => r.id)
    .filter(Boolean);
  if (!giftIds.length) throw new Error(`donations.list gave no ids: ${JSON.stringify(page).slice(0, 300)}`);
  let giftN = 0;
  let noteN = 0;
  const get = (path) => ({ method: "GET", path, headers: { cookie } });
  const mixed = [
    get(list),
    {
      ...get(""),
      setupRequest: (req) => ({
        ...req,
        path: `/api/trpc/donations.byId${input({ id: giftIds[giftN++ % giftIds.length] })}`,
      }),
    },
    get(`/api/trpc/dashboard.summary${input({ days: 30 })}`),
    {
      method: "POST",
      path: "/api/trpc/donors.notes.create",
      headers: { cookie, "content-type": "application/json", origin: apiBase },
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({
          json: { donorId: donorIds[noteN++ % donorIds.length] ?? "bd1", body: `Load test note ${noteN}` },
        }),
      }),
    },
  ];
  const names = [
    "donations.list (completed, 30 d, amount)",
    "donations.byId",
    "dashboard.summary 30 d",
    "donors.notes.create",
  ];
  const load = await runMixed(apiBase, mixed, seconds);
  const count = (from, to) =>
    Object.entries(load.statusCounts).reduce((n, [st, c]) => (+st >= from && +st < to ? n + c : n), 0);
  const fives = count(500, 600);
  const fours = count(400, 500);
  const all = sortedOf(load.all);
  row(
    "load",
    `mixed without sign-ins ${load.seconds.toFixed(1)} s @50, ${mixed.length} kinds (${all.length.toLocaleString()} answers)`,
    `${Math.round(all.length / load.seconds)} req/s`,
    `p50 ${Math.round(percentile(all, 50))} / p95 ${Math.round(percentile(all, 95))} / p99 ${Math.round(percentile(all, 99))} / max ${Math.round(percentile(all, 100))} ms`,
  );
  row(
    "load",
    "mixed without sign-ins: 5xx / 4xx / connection errors / timeouts",
    `${fives} / ${fours} / ${load.failures} / ${load.timeouts}`,
    "all 0",
    fives + fours + load.failures + load.timeouts === 0,
  );
  const kinds = load.perKind.map((k, i) => {
    const t = sortedOf(k.times);
    const m = {
      name: names[i],
      answers: t.length,
      rps: t.length / load.seconds,
      p50: percentile(t, 50),
      p95: percentile(t, 95),
      max: percentile(t, 100),
      errors: k.errors,
      timeouts: k.timeouts,
    };
    row(
      "load",
      `mixed without sign-ins: ${m.name} (${m.answers})`,
      `${Math.round(m.rps)} req/s`,
      `p50 ${Math.round(m.p50)} / p95 ${Math.round(m.p95)} / max ${Math.round(m.max)} ms${k.errors + k.timeouts ? `; ${k.errors} errors${k.errors ? ` (${causesOf(k)})` : ""}, ${k.timeouts} timeouts` : ""}`,
    );
    return m;
  });
  return { rps: all.length / load.seconds, statuses: load.statusCounts, kinds };
}

// Alone: a small world, our build and the peers, the comparison and the mixed load printed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      "no-build": { type: "boolean", default: false },
      "no-peer": { type: "boolean", default: false },
      "no-mixed": { type: "boolean", default: false },
      state: { type: "string" },
      seconds: { type: "string" },
      rounds: { type: "string" },
      connections: { type: "string" },
      ours: { type: "string" },
      baseline: { type: "string" },
      "rate-limits": { type: "boolean", default: false },
      "mixed-seconds": { type: "string", default: "30" },
    },
  });
  process.env.BENCH_DONATIONS ??= "20000";
  const { standaloneWorld } = await import("./bench-seed.mjs");
  const { DEMO_PASSWORD } = await import("./demo-users.mjs");
  const { ensureDevVars, quietEnv, run, serveBuildDirect, signInCookie } = await import("./lib.mjs");
  // The mixed load needs the world; the comparison only the build (its systems start empty).
  let world = null;
  if (!args["no-mixed"])
    world = await standaloneWorld("peer", { build: !args["no-build"], state: args.state });
  else if (!args["no-build"]) {
    ensureDevVars();
    console.log("Building…");
    run("npx", ["vite", "build", "--logLevel", "warn"], { env: quietEnv });
  }
  const scratch = mkdtempSync(join(tmpdir(), "almoner-bench-peer-"));
  const row = (group, name, value, budget = "", ok = null) =>
    console.log(
      `  ${group.padEnd(6)} ${name.padEnd(72)} ${String(value).padStart(14)}  ${budget}${ok === null ? "" : ok ? "  ✔" : "  ✖"}`,
    );
  let server = null;
  try {
    if (!args["no-peer"])
      await benchPeer({
        row,
        stateDir: scratch,
        ...(args.seconds ? { seconds: Number(args.seconds) } : {}),
        ...(args.rounds ? { rounds: Number(args.rounds) } : {}),
        ...(args.connections ? { connections: args.connections.split(",").map(Number) } : {}),
        ...(args.ours ? { ours: args.ours } : {}),
        ...(args.baseline ? { baseline: args.baseline } : {}),
        rateLimits: args["rate-limits"],
      });
    if (world) {
      server = await serveBuildDirect(world.stateDir);
      const cookie = await signInCookie(server.apiBase, "admin@almoner.test", DEMO_PASSWORD);
      const db = await server.mf.getD1Database("DB", "almoner");
      const { results } = await db
        .prepare(
          "SELECT id FROM donor WHERE id GLOB 'bd[0-9]*' AND substr(id, 3) NOT GLOB '*[^0-9]*' LIMIT 50",
        )
        .all();
      await benchMixedNoSignIn({
        apiBase: server.apiBase,
        cookie,
        from: new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10),
        donorIds: results.map((r) => r.id),
        row,
        seconds: Number(args["mixed-seconds"]),
      });
    }
  } finally {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
    world?.done();
  }
}
