import { donationTransitions } from "@core/status";
import { describe, expect, it } from "vitest";
import { csvCell } from "../../worker/http/export";
import { rebuildRollups } from "../donations/brute";
import { campaign, makeOrg, member } from "../fixtures";
import { appFetch, codeOf, testEnv } from "../helpers";

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
        // A further partial refund ("Refund more…", M17) keeps the status and is allowed.
        const further = from === "partially_refunded" && to === "partially_refunded";
        expect(result, `${from} → ${to}`).toBe(
          further || (targets as string[]).includes(to) ? "OK" : "UNPROCESSABLE_CONTENT",
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
