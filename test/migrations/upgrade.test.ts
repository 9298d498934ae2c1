/**
 * A release migrates a live database safely (issue 22, "releases you can trust"). A database at
 * the previous release's schema, holding that release's data (test/migrations/previous-release.sql,
 * written by scripts/release-fixture.mjs when the release was cut), takes every later migration:
 * - every row survives, and every total (gifts, refunds, rollups, donor stats) is unchanged;
 * - the rollups still agree with the gifts they sum;
 * - the schema ends exactly as a fresh install's (test/setup.ts migrates env.DB from nothing).
 * After a release, run `npm run release:fixture` so the next one is tested against it.
 */

import { applyD1Migrations, env } from "cloudflare:test";
import { COUNTED_SQL } from "@core/status";
import { beforeAll, describe, expect, it } from "vitest";

const release = env.TEST_PREVIOUS_RELEASE;
const all = env.TEST_MIGRATIONS;
const upTo = all.findIndex((m) => m.name.replace(/\.sql$/, "") === release.lastMigration);
const db = env.UPGRADE_DB;

/** The user tables of a database (D1's and SQLite's own left out). */
async function tables(d: D1Database) {
  const { results } = await d
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('d1_migrations', '_cf_KV', '_cf_METADATA') ORDER BY name",
    )
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

/** Every table's row count. */
async function counts(d: D1Database) {
  const out: Record<string, number> = {};
  for (const t of await tables(d))
    out[t] = (await d.prepare(`SELECT count(*) AS n FROM "${t}"`).first<{ n: number }>())?.n ?? 0;
  return out;
}

/** The money and counts a release must never change, per organization. */
async function totals(d: D1Database) {
  const q = async (sql: string) => (await d.prepare(sql).all()).results;
  return {
    donations: await q(
      "SELECT organization_id, currency, count(*) AS n, sum(amount_minor) AS amount, sum(refunded_minor) AS refunded FROM donation GROUP BY 1, 2 ORDER BY 1, 2",
    ),
    counted: await q(
      `SELECT organization_id, currency, count(*) AS n, sum(amount_minor - refunded_minor) AS net FROM donation WHERE ${COUNTED_SQL("donation")} GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    orgDaily: await q(
      "SELECT organization_id, currency, sum(raised_minor) AS raised, sum(donation_count) AS n FROM org_daily WHERE campaign_id = '*' GROUP BY 1, 2 ORDER BY 1, 2",
    ),
    statusTotals: await q(
      "SELECT organization_id, currency, status, sum(donation_count) AS n, sum(amount_minor) AS amount FROM donation_totals GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
    ),
    donors: await q(
      "SELECT organization_id, count(*) AS n, sum(lifetime_minor) AS lifetime, sum(donation_count) AS gifts, count(tier_id) AS tiered FROM donor GROUP BY 1 ORDER BY 1",
    ),
  };
}

/** The schema as SQLite keeps it: every table, index and trigger with its SQL. */
async function schema(d: D1Database) {
  const { results } = await d
    .prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT IN ('d1_migrations', '_cf_KV', '_cf_METADATA') ORDER BY type, name",
    )
    .all();
  return results;
}

describe(`upgrading a database of the previous release (${release.lastMigration})`, () => {
  let before: { counts: Record<string, number>; totals: Awaited<ReturnType<typeof totals>> };

  beforeAll(async () => {
    expect(upTo, `no migration named ${release.lastMigration} in drizzle/`).toBeGreaterThanOrEqual(0);
    await applyD1Migrations(db, all.slice(0, upTo + 1));
    for (const sql of release.statements) await db.prepare(sql).run();
    before = { counts: await counts(db), totals: await totals(db) };
    await applyD1Migrations(db, all);
  });

  it("held real data before the upgrade: four organizations, hundreds of gifts, rollups", () => {
    expect(before.counts.organization).toBe(4);
    expect(before.counts.donation).toBeGreaterThan(300);
    expect(before.counts.donor).toBeGreaterThan(100);
    expect(before.counts.org_daily).toBeGreaterThan(0);
    expect(before.totals.counted.length).toBeGreaterThan(0);
  });

  it("keeps every row of every table the release had", async () => {
    const after = await counts(db);
    for (const [table, n] of Object.entries(before.counts)) expect(after[table], table).toBe(n);
  });

  it("keeps every total: gifts, refunds, rollups, status totals, donor stats", async () => {
    expect(await totals(db)).toEqual(before.totals);
  });

  it("leaves the rollups agreeing with the gifts they sum", async () => {
    const t = await totals(db);
    expect(t.orgDaily.map((r) => [r.organization_id, r.currency, r.raised, r.n])).toEqual(
      t.counted.map((r) => [r.organization_id, r.currency, r.net, r.n]),
    );
  });

  it("ends at exactly the schema of a fresh install", async () => {
    expect(await schema(db)).toEqual(await schema(env.DB));
  });
});
