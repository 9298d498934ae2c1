/**
 * Deleting an organization (issue 53, decision 047): the owner alone, typing its name; it
 * disappears for everyone at once; its data is purged in bounded steps until nothing of it is left
 * in any table of the schema, and no other organization's row is touched; the record of the
 * deletion outlives the purge.
 */
import { describe, expect, it } from "vitest";
import { purgeDeletedOrganizations, purgeOrganization } from "../../worker/organization/deletion/purge";
import { KEPT_TABLES, PURGE_TABLES } from "../../worker/organization/deletion/queries";
import { runScheduled } from "../../worker/scheduled";
import { CookieJar, lastMail, makeAdmin, PASSWORD } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";

const db = testEnv.DB;

/** Tables SQLite, D1 and the migrations keep for themselves. */
const SYSTEM = /^(sqlite_|_cf_|d1_migrations$)/;

async function allTables(d: D1Database) {
  const { results } = await d
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all<{ name: string }>();
  return results.map((r) => r.name).filter((n) => !SYSTEM.test(n));
}

/** Every row of `table` that is `org`'s, by the purge's own rule, as JSON (for comparing). */
async function rowsOf(d: D1Database, table: string, org: string) {
  const t = PURGE_TABLES.find((x) => x.table === table);
  if (!t) throw new Error(table);
  const { results } = await d
    .prepare(`SELECT * FROM ${table} WHERE ${t.where} ORDER BY rowid`)
    .bind(org)
    .all();
  return results.map((r) => JSON.stringify(r, (_, v) => (v instanceof ArrayBuffer ? v.byteLength : v)));
}

async function countAll(d: D1Database, table: string) {
  return ((await d.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>()) ?? { n: 0 }).n;
}

const membershipId = async (org: string, userId: string) =>
  (
    await db
      .prepare("SELECT id FROM membership WHERE organization_id = ? AND user_id = ?")
      .bind(org, userId)
      .first<{ id: string }>()
  )?.id ?? "";

/**
 * An organization with a row in every table an organization's data lives in: through the API where
 * there is one, in SQL for what only a build under way or a large campaign holds.
 */
async function populate(org: string) {
  const owner = await member(org, "owner");
  const viewer = await member(org, "viewer");
  const c = owner.caller;
  await c.receipts.updateSettings({
    signatoryName: "Ada Lovelace",
    signatoryTitle: "Treasurer",
    taxStatement: "No goods or services were provided.",
    numberPrefix: "R-",
    language: "en",
    autoSend: true,
  });
  const campaign = await c.campaigns.create({ title: "Winter Coats", currency: "USD", goalType: "none" });
  await c.campaigns.update({
    id: campaign.id,
    data: { title: "Winter Coats", slug: "winter-coats-2", currency: "USD", goalType: "none" },
  });
  await c.campaigns.items.create({ campaignId: campaign.id, title: "Coat", unitAmountMinor: 5000 });
  const d = await c.donors.create({ data: { firstName: "Ada", lastName: "A", email: `ada-${org}@a.test` } });
  const donorId = d.id as string;
  const tag = await c.donors.tags.create({ name: "Board" });
  await c.donors.tags.assign({ donorIds: [donorId], tagIds: [tag.id], mode: "add" });
  await c.donors.notes.create({ donorId, body: "Met at the gala" });
  // A merged duplicate leaves its address with the donor kept (donor_contact).
  const dupe = await c.donors.create({
    data: { firstName: "Ada", lastName: "A", email: `ada2-${org}@a.test` },
  });
  await c.donors.merge({ sourceId: dupe.id as string, targetId: donorId, dryRun: false });
  await c.donors.tiers.create({ name: "Major", minMinor: 0, maxMinor: null });
  const donatedAt = Date.now() - 60_000;
  const gift = await c.donations.create({
    donorId,
    campaignId: campaign.id,
    amountMinor: 5000,
    currency: "USD",
    paymentMethod: "cash",
    donatedAt,
  });
  await c.receipts.sendThanks({ donationId: gift.id });
  await c.plans.create({
    donorId,
    campaignId: null,
    amountMinor: 2_500,
    currency: "USD",
    interval: "month",
    startDay: "2026-01-15",
  });
  const imp = await c.imports.start({
    kind: "donors",
    fileName: "donors.csv",
    fileHash: "b".repeat(64),
    fileSize: 100,
    totalRows: 1,
    headers: ["E-mail"],
    mapping: ["email"],
    options: { currency: "USD", timeZone: "UTC" },
  });
  await c.imports.commit({ id: imp.id, rows: [{ row: 2, cells: ["not an e-mail"] }] });
  await c.imports.mappings.save({
    kind: "donors",
    name: "Old CRM",
    fields: { email: "email" },
    options: { dateOrder: "auto", decimal: "auto", matchPolicy: "fill" },
  });
  await c.thanks.save({ campaignId: campaign.id, subject: "Thanks", body: "Dear {{donor.name}}" });
  // The gift's year (the organization keeps UTC): a statement needs a gift in it.
  await c.receipts.startStatements({ year: new Date(donatedAt).getUTCFullYear(), basis: "calendar" });
  await c.organization.invite({ email: `someone-${org}@a.test`, role: "viewer" });
  await c.organization.offerOwnership({
    membershipId: await membershipId(org, viewer.user.id),
    stepDown: false,
  });
  const now = Date.now();
  await db.batch([
    db
      .prepare(
        "INSERT INTO campaign_facet (campaign_id, currency, facet, grain, period, key, gift_count, amount_minor) VALUES (?, 'USD', 'net', 'm', '2026-01', '1', 1, 5000)",
      )
      .bind(campaign.id),
    db
      .prepare(
        "INSERT INTO campaign_donor_period (campaign_id, currency, grain, period, donor_id, sketch, gift_count, amount_minor) VALUES (?, 'USD', 'm', '2026-01', ?, 1, 1, 5000)",
      )
      .bind(campaign.id, donorId),
    db
      .prepare(
        "INSERT INTO campaign_rollup_state (campaign_id, organization_id, time_zone, built_at) VALUES (?, ?, 'UTC', ?)",
      )
      .bind(campaign.id, org, now),
    db
      .prepare(
        "INSERT INTO campaign_rollup_build (campaign_id, organization_id, time_zone, built_month, built_until, started_at) VALUES (?, ?, 'UTC', '', 0, ?)",
      )
      .bind(campaign.id, org, now),
    db
      .prepare(
        "INSERT INTO donation_daily_build (organization_id, time_zone, built_month, built_until, started_at) VALUES (?, 'UTC', '', 0, ?)",
      )
      .bind(org, now),
    db
      .prepare(
        "INSERT INTO media (id, organization_id, content_type, byte_size, sha256, bytes, created_by, created_at) VALUES (?, ?, 'image/png', 1, ?, x'89', ?, ?)",
      )
      .bind(`media-${org}`, org, "c".repeat(64), owner.user.id, now),
    db
      .prepare(
        "INSERT INTO organization_badge (id, organization_id, badge, created_at, updated_at) VALUES (?, ?, 'transparent', ?, ?)",
      )
      .bind(`badge-${org}`, org, now, now),
  ]);
  return { owner, viewer, campaign };
}

describe("deleting an organization", () => {
  it("is the owner's alone, with the organization's name typed, never while impersonating", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const roles = {
      admin: await member(org, "admin"),
      organizer: await member(org, "organizer"),
      viewer: await member(org, "viewer"),
    };
    const name = (await owner.caller.organization.current()).name;
    for (const [role, m] of Object.entries(roles))
      expect(await codeOf(m.caller.organization.delete({ confirmName: name })), role).toBe("FORBIDDEN");
    // A platform admin acting without being an owner does not delete someone's organization.
    const platform = await makeAdmin();
    const pc = await callerFor(platform.jar);
    await pc.organization.setActive({ organizationId: org });
    expect(await codeOf(pc.organization.delete({ confirmName: name }))).toBe("FORBIDDEN");
    // Impersonating the owner is not being them.
    const imp = await platform.jar.post("/api/auth/admin/impersonate-user", { userId: owner.user.id });
    expect(imp.status).toBe(200);
    platform.jar.cookies.delete("better-auth.session_data");
    expect(await codeOf((await callerFor(platform.jar)).organization.delete({ confirmName: name }))).toBe(
      "FORBIDDEN",
    );
    for (const typed of ["", name.toUpperCase(), `${name}x`, "Org"])
      expect(await codeOf(owner.caller.organization.delete({ confirmName: typed })), typed).toBe(
        "UNPROCESSABLE_CONTENT",
      );
    expect((await owner.caller.organization.current()).id).toBe(org);
    expect(
      await db
        .prepare(
          "SELECT count(*) AS n FROM audit_event WHERE action = 'organization.delete' AND entity_id = ?",
        )
        .bind(org)
        .first(),
    ).toEqual({ n: 0 });
  });

  it("ends it for everyone at once, purges every table of it, touches no other, and keeps the record", async () => {
    // Every table of the schema is either an organization's (purged) or kept on purpose.
    const tables = await allTables(db);
    const purged = new Set(PURGE_TABLES.map((t) => t.table));
    const unclassified = tables.filter((t) => !purged.has(t) && !(t in KEPT_TABLES));
    expect(unclassified, "add each new table to PURGE_TABLES or KEPT_TABLES").toEqual([]);
    expect([...purged].filter((t) => !tables.includes(t))).toEqual([]);

    const victim = await makeOrg();
    const other = await makeOrg();
    const v = await populate(victim);
    const o = await populate(other);
    // The fixture reaches every purged table, for both: otherwise the checks below prove nothing.
    const empty: string[] = [];
    const before: Record<string, string[]> = {};
    const totals: Record<string, number> = {};
    for (const t of PURGE_TABLES) {
      if (!(await rowsOf(db, t.table, victim)).length) empty.push(`${t.table} (victim)`);
      before[t.table] = await rowsOf(db, t.table, other);
      if (!before[t.table]?.length) empty.push(`${t.table} (other)`);
      totals[t.table] = await countAll(db, t.table);
    }
    expect(empty, "populate() must write a row to every purged table").toEqual([]);
    const victimRows: Record<string, number> = {};
    for (const t of PURGE_TABLES) victimRows[t.table] = (await rowsOf(db, t.table, victim)).length;

    const name = (await v.owner.caller.organization.current()).name;
    const done = await v.owner.caller.organization.delete({ confirmName: name });
    expect(done).toEqual({ id: victim, purged: true });

    // Gone for everyone: no membership, no pick, no public page, not in the admin's lists.
    expect(await codeOf((await callerFor(v.owner.jar)).organization.current())).toBe("FORBIDDEN");
    expect(await codeOf((await callerFor(v.viewer.jar)).organization.current())).toBe("FORBIDDEN");
    const platform = await callerFor((await makeAdmin()).jar);
    expect((await platform.organization.all()).map((x) => x.id)).not.toContain(victim);
    expect((await platform.organization.mine()).map((x) => x.id)).not.toContain(victim);
    expect(await codeOf(platform.organization.setActive({ organizationId: victim }))).toBe("NOT_FOUND");
    expect((await lastMail(v.viewer.email))?.subject).toBe(`${name} was deleted`);

    // Nothing of it is left in any table; every other organization's rows are as they were.
    for (const t of PURGE_TABLES) {
      expect(await rowsOf(db, t.table, victim), t.table).toEqual([]);
      expect(await rowsOf(db, t.table, other), t.table).toEqual(before[t.table]);
    }
    for (const t of PURGE_TABLES) {
      // The victim's rows were removed, the others' stay.
      // The deletion's and the purge's own audit rows carry no organization.
      const added = t.table === "audit_event" ? 2 : 0;
      expect(await countAll(db, t.table), t.table).toBe(
        (totals[t.table] ?? 0) - (victimRows[t.table] ?? 0) + added,
      );
    }
    // The other organization still works.
    expect((await o.owner.caller.campaigns.byId({ id: o.campaign.id })).title).toBe("Winter Coats");
    // The record of the deletion outlives the purge, in the directory.
    const record = await db
      .prepare(
        "SELECT name, requested_by, purged_at, purged_rows FROM organization_deletion WHERE organization_id = ?",
      )
      .bind(victim)
      .first<{ name: string; requested_by: string; purged_at: number | null; purged_rows: number }>();
    expect(record).toMatchObject({ name, requested_by: v.owner.user.id });
    expect(record?.purged_at).toBeGreaterThan(0);
    // Every row of it, less those the deletion itself ended (memberships, invitations, offers).
    const atOnce = new Set(["membership", "invitation", "ownership_offer"]);
    expect(record?.purged_rows).toBe(
      Object.entries(victimRows).reduce((sum, [t, n]) => sum + (atOnce.has(t) ? 0 : n), 0),
    );
    const audit = await db
      .prepare(
        "SELECT action, actor_id, organization_id FROM audit_event WHERE entity_type = 'organization' AND entity_id = ? ORDER BY at",
      )
      .bind(victim)
      .all();
    expect(audit.results).toEqual([
      { action: "organization.delete", actor_id: v.owner.user.id, organization_id: null },
      { action: "organization.purge", actor_id: null, organization_id: null },
    ]);
    // The former members are people still: their accounts stay, without the organization.
    expect(await db.prepare("SELECT 1 AS x FROM user WHERE id = ?").bind(v.viewer.user.id).first()).toEqual({
      x: 1,
    });
  });

  it("purges a large organization in bounded steps over several runs, the cron finishing", async () => {
    const org = await makeOrg();
    await db
      .prepare(
        `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 120)
         INSERT INTO donor (id, organization_id, first_name, last_name, created_at, updated_at)
         SELECT ?1 || '-' || n, ?1, 'Donor', 'No. ' || n, 0, 0 FROM s`,
      )
      .bind(org)
      .run();
    // Deleted (as the deletion's batch leaves it), its purge not yet begun.
    await db.batch([
      db.prepare("UPDATE organization SET status = 'archived' WHERE id = ?").bind(org),
      db
        .prepare(
          "INSERT INTO organization_deletion (organization_id, name, slug, requested_at) VALUES (?1, 'Big', ?1, 0)",
        )
        .bind(org),
    ]);
    const donors = async () =>
      (
        await db
          .prepare("SELECT count(*) AS n FROM donor WHERE organization_id = ?")
          .bind(org)
          .first<{ n: number }>()
      )?.n;
    // Steps of 50 rows; the run's time is up after the second step of donors.
    const steps: number[] = [];
    let late = false;
    const gone = await purgeOrganization(testEnv, org, {
      deadline: 1,
      stepRows: 50,
      now: () => (late ? 2 : 0),
      onStep: (table, n) => {
        if (table !== "donor") return;
        steps.push(n);
        if (steps.length === 2) late = true;
      },
    });
    expect(gone).toBe(false);
    expect(steps).toEqual([50, 50]);
    expect(await donors()).toBe(20);
    // The every-15-minutes cron goes on where it stopped, and finishes.
    await runScheduled("*/15 * * * *", testEnv, new Date());
    expect(await donors()).toBe(0);
    expect(await db.prepare("SELECT id FROM organization WHERE id = ?").bind(org).first()).toBeNull();
    const rec = await db
      .prepare("SELECT purged_at, purged_rows FROM organization_deletion WHERE organization_id = ?")
      .bind(org)
      .first<{ purged_at: number | null; purged_rows: number }>();
    expect(rec?.purged_at).toBeGreaterThan(0);
    // 120 donors, the organization row, and its state rows of makeOrg.
    expect(rec?.purged_rows).toBe(123);
    // A second run finds nothing to do and writes no second record of the end.
    await purgeDeletedOrganizations(testEnv, { deadline: Date.now() + 1_000 });
    const ends = await db
      .prepare("SELECT count(*) AS n FROM audit_event WHERE action = 'organization.purge' AND entity_id = ?")
      .bind(org)
      .first();
    expect(ends).toEqual({ n: 1 });
  });

  it("purges an organization placed in another database there, and its directory rows in the directory", async () => {
    const org = `org-apart-del-${Date.now().toString(36)}`;
    const env = {
      ...testEnv,
      ORGANIZATION_DATABASES: JSON.stringify({ "org-apart": "DB_TWO", [org]: "DB_TWO" }),
    } as typeof testEnv;
    const two = testEnv.DB_TWO;
    const now = Date.now();
    for (const d of [db, two])
      await d
        .prepare(
          "INSERT INTO organization (id, name, slug, status, created_at, updated_at) VALUES (?1, 'Apart', ?1, 'archived', ?2, ?2)",
        )
        .bind(org, now)
        .run();
    await two
      .prepare(
        "INSERT INTO donor (id, organization_id, first_name, last_name, created_at, updated_at) VALUES (?1 || '-d', ?1, 'A', 'B', 0, 0)",
      )
      .bind(org)
      .run();
    await db
      .prepare(
        "INSERT INTO audit_event (id, organization_id, action, entity_type, entity_id, at) VALUES (?1 || '-a', ?1, 'member.add', 'user', 'u', 0)",
      )
      .bind(org)
      .run();
    await db
      .prepare(
        "INSERT INTO organization_deletion (organization_id, name, slug, requested_at) VALUES (?1, 'Apart', ?1, 0)",
      )
      .bind(org)
      .run();
    expect(await purgeOrganization(env, org, { deadline: Date.now() + 10_000 })).toBe(true);
    for (const d of [db, two]) {
      for (const t of PURGE_TABLES) expect(await rowsOf(d, t.table, org), t.table).toEqual([]);
    }
  });
});

describe("the last owner after deleting the organization", () => {
  it("may delete their account once the organization is deleted", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    expect((await owner.jar.post("/api/auth/delete-user", { password: PASSWORD })).status).toBe(409);
    const name = (await owner.caller.organization.current()).name;
    await owner.caller.organization.delete({ confirmName: name });
    expect(await owner.caller.organization.soleOwnerships()).toEqual([]);
    const jar = new CookieJar();
    await jar.post("/api/auth/sign-in/email", { email: owner.email, password: PASSWORD });
    expect((await jar.post("/api/auth/delete-user", { password: PASSWORD })).status).toBe(200);
  });

  it("leaves no public page behind", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const c = await owner.caller.campaigns.create({ title: "Open Doors", currency: "USD", goalType: "none" });
    await owner.caller.campaigns.setStatus({ id: c.id, action: "publish" });
    const slug = (
      await db.prepare("SELECT slug FROM organization WHERE id = ?").bind(org).first<{ slug: string }>()
    )?.slug;
    const input = {
      organizationSlug: slug ?? "",
      slug: (await owner.caller.campaigns.byId({ id: c.id })).slug,
    };
    const anon = await callerFor(null);
    expect((await anon.campaigns.public(input)).campaign.title).toBe("Open Doors");
    await owner.caller.organization.delete({ confirmName: (await owner.caller.organization.current()).name });
    expect(await codeOf(anon.campaigns.public(input))).toBe("NOT_FOUND");
    // Not even while its purge is still under way (the organization's row marked deleted).
    await db
      .prepare(
        "INSERT INTO organization (id, name, slug, status, created_at, updated_at) VALUES (?1, 'x', ?2, 'archived', 0, 0)",
      )
      .bind(org, slug)
      .run();
    expect(await codeOf(anon.campaigns.public(input))).toBe("NOT_FOUND");
  });
});
