/**
 * History panels in people's words (issue 53, M3; decision 052): every audited action has a
 * sentence, records are named (one query per kind, not per row), money is in the record's
 * currency, dates in the organization's zone, no ids, epochs, minor units or media URLs, and the
 * IP address only for platform admins.
 */
import { describe, expect, it } from "vitest";
import { describeChanges } from "../../worker/users/audit/changes";
import { AUDIT_SENTENCES, isAuditAction, type Words } from "../../worker/users/audit/sentences";
import { makeAdmin } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { testEnv, trpcHttp } from "../helpers";

/** Raw data that must never reach a person: JSON, ids, epochs, minor units, media URLs. */
const RAW = /[{}[\]]|undefined|NaN|\[object|\bnull\b|Minor|\d{10,}|\/api\/media|\bid-/;

const sources = import.meta.glob(["/worker/**/*.ts", "!/worker/**/*.test.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** Every action string the code writes: `action: "…"` (ternaries too), the auth API's `audit(…, "…")`, SQL. */
function actionsInCode() {
  const found = new Map<string, string>();
  for (const [path, src] of Object.entries(sources)) {
    src.split("\n").forEach((line, i) => {
      if (/^\s*(\/\*|\*|\/\/)/.test(line)) return;
      if (/\baction\b|\baudit\(/.test(line))
        for (const m of line.matchAll(/"([a-z_]+\.[a-z_]+)"/g)) found.set(m[1] as string, `${path}:${i + 1}`);
    });
    for (const m of src.matchAll(/INSERT INTO audit_event[\s\S]{0,400}?'([a-z_]+\.[a-z_]+)'/g))
      found.set(m[1] as string, path);
    // The auth API's audit helpers take the action as a later argument, often on its own line.
    for (const m of src.matchAll(/\baudit\(\s*ctx,[^;]*?"([a-z_]+\.[a-z_]+)"/g))
      found.set(m[1] as string, path);
  }
  return found;
}

const stub: Words = {
  subject: "this record",
  name: (kind) => `the ${kind}`,
  names: (kind) => `the ${kind}s`,
  money: () => "€1.00",
  date: () => "Dec 1, 2026",
};

describe("the registry of audit actions", () => {
  it("has a sentence for every action written in the code, in SQL and the auth API included", () => {
    const found = actionsInCode();
    // The scan sees each way an action is written: a literal, a ternary, SQL, the auth helpers.
    for (const known of [
      "donation.create",
      "donor.tier_unlock",
      "donation.abandon",
      "user.ban",
      "account.link",
    ])
      expect(found.has(known), known).toBe(true);
    const missing = [...found].filter(([a]) => !isAuditAction(a)).map(([a, where]) => `${a} (${where})`);
    expect(missing).toEqual([]);
  });

  it("says every action as a sentence with no raw value, whatever its values", () => {
    const full = {
      status: "partially_refunded",
      refundedMinor: 5_000,
      amountMinor: 15_000,
      currency: "EUR",
      donorId: "id-donor",
      campaignId: "id-campaign",
      tagIds: ["id-t1", "id-t2"],
      title: "Meals",
      name: "Gala",
      unitAmountMinor: 500,
      id: "id-item",
      sourceId: "id-a",
      targetId: "id-b",
      donations: 2,
      notes: 1,
      tags: 3,
      tierId: "id-tier",
      donors: "move",
      moved: 4,
      visibility: "shared",
      fileName: "donors.csv",
      rows: [2, 501],
      kind: "donors",
      giftsCreated: 3,
      donorsCreated: 2,
      rowsInvalid: 1,
      gifts: 3,
      email: "ann@example.org",
      role: "organizer",
      expiresAt: 1_800_000_000_000,
      badge: "registered_charity",
      interval: "month",
      providerId: "gitlab",
      before: "user",
      banExpires: 1_800_000_000_000,
      to: "ann@example.org",
      number: "HL-000001",
      period: "2026",
      locked: true,
    };
    for (const [action, words] of Object.entries(AUDIT_SENTENCES)) {
      for (const values of [full, {}]) {
        const said = words.say(
          {
            action,
            entityType: "donor",
            entityId: "id-x",
            before:
              values === full ? { status: "completed", refundedMinor: 0, name: "Old", role: "viewer" } : {},
            after: values,
            reason: null,
          },
          stub,
        );
        expect(said.length, action).toBeGreaterThan(8);
        expect(said, action).not.toMatch(RAW);
      }
    }
  });

  it("lists an edit's fields by label, values in words: no epochs, minor units, URLs or ids", () => {
    const lines = describeChanges(
      { goalAmountMinor: 100_000, startAt: null, coverUrl: null, tagIds: [], fiscalYearStartMonth: 1 },
      {
        goalAmountMinor: 2_500_000,
        startAt: 1_803_888_000_000,
        coverUrl: "/api/media/abc",
        tagIds: ["id-1"],
        suggestedAmounts: [2_500, 5_000],
        fiscalYearStartMonth: 4,
        updatedAt: 1_803_888_000_001,
        someNewThingMinor: 300,
        someNewId: "id-9",
        someList: [1, 2],
      },
      stub,
    );
    expect(lines.map((l) => `${l.label}: ${l.from} → ${l.to}`)).toEqual([
      "Goal amount: €1.00 → €1.00 (edited)",
      "Starts: none → Dec 1, 2026",
      "Cover image: none → an image",
      "Tags: none → the tags",
      "Suggested amounts: none → €1.00, €1.00",
      "Fiscal year starts: January → April",
      "Some new thing: none → €1.00",
    ]);
  });
});

type Owner = Awaited<ReturnType<typeof member>>;

async function history(
  m: Owner,
  entityType: "campaign" | "donor" | "donation" | "organization",
  entityId: string,
) {
  return (await m.caller.audit.list({ entityType, entityId })).rows;
}

describe("history panels on real records", () => {
  it("a campaign's and a gift's history: names, the campaign's currency, the organization's zone", async () => {
    const org = await makeOrg({ currency: "EUR", timeZone: "Europe/Paris" });
    const owner = await member(org, "owner");
    const c = await owner.caller.campaigns.create({ title: "Spring Meal Drive", currency: "EUR" });
    await owner.caller.campaigns.update({
      id: c.id,
      data: {
        title: "Spring Meal Drive",
        currency: "EUR",
        goalType: "amount",
        goalAmountMinor: 2_500_000,
        // 1 Mar 2027, 00:00 in Paris.
        startAt: Date.UTC(2027, 1, 28, 23, 0),
      },
    });
    await owner.caller.campaigns.setStatus({ id: c.id, action: "publish" });
    const rows = await history(owner, "campaign", c.id);
    expect(rows.map((r) => r.sentence)).toEqual([
      "Published this campaign",
      "Changed this campaign",
      "Created this campaign",
    ]);
    const edit = rows[1]?.changes.map((l) => `${l.label}: ${l.from} → ${l.to}`) ?? [];
    expect(edit).toContain("Goal amount: none → €25,000.00");
    expect(edit).toContain("Starts: none → Mar 1, 2027, 12:00 AM GMT+1");
    for (const r of rows)
      expect([r.sentence, ...r.changes.map((l) => `${l.label}: ${l.from} → ${l.to}`)].join("\n")).not.toMatch(
        RAW,
      );

    const donor = await owner.caller.donors.create({ data: { firstName: "Rosa", lastName: "Delgado" } });
    if (!donor.created) throw new Error("unreachable");
    const gift = await owner.caller.donations.create({
      donorId: donor.id,
      campaignId: c.id,
      amountMinor: 15_000,
      currency: "EUR",
      paymentMethod: "check",
      donatedAt: Date.UTC(2026, 10, 1, 9),
    } as never);
    await owner.caller.donations.updateStatus({
      id: gift.id,
      status: "partially_refunded",
      refundAmountMinor: 5_000,
      reason: "Asked to move part to next year",
    } as never);
    const giftRows = await history(owner, "donation", gift.id);
    expect(giftRows.map((r) => r.sentence)).toEqual([
      "Refunded €50.00 of this donation",
      "Recorded this donation: €150.00 from Rosa Delgado to Spring Meal Drive",
    ]);
    expect(giftRows[0]?.reason).toBe("Asked to move part to next year");
    expect(giftRows[0]?.changes.map((l) => `${l.label}: ${l.from} → ${l.to}`)).toEqual([
      "Status: completed → partially refunded",
      "Refunded: €0.00 → €50.00",
    ]);
  });

  it("names tags on a donor's history, and says an unknown action in words, never as JSON", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const d = await owner.caller.donors.create({ data: { firstName: "Ann", lastName: "Lee" } });
    if (!d.created) throw new Error("unreachable");
    const spring = await owner.caller.donors.tags.create({ name: "Spring 2027" });
    const gala = await owner.caller.donors.tags.create({ name: "Gala" });
    await owner.caller.donors.tags.assign({ donorIds: [d.id], tagIds: [spring.id, gala.id], mode: "add" });
    await owner.caller.donors.tags.assign({ donorIds: [d.id], tagIds: [gala.id], mode: "remove" });
    await owner.caller.donors.update({ id: d.id, data: { firstName: "Ann", lastName: "Lee-Park" } });
    // An action a later release writes (or a renamed one): a sentence still, its fields by label.
    await testEnv.DB.prepare(
      `INSERT INTO audit_event (id, organization_id, actor_id, action, entity_type, entity_id, before, after, at)
       VALUES (?1, ?2, ?3, 'donor.greeting_card_sent', 'donor', ?4, '{"cardCount":1}', '{"cardCount":2,"sentAt":1803888000000,"cardId":"x1"}', ?5)`,
    )
      .bind(`ae-${org}`, org, owner.user.id, d.id, Date.now() + 1000)
      .run();
    const rows = await history(owner, "donor", d.id);
    expect(rows.map((r) => r.sentence)).toEqual([
      "Greeting card sent: this donor",
      "Changed this donor",
      "Removed tag Gala from this donor",
      "Added tags Spring 2027 and Gala to this donor",
      "Added this donor",
    ]);
    expect(rows[0]?.changes.map((l) => `${l.label}: ${l.from} → ${l.to}`)).toEqual([
      "Card count: 1 → 2",
      "Sent at: none → Mar 1, 2027, 8:00 AM UTC",
    ]);
    expect(rows[1]?.changes).toEqual([
      { field: "lastName", label: "Last name", from: "Lee", to: "Lee-Park" },
    ]);
    expect(rows.every((r) => r.actor === "Test User")).toBe(true);
  });

  it("shows the IP address to platform admins only: not to owners, admins, organizers or viewers", async () => {
    const org = await makeOrg();
    const roles = {
      owner: await member(org, "owner"),
      admin: await member(org, "admin"),
      organizer: await member(org, "organizer"),
      viewer: await member(org, "viewer"),
    };
    // A platform admin (here also a viewer of the organization, as admin@ is its owner).
    const platform = await member(org, "viewer", "admin");
    await testEnv.DB.prepare(
      `INSERT INTO audit_event (id, organization_id, actor_id, action, entity_type, entity_id, ip, at)
       VALUES (?1, ?2, ?3, 'organization.update', 'organization', ?2, '203.0.113.9', ?4)`,
    )
      .bind(`ae-ip-${org}`, org, roles.owner.user.id, Date.now())
      .run();
    for (const [role, m] of Object.entries(roles)) {
      const [row] = await history(m, "organization", org);
      expect(row?.sentence, role).toBe("Changed the organization's profile");
      expect(row?.ip, role).toBeNull();
    }
    expect((await history(platform, "organization", org))[0]?.ip).toBe("203.0.113.9");
  });

  it("names every row's records in one query per kind: 40 donors cost what 2 do", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const tag = await owner.caller.donors.tags.create({ name: "Board" });
    const insert = (n: number, first: number) =>
      testEnv.DB.batch(
        Array.from({ length: n }, (_, i) => {
          const id = `${org}-d${first + i}`;
          return [
            testEnv.DB.prepare(
              "INSERT INTO donor (id, organization_id, first_name, last_name, created_at, updated_at) VALUES (?1, ?2, 'Donor', ?3, 0, 0)",
            ).bind(id, org, `No. ${first + i}`),
            testEnv.DB.prepare(
              `INSERT INTO audit_event (id, organization_id, actor_id, action, entity_type, entity_id, after, at)
               VALUES (?1, ?2, ?3, 'organization.update', 'organization', ?2, json_object('donorId', ?4, 'tagIds', json_array(?5)), ?6)`,
            ).bind(`ae-${id}`, org, owner.user.id, id, tag.id, first + i),
          ];
        }).flat(),
      );
    const queries = async () => {
      const res = await trpcHttp(
        owner.jar,
        "audit.list",
        { entityType: "organization", entityId: org },
        { method: "GET" },
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        result: { data: { json: { rows: { changes: { label: string; from: string; to: string }[] }[] } } };
      };
      const timing = res.headers.get("server-timing") ?? "";
      return { n: Number(/d1;desc="(\d+) queries"/.exec(timing)?.[1]), rows: body.result.data.json.rows };
    };
    await insert(2, 1);
    const few = await queries();
    expect(few.rows).toHaveLength(2);
    await insert(38, 3);
    const many = await queries();
    expect(many.rows).toHaveLength(40);
    const lines = many.rows.map((r) => r.changes.map((l) => `${l.label}: ${l.from} → ${l.to}`).join("; "));
    expect(lines).toContain("Donor: none → Donor No. 17; Tags: none → Board");
    expect(Number.isFinite(few.n) && few.n > 0).toBe(true);
    expect(many.n).toBe(few.n);
  });

  it("the user page names the object of each verb and the organization it was done in", async () => {
    const org = await makeOrg({ currency: "GBP" });
    const organizer = await member(org, "organizer");
    await organizer.caller.campaigns.create({ title: "Spring Meal Drive", currency: "GBP" });
    const d = await organizer.caller.donors.create({ data: { firstName: "Rosa", lastName: "Delgado" } });
    if (!d.created) throw new Error("unreachable");
    const admin = await makeAdmin();
    const rows = await (await callerFor(admin.jar)).users.history({ userId: organizer.user.id });
    expect(rows.map((r) => r.sentence)).toEqual([
      "Added donor Rosa Delgado",
      "Created campaign Spring Meal Drive",
    ]);
    expect(rows.every((r) => r.organizationName === `Org ${org.split("-").at(-1)}`)).toBe(true);
  });
});
