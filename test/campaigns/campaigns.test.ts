/**
 * Campaign API beyond the basics in test/campaigns/basics.test.ts: list filters (phase, date range,
 * goal reached), recurring options, item edits, the public page (items, redaction, closed), and
 * analytics against a brute-force recount over refunds, test mode, trash, a foreign currency and
 * time-zone day boundaries.
 */

import { bucketFor } from "@core/analytics";
import { campaignSlug, freeSlug } from "@core/campaign";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { CookieJar, signUp } from "../auth/jar";
import { platformAdmin, rebuildRollups } from "../donations/brute";
import { callerFor, makeOrg, member } from "../fixtures";
import { codeOf, testEnv, trpcHttp } from "../helpers";

const base = { title: "Winter Coats", currency: "USD" as const };
const DAY = 86_400_000;

type Caller = Awaited<ReturnType<typeof member>>["caller"];

function gift(
  caller: Caller,
  campaignId: string,
  amountMinor: number,
  donatedAt: number,
  more: Partial<Parameters<Caller["donations"]["create"]>[0]> = {},
) {
  return caller.donations.create({
    donorId: null,
    campaignId,
    amountMinor,
    currency: "USD",
    paymentMethod: "cash",
    donatedAt,
    ...more,
  });
}

describe("campaign status machine", () => {
  // DESIGN §4, written out here rather than imported, so a change to the machine fails this test.
  const MACHINE: Record<string, string[]> = {
    draft: ["active", "archived"],
    active: ["paused", "completed"],
    paused: ["active", "completed"],
    completed: ["archived"],
    archived: ["draft"],
  };
  const ACTIONS = {
    publish: "active",
    pause: "paused",
    resume: "active",
    complete: "completed",
    archive: "archived",
    unarchive: "draft",
  } as const;

  it("allows exactly the machine's transitions from every status, and toggles only active ⇄ paused", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "organizer");
    const c = await caller.campaigns.create(base);
    const force = (status: string) =>
      testEnv.DB.prepare("UPDATE campaign SET status = ? WHERE id = ?").bind(status, c.id).run();
    for (const [from, allowed] of Object.entries(MACHINE)) {
      for (const [action, to] of Object.entries(ACTIONS)) {
        await force(from);
        const res = await caller.campaigns
          .setStatus({ id: c.id, action: action as keyof typeof ACTIONS })
          .catch((e: TRPCError) => e);
        // An action is one edge: publish leaves draft, resume leaves paused, both reach active.
        const edge = action === "publish" ? from === "draft" : action === "resume" ? from === "paused" : true;
        if (allowed.includes(to) && edge) {
          expect(res, `${from} --${action}--> ${to}`).not.toBeInstanceOf(TRPCError);
          expect((res as { status: string }).status).toBe(to);
        } else {
          expect(res, `${from} --${action}--> ${to}`).toBeInstanceOf(TRPCError);
          expect((res as TRPCError).code).toBe("UNPROCESSABLE_CONTENT");
          expect(
            (res as TRPCError & { cause: { details: { allowed: string[] } } }).cause.details.allowed,
          ).toEqual(allowed);
          expect((await caller.campaigns.byId({ id: c.id })).status).toBe(from);
        }
      }
      await force(from);
      const toggled = await caller.campaigns.toggleStatus({ id: c.id }).catch((e: TRPCError) => e);
      if (from === "active" || from === "paused") {
        expect((toggled as { status: string }).status).toBe(from === "active" ? "paused" : "active");
      } else {
        expect((toggled as TRPCError).code).toBe("UNPROCESSABLE_CONTENT");
        expect((await caller.campaigns.byId({ id: c.id })).status).toBe(from);
      }
    }
    const audited = await testEnv.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_event WHERE entity_id = ? AND action LIKE 'campaign.%' AND action != 'campaign.create'",
    )
      .bind(c.id)
      .first<{ n: number }>();
    // One audit row per successful change: 8 allowed setStatus calls plus 2 toggles.
    expect(audited?.n).toBe(10);
  });

  it("refuses to publish a campaign whose end date has passed unless it accepts gifts after the end", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const past = { ...base, startAt: Date.now() - 10 * DAY, endAt: Date.now() - DAY };
    const c = await caller.campaigns.create(past);
    expect(await codeOf(caller.campaigns.setStatus({ id: c.id, action: "publish" }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect((await caller.campaigns.byId({ id: c.id })).status).toBe("draft");
    const open = await caller.campaigns.create({ ...past, title: "Open after end", acceptAfterEnd: true });
    expect((await caller.campaigns.setStatus({ id: open.id, action: "publish" })).status).toBe("active");
  });

  it("refuses every mutation to viewers and every call on another tenant's campaign", async () => {
    const orgA = await makeOrg();
    const orgB = await makeOrg();
    const a = await member(orgA, "owner");
    const viewer = await member(orgA, "viewer");
    const b = await member(orgB, "owner");
    const c = await a.caller.campaigns.create(base);
    const item = await a.caller.campaigns.items.create({
      campaignId: c.id,
      title: "Coat",
      unitAmountMinor: 4500,
    });
    const calls = (x: Caller) => ({
      update: () => x.campaigns.update({ id: c.id, data: { ...base, title: "Taken over" } }),
      delete: () => x.campaigns.delete({ id: c.id }),
      toggle: () => x.campaigns.toggleStatus({ id: c.id }),
      publish: () => x.campaigns.setStatus({ id: c.id, action: "publish" }),
      itemCreate: () => x.campaigns.items.create({ campaignId: c.id, title: "X", unitAmountMinor: 100 }),
      itemUpdate: () => x.campaigns.items.update({ id: item.id, title: "X" }),
      itemDelete: () => x.campaigns.items.delete({ id: item.id }),
      reorder: () => x.campaigns.items.reorder({ campaignId: c.id, ids: [item.id] }),
    });
    for (const [name, call] of Object.entries(calls(viewer.caller)))
      expect(await codeOf(call()), `viewer ${name}`).toBe("FORBIDDEN");
    expect(await codeOf(viewer.caller.campaigns.create(base))).toBe("FORBIDDEN");
    const reads = {
      byId: () => b.caller.campaigns.byId({ id: c.id }),
      analytics: () => b.caller.campaigns.analytics({ id: c.id, days: 30 }),
      items: () => b.caller.campaigns.items.list({ campaignId: c.id }),
    };
    for (const [name, call] of Object.entries({ ...calls(b.caller), ...reads }))
      expect(await codeOf(call()), `other tenant ${name}`).toBe("NOT_FOUND");
    const after = await a.caller.campaigns.byId({ id: c.id });
    expect(after).toMatchObject({ title: base.title, status: "draft" });
    expect(await a.caller.campaigns.items.list({ campaignId: c.id })).toEqual([
      expect.objectContaining({ title: "Coat" }),
    ]);
  });

  it("reorders items in one audited batch and refuses duplicates", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create(base);
    const ids: string[] = [];
    for (const title of ["One", "Two", "Three"])
      ids.push((await caller.campaigns.items.create({ campaignId: c.id, title, unitAmountMinor: 500 })).id);
    await caller.campaigns.items.reorder({ campaignId: c.id, ids: [ids[2], ids[0], ids[1]] as string[] });
    expect((await caller.campaigns.items.list({ campaignId: c.id })).map((i) => i.title)).toEqual([
      "Three",
      "One",
      "Two",
    ]);
    expect(
      await codeOf(caller.campaigns.items.reorder({ campaignId: c.id, ids: [ids[0], ids[0]] as string[] })),
    ).toBe("BAD_REQUEST");
    const audit = await testEnv.DB.prepare(
      "SELECT after FROM audit_event WHERE entity_id = ? AND action = 'campaign_item.reorder'",
    )
      .bind(c.id)
      .all<{ after: string }>();
    expect(audit.results.map((r) => JSON.parse(r.after).ids)).toEqual([[ids[2], ids[0], ids[1]]]);
  });
});

describe("campaign list filters", () => {
  it("filters by derived phase, by the dates a campaign runs and by goal reached", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Auckland" });
    const { caller } = await member(org, "owner");
    const now = Date.now();
    const scheduled = await caller.campaigns.create({ ...base, title: "Scheduled", startAt: now + 10 * DAY });
    const ended = await caller.campaigns.create({
      ...base,
      title: "Ended",
      startAt: now - 40 * DAY,
      endAt: now - 20 * DAY,
    });
    const reached = await caller.campaigns.create({
      ...base,
      title: "Reached",
      goalType: "donations",
      goalCount: 1,
    });
    const live = await caller.campaigns.create({
      ...base,
      title: "Live",
      goalType: "amount",
      goalAmountMinor: 1_000_000,
    });
    await gift(caller, reached.id, 5000, now - DAY);
    await gift(caller, live.id, 5000, now - DAY);
    const ids = async (input: Parameters<Caller["campaigns"]["list"]>[0]) =>
      (await caller.campaigns.list(input)).rows.map((r) => r.title).sort();
    expect(await ids({ phase: ["scheduled"] })).toEqual(["Scheduled"]);
    expect(await ids({ phase: ["ended"] })).toEqual(["Ended"]);
    expect(await ids({ phase: ["goal_reached"] })).toEqual(["Reached"]);
    expect(await ids({ phase: ["live"] })).toEqual(["Live"]);
    expect(await ids({ phase: ["live", "scheduled"] })).toEqual(["Live", "Scheduled"]);
    // The list's phase is the same one byId presents.
    for (const c of [scheduled, ended, reached, live]) {
      const row = (await caller.campaigns.list({ q: c.title })).rows[0];
      expect(row?.phase).toBe((await caller.campaigns.byId({ id: c.id })).phase);
    }
    expect(await ids({ goalReached: true })).toEqual(["Reached"]);
    expect(await ids({ goalReached: false })).toEqual(["Live"]);

    // Date range in the organization's days: running at some point in [from, to].
    const day = (ms: number) =>
      new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland" }).format(new Date(ms));
    expect(await ids({ from: day(now - 35 * DAY), to: day(now - 30 * DAY) })).toEqual(["Ended"]);
    expect(await ids({ from: day(now + 20 * DAY), to: day(now + 30 * DAY) })).toEqual([
      "Live",
      "Reached",
      "Scheduled",
    ]);
    expect(await ids({ from: day(now - 10 * DAY) })).toEqual(["Live", "Reached", "Scheduled"]);
    expect(await ids({ to: day(now - 30 * DAY) })).toEqual(["Ended"]);
    expect(await codeOf(caller.campaigns.list({ from: "2026-02-02", to: "2026-02-01" }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.campaigns.list({ from: "yesterday" }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.campaigns.list({ phase: ["over" as never] }))).toBe("BAD_REQUEST");
  });

  it("narrows to one currency and to named ids, for the pickers of gifts and reports", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const other = await makeOrg();
    const { caller: outsider } = await member(other, "owner");
    const usd = await caller.campaigns.create({ ...base, title: "Coats" });
    const eur = await caller.campaigns.create({ ...base, title: "Mäntel", currency: "EUR" });
    const eur2 = await caller.campaigns.create({ ...base, title: "Schals", currency: "EUR" });
    const theirs = await outsider.campaigns.create({ ...base, title: "Theirs", currency: "EUR" });
    const titles = async (input: Parameters<Caller["campaigns"]["list"]>[0]) =>
      (await caller.campaigns.list({ ...input, sort: "title", desc: false })).rows.map((r) => r.title);
    expect(await titles({ currency: "EUR" })).toEqual(["Mäntel", "Schals"]);
    // The URL's lower case is a currency too, as every currency filter reads it.
    expect(await titles({ currency: "usd" as never })).toEqual(["Coats"]);
    expect(await titles({ currency: "EUR", q: "schal" })).toEqual(["Schals"]);
    expect(await titles({ ids: [eur2.id, usd.id] })).toEqual(["Coats", "Schals"]);
    expect(await titles({ ids: [eur.id], currency: "USD" })).toEqual([]);
    // Another organization's id names nothing here.
    expect(await titles({ ids: [theirs.id, eur.id] })).toEqual(["Mäntel"]);
    expect(await codeOf(caller.campaigns.list({ currency: "XYZ" as never }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.campaigns.list({ ids: [] }))).toBe("BAD_REQUEST");
    const many = Array.from({ length: 51 }, (_, i) => `c${i}`);
    expect(await codeOf(caller.campaigns.list({ ids: many }))).toBe("BAD_REQUEST");
    expect((await caller.campaigns.list({ ids: many.slice(0, 50) })).rows).toEqual([]);
  });
});

describe("campaign fields", () => {
  it("stores the recurring option and keeps suggested amounts within the gift bounds", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({
      ...base,
      allowRecurring: false,
      suggestedAmounts: [2500, 5000],
    });
    expect(c).toMatchObject({
      allowRecurring: false,
      recurringFrequencies: [],
      suggestedAmounts: [2500, 5000],
    });
    const u = await caller.campaigns.update({ id: c.id, data: { ...base, allowRecurring: true } });
    expect(u.allowRecurring).toBe(true);
    expect(u.recurringFrequencies).toEqual(["monthly", "quarterly", "annually"]);
    expect(
      await codeOf(caller.campaigns.create({ ...base, minAmountMinor: 1000, suggestedAmounts: [500] })),
    ).toBe("BAD_REQUEST");
    expect(await codeOf(caller.campaigns.create({ ...base, suggestedAmounts: [2500, 2500] }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(caller.campaigns.create({ ...base, coverUrl: "javascript:alert(1)" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(caller.campaigns.create({ ...base, coverUrl: "http://example.org/a.png" }))).toBe(
      "BAD_REQUEST",
    );
    const https = await caller.campaigns.create({ ...base, coverUrl: "https://example.org/a.png" });
    expect(https.coverUrl).toBe("https://example.org/a.png");
    // A refused update writes nothing, not even its audit row.
    const audits = async () =>
      (
        await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM audit_event WHERE entity_id = ?")
          .bind(c.id)
          .first<{ n: number }>()
      )?.n;
    const before = await audits();
    expect(
      await codeOf(caller.campaigns.update({ id: c.id, data: { ...base, suggestedAmounts: [1] } })),
    ).toBe("BAD_REQUEST");
    expect(await audits()).toBe(before);
  });

  it("refuses a suggested amount given twice, on create and on update, naming it on the field", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    // Over HTTP, as the form meets it: 400 with the field error next to the amounts.
    const refusal = async (path: string, input: unknown) => {
      const res = await trpcHttp(owner.jar, path, input);
      expect(res.status).toBe(400);
      const body = (await res.json()) as {
        error: { json: { message: string; data: { code: string; fieldErrors: Record<string, string[]> } } };
      };
      return body.error.json;
    };
    const created = await refusal("campaigns.create", { ...base, suggestedAmounts: [2500, 5000, 2500] });
    expect(created.data.code).toBe("BAD_REQUEST");
    expect(created.data.fieldErrors).toEqual({
      suggestedAmounts: ["$25.00 is already a suggested amount: each amount only once"],
    });
    expect(
      (
        await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM campaign WHERE organization_id = ?")
          .bind(org)
          .first()
      )?.n,
    ).toBe(0);

    const c = await owner.caller.campaigns.create({
      ...base,
      currency: "JPY",
      suggestedAmounts: [500, 1000],
    });
    const updated = await refusal("campaigns.update", {
      id: c.id,
      data: { ...base, currency: "JPY", suggestedAmounts: [1000, 500, 1000] },
    });
    // The update's fields sit under `data` (src/lib/format.ts errorInfo strips the prefix for the form).
    expect(updated.data.fieldErrors).toEqual({
      "data.suggestedAmounts": ["¥1,000 is already a suggested amount: each amount only once"],
    });
    expect((await owner.caller.campaigns.byId({ id: c.id })).suggestedAmounts).toEqual([500, 1000]);
  });

  it("edits an item's description and overfunding rule, and refuses other tenants and unknown keys", async () => {
    const orgA = await makeOrg();
    const orgB = await makeOrg();
    const a = await member(orgA, "organizer");
    const b = await member(orgB, "owner");
    const viewer = await member(orgA, "viewer");
    const c = await a.caller.campaigns.create(base);
    const { id } = await a.caller.campaigns.items.create({
      campaignId: c.id,
      title: "Coat",
      unitAmountMinor: 4500,
      quantityNeeded: 1,
      allowOverfunding: false,
    });
    await a.caller.campaigns.items.update({ id, description: "A warm coat", allowOverfunding: true });
    const [item] = await a.caller.campaigns.items.list({ campaignId: c.id });
    expect(item).toMatchObject({ description: "A warm coat", allowOverfunding: true, quantityNeeded: 1 });
    await gift(a.caller, c.id, 9000, Date.now(), { campaignItemId: id, itemQuantity: 2 });
    expect((await a.caller.campaigns.items.list({ campaignId: c.id }))[0]).toMatchObject({
      quantityFunded: 2,
      fullyFunded: true,
    });
    expect(await codeOf(b.caller.campaigns.items.update({ id, title: "Mine" }))).toBe("NOT_FOUND");
    expect(await codeOf(b.caller.campaigns.items.list({ campaignId: c.id }))).toBe("NOT_FOUND");
    expect(await codeOf(viewer.caller.campaigns.items.update({ id, title: "Mine" }))).toBe("FORBIDDEN");
    expect(await codeOf(a.caller.campaigns.items.update({ id, organizationId: orgB } as never))).toBe(
      "BAD_REQUEST",
    );
    expect((await a.caller.campaigns.items.list({ campaignId: c.id }))[0]?.title).toBe("Coat");
  });

  it("lists the gifts that chose an item (an item card's Gifts link), for every role that reads gifts", async () => {
    const org = await makeOrg();
    const a = await member(org, "organizer");
    const viewer = await member(org, "viewer");
    const c = await a.caller.campaigns.create(base);
    const coat = await a.caller.campaigns.items.create({
      campaignId: c.id,
      title: "Coat",
      unitAmountMinor: 4500,
    });
    const boots = await a.caller.campaigns.items.create({
      campaignId: c.id,
      title: "Boots",
      unitAmountMinor: 3000,
    });
    const forCoat = await gift(a.caller, c.id, 9000, Date.now() - 2000, {
      campaignItemId: coat.id,
      itemQuantity: 2,
    });
    await gift(a.caller, c.id, 3000, Date.now() - 1000, { campaignItemId: boots.id, itemQuantity: 1 });
    await gift(a.caller, c.id, 1200, Date.now());
    for (const who of [a, viewer]) {
      const list = await who.caller.donations.list({ campaignId: c.id, campaignItemId: coat.id });
      expect(list.rows.map((r) => r.id)).toEqual([forCoat.id]);
      expect(list.total).toBe(1);
      // The campaign alone (the chip removed) lists all three again.
      expect((await who.caller.donations.list({ campaignId: c.id })).total).toBe(3);
    }
  });
});

describe("campaign slugs", () => {
  it("are the title's ASCII words, at most 60 characters, suffixed within 60 past the ones in use", () => {
    expect(campaignSlug("  Café Crème: Winter 2026! ")).toBe("cafe-creme-winter-2026");
    expect(campaignSlug("¡¿?!")).toBe("campaign");
    const long = campaignSlug("a".repeat(80));
    expect(long).toBe("a".repeat(60));
    expect(freeSlug(long, new Set())).toBe(long);
    const used = new Set([long, `${"a".repeat(54)}-2`]);
    expect(freeSlug(long, used)).toBe(`${"a".repeat(54)}-3`);
    expect(freeSlug(long, used).length).toBeLessThanOrEqual(60);
  });

  it("suffixes a generated slug past used and old ones, and lets one of two racing creates win", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const first = await caller.campaigns.create(base);
    const second = await caller.campaigns.create(base);
    expect([first.slug, second.slug]).toEqual(["winter-coats", "winter-coats-2"]);
    // The first one moves away; its old slug keeps redirecting, so a new campaign may not take it.
    await caller.campaigns.update({ id: first.id, data: { ...base, slug: "coats-2026" } });
    expect((await caller.campaigns.create(base)).slug).toBe("winter-coats-3");
    const race = await Promise.allSettled([
      caller.campaigns.create({ ...base, slug: "same" }),
      caller.campaigns.create({ ...base, slug: "same" }),
    ]);
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = race.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as TRPCError).code).toBe("CONFLICT");
  });
});

describe("public campaign page", () => {
  it("lists active items with progress, hides anonymous donors and e-mails, and says closed when archived", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const anon = await callerFor(null);
    const c = await caller.campaigns.create({
      ...base,
      slug: "coats",
      goalType: "amount",
      goalAmountMinor: 100_000,
    });
    expect(await codeOf(anon.campaigns.public({ organizationSlug: org, slug: "coats" }))).toBe("NOT_FOUND");
    const coat = await caller.campaigns.items.create({
      campaignId: c.id,
      title: "Coat",
      unitAmountMinor: 4500,
      quantityNeeded: 10,
    });
    const hidden = await caller.campaigns.items.create({
      campaignId: c.id,
      title: "Boots",
      unitAmountMinor: 3000,
    });
    await caller.campaigns.items.update({ id: hidden.id, active: false });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    const named = await caller.donors.create({
      data: { firstName: "Nora", lastName: "Visible", email: "nora@example.test" },
    });
    const secret = await caller.donors.create({
      data: { firstName: "Sam", lastName: "Hidden", email: "sam@example.test" },
    });
    if (!named.created || !secret.created) throw new Error("expected new donors");
    await gift(caller, c.id, 9000, Date.now() - 2000, {
      donorId: named.id,
      campaignItemId: coat.id,
      itemQuantity: 2,
      message: "Stay warm",
    });
    await gift(caller, c.id, 2500, Date.now() - 1000, {
      donorId: secret.id,
      anonymous: true,
      message: "hush",
    });
    // A gift without a donor: the same word as an anonymous one (core/labels.ts), not "A friend".
    await gift(caller, c.id, 1200, Date.now() - 1500);
    await gift(caller, c.id, 7700, Date.now(), { donorId: named.id, mode: "test" });

    const pub = await anon.campaigns.public({ organizationSlug: org, slug: "coats" });
    expect(pub.items).toEqual([
      expect.objectContaining({
        title: "Coat",
        unitAmountMinor: 4500,
        quantityNeeded: 10,
        quantityFunded: 2,
      }),
    ]);
    expect(pub.recent.map((r) => [r.name, r.amountMinor, r.message])).toEqual([
      ["Anonymous", 2500, null],
      ["Anonymous", 1200, null],
      ["Nora", 9000, "Stay warm"],
    ]);
    const text = JSON.stringify(pub);
    for (const leak of ["Sam", "Hidden", "Visible", "@example.test", "hush", "7700", named.id, secret.id])
      expect(text).not.toContain(leak);
    expect(pub.campaign).toMatchObject({ raisedMinor: 12_700, closed: false, status: "active" });

    await caller.campaigns.setStatus({ id: c.id, action: "complete" });
    await caller.campaigns.setStatus({ id: c.id, action: "archive" });
    const closed = await anon.campaigns.public({ organizationSlug: org, slug: "coats" });
    expect(closed.campaign).toMatchObject({ closed: true, status: "archived" });
    await caller.campaigns.update({ id: c.id, data: { ...base, slug: "coats", visibility: "private" } });
    expect(await codeOf(anon.campaigns.public({ organizationSlug: org, slug: "coats" }))).toBe("NOT_FOUND");
  });
});

describe("public page of a paused campaign, and previews (issue 53)", () => {
  it("keeps a paused campaign's link, saying it is paused, for anyone", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const anon = await callerFor(null);
    const c = await caller.campaigns.create({ ...base, slug: "camp", goalType: "none" });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    await caller.campaigns.toggleStatus({ id: c.id });
    const paused = await anon.campaigns.public({ organizationSlug: org, slug: "camp" });
    expect(paused).toMatchObject({ preview: false, campaign: { status: "paused", closed: false } });
    await caller.campaigns.toggleStatus({ id: c.id });
    expect((await anon.campaigns.public({ organizationSlug: org, slug: "camp" })).campaign.status).toBe(
      "active",
    );
  });

  it("previews a draft or a private campaign to its organization's members only", async () => {
    const org = await makeOrg();
    const other = await makeOrg();
    const owner = await member(org, "owner");
    const roles = {
      owner: owner.caller,
      admin: (await member(org, "admin")).caller,
      organizer: (await member(org, "organizer")).caller,
      viewer: (await member(org, "viewer")).caller,
      "platform admin": (await platformAdmin(org)).caller,
    };
    const draft = await owner.caller.campaigns.create({ ...base, slug: "draft", goalType: "none" });
    const input = { organizationSlug: org, slug: "draft" };
    for (const [role, caller] of Object.entries(roles)) {
      const seen = await caller.campaigns.preview(input);
      expect(seen, role).toMatchObject({ preview: true, campaign: { title: base.title, status: "draft" } });
    }
    // Anyone else: the 404 of a missing campaign (signed out, no organization, another one's owner).
    const anon = await callerFor(null);
    const loner = await callerFor((await signUp(new CookieJar())).jar);
    const stranger = (await member(other, "owner")).caller;
    expect(await codeOf(anon.campaigns.public(input))).toBe("NOT_FOUND");
    expect(await codeOf(anon.campaigns.preview(input))).toBe("UNAUTHORIZED");
    expect(await codeOf(loner.campaigns.preview(input))).toBe("FORBIDDEN");
    expect(await codeOf(stranger.campaigns.preview(input))).toBe("NOT_FOUND");
    expect(await codeOf(stranger.campaigns.preview({ organizationSlug: other, slug: "draft" }))).toBe(
      "NOT_FOUND",
    );
    // A private campaign, published: still a preview for members, a 404 for the public.
    await owner.caller.campaigns.setStatus({ id: draft.id, action: "publish" });
    await owner.caller.campaigns.update({
      id: draft.id,
      data: { ...base, slug: "draft", goalType: "none", visibility: "private" },
    });
    expect(await codeOf(anon.campaigns.public(input))).toBe("NOT_FOUND");
    expect((await roles.viewer.campaigns.preview(input)).campaign.status).toBe("active");
    expect(await codeOf(roles.viewer.campaigns.preview({ ...input, slug: "nope" }))).toBe("NOT_FOUND");
  });
});

describe("campaign analytics", () => {
  it("chooses day, month or year buckets by the span", () => {
    expect(bucketFor("2026-01-01", "2026-01-01")).toBe("day");
    expect(bucketFor("2026-01-01", "2026-06-01")).toBe("day");
    expect(bucketFor("2026-01-01", "2026-07-15")).toBe("month");
    expect(bucketFor("2021-01-01", "2025-12-01")).toBe("month");
    expect(bucketFor("2020-01-01", "2026-01-01")).toBe("year");
  });

  it("equals a brute-force recount over refunds, test mode, trash, a foreign currency and day boundaries", async () => {
    const tz = "America/Los_Angeles";
    const org = await makeOrg({ timeZone: tz });
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ ...base, goalType: "amount", goalAmountMinor: 50_000 });
    const other = await caller.campaigns.create({ ...base, title: "Other campaign" });
    const fmt = new Intl.DateTimeFormat("en-CA", { timeZone: tz });
    const localDay = (ms: number) => fmt.format(new Date(ms));
    const now = Date.now();
    const today = localDay(now);
    // Local midnights, found by bisection on the organization's own calendar (independent of
    // worker/lib/time): the first millisecond whose local day is the target day.
    const midnight = (daysBack: number) => {
      // Counted on the calendar, not in 24-hour steps: across a clock change, `now - n days` late
      // in the evening lands on the next local day (Nov 26 23:14 PST − 29 × 24 h = Oct 29 00:14 PDT).
      const target = new Date(Date.parse(`${today}T00:00:00Z`) - daysBack * DAY).toISOString().slice(0, 10);
      let lo = now - daysBack * DAY - 2 * DAY; // surely an earlier day
      let hi = now - daysBack * DAY; // on the target day or the one after (a clock change)
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (localDay(mid) < target) lo = mid;
        else hi = mid;
      }
      return hi;
    };
    const periodStart = midnight(29); // 30-day period: today and the 29 days before
    // "An hour ago", but today: just after local midnight an hour ago is yesterday (failed in CI at
    // 00:44 PST on Nov 27, the partly refunded gift of "2 hours ago" falling on the day before).
    const todayAt = (msAgo: number) => Math.max(midnight(0), now - msAgo);
    const donors = [];
    for (const name of ["Ann", "Bo", "Cy"]) {
      const d = await caller.donors.create({
        data: { firstName: name, lastName: "Test", email: `${name.toLowerCase()}-${org}@example.test` },
      });
      if (!d.created) throw new Error("expected a new donor");
      donors.push(d.id);
    }
    const [ann, bo, cy] = donors as [string, string, string];
    await gift(caller, c.id, 10_000, periodStart, { donorId: ann }); // first instant of the period
    await gift(caller, c.id, 4_000, periodStart - 1, { donorId: bo }); // last instant of the previous one
    await gift(caller, c.id, 6_000, midnight(1) - 1, { donorId: bo }); // the day before yesterday, late
    await gift(caller, c.id, 3_000, midnight(1), { donorId: cy }); // yesterday, first instant
    const refunded = await gift(caller, c.id, 8_000, todayAt(3_600_000), { donorId: cy });
    const partial = await gift(caller, c.id, 5_000, todayAt(7_200_000), { donorId: ann });
    const trashed = await gift(caller, c.id, 9_999, todayAt(60_000), { donorId: ann });
    await gift(caller, c.id, 7_777, todayAt(60_000), { donorId: ann, mode: "test" });
    await gift(caller, c.id, 1_234, todayAt(60_000), { donorId: ann, status: "pending" });
    await gift(caller, other.id, 5_555, todayAt(60_000), { donorId: ann });
    await gift(caller, c.id, 2_000, midnight(60), { donorId: bo }); // older than both periods
    await caller.donations.updateStatus({ id: refunded.id, status: "refunded", reason: "asked" });
    await caller.donations.updateStatus({
      id: partial.id,
      status: "partially_refunded",
      refundAmountMinor: 1_500,
      reason: "fee",
    });
    await caller.donations.delete({ id: trashed.id });
    // A gift in another currency written behind the API's back: it must not mix into USD figures.
    await testEnv.DB.prepare(
      `INSERT INTO donation (id, organization_id, number, campaign_id, donor_id, amount_minor, currency, status, donated_at, created_at, updated_at)
       VALUES (?, ?, 9999, ?, ?, 70000, 'EUR', 'completed', ?, ?, ?)`,
    )
      .bind(`eur-${org}`, org, c.id, ann, todayAt(60_000), now, now)
      .run();
    await rebuildRollups(testEnv.DB, org, tz);

    const { results: all } = await testEnv.DB.prepare(
      "SELECT donor_id, amount_minor, refunded_minor, currency, status, mode, trashed_at, donated_at FROM donation WHERE campaign_id = ?",
    )
      .bind(c.id)
      .all<{
        donor_id: string | null;
        amount_minor: number;
        refunded_minor: number;
        currency: string;
        status: string;
        mode: string;
        trashed_at: number | null;
        donated_at: number;
      }>();
    const usdLive = all.filter((d) => d.currency === "USD" && d.mode === "live" && d.trashed_at === null);
    const counted = usdLive.filter((d) => ["completed", "partially_refunded"].includes(d.status));
    const inRange = <T extends { donated_at: number }>(rows: T[], from: number, to: number) =>
      rows.filter((d) => d.donated_at >= from && d.donated_at < to);
    const summary = (rows: typeof counted) => {
      const amounts = rows.map((d) => d.amount_minor - d.refunded_minor).sort((x, y) => x - y);
      const n = amounts.length;
      const raised = amounts.reduce((s, x) => s + x, 0);
      const median = !n
        ? 0
        : n % 2
          ? (amounts[(n - 1) / 2] as number)
          : Math.round(((amounts[n / 2 - 1] as number) + (amounts[n / 2] as number)) / 2);
      return {
        n,
        raised,
        donors: new Set(rows.map((d) => d.donor_id)).size,
        median,
        average: n ? Math.round(raised / n) : 0,
      };
    };
    const end = now + DAY;
    const cur = summary(inRange(counted, periodStart, end));
    const prevStart = midnight(59);
    const prev = summary(inRange(counted, prevStart, periodStart));
    const refunds = inRange(usdLive, periodStart, end).filter((d) => d.refunded_minor > 0);

    const a = await caller.campaigns.analytics({ id: c.id, days: 30 });
    expect(a.raisedMinor).toBe(cur.raised);
    expect(a.donations).toBe(cur.n);
    expect(a.uniqueDonors).toBe(cur.donors);
    expect(a.medianMinor).toBe(cur.median);
    expect(a.averageMinor).toBe(cur.average);
    expect(a.refunds).toEqual({
      count: refunds.length,
      amountMinor: refunds.reduce((s, d) => s + d.refunded_minor, 0),
    });
    expect(a.refunds).toEqual({ count: 2, amountMinor: 9_500 });
    expect(a.change?.raised).toBeCloseTo((cur.raised - prev.raised) / prev.raised);
    expect(a.change?.donations).toBeCloseTo((cur.n - prev.n) / prev.n);
    expect(a.change?.refunds).toBeNull(); // nothing was refunded in the previous period
    // The numbers these expectations rest on, so a broken recount cannot agree with a broken API.
    expect(cur).toMatchObject({ n: 4, raised: 10_000 + 6_000 + 3_000 + 3_500, donors: 3 });
    expect(prev).toMatchObject({ n: 1, raised: 4_000 });

    expect(a.bucket).toBe("day");
    expect(a.series).toHaveLength(30);
    expect(a.series[0]?.day).toBe(localDay(periodStart));
    expect(a.series.at(-1)?.day).toBe(today);
    const byDay = new Map<string, number>();
    for (const d of inRange(counted, periodStart, end))
      byDay.set(
        localDay(d.donated_at),
        (byDay.get(localDay(d.donated_at)) ?? 0) + d.amount_minor - d.refunded_minor,
      );
    expect(a.series.filter((p) => p.raised !== 0).map((p) => [p.day, p.raised])).toEqual(
      [...byDay].sort(([x], [y]) => x.localeCompare(y)),
    );
    expect(a.series.reduce((s, p) => s + p.raised, 0)).toBe(cur.raised);
    expect(a.topDonors.map((d) => [d.id, d.total])).toEqual([
      [ann, 13_500],
      [bo, 6_000],
      [cy, 3_000],
    ]);

    const all90 = await caller.campaigns.analytics({ id: c.id, days: 0 });
    expect(all90.change).toBeNull();
    expect(all90.raisedMinor).toBe(summary(counted).raised);
    expect(all90.series.reduce((s, p) => s + p.raised, 0)).toBe(summary(counted).raised);
    expect(all90.series[0]?.day).toBe(localDay(midnight(60)));

    const today1 = await caller.campaigns.analytics({ id: c.id, days: 1 });
    expect(today1.series.map((p) => p.day)).toEqual([today]);
    expect(today1.raisedMinor).toBe(summary(inRange(counted, midnight(0), end)).raised);

    // A custom period: from the 30-day period's first day to yesterday, both included (today's
    // gifts are out), compared with the 29 local days just before it.
    const from = localDay(periodStart);
    const to = localDay(midnight(1));
    const custom = await caller.campaigns.analytics({ id: c.id, from, to });
    const inCustom = summary(inRange(counted, periodStart, midnight(0)));
    const beforeCustom = summary(inRange(counted, midnight(58), periodStart));
    expect(inCustom).toMatchObject({ n: 3, raised: 10_000 + 6_000 + 3_000 });
    expect(beforeCustom).toMatchObject({ n: 1, raised: 4_000 });
    expect(custom).toMatchObject({
      raisedMinor: inCustom.raised,
      donations: inCustom.n,
      uniqueDonors: inCustom.donors,
      medianMinor: inCustom.median,
      period: {
        days: null,
        from,
        to,
        previous: { from: localDay(midnight(58)), to: localDay(midnight(30)) },
      },
    });
    expect(custom.change?.raised).toBeCloseTo((inCustom.raised - beforeCustom.raised) / beforeCustom.raised);
    expect(custom.series).toHaveLength(29);
    expect([custom.series[0]?.day, custom.series.at(-1)?.day]).toEqual([from, to]);
    expect(custom.series.reduce((s, p) => s + p.raised, 0)).toBe(inCustom.raised);
    // Periods that cannot be: refused as bad input, never a 500.
    for (const bad of [
      { from: to, to: from },
      { from: today, to: localDay(now + 2 * DAY) }, // after today
      { from },
      { from: "2026-02-30", to },
    ])
      expect(await codeOf(caller.campaigns.analytics({ id: c.id, ...bad })), JSON.stringify(bad)).toBe(
        "BAD_REQUEST",
      );
  });
});
