// `npm run scale:measure`: what one donation costs in bytes of D1 (issue 22, docs/scaling.md).
// Seeds throwaway local D1s with the bench's seeder in the production shape (scripts/bench-seed.mjs:
// 32-character ids, gateway and change tokens, fees, messages, addresses, tiers, one audit row per
// gift and one per refund) at SCALE_DONATIONS sizes (default 250 000, 500 000, 1 000 000; donors
// one per ten gifts, SCALE_CAMPAIGNS campaigns, default 500), plus a baseline of the migrations and
// the demo world alone. Each SQLite file is opened read-only and measured per table and per index
// with the `dbstat` virtual table; a gift's cost is what the bulk rows added over the baseline,
// divided by the gifts. Prints the tables, writes bench/scale.json and rewrites the measured block
// of docs/scaling.md. Flags: `--bench-shape` also measures the bench's own short rows at the largest
// size, `--keep` keeps the state directories, `--no-doc` leaves docs/scaling.md alone.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { seedBench } from "./bench-seed.mjs";
import { localD1File, migrateLocal, quietEnv, root, run } from "./lib.mjs";

const SIZES = (process.env.SCALE_DONATIONS ?? "250000,500000,1000000")
  .split(",")
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
const CAMPAIGNS = Number(process.env.SCALE_CAMPAIGNS ?? 500);
const args = new Set(process.argv.slice(2));
const NOW = Date.UTC(2026, 10, 1); // one instant for every seed, so the runs differ only in size

/** D1's cap per database (Workers Paid), decimal as Cloudflare states it, and the move threshold. */
const D1_CAP = 10e9;
const PLAN_AT = 0.7;
/** The large organization of docs/scaling.md: gifts, new donors and campaigns per year. */
const LARGE = { gifts: 200_000, donors: 40_000, campaigns: 50 };

/** What each table is, for the per-gift sums; indexes follow their table. */
const GROUPS = {
  gift: ["donation"],
  audit: ["audit_event"],
  rollup: [
    "donation_totals",
    "donation_daily_totals",
    "donation_daily_state",
    "campaign_stats",
    "org_daily",
    "org_counter",
  ],
  donor: ["donor", "donor_tag_assignment", "donor_note"],
};

const started = performance.now();
const dirs = [];
const stateDir = () => {
  const d = mkdtempSync(join(tmpdir(), "almoner-scale-"));
  dirs.push(d);
  return d;
};

/** Every b-tree of the file: bytes (pages × page size), payload, pages; plus the file's totals. */
function measure(dir, orgId = null) {
  const file = localD1File(dir);
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const pragma = (p) => Object.values(db.prepare(`PRAGMA ${p}`).get())[0];
    const pageSize = pragma("page_size");
    const pageCount = pragma("page_count");
    const freelist = pragma("freelist_count");
    const owner = new Map(
      db
        .prepare("SELECT type, name, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index')")
        .all()
        .map((r) => [r.name, { type: r.type, table: r.tbl_name }]),
    );
    const trees = {};
    for (const r of db
      .prepare("SELECT name, pageno AS pages, pgsize AS bytes, payload FROM dbstat WHERE aggregate = TRUE")
      .all()) {
      const o = owner.get(r.name) ?? { type: "table", table: r.name };
      trees[r.name] = { ...o, bytes: r.bytes, payload: r.payload, pages: r.pages };
    }
    const rows = {};
    for (const t of ["donation", "donor", "audit_event", "campaign", ...GROUPS.rollup, "donor_note"])
      rows[t] = db.prepare(`SELECT count(*) AS n FROM ${t}`).get().n;
    // The bulk organization's rollup rows per day (what the per-year estimate scales).
    const perDay = (t) =>
      db
        .prepare(`SELECT count(*) AS rows, count(DISTINCT day) AS days FROM ${t} WHERE organization_id = ?`)
        .get(orgId);
    const org = { dailyTotals: perDay("donation_daily_totals"), orgDaily: perDay("org_daily") };
    return { file, pageSize, pageCount, freelist, fileBytes: pageCount * pageSize, trees, rows, org };
  } finally {
    db.close();
  }
}

const env = { ...quietEnv };
const runs = [];
const t0 = performance.now();
console.log("Baseline: migrations and the demo world…");
const baseDir = stateDir();
migrateLocal(baseDir);
run(process.execPath, ["scripts/seed.mjs", "--now", String(NOW)], {
  env: { ...env, ALMONER_STATE_DIR: baseDir },
  stdio: ["ignore", "ignore", "inherit"],
});
const base = measure(baseDir);
const baseSeconds = (performance.now() - t0) / 1000;

const plan = SIZES.map((donations) => ({ donations, shape: "production" }));
if (args.has("--bench-shape")) plan.push({ donations: SIZES[SIZES.length - 1], shape: "bench" });
for (const p of plan) {
  const donors = Math.round(p.donations / 10);
  console.log(
    `Seeding ${p.donations.toLocaleString("en-US")} donations, ${donors.toLocaleString("en-US")} donors, ${CAMPAIGNS} campaigns (${p.shape} rows)…`,
  );
  const dir = stateDir();
  const s0 = performance.now();
  const { orgId } = await seedBench(
    dir,
    { ...env, ALMONER_STATE_DIR: dir },
    { donations: p.donations, donors, campaigns: CAMPAIGNS, now: NOW, shape: p.shape },
  );
  const seedSeconds = (performance.now() - s0) / 1000;
  const m0 = performance.now();
  const m = measure(dir, orgId);
  runs.push({
    ...p,
    donors,
    campaigns: CAMPAIGNS,
    seedSeconds,
    measureSeconds: (performance.now() - m0) / 1000,
    m,
  });
  console.log(
    `  ${(m.fileBytes / 1e6).toFixed(1)} MB in ${seedSeconds.toFixed(0)} s (dbstat ${((performance.now() - m0) / 1000).toFixed(1)} s)`,
  );
  if (!args.has("--keep")) rmSync(dir, { recursive: true, force: true });
}

// ── Sums ─────────────────────────────────────────────────────────────────────────────────────────
/** Bytes the bulk rows added to every b-tree of `tables` (the tables and their indexes). */
const added = (m, tables, kind = "all") =>
  Object.entries(m.trees)
    .filter(([, t]) => tables.includes(t.table) && (kind === "all" || t.type === kind))
    .reduce((s, [name, t]) => s + t.bytes - (base.trees[name]?.bytes ?? 0), 0);
const rowsAdded = (m, t) => m.rows[t] - base.rows[t];

function summary(r) {
  const { m, donations, donors } = r;
  const per = (bytes, n = donations) => bytes / n;
  const gift = added(m, GROUPS.gift, "table");
  const giftIdx = added(m, GROUPS.gift, "index");
  const audit = added(m, GROUPS.audit);
  const auditRows = rowsAdded(m, "audit_event");
  const rollup = added(m, GROUPS.rollup);
  const rollupRows = GROUPS.rollup.reduce((s, t) => s + rowsAdded(m, t), 0);
  const donor = added(m, GROUPS.donor);
  const whole = m.fileBytes - base.fileBytes;
  const indexes = Object.entries(m.trees)
    .filter(([, t]) => t.type === "index" && ["donation", "audit_event", "donor"].includes(t.table))
    .map(([name, t]) => {
      const b = t.bytes - (base.trees[name]?.bytes ?? 0);
      return { name, table: t.table, bytes: b, fill: t.payload / t.bytes, perRow: b / rowsAdded(m, t.table) };
    })
    .sort((a, b) => b.bytes - a.bytes);
  return {
    donations,
    donors,
    fileMB: m.fileBytes / 1e6,
    freelistPages: m.freelist,
    perGift: {
      donationRow: per(gift),
      donationIndexes: per(giftIdx),
      audit: per(audit),
      giftAllIn: per(gift + giftIdx + audit),
      rollups: per(rollup),
      donorsPerGift: per(donor),
      wholeFile: per(whole),
    },
    perAuditRow: audit / auditRows,
    auditRowsPerGift: auditRows / donations,
    perDonor: donor / donors,
    perRollupRow: rollup / rollupRows,
    rollupRows,
    rollupRowsByTable: Object.fromEntries(GROUPS.rollup.map((t) => [t, rowsAdded(m, t)])),
    indexes,
  };
}

const production = runs.filter((r) => r.shape === "production").map((r) => ({ ...r, s: summary(r) }));
const benchShape = runs.filter((r) => r.shape === "bench").map((r) => ({ ...r, s: summary(r) }));
const big = production[production.length - 1];
const S = big.s;

// The large organization's year: gifts (their rows, indexes, audit), new donors, and the rollup
// rows its days add (org_daily: a row per campaign that took gifts that day plus the
// organization-wide row; donation_daily_totals: a row per status seen that day). Rollup rows cost
// what they measured per row.
const perYear = (() => {
  const days = 365;
  const statusesPerDay = big.m.org.dailyTotals.rows / big.m.org.dailyTotals.days;
  const rollupRows = days * (LARGE.campaigns + 1) + days * statusesPerDay + LARGE.campaigns;
  const bytes = LARGE.gifts * S.perGift.giftAllIn + LARGE.donors * S.perDonor + rollupRows * S.perRollupRow;
  return { bytes, rollupRows, statusesPerDay };
})();
const usable = D1_CAP * PLAN_AT;
const giftsPerDb = usable / S.perGift.wholeFile;
const yearsAlone = usable / perYear.bytes;

// ── Output ───────────────────────────────────────────────────────────────────────────────────────
const n0 = (x) => Math.round(x).toLocaleString("en-US");
const n1 = (x) => x.toLocaleString("en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const lines = [];
const out = (s = "") => lines.push(s);
const machine = `${cpus().length} × ${cpus()[0]?.model?.trim() ?? "CPU"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`;
const seconds = (performance.now() - started) / 1000;
out(
  `Measured by \`npm run scale:measure\` on ${new Date().toISOString().slice(0, 10)} (${machine}; ${n0(seconds)} s in all: seeding ${production.map((r) => `${n0(r.donations)} in ${n0(r.seedSeconds)} s`).join(", ")}, baseline ${n0(baseSeconds)} s). SQLite page size ${big.m.pageSize} bytes; bytes are whole pages (dbstat \`pgsize\`), so they include each b-tree's free space.`,
);
out();
out(
  `At ${n0(big.donations)} donations, ${n0(big.donors)} donors, ${n0(big.campaigns)} campaigns (production-shaped rows):`,
);
out();
out("| what | bytes per donation | notes |");
out("|---|---:|---|");
out(`| donation row (table b-tree) | ${n0(S.perGift.donationRow)} | |`);
out(
  `| donation's ${S.indexes.filter((i) => i.table === "donation").length} indexes | ${n0(S.perGift.donationIndexes)} | per index below |`,
);
out(
  `| audit rows (table + its 2 indexes) | ${n0(S.perGift.audit)} | ${S.auditRowsPerGift.toFixed(3)} rows per gift (one each, one more per refund), ${n0(S.perAuditRow)} bytes per row |`,
);
out(`| **one gift, all in** | **${n0(S.perGift.giftAllIn)}** | row + indexes + audit |`);
out(
  `| rollups | ${n1(S.perGift.rollups)} | ${n0(S.rollupRows)} rows, ${n0(S.perRollupRow)} bytes per row: they grow with days × campaigns, not with gifts |`,
);
out(
  `| donors (row, indexes, tags, notes) | ${n0(S.perGift.donorsPerGift)} | ${n0(S.perDonor)} bytes per donor, one donor per ${n0(big.donations / big.donors)} gifts |`,
);
out(
  `| **whole database growth** | **${n0(S.perGift.wholeFile)}** | file size added over the baseline ÷ gifts (${n1(big.s.fileMB)} MB file) |`,
);
out();
out("Per index (bytes added by the bulk rows; fill = payload ÷ page bytes):");
out();
out("| index | table | MB | bytes per row | fill |");
out("|---|---|---:|---:|---:|");
for (const i of S.indexes)
  out(
    `| \`${i.name}\` | ${i.table} | ${n1(i.bytes / 1e6)} | ${n0(i.perRow)} | ${Math.round(i.fill * 100)} % |`,
  );
out();
out("Across sizes (the cost per gift should not depend on the size):");
out();
out("| donations | file MB | gift all in, bytes | whole database per gift, bytes | donor, bytes |");
out("|---:|---:|---:|---:|---:|");
for (const r of production)
  out(
    `| ${n0(r.donations)} | ${n1(r.s.fileMB)} | ${n0(r.s.perGift.giftAllIn)} | ${n0(r.s.perGift.wholeFile)} | ${n0(r.s.perDonor)} |`,
  );
for (const r of benchShape)
  out(
    `| ${n0(r.donations)} (bench's short rows) | ${n1(r.s.fileMB)} | ${n0(r.s.perGift.giftAllIn)} | ${n0(r.s.perGift.wholeFile)} | ${n0(r.s.perDonor)} |`,
  );
out();
out(
  `Capacity: plan to move at ${Math.round(PLAN_AT * 100)} % of D1's ${D1_CAP / 1e9} GB, i.e. ${n1(usable / 1e9)} GB: **${n1(giftsPerDb / 1e6)} million donations** per database at ${n0(S.perGift.wholeFile)} bytes each (donors and rollups in the proportions above).`,
);
out();
out(
  `A large organization (${n0(LARGE.gifts)} gifts, ${n0(LARGE.donors)} new donors and ${LARGE.campaigns} campaigns a year; ${n0(perYear.rollupRows)} rollup rows a year) adds **${n1(perYear.bytes / 1e6)} MB a year** and alone fills the ${n1(usable / 1e9)} GB in **${n1(yearsAlone)} years**; N such organizations share one database for ${n1(yearsAlone)} ÷ N years (${[
    2, 5, 10, 25,
  ]
    .map((k) => `${k}: ${n1(yearsAlone / k)}`)
    .join(", ")}).`,
);
const block = lines.join("\n");
console.log(`\n${block}\n`);

writeFileSync(
  join(root, "bench", "scale.json"),
  `${JSON.stringify(
    {
      machine,
      at: new Date().toISOString(),
      seconds,
      baseline: { fileBytes: base.fileBytes, rows: base.rows },
      large: LARGE,
      capacity: { cap: D1_CAP, planAt: PLAN_AT, giftsPerDb, perYearBytes: perYear.bytes, yearsAlone },
      runs: [...production, ...benchShape].map((r) => ({
        shape: r.shape,
        donations: r.donations,
        donors: r.donors,
        campaigns: r.campaigns,
        seedSeconds: r.seedSeconds,
        ...r.s,
        trees: r.m.trees,
      })),
    },
    null,
    2,
  )}\n`,
);
if (!args.has("--no-doc")) {
  const doc = join(root, "docs", "scaling.md");
  const begin = "<!-- scale:measure:begin -->";
  const end = "<!-- scale:measure:end -->";
  const text = readFileSync(doc, "utf8");
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/scaling.md has no ${begin} … ${end} block`);
  writeFileSync(doc, `${text.slice(0, a + begin.length)}\n${block}\n${text.slice(b)}`);
  console.log("docs/scaling.md updated.");
}
if (!args.has("--keep")) for (const d of dirs) rmSync(d, { recursive: true, force: true });
else console.log(`State kept: ${dirs.join(" ")}`);
