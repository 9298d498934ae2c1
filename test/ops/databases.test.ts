/**
 * Past one database (issue 22, decision 027): every query reaches its database through
 * worker/db/databases.ts, and which database holds an organization is configuration. The suite runs
 * with two local D1 databases: `DB` (the directory, and every other organization) and `DB_TWO`,
 * which holds the organization "org-apart" (vitest.config.ts ORGANIZATION_DATABASES). Here that
 * organization is used through the API as any other, and each of its rows is looked for in both.
 */
import { describe, expect, it } from "vitest";
import { databaseNameOf, databaseNames, organizationDatabase } from "../../worker/db/databases";
import { runScheduled } from "../../worker/scheduled";
import { platformAdmin } from "../donations/brute";
import { member } from "../fixtures";
import { testEnv } from "../helpers";

const APART = "org-apart";
/** The name every member of test/fixtures.ts signs up with (test/auth/jar.ts). */
const OWNER_NAME = "Test User";
const directory = testEnv.DB;
const two = testEnv.DB_TWO;

/**
 * What moving an organization leaves behind: its directory row (memberships and routing point to
 * it) and its own row in its database (the anchor of its rows' foreign keys), with the daily
 * totals marked built, as makeOrg does for a new organization.
 */
async function placeApart() {
  const now = Date.now();
  for (const db of [directory, two]) {
    await db
      .prepare(
        "INSERT OR IGNORE INTO organization (id, name, slug, default_currency, time_zone, status, created_at, updated_at) VALUES (?, 'Apart', 'apart', 'USD', 'UTC', 'active', ?, ?)",
      )
      .bind(APART, now, now)
      .run();
  }
  await two
    .prepare("INSERT OR IGNORE INTO donation_daily_state (organization_id, time_zone) VALUES (?, 'UTC')")
    .bind(APART)
    .run();
  return APART;
}

const count = async (db: D1Database, sql: string, ...args: unknown[]) =>
  (
    (await db
      .prepare(sql)
      .bind(...args)
      .first<{ n: number }>()) ?? { n: 0 }
  ).n;

async function giveGift(caller: Awaited<ReturnType<typeof member>>["caller"], title: string) {
  const campaign = await caller.campaigns.create({ title, currency: "USD", goalType: "none" });
  const created = await caller.donors.create({ data: { firstName: "Ada", lastName: title } });
  if (!created.created) throw new Error("expected a new donor");
  const donor = { id: created.id };
  const gift = await caller.donations.create({
    donorId: donor.id,
    campaignId: campaign.id,
    amountMinor: 2_500,
    currency: "USD",
    paymentMethod: "cash",
    donatedAt: Date.now() - 1_000,
  });
  return { campaign, donor, gift };
}

describe("an organization placed in a second database", () => {
  it("is configuration: the seam names its database, and only it", () => {
    expect(databaseNameOf(testEnv, APART)).toBe("DB_TWO");
    expect(databaseNameOf(testEnv, "any-other-org")).toBe("DB");
    expect(databaseNames(testEnv)).toEqual(["DB", "DB_TWO"]);
    // Moving it back is the same change of configuration.
    expect(databaseNameOf({ ...testEnv, ORGANIZATION_DATABASES: "{}" }, APART)).toBe("DB");
    // A wrong value names the mistake instead of writing an organization's rows elsewhere.
    expect(() => databaseNameOf({ ...testEnv, ORGANIZATION_DATABASES: '{"x":"db two"}' }, "x")).toThrow(
      /not a D1 binding name/,
    );
    expect(() => organizationDatabase({ ...testEnv, ORGANIZATION_DATABASES: '{"x":"KV"}' }, "x")).toThrow(
      /KV, which is not a D1 binding/,
    );
    expect(() => databaseNameOf({ ...testEnv, ORGANIZATION_DATABASES: "[1]" }, "x")).toThrow(/JSON object/);
  });

  it("writes every row of a change (row, rollups, donor stats, audit) in its own database, none in the directory", async () => {
    const org = await placeApart();
    const owner = await member(org, "owner");
    const title = `Roof ${crypto.randomUUID().slice(0, 8)}`;
    const { campaign, donor, gift } = await giveGift(owner.caller, title);
    await owner.caller.donors.notes.create({
      donorId: donor.id,
      body: "Met at the gala",
      visibility: "internal",
      pinned: false,
    });

    const rows = [
      ["SELECT count(*) AS n FROM campaign WHERE id = ?", campaign.id],
      ["SELECT count(*) AS n FROM donor WHERE id = ?", donor.id],
      ["SELECT count(*) AS n FROM donation WHERE id = ?", gift.id],
      ["SELECT count(*) AS n FROM donor_note WHERE donor_id = ?", donor.id],
      ["SELECT count(*) AS n FROM campaign_stats WHERE campaign_id = ?", campaign.id],
      ["SELECT count(*) AS n FROM audit_event WHERE entity_id IN (?, ?, ?)", campaign.id, donor.id, gift.id],
    ] as const;
    for (const [sql, ...args] of rows) {
      expect(await count(two, sql, ...args), sql).toBeGreaterThan(0);
      expect(await count(directory, sql, ...args), sql).toBe(0);
    }
    expect(
      await count(two, "SELECT count(*) AS n FROM org_daily WHERE organization_id = ?", org),
    ).toBeGreaterThan(0);
    expect(await count(directory, "SELECT count(*) AS n FROM org_daily WHERE organization_id = ?", org)).toBe(
      0,
    );
    // The donor's stats moved with the gift, in the same database.
    const stats = await two
      .prepare("SELECT lifetime_minor AS t FROM donor WHERE id = ?")
      .bind(donor.id)
      .first<{ t: number }>();
    expect(stats?.t).toBe(2_500);
    // Its membership stays in the directory, where sign-in and the organization switcher look.
    expect(
      await count(directory, "SELECT count(*) AS n FROM membership WHERE organization_id = ?", org),
    ).toBeGreaterThan(0);
    expect(await count(two, "SELECT count(*) AS n FROM membership WHERE organization_id = ?", org)).toBe(0);
  });

  it("reads its data back through the API, with people's names from the directory", async () => {
    const org = await placeApart();
    const owner = await member(org, "owner");
    const title = `School ${crypto.randomUUID().slice(0, 8)}`;
    const { donor, gift } = await giveGift(owner.caller, title);
    await owner.caller.donors.notes.create({
      donorId: donor.id,
      body: "Prefers e-mail",
      visibility: "internal",
      pinned: true,
    });

    const list = await owner.caller.donations.list({ q: title });
    expect(list.rows.map((r) => r.id)).toEqual([gift.id]);
    // The status timeline names who changed the status.
    await owner.caller.donations.updateStatus({
      id: gift.id,
      status: "refunded",
      reason: "Asked for it back",
    });
    const detail = await owner.caller.donations.byId({ id: gift.id });
    expect(detail.timeline.map((e) => e.actor)).toContain(OWNER_NAME);
    const history = await owner.caller.donations.history({ entityType: "donation", entityId: gift.id });
    expect(history[0]?.actor).toBe(OWNER_NAME);
    const notes = await owner.caller.donors.notes.list({ donorId: donor.id });
    expect(notes[0]?.author).toBe(OWNER_NAME);
    const trail = await owner.caller.audit.list({ entityType: "donor", entityId: donor.id, limit: 10 });
    expect(trail.rows.map((r) => r.actor)).toContain(OWNER_NAME);
    const summary = await owner.caller.dashboard.summary({ days: 30 });
    expect(JSON.stringify(summary)).toContain("2500");
  });

  it("is counted by the platform-wide views, which read every database", async () => {
    const org = await placeApart();
    const owner = await member(org, "owner");
    await giveGift(owner.caller, `Well ${crypto.randomUUID().slice(0, 8)}`);
    const admin = await platformAdmin(org);
    const today = new Date().toISOString().slice(0, 10);
    const platform = await admin.caller.dashboard.platform({ days: 30 });
    expect(platform.organizations.map((o) => o.id)).toContain(org);
    expect(today).toBeTruthy();
    // What the owner did is in their history, though it lives in the second database.
    const history = await admin.caller.users.history({ userId: owner.user.id });
    expect(history.map((h) => h.action)).toEqual(
      expect.arrayContaining(["donation.create", "campaign.create"]),
    );
    expect(history.every((h) => h.actor === OWNER_NAME || h.actor === null)).toBe(true);
  });

  it("is reached by the cron jobs", async () => {
    const org = await placeApart();
    const owner = await member(org, "owner");
    const pending = await owner.caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 700,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 1_000,
      status: "pending",
    });
    const now = Date.now();
    await two
      .prepare("UPDATE donation SET created_at = ? WHERE id = ?")
      .bind(now - 73 * 3600_000, pending.id)
      .run();
    await runScheduled("*/15 * * * *", testEnv, new Date(now));
    expect((await owner.caller.donations.byId({ id: pending.id })).status).toBe("abandoned");
    expect(
      await count(
        two,
        "SELECT count(*) AS n FROM audit_event WHERE entity_id = ? AND action = 'donation.abandon'",
        pending.id,
      ),
    ).toBe(1);
  });

  it("keeps its directory row in step when its profile changes", async () => {
    const org = await placeApart();
    const owner = await member(org, "owner");
    await owner.caller.organization.update({
      name: "Apart",
      type: "charity",
      defaultCurrency: "USD",
      timeZone: "Europe/Berlin",
      fiscalYearStartMonth: 1,
    });
    for (const db of [directory, two]) {
      const row = await db
        .prepare("SELECT time_zone FROM organization WHERE id = ?")
        .bind(org)
        .first<{ time_zone: string }>();
      expect(row?.time_zone).toBe("Europe/Berlin");
    }
    expect((await owner.caller.organization.current()).timeZone).toBe("Europe/Berlin");
    await owner.caller.organization.update({
      name: "Apart",
      type: "charity",
      defaultCurrency: "USD",
      timeZone: "UTC",
      fiscalYearStartMonth: 1,
    });
  });
});
