// `node scripts/dev-load.mjs`: auth-API load against a running `npm run dev` (issue 53 item 9,
// docs/decisions/051-dev-server-under-load.md). Not a benchmark: it counts answers, and above all
// the dev server's own 500s ("fetch failed": Vite's error page when the Cloudflare plugin could not
// reach workerd), which the Worker never saw. Optionally keeps the CPU busy meanwhile.
//
//   --base URL         the dev server (http://localhost:3000)
//   --requests N       how many requests in all (1500)
//   --connections N    how many at a time (30)
//   --sign-in-every N  every Nth request is a sign-in, the others get-session with its cookie (10)
//   --burn N           N CPU burners (child processes spinning) during the load (0)
//   --think MS         each connection pauses a random 0..MS ms after each answer (0): sockets
//                      then sit idle now and then, as a developer's browser leaves them
//   --runs N           repeat the whole load N times, a line each (1)
//
// Rate limits are off in development (ENVIRONMENT=development), so no answer is a 429 unless
// RATE_LIMIT_ENABLED is set; they are counted apart if it is.
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { DEMO_PASSWORD } from "./demo-users.mjs";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "http://localhost:3000" },
    requests: { type: "string", default: "1500" },
    connections: { type: "string", default: "30" },
    "sign-in-every": { type: "string", default: "10" },
    burn: { type: "string", default: "0" },
    think: { type: "string", default: "0" },
    runs: { type: "string", default: "1" },
  },
});
const base = args.base.replace(/\/$/, "");
const total = Number(args.requests);
const connections = Number(args.connections);
const signInEvery = Number(args["sign-in-every"]);
const burners = Number(args.burn);
const think = Number(args.think);
const runs = Number(args.runs);
const EMAILS = ["admin", "organizer", "member", "outsider", "lumiere", "thames", "koyo"].map(
  (u) => `${u}@almoner.test`,
);

function signIn(email) {
  return fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
}

const cookieOf = (res) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/** What one answer was: its status, and for a 500 whose page says "fetch failed", "500 fetch failed". */
async function classify(res) {
  const body = await res.text();
  if (res.status === 500 && /fetch failed/.test(body)) return "500 fetch failed (dev server's own)";
  return String(res.status);
}

async function load() {
  const first = await signIn(EMAILS[0]);
  if (!first.ok) throw new Error(`sign-in: HTTP ${first.status} ${await first.text()}`);
  const cookie = cookieOf(first);
  const counts = {};
  const add = (k) => {
    counts[k] = (counts[k] ?? 0) + 1;
  };
  let next = 0;
  const t0 = performance.now();
  async function worker() {
    for (let i = next++; i < total; i = next++) {
      try {
        if (i % signInEvery === 0) {
          add(`sign-in ${await classify(await signIn(EMAILS[i % EMAILS.length]))}`);
        } else {
          const res = await fetch(`${base}/api/auth/get-session`, { headers: { cookie } });
          add(`get-session ${await classify(res)}`);
        }
      } catch (err) {
        add(`client error ${err.cause?.code ?? err.cause?.message ?? err.message}`);
      }
      if (think) await new Promise((r) => setTimeout(r, Math.random() * think));
    }
  }
  await Promise.all(Array.from({ length: connections }, worker));
  return { counts, seconds: (performance.now() - t0) / 1000 };
}

const children = [];
for (let i = 0; i < burners; i++) {
  children.push(spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
}
try {
  for (let r = 1; r <= runs; r++) {
    const { counts, seconds } = await load();
    const own = Object.entries(counts)
      .filter(([k]) => k.includes("fetch failed"))
      .reduce((n, [, v]) => n + v, 0);
    console.log(
      `run ${r}: ${total} requests @${connections}, think ≤ ${think} ms, ${burners} burners, ${seconds.toFixed(1)} s; ` +
        `dev server's own 500s: ${own}; ${JSON.stringify(counts)}`,
    );
  }
} finally {
  for (const c of children) c.kill("SIGKILL");
}
