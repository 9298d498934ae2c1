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

  it("keeps every row of every table the release had (and adds each organization's receipts start)", async () => {
    const after = await counts(db);
    // drizzle/0019: one org_counter 'receipts_from' per organization that existed then.
    // drizzle/0021: the daily state goes, so the cron rebuilds every organization's rollups with the
    // new analytics rollups (decision 032).
    const added: Record<string, number> = {
      org_counter: before.counts.organization as number,
      donation_daily_state: -(before.counts.donation_daily_state as number),
    };
    for (const [table, n] of Object.entries(before.counts))
      expect(after[table], table).toBe((n as number) + (added[table] ?? 0));
  });

  it("issues no receipt for the gifts recorded before receipts existed (drizzle/0019)", async () => {
    const q = async <T>(sql: string) => (await db.prepare(sql).all<T>()).results;
    const [starts] = await q<{ n: number }>(
      "SELECT count(*) AS n FROM org_counter WHERE name = 'receipts_from'",
    );
    expect(starts?.n).toBe(before.counts.organization);
    const [receipts] = await q<{ n: number }>("SELECT count(*) AS n FROM receipt");
    expect(receipts?.n).toBe(0);
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

  it("gives the recurring gifts their plans (drizzle/0016): each gift of a donor in one, with its totals", async () => {
    const q = async <T>(sql: string) => (await db.prepare(sql).all<T>()).results;
    const [unlinked] = await q<{ n: number }>(
      `SELECT count(*) AS n FROM donation WHERE frequency != 'one_time' AND donor_id IS NOT NULL AND trashed_at IS NULL AND mode = 'live' AND plan_id IS NULL`,
    );
    expect(unlinked?.n).toBe(0);
    const plans = await q<{
      id: string;
      gift_count: number;
      given_minor: number;
      status: string;
      next_expected_at: number;
    }>("SELECT * FROM recurring_plan");
    expect(plans.length).toBeGreaterThan(5);
    // One plan per donor, campaign, amount, currency and interval; its totals are its counted gifts.
    const recount = await q<{ id: string; n: number; given: number }>(
      `SELECT p.id, count(d.id) AS n, COALESCE(sum(d.amount_minor - d.refunded_minor), 0) AS given
         FROM recurring_plan p LEFT JOIN donation d ON d.plan_id = p.id AND ${COUNTED_SQL("d")} GROUP BY p.id`,
    );
    const byId = new Map(recount.map((r) => [r.id, r]));
    for (const p of plans) {
      expect([p.gift_count, p.given_minor], p.id).toEqual([byId.get(p.id)?.n, byId.get(p.id)?.given]);
      expect(p.next_expected_at, p.id).toBeGreaterThan(0);
    }
    const mixed = await q<{ n: number }>(
      `SELECT count(*) AS n FROM (SELECT plan_id FROM donation WHERE plan_id IS NOT NULL
         GROUP BY plan_id HAVING count(DISTINCT donor_id) > 1 OR count(DISTINCT amount_minor) > 1 OR count(DISTINCT currency) > 1)`,
    );
    expect(mixed[0]?.n).toBe(0);
    // plan_totals agree with the plans; every plan has its history from its creation.
    const totalsOk = await q<{ n: number }>(
      `SELECT count(*) AS n FROM (SELECT organization_id, currency, status, count(*) AS c FROM recurring_plan GROUP BY 1, 2, 3) p
         JOIN plan_totals t USING (organization_id, currency, status) WHERE t.plan_count = p.c`,
    );
    const groups = await q<{ n: number }>(
      "SELECT count(*) AS n FROM (SELECT DISTINCT organization_id, currency, status FROM recurring_plan)",
    );
    expect(totalsOk[0]?.n).toBe(groups[0]?.n);
    const created = await q<{ n: number }>("SELECT count(*) AS n FROM plan_event WHERE kind = 'created'");
    expect(created[0]?.n).toBe(plans.length);
  });

  it("ends at exactly the schema of a fresh install", async () => {
    expect(await schema(db)).toEqual(await schema(env.DB));
  });
});
