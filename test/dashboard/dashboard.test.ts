import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";

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
