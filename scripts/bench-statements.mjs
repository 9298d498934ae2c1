// Year-end statements e-mailed in bulk (issue 25, docs/decisions/031-receipts.md "Year-end
// statements"): a statement run for `donors` donors of the bench world, driven as the portal
// drives it (receipts.startStatements, then receipts.stepStatements until the run is finished,
// STEP_DONORS donors a step), each donor's statement rendered as a PDF in the Worker and mailed.
//
// The bench world's gifts were seeded in bulk and have no receipts (the ledger writes receipts only
// through gift changes), so `seedStatementReceipts` issues them first, in SQL, for the gifts of one
// calendar year of the first `donors` bench donors (in id order) that gave in it.
//
// Mail goes to a sink on loopback (`startMailSink`): the Worker's `http` transport (worker/mail)
// posts each message there as it would to a provider, and the sink counts the messages and the
// PDFs. The D1 outbox would keep every PDF in the bench database (≈ 190 MB of base64 for 10 000
// statements of ≈ 14 KiB).
//
// `benchStatements` is a step of `npm run bench` (into its 1M world); run alone it seeds its own world:
//
//   BENCH_DONATIONS=200000 npx node scripts/bench-statements.mjs [--no-build] [--state <dir>] [--donors N]
//
// Reports; never fails on a budget.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { statementPeriod } from "../core/receipts.ts";
import { startOfLocalDay } from "../core/time.ts";
import { SNAPSHOT } from "../worker/ledger/receipt-snapshot.ts";
import { trpc } from "./bench-import.mjs";
import { root } from "./lib.mjs";

/**
 * The budget: statements per second end to end, on this machine. worker/receipts/statements.ts
 * sizes a step (STEP_DONORS, 20 donors) so that it answers in about a second: 20 statements a
 * second is that promise, and 10 000 donors in under 9 minutes in one open tab.
 */
export const STATEMENTS_PER_SECOND_BUDGET = 20;

/**
 * A mail provider's JSON API on loopback: answers 200 to every POST and counts the messages, their
 * bytes and the PDFs attached (decoded from base64; a file not starting with %PDF- is counted bad).
 */
export async function startMailSink() {
  const stats = { messages: 0, bytes: 0, pdfs: 0, pdfBytes: 0, bad: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      stats.messages++;
      stats.bytes += body.length;
      try {
        const message = JSON.parse(body.toString("utf8"));
        for (const a of message.attachments ?? []) {
          const file = Buffer.from(a.content, "base64");
          if (a.contentType === "application/pdf" && file.subarray(0, 5).toString("latin1") === "%PDF-") {
            stats.pdfs++;
            stats.pdfBytes += file.length;
          } else stats.bad++;
        }
      } catch {
        stats.bad++;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"id":"sink-${stats.messages}"}`);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/send`,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

/**
 * Points the built Worker's mailer at `url` (MAIL_TRANSPORT=http): two lines added to
 * dist/server/.dev.vars, which the servers of scripts/lib.mjs read with the rest of the build's
 * config (its values override wrangler.toml's [vars]), so call it after the build and before
 * serving. Returns the function that puts the file back; it also runs when the process exits.
 */
export function routeMailTo(url) {
  const file = join(root, "dist", "server", ".dev.vars");
  const before = existsSync(file) ? readFileSync(file, "utf8") : null;
  const kept = before === null || before === "" || before.endsWith("\n") ? (before ?? "") : `${before}\n`;
  writeFileSync(file, `${kept}MAIL_TRANSPORT=http\nMAIL_HTTP_ENDPOINT=${url}\n`);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.off("exit", restore);
    if (before === null) rmSync(file, { force: true });
    else writeFileSync(file, before);
  };
  process.on("exit", restore);
  return restore;
}

/**
 * Issues receipts, in SQL through the Worker's own D1 binding (`db`), for the gifts of one calendar
 * year (`year`, else the last full one, else this one: see below; never `notYear`) of the first
 * `donors` bench donors (bd1, bd2, … with an e-mail address) that gave in it: the gifts the ledger
 * would receipt (live, completed or partially refunded, not trashed or imported, something
 * deductible), numbered on from the organization's receipt counter in date order, one month per
 * statement, each with the ledger's snapshot; the counter follows. Fewer donors than asked is an
 * error unless `fewer`. Gifts with an issued receipt already are left alone (a reused world).
 * Returns the year, the donors and the receipts issued.
 */
export async function seedStatementReceipts(
  db,
  { orgId, donors, year = null, notYear = null, fewer = false },
) {
  const t0 = performance.now();
  const org = await db
    .prepare("SELECT time_zone, fiscal_year_start_month FROM organization WHERE id = ?")
    .bind(orgId)
    .first();
  const zone = org.time_zone;
  const thisYear = Number(
    new Intl.DateTimeFormat("en", { year: "numeric", timeZone: zone }).format(Date.now()),
  );
  const startOf = (day) => startOfLocalDay(day, zone);
  // The ledger's CALLS_FOR_RECEIPT but for 'receipts_from' (the seed's instant: no bench gift is after it).
  const receiptable = `d.mode = 'live' AND d.status IN ('completed','partially_refunded') AND d.trashed_at IS NULL
    AND d.source <> 'import' AND d.amount_minor - d.refunded_minor > 0`;
  // Each donor's gifts by donation_donor_idx: left to itself, SQLite reads the organization's
  // whole year of gifts (donation_org_status_date_idx) for every donor.
  const pick = (period) =>
    db
      .prepare(
        `SELECT dn.id FROM donor dn
          WHERE dn.organization_id = ?1 AND dn.id GLOB 'bd[0-9]*' AND substr(dn.id, 3) NOT GLOB '*[^0-9]*'
            AND dn.email IS NOT NULL AND dn.anonymized_at IS NULL
            AND EXISTS (SELECT 1 FROM donation d INDEXED BY donation_donor_idx WHERE d.donor_id = dn.id AND d.organization_id = ?1
                           AND d.donated_at >= ?2 AND d.donated_at < ?3 AND ${receiptable})
          ORDER BY CAST(substr(dn.id, 3) AS INTEGER) LIMIT ?4`,
      )
      .bind(orgId, period.start, period.end, donors)
      .all()
      .then((r) => r.results);
  // The last full year; in a smaller world (its gifts span less than two years: bench-seed.mjs),
  // this year so far when last year has too few donors.
  let y = null;
  let period = null;
  let picked = [];
  for (const candidate of (year ? [year] : [thisYear - 1, thisYear]).filter((c) => c !== notYear)) {
    period = statementPeriod(candidate, "calendar", org.fiscal_year_start_month, startOf);
    picked = await pick(period);
    y = candidate;
    if (picked.length >= donors) break;
  }
  if (!picked.length || (!fewer && picked.length < donors))
    throw new Error(
      `only ${picked.length} bench donors gave in ${y}; ${donors} asked (BENCH_STATEMENT_DONORS)`,
    );
  const ids = JSON.stringify(picked.map((r) => r.id));
  const snapshot = SNAPSHOT;
  let receipts = 0;
  for (let m = 1; m <= 12; m++) {
    const from = startOf(`${y}-${String(m).padStart(2, "0")}-01`);
    const to = m === 12 ? period.end : startOf(`${y}-${String(m + 1).padStart(2, "0")}-01`);
    const [inserted] = await db.batch([
      db
        .prepare(
          `INSERT INTO receipt (id, organization_id, donation_id, donor_id, number, kind, status, currency, amount_minor,
                                deductible_minor, donated_at, issued_at, snapshot, delivery)
           SELECT lower(hex(randomblob(16))), d.organization_id, d.id, d.donor_id,
                  COALESCE((SELECT value FROM org_counter WHERE organization_id = ?1 AND name = 'receipt'), 0)
                    + row_number() OVER (ORDER BY d.donated_at, d.id),
                  'original', 'issued', d.currency, d.amount_minor, d.amount_minor - d.refunded_minor, d.donated_at,
                  d.created_at, ${snapshot}, 'none'
             FROM donation d INDEXED BY donation_donor_idx JOIN donor dn ON dn.id = d.donor_id
             LEFT JOIN campaign c ON c.id = d.campaign_id
             LEFT JOIN organization o ON o.id = d.organization_id
             LEFT JOIN receipt_settings rs ON rs.organization_id = d.organization_id
            WHERE d.organization_id = ?1 AND d.donor_id IN (SELECT value FROM json_each(?2))
              AND d.donated_at >= ?3 AND d.donated_at < ?4 AND ${receiptable} AND dn.anonymized_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM receipt r WHERE r.donation_id = d.id AND r.status = 'issued')
            ORDER BY d.donated_at, d.id`,
        )
        .bind(orgId, ids, from, to),
      db
        .prepare(
          `INSERT INTO org_counter (organization_id, name, value)
           SELECT ?1, 'receipt', MAX(number) FROM receipt WHERE organization_id = ?1 HAVING MAX(number) IS NOT NULL
           ON CONFLICT (organization_id, name) DO UPDATE SET value = MAX(value, excluded.value)`,
        )
        .bind(orgId),
    ]);
    receipts += inserted.meta.changes;
  }
  return {
    year: y,
    label: period.label,
    donors: picked.length,
    receipts,
    seconds: (performance.now() - t0) / 1000,
  };
}

/**
 * E-mails the year's statements through `apiBase` as the signed-in admin, as the portal does
 * (start, then step until finished), sampling `memory()` every `memoryEvery` steps, and reads
 * what reached `sink`. Returns the figures.
 */
export async function benchStatements({
  apiBase,
  cookie,
  year,
  sink,
  memory = null,
  memoryEvery = 25,
  log = console.log,
}) {
  const mail0 = { ...sink.stats };
  const started = performance.now();
  let run = await trpc(apiBase, cookie, "receipts.startStatements", { year, basis: "calendar" });
  const total = run.total;
  const stepMs = [];
  const memorySamples = [];
  let steps = 0;
  while (run.finishedAt === null) {
    const handled = run.sent + run.skipped;
    const t0 = performance.now();
    run = await trpc(apiBase, cookie, "receipts.stepStatements", { runId: run.id });
    const ms = performance.now() - t0;
    // A full step (STEP_DONORS donors), not the short last one or the one that only finishes.
    if (run.sent + run.skipped - handled === 20) stepMs.push(ms);
    steps++;
    if (memory && steps % memoryEvery === 0) memorySamples.push(await memory());
    if (steps % 100 === 0) log(`  statements: ${run.sent + run.skipped} of ${run.total}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...stepMs].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  const messages = sink.stats.messages - mail0.messages;
  const pdfs = sink.stats.pdfs - mail0.pdfs;
  return {
    runId: run.id,
    label: run.label,
    total,
    sent: run.sent,
    skipped: run.skipped,
    seconds,
    perSecond: run.sent / seconds,
    steps,
    stepP50: q(0.5),
    stepP95: q(0.95),
    memorySamples,
    mail: {
      messages,
      pdfs,
      bad: sink.stats.bad - mail0.bad,
      bytes: sink.stats.bytes - mail0.bytes,
      pdfBytes: sink.stats.pdfBytes - mail0.pdfBytes,
      meanPdfKiB: pdfs ? (sink.stats.pdfBytes - mail0.pdfBytes) / pdfs / 1024 : 0,
    },
  };
}

// Alone: seed a world, serve the build with mail to the sink, issue receipts, run, print.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      "no-build": { type: "boolean", default: false },
      state: { type: "string" },
      donors: { type: "string", default: "1000" },
    },
  });
  const { standaloneWorld } = await import("./bench-seed.mjs");
  const { DEMO_PASSWORD } = await import("./demo-users.mjs");
  const { serveBuildDirect, signInCookie } = await import("./lib.mjs");
  const world = await standaloneWorld("statements", { build: !args["no-build"], state: args.state });
  const stateDir = world.stateDir;
  const sink = await startMailSink();
  const restoreMail = routeMailTo(sink.url);
  let server = null;
  try {
    server = await serveBuildDirect(stateDir);
    const db = await server.mf.getD1Database("DB", "almoner");
    const { id: orgId } = await db.prepare("SELECT id FROM organization WHERE slug = 'harbor-light'").first();
    const seededReceipts = await seedStatementReceipts(db, { orgId, donors: Number(args.donors) });
    console.log(
      `Issued ${seededReceipts.receipts.toLocaleString()} receipts of ${seededReceipts.label} to ${seededReceipts.donors.toLocaleString()} donors in ${seededReceipts.seconds.toFixed(1)} s`,
    );
    const cookie = await signInCookie(server.apiBase, "admin@almoner.test", DEMO_PASSWORD);
    const r = await benchStatements({ apiBase: server.apiBase, cookie, year: seededReceipts.year, sink });
    console.log(
      `Statements ${r.label}: ${r.sent.toLocaleString()} sent, ${r.skipped} skipped of ${r.total} in ${r.seconds.toFixed(1)} s:` +
        ` ${r.perSecond.toFixed(1)} statements/s (budget ≥ ${STATEMENTS_PER_SECOND_BUDGET}); ${r.steps} steps,` +
        ` p50 ${r.stepP50.toFixed(0)} ms, p95 ${r.stepP95.toFixed(0)} ms; mail: ${r.mail.messages} messages,` +
        ` ${r.mail.pdfs} PDFs of ${r.mail.meanPdfKiB.toFixed(1)} KiB on average, ${r.mail.bad} bad`,
    );
  } finally {
    await server?.stop();
    restoreMail();
    await sink.close();
    world.done();
  }
}
