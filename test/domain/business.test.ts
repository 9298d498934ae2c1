import { donationTransitions } from "@core/status";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { buildDonorCsv } from "../../src/features/donors/export";
import { csvCell } from "../../worker/http/export";
import { appRouter } from "../../worker/trpc/router";
import { rebuildRollups } from "../donations/brute";
import { appFetch, codeOf, testEnv } from "../helpers";
import { callerFor, makeOrg, member } from "./fixtures";

const campaign = {
  title: "Winter Coats",
  currency: "USD" as const,
  goalType: "amount" as const,
  goalAmountMinor: 100_000,
};

describe("router inventory", () => {
  it("guards every procedure except the public allow-list, and refuses anonymous callers", async () => {
    const PUBLIC = new Set(["system.health", "campaigns.public"]);
    const procedures = Object.entries(
      appRouter._def.procedures as unknown as Record<
        string,
        { _def: { meta?: { guard?: string }; type: string } }
      >,
    );
    expect(procedures.length).toBeGreaterThan(30);
    const anon = await callerFor(null);
    for (const [path, proc] of procedures) {
      if (PUBLIC.has(path)) continue;
      expect(proc._def.meta?.guard, `${path} has no guard`).toBeDefined();
      const fn = path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], anon) as (
        i: unknown,
      ) => Promise<unknown>;
      expect(await codeOf(fn({})), path).toBe("UNAUTHORIZED");
    }
  });
});

describe("tenancy and permissions", () => {
  it("answers NOT_FOUND for another organization's ids and FORBIDDEN for missing rights", async () => {
    const orgA = await makeOrg();
    const orgB = await makeOrg();
    const a = await member(orgA, "owner");
    const b = await member(orgB, "owner");
    const viewer = await member(orgA, "viewer");
    const c = await a.caller.campaigns.create(campaign);
    expect(await codeOf(b.caller.campaigns.byId({ id: c.id }))).toBe("NOT_FOUND");
    expect(await codeOf(b.caller.campaigns.toggleStatus({ id: c.id }))).toBe("NOT_FOUND");
    expect((await b.caller.campaigns.list({})).total).toBe(0);
    expect(await codeOf(viewer.caller.campaigns.create(campaign))).toBe("FORBIDDEN");
    expect((await viewer.caller.campaigns.byId({ id: c.id })).title).toBe("Winter Coats");
    // The tenant is never taken from input: unknown keys are refused, not obeyed.
    expect(await codeOf(a.caller.campaigns.create({ ...campaign, organizationId: orgB } as never))).toBe(
      "BAD_REQUEST",
    );
  });
});

describe("campaigns", () => {
  it("walks the status machine and refuses the rest with 422 and the allowed targets", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "organizer", "organizer");
    const c = await caller.campaigns.create(campaign);
    expect(c.status).toBe("draft");
    const refused = await caller.campaigns.toggleStatus({ id: c.id }).catch((e: TRPCError) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("UNPROCESSABLE_CONTENT");
    expect(
      ((refused as TRPCError).cause as unknown as { details: { allowed: string[] } }).details.allowed,
    ).toEqual(["active", "archived"]);
    expect((await caller.campaigns.setStatus({ id: c.id, action: "publish" })).status).toBe("active");
    expect((await caller.campaigns.toggleStatus({ id: c.id })).status).toBe("paused");
    expect((await caller.campaigns.toggleStatus({ id: c.id })).status).toBe("active");
    expect(await codeOf(caller.campaigns.setStatus({ id: c.id, action: "unarchive" }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect((await caller.campaigns.setStatus({ id: c.id, action: "complete" })).status).toBe("completed");
    expect((await caller.campaigns.setStatus({ id: c.id, action: "archive" })).status).toBe("archived");
  });

  it("validates input, keeps slugs unique per organization and redirects old slugs", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    expect(await codeOf(caller.campaigns.create({ ...campaign, title: "ab" }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.campaigns.create({ ...campaign, goalAmountMinor: null }))).toBe("BAD_REQUEST");
    const c = await caller.campaigns.create({ ...campaign, slug: "coats" });
    expect(await codeOf(caller.campaigns.create({ ...campaign, slug: "coats" }))).toBe("CONFLICT");
    await caller.campaigns.update({ id: c.id, data: { ...campaign, slug: "warm-coats" } });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    const anon = await callerFor(null);
    const pub = await anon.campaigns.public({ organizationSlug: org, slug: "coats" });
    expect(pub.campaign.slug).toBe("warm-coats");
    expect(await codeOf(caller.campaigns.create({ ...campaign, slug: "coats" }))).toBe("CONFLICT");
  });

  it("refuses to delete a campaign with donations and locks its currency", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create(campaign);
    await caller.donations.create({
      donorId: null,
      campaignId: c.id,
      amountMinor: 5000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    });
    const err = (await caller.campaigns.delete({ id: c.id }).catch((e) => e)) as TRPCError;
    expect(err.code).toBe("UNPROCESSABLE_CONTENT");
    expect(err.message).toContain("Archive it instead");
    expect(await codeOf(caller.campaigns.update({ id: c.id, data: { ...campaign, currency: "EUR" } }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    const empty = await caller.campaigns.create({ ...campaign, title: "Empty one" });
    expect(await codeOf(caller.campaigns.delete({ id: empty.id }))).toBe("OK");
  });

  it("hides anonymous donors on the public page", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ ...campaign, slug: "pub" });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    const donor = await caller.donors.create({
      data: { firstName: "Secret", lastName: "Giver", email: "secret@example.test" },
    });
    if (!donor.created) throw new Error("expected a new donor");
    await caller.donations.create({
      donorId: donor.id,
      campaignId: c.id,
      amountMinor: 2500,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
      anonymous: true,
      message: "private",
    });
    const pub = await (await callerFor(null)).campaigns.public({ organizationSlug: org, slug: "pub" });
    expect(JSON.stringify(pub)).not.toContain("Secret");
    expect(JSON.stringify(pub)).not.toContain("secret@");
    expect(pub.recent[0]?.name).toBe("Anonymous");
    expect(pub.campaign.raisedMinor).toBe(2500);
  });
});

describe("donations", () => {
  it("allows exactly the transitions of the machine", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    for (const [from, targets] of Object.entries(donationTransitions)) {
      for (const to of Object.keys(donationTransitions)) {
        const d = await caller.donations.create({
          donorId: null,
          campaignId: null,
          amountMinor: 10_000,
          currency: "USD",
          paymentMethod: "cash",
          donatedAt: Date.now(),
          status: "pending",
        });
        // Walk to `from` along allowed edges.
        const path: Record<string, string[]> = {
          pending: [],
          processing: ["processing"],
          completed: ["completed"],
          failed: ["failed"],
          cancelled: ["cancelled"],
          abandoned: ["abandoned"],
          refunded: ["completed", "refunded"],
          partially_refunded: ["completed", "partially_refunded"],
          disputed: ["completed", "disputed"],
        };
        for (const step of path[from] ?? []) {
          await caller.donations.updateStatus({
            id: d.id,
            status: step as never,
            reason: "test",
            refundAmountMinor: 1000,
          });
        }
        const result = await codeOf(
          caller.donations.updateStatus({
            id: d.id,
            status: to as never,
            reason: "test",
            refundAmountMinor: 1000,
          }),
        );
        expect(result, `${from} → ${to}`).toBe(
          (targets as string[]).includes(to) ? "OK" : "UNPROCESSABLE_CONTENT",
        );
      }
    }
  }, 120_000);

  it("keeps rollups and donor stats equal to a brute-force recount through refunds and trash", async () => {
    const org = await makeOrg({ timeZone: "America/Los_Angeles" });
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create(campaign);
    const donor = await caller.donors.create({
      data: { firstName: "Ann", lastName: "Lee", email: "ann@example.test" },
    });
    if (!donor.created) throw new Error("expected a new donor");
    const d1 = await caller.donations.create({
      donorId: donor.id,
      campaignId: c.id,
      amountMinor: 10_000,
      currency: "USD",
      paymentMethod: "check",
      donatedAt: Date.parse("2026-03-01T06:30:00Z"),
    });
    const d2 = await caller.donations.create({
      donorId: donor.id,
      campaignId: c.id,
      amountMinor: 4_000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 3600_000,
    });
    await caller.donations.create({
      donorId: donor.id,
      campaignId: c.id,
      amountMinor: 9_900,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
      mode: "test",
    });
    await caller.donations.updateStatus({
      id: d1.id,
      status: "partially_refunded",
      refundAmountMinor: 2_500,
      reason: "duplicate line",
    });
    await caller.donations.delete({ id: d2.id });
    const stats = await testEnv.DB.prepare(
      "SELECT raised_minor, donation_count, donor_count FROM campaign_stats WHERE campaign_id = ?",
    )
      .bind(c.id)
      .first();
    expect(stats).toEqual({ raised_minor: 7_500, donation_count: 1, donor_count: 1 });
    const day = await testEnv.DB.prepare(
      "SELECT day, raised_minor FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND raised_minor != 0",
    )
      .bind(org)
      .all();
    expect(day.results).toEqual([{ day: "2026-02-28", raised_minor: 7_500 }]);
    const incremental = await testEnv.DB.prepare(
      "SELECT campaign_id, day, currency, raised_minor, donation_count FROM org_daily WHERE organization_id = ? AND donation_count != 0 ORDER BY 1,2,3",
    )
      .bind(org)
      .all();
    await rebuildRollups(testEnv.DB, org, "America/Los_Angeles");
    const rebuilt = await testEnv.DB.prepare(
      "SELECT campaign_id, day, currency, raised_minor, donation_count FROM org_daily WHERE organization_id = ? ORDER BY 1,2,3",
    )
      .bind(org)
      .all();
    expect(incremental.results).toEqual(rebuilt.results);
    const byId = await caller.donors.byId({ id: donor.id });
    expect(byId.lifetimeMinor).toBe(7_500);
    expect(byId.donationCount).toBe(1);
    await caller.donations.restore({ id: d2.id });
    expect((await caller.donors.byId({ id: donor.id })).lifetimeMinor).toBe(11_500);
    const list = await caller.donations.list({ from: "2026-02-28", to: "2026-02-28" });
    expect(list.rows.map((r) => r.id)).toEqual([d1.id]);
  });

  it("refuses offset pages past the 10 000th row with a 400 instead of timing out", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "viewer");
    expect(await codeOf(caller.donations.list({ page: 101, pageSize: 100 }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.donations.list({ page: 100, pageSize: 100 }))).toBe("OK");
  });

  it("lets exactly one of two racing refunds win, and counts it once", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const d = await caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 8_000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    });
    const results = await Promise.allSettled(
      [0, 1, 2].map(() => caller.donations.updateStatus({ id: d.id, status: "refunded", reason: "race" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const daily = await testEnv.DB.prepare(
      "SELECT SUM(raised_minor) AS s, SUM(donation_count) AS n FROM org_daily WHERE organization_id = ? AND campaign_id = '*'",
    )
      .bind(org)
      .first();
    expect(daily).toEqual({ s: 0, n: 0 });
  });

  it("exports the filtered list as escaped CSV", async () => {
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell('He said "hi", twice')).toBe('"He said ""hi"", twice"');
    const org = await makeOrg();
    const owner = await member(org, "owner");
    await owner.caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 1234,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
      message: "=cmd|' /C calc'!A0",
    });
    const res = await appFetch("/api/export/donations.csv", { headers: { cookie: owner.jar.header() } });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(",12.34,");
    expect(lines[1]).toContain("'=cmd");
    expect((await appFetch("/api/export/donations.csv")).status).toBe(401);
  });
});

describe("donors", () => {
  it("detects duplicates, keeps tags unique, merges and refuses to delete givers", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const a = await caller.donors.create({
      data: { firstName: "Bo", lastName: "Ng", email: "BO@example.test", postalCode: "97201" },
    });
    if (!a.created) throw new Error("expected a new donor");
    const dupEmail = await caller.donors.create({
      data: { firstName: "B", lastName: "N", email: "bo@example.test" },
    });
    expect(dupEmail).toEqual({ created: false, duplicate: { id: a.id, reason: "email" } });
    const dupName = await caller.donors.create({
      data: { firstName: "bo", lastName: "NG", postalCode: "97201" },
    });
    expect(dupName.created).toBe(false);
    const forced = await caller.donors.create({
      data: { firstName: "bo", lastName: "NG", postalCode: "97201" },
      force: true,
    });
    expect(forced.created).toBe(true);
    const t = await caller.donors.tags.create({ name: "Board" });
    expect(await codeOf(caller.donors.tags.create({ name: "board" }))).toBe("CONFLICT");
    if (!forced.created) throw new Error("unreachable");
    await caller.donors.tags.assign({ donorIds: [a.id, forced.id], tagIds: [t.id], mode: "add" });
    expect((await caller.donors.list({ tagId: t.id })).total).toBe(2);
    await caller.donations.create({
      donorId: forced.id,
      campaignId: null,
      amountMinor: 5000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    });
    expect(await codeOf(caller.donors.delete({ id: forced.id }))).toBe("UNPROCESSABLE_CONTENT");
    const preview = await caller.donors.merge({ sourceId: forced.id, targetId: a.id, dryRun: true });
    expect(preview).toMatchObject({ donations: 1, tags: 0 });
    await caller.donors.merge({ sourceId: forced.id, targetId: a.id, dryRun: false });
    const merged = await caller.donors.byId({ id: forced.id });
    expect(merged.id).toBe(a.id);
    expect(merged.lifetimeMinor).toBe(5000);
    expect(await codeOf(caller.donors.notes.create({ donorId: a.id, body: "" }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.donors.notes.create({ donorId: a.id, body: "x".repeat(5001) }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("assigns tiers by range with min inclusive and max exclusive, refusing overlaps", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.donors.tiers.create({ name: "General", minMinor: 0, maxMinor: 50_000 });
    await caller.donors.tiers.create({ name: "Major", minMinor: 50_000, maxMinor: null });
    expect(
      await codeOf(caller.donors.tiers.create({ name: "Overlap", minMinor: 40_000, maxMinor: 60_000 })),
    ).toBe("CONFLICT");
    const d = await caller.donors.create({ data: { firstName: "Tia", lastName: "Ra" } });
    if (!d.created) throw new Error("unreachable");
    expect((await caller.donors.byId({ id: d.id })).tier?.name).toBe("General");
    await caller.donations.create({
      donorId: d.id,
      campaignId: null,
      amountMinor: 50_000,
      currency: "USD",
      paymentMethod: "check",
      donatedAt: Date.now(),
    });
    const after = await caller.donors.byId({ id: d.id });
    expect(after.tier?.name).toBe("Major");
    expect(after.previousTierId).not.toBeNull();
  });
});

describe("donor export", () => {
  it("streams every donor of the filter as escaped CSV, anonymized ones without personal data", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const a = await owner.caller.donors.create({
      data: { firstName: "=Evil", lastName: "Formula", email: "evil@example.test" },
    });
    const b = await owner.caller.donors.create({
      data: { firstName: "Gone", lastName: "Person", email: "gone@example.test" },
    });
    if (!a.created || !b.created) throw new Error("unreachable");
    await owner.caller.donors.anonymize({ id: b.id, confirm: "gone@example.test" });
    const { parts } = await buildDonorCsv((after) => owner.caller.donors.exportPage({ after }), "UTC");
    const text = parts.join("");
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(text).toContain("'=Evil Formula");
    expect(text).toContain("Anonymized");
    expect(text).not.toContain("gone@example.test");
  });
});

describe("campaign items", () => {
  it("counts funded quantity, enforces the overfunding rule and deletes only unused items", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create(campaign);
    const { id: itemId } = await caller.campaigns.items.create({
      campaignId: c.id,
      title: "Blanket",
      unitAmountMinor: 2500,
      quantityNeeded: 3,
      allowOverfunding: false,
    });
    const gift = (qty: number) =>
      caller.donations.create({
        donorId: null,
        campaignId: c.id,
        campaignItemId: itemId,
        itemQuantity: qty,
        amountMinor: 2500 * qty,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now(),
      });
    await gift(2);
    expect(await codeOf(gift(2))).toBe("UNPROCESSABLE_CONTENT");
    await gift(1);
    const [item] = await caller.campaigns.items.list({ campaignId: c.id });
    expect(item).toMatchObject({ quantityFunded: 3, fullyFunded: true });
    expect(await codeOf(caller.campaigns.items.delete({ id: itemId }))).toBe("UNPROCESSABLE_CONTENT");
    const spare = await caller.campaigns.items.create({
      campaignId: c.id,
      title: "Spare",
      unitAmountMinor: 500,
    });
    expect(await codeOf(caller.campaigns.items.delete({ id: spare.id }))).toBe("OK");
  });
});

describe("donor notes", () => {
  it("lets the author or an org admin edit or delete a note, nobody else", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const organizer = await member(org, "organizer", "organizer");
    const other = await member(org, "organizer", "organizer");
    const d = await owner.caller.donors.create({ data: { firstName: "Noa", lastName: "Te" } });
    if (!d.created) throw new Error("unreachable");
    const { id } = await organizer.caller.donors.notes.create({
      donorId: d.id,
      body: "First call went well",
    });
    expect(await codeOf(other.caller.donors.notes.update({ id, body: "hijack" }))).toBe("FORBIDDEN");
    expect(await codeOf(other.caller.donors.notes.delete({ id }))).toBe("FORBIDDEN");
    expect(
      await codeOf(organizer.caller.donors.notes.update({ id, pinned: true, body: "Second call too" })),
    ).toBe("OK");
    const [note] = await owner.caller.donors.notes.list({ donorId: d.id });
    expect(note).toMatchObject({ body: "Second call too", pinned: 1 });
    expect(await codeOf(owner.caller.donors.notes.delete({ id }))).toBe("OK");
  });
});

describe("dashboard", () => {
  it("computes raised, donations, donors, average and median from counted gifts only", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const gift = (amountMinor: number, extra: Record<string, unknown> = {}) =>
      caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now() - 3600_000,
        ...extra,
      });
    await gift(1_000);
    await gift(3_000);
    await gift(10_000);
    await gift(99_000, { mode: "test" });
    await gift(50_000, { status: "pending" });
    let s = await caller.dashboard.summary({ days: 30 });
    expect(s).toMatchObject({ raisedMinor: 14_000, donations: 3, averageMinor: 4_667, medianMinor: 3_000 });
    await gift(5_000);
    s = await caller.dashboard.summary({ days: 30 });
    expect(s.medianMinor).toBe(4_000);
    expect(s.series.reduce((t, p) => t + p.raised, 0)).toBe(19_000);
  });
});
