// Shared helpers for the project's scripts. They run on the project's Node (npm scripts put
// node_modules/.bin first on PATH), and call wrangler/vite through npx for the same reason.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Keeps wrangler/miniflare from phoning home on an offline machine (stack-facts G6). */
export const quietEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  CI: process.env.CI ?? "1",
};

/**
 * The Worker's upload budget, gzip KiB (docs/performance.md): Cloudflare's free plan takes 3 MiB,
 * but the cold start grows with the bundle, so we keep about a third of that; 1 088 rather than
 * 1 024 until the charts leave the server build (docs/decisions/055-worker-budget-after-the-first-week.md).
 * `npm test` fails above it (scripts/size.mjs --check); the bench reports it.
 */
export const WORKER_GZIP_BUDGET_KIB = 1088;

/** What `wrangler deploy --dry-run` would upload, from its output: KiB raw and gzip, or null. */
export function workerUpload(out) {
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(out);
  return m ? { raw: Number(m[1]), gzip: Number(m[2]) } : null;
}

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: quietEnv, ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed with ${res.status ?? res.signal}`);
  }
  return res;
}

export function capture(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, encoding: "utf8", env: quietEnv, ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${res.stderr || res.stdout}`);
  }
  return res.stdout;
}

export function start(cmd, args, opts = {}) {
  return spawn(cmd, args, { cwd: root, stdio: "inherit", env: quietEnv, ...opts });
}

/** `--persist-to DIR` when a harness keeps its own state, else wrangler's default (.wrangler/state). */
export function persistArgs(stateDir) {
  return stateDir ? ["--persist-to", stateDir] : [];
}

export function migrateLocal(stateDir) {
  run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", ...persistArgs(stateDir)]);
}

export function d1Query(sql, stateDir) {
  const out = capture("npx", [
    "wrangler",
    "d1",
    "execute",
    "DB",
    "--local",
    ...persistArgs(stateDir),
    "--json",
    "--command",
    sql,
  ]);
  const parsed = JSON.parse(out);
  return parsed[0]?.results ?? [];
}

export function d1ExecFile(file, stateDir) {
  run("npx", ["wrangler", "d1", "execute", "DB", "--local", ...persistArgs(stateDir), "--file", file], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** better-auth's scrypt format (N=16384, r=16, p=1, 64-byte key, NFKC, "saltHex:keyHex"). */
export function hashPassword(password) {
  const salt = randomBytes(16).toString("hex");
  const key = scryptSync(password.normalize("NFKC"), salt, 64, {
    N: 16384,
    r: 16,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  return `${salt}:${key.toString("hex")}`;
}

export function newId(size = 24) {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = randomBytes(size);
  let id = "";
  for (const b of bytes) id += alphabet[b % alphabet.length];
  return id;
}

/** .dev.vars holds local secrets; created once with a random AUTH_SECRET. */
export function ensureDevVars() {
  const file = join(root, ".dev.vars");
  if (existsSync(file) && /AUTH_SECRET=/.test(readFileSync(file, "utf8"))) return false;
  writeFileSync(file, `AUTH_SECRET=${randomBytes(32).toString("hex")}\n`, { flag: "a" });
  return true;
}

export function sqlString(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** A free TCP port on loopback (the harnesses never bind a fixed port). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 2xx (every 250 ms, at most `tries` times); false if it never does. */
export async function waitUntilUp(url, tries = 240) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/**
 * The production build (dist/server) in `wrangler dev` on a free loopback port with its own state:
 * requests go straight to workerd (`vite preview` puts a Node proxy in front of every request,
 * which halved throughput on this machine). Resolves once /api/auth/ok answers.
 */
export async function serveBuild(stateDir, env) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = start(
    "npx",
    [
      "wrangler",
      "dev",
      "--config",
      "dist/server/wrangler.json",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      stateDir,
      "--log-level",
      "warn",
      // Rate limits off for harness traffic whatever [vars] say (decision 018).
      "--var",
      "RATE_LIMIT_ENABLED:false",
    ],
    { env, detached: true, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (!(await waitUntilUp(`${base}/api/auth/ok`))) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
    throw new Error("the built worker did not start");
  }
  return { base, server };
}

/**
 * The production build (dist/server) in workerd through Miniflare, without `wrangler dev`'s
 * ProxyWorker: a hot-reload proxy that production does not have, which added ≈ 4–6 ms to every
 * request here and, when it lost its connection to the Worker under load, answered 500 itself
 * (docs/performance.md). Same config as `wrangler dev` reads (dist/server/wrangler.json: bindings,
 * secrets from .dev.vars, compatibility, assets with run_worker_first) and the same persisted state.
 */
export async function serveBuildDirect(stateDir, { inspect = false } = {}) {
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  const dir = join(root, "dist", "server");
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(dir, "wrangler.json"));
  // Dev-server and trigger options Miniflare's own API does not take (the bench calls no cron).
  const { rootPath, cronTriggers, email, modulesRules, connectHandlers, ...options } = workerOptions;
  const modules = [
    "index.js",
    ...readdirSync(join(dir, "assets"))
      .filter((f) => f.endsWith(".js"))
      .map((f) => `assets/${f}`),
  ].map((f) => ({ type: "ESModule", path: join(dir, f) }));
  const inspectorPort = inspect ? await freePort() : undefined;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: join(stateDir, "v3"),
      host: "127.0.0.1",
      port: await freePort(),
      logRequests: false,
      ...(inspectorPort ? { inspectorPort } : {}),
      workers: [
        {
          ...options,
          // Measurements, not traffic: the API limiter and the credential limits stay off even if
          // wrangler.toml's [vars] say ENVIRONMENT=production (decision 018).
          bindings: { ...options.bindings, RATE_LIMIT_ENABLED: "false" },
          name: "almoner",
          modulesRoot: dir,
          modules,
          // A socket of its own, but Miniflare points a Worker's own socket at its assets RPC
          // proxy when it has assets: `proxiedApiBase`, the harness before decision 042.
          unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
        },
        {
          // A socket straight into our Worker's isolate (`apiBase`): declared on a Worker without
          // assets and naming ours as its service, it skips Miniflare's entry worker and the
          // assets RPC proxy, JavaScript hops of ≈ 0.45–0.7 ms of CPU a request on these two cores
          // that a deployed Worker does not run (wrangler.toml `run_worker_first = ["/api/*"]`;
          // docs/decisions/042-the-bench-reaches-the-api-directly.md). /api/* only; pages and
          // assets still go through `base`. The Worker itself never runs.
          name: "almoner-api-socket",
          modules: true,
          script: "export default { fetch() { return new Response(null, { status: 500 }); } };",
          compatibilityDate: options.compatibilityDate,
          unsafeDirectSockets: [{ host: "127.0.0.1", port: 0, serviceName: "almoner" }],
        },
      ],
    }),
  );
  const url = await mf.ready;
  const apiBase = (await mf.unsafeGetDirectURL("almoner-api-socket")).origin;
  const proxiedApiBase = (await mf.unsafeGetDirectURL("almoner")).origin;
  const heap = inspectorPort ? await workerHeap(inspectorPort, apiBase) : null;
  return {
    base: url.origin,
    apiBase,
    proxiedApiBase,
    heap,
    // The Miniflare instance, for harnesses that reach its bindings (D1, KV) as the tests do.
    mf,
    stop: () => {
      heap?.close();
      return mf.dispose();
    },
  };
}

/**
 * Our Worker's JS heap, through workerd's V8 inspector: `live()` collects garbage and answers the
 * bytes still in use. That is the memory an export holds (a process's RSS also counts D1's
 * SQLite and whatever V8 has not returned yet). workerd reads inspector messages only while the
 * isolate runs, so each call is accompanied by a trivial request.
 */
async function workerHeap(port, apiBase) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl?.endsWith("/almoner")) ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  let next = 0;
  const pending = new Map();
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(String(e.data));
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  const call = async (method) => {
    const id = ++next;
    let done = false;
    const answer = new Promise((resolve) => {
      pending.set(id, (m) => {
        done = true;
        resolve(m);
      });
    });
    ws.send(JSON.stringify({ id, method }));
    while (!done) await Promise.race([answer, fetch(`${apiBase}/api/auth/ok`).then((r) => r.arrayBuffer())]);
    return answer;
  };
  return {
    async live() {
      await call("HeapProfiler.collectGarbage");
      return (await call("Runtime.getHeapUsage")).result?.usedSize ?? Number.NaN;
    },
    close: () => ws.close(),
  };
}

/** Signs in by e-mail and password; the Cookie header of the new session. */
export async function signInCookie(base, email, password) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in ${email}: HTTP ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The local D1 database file miniflare keeps under a state folder (the largest .sqlite there). */
export function localD1File(stateDir) {
  const base = join(stateDir ?? join(root, ".wrangler", "state"), "v3", "d1");
  const stack = [base];
  let best = null;
  while (stack.length) {
    const d = stack.pop();
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      const st = statSync(p);
      if (st.isDirectory()) stack.push(p);
      else if (f.endsWith(".sqlite") && (!best || st.size > statSync(best).size)) best = p;
    }
  }
  if (!best) throw new Error(`no local D1 database under ${base}; run the migrations first`);
  return best;
}

/**
 * Reads a file once so that its pages are in the OS cache: this kind of machine pages out memory
 * it has not touched for a while (a DAMON "pageout" scheme), and a measurement that then reads the
 * database from disk measures the disk (docs/performance.md).
 */
export function warmFile(path) {
  const fd = openSync(path, "r");
  const buf = Buffer.allocUnsafe(8 << 20);
  try {
    while (readSync(fd, buf, 0, buf.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

/** Bytes as MiB with one decimal. */
export const mib = (bytes) => +(bytes / 2 ** 20).toFixed(1);

/**
 * Live-heap samples (MiB) summed up: their range and the highest of the first and of the last
 * `1 / parts` of them (growth with the work shows as last > first).
 */
export function heapSummary(samples, before, after, parts) {
  const part = Math.max(1, Math.floor(samples.length / parts));
  return {
    before,
    after,
    min: Math.min(...samples),
    max: Math.max(...samples),
    first: Math.max(...samples.slice(0, part)),
    last: Math.max(...samples.slice(-part)),
    samples: samples.length,
  };
}

/**
 * Streams the donations export once while measuring our Worker's live JS heap (MiB, after a forced
 * GC) before it, at every `every`th chunk and after it; `first` and `last` are tenths.
 */
export async function exportLiveHeap(apiBase, cookie, heap, every = 20) {
  const before = mib(await heap.live());
  const res = await fetch(`${apiBase}/api/export/donations.csv`, { headers: { cookie } });
  if (!res.ok) throw new Error(`export: HTTP ${res.status}`);
  const samples = [];
  let chunks = 0;
  for await (const _ of res.body) if (++chunks % every === 0) samples.push(mib(await heap.live()));
  await new Promise((r) => setTimeout(r, 500));
  return heapSummary(samples, before, mib(await heap.live()), 10);
}

/**
 * The p-th percentile (0–100) of `values` by the nearest-rank method: the smallest value with at
 * least p % of the values at or below it. A p95 of 20 values is the 19th, so one slow answer in
 * twenty is allowed, as a p95 says; of 15 or fewer it is the largest.
 */
export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
}
