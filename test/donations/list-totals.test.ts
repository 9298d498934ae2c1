import { describe, expect, it } from "vitest";
import { countedWithin } from "../../worker/domain/status";
import { makeOrg, member } from "../domain/fixtures";
import { donationsOf, isCounted, net, type RawDonation } from "./brute";

describe("donations.list totals (rollup path and index path) agree with a brute-force recount", () => {
  it("for every mix of status, mode, currency, trash and date filters", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const now = Date.now();
    const gift = (amountMinor: number, over: Record<string, unknown> = {}) =>
      caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: now - 3 * 86_400_000,
        ...over,
      } as never);
    await gift(1_000);
    await gift(2_000, { mode: "test" });
    await gift(3_000, { currency: "EUR" });
    await gift(4_000, { status: "pending" });
    await gift(5_000, { donatedAt: now - 40 * 86_400_000 });
    const refunded = await gift(6_000);
    await caller.donations.updateStatus({ id: refunded.id, status: "refunded", reason: "r" });
    const partial = await gift(7_000, { mode: "test" });
    await caller.donations.updateStatus({
      id: partial.id,
      status: "partially_refunded",
      reason: "p",
      refundAmountMinor: 500,
    });
    const live = await gift(8_000);
    await caller.donations.updateStatus({
      id: live.id,
      status: "partially_refunded",
      reason: "p",
      refundAmountMinor: 1_500,
    });
    const trashed = await gift(9_000);
    await caller.donations.delete({ id: trashed.id });

    const rows = await donationsOf(org);
    const since = new Date(now - 10 * 86_400_000).toISOString().slice(0, 10);
    const sinceMs = Date.parse(`${since}T00:00:00Z`);
    const filters: {
      status?: ("completed" | "pending" | "refunded" | "partially_refunded")[];
      mode?: "live" | "test";
      currency?: string;
      trashed?: boolean;
      from?: string;
    }[] = [];
    for (const status of [
      undefined,
      ["completed"],
      ["completed", "pending"],
      ["refunded"],
      ["partially_refunded"],
    ] as const)
      for (const mode of [undefined, "live", "test"] as const)
        for (const from of [undefined, since])
          filters.push({
            ...(status ? { status: [...status] } : {}),
            ...(mode ? { mode } : {}),
            ...(from ? { from } : {}),
          });
    filters.push(
      { trashed: true },
      { trashed: true, from: since },
      { currency: "EUR" },
      { currency: "USD", from: since },
    );
    for (const f of filters) {
      const set = rows.filter(
        (d: RawDonation) =>
          (f.trashed ? d.trashed_at !== null : d.trashed_at === null) &&
          (!f.status || (f.status as string[]).includes(d.status)) &&
          (!f.mode || d.mode === f.mode) &&
          (!f.currency || d.currency === f.currency) &&
          (!f.from || d.donated_at >= sinceMs),
      );
      const want = [...new Set(set.map((d) => d.currency))].sort().map((cur) => {
        const mine = set.filter((d) => d.currency === cur);
        const counted = mine.filter(isCounted);
        return [cur, mine.length, counted.length, counted.reduce((t, d) => t + net(d), 0)];
      });
      const got = await caller.donations.list({ ...f, pageSize: 100 });
      expect(
        got.totalsByCurrency.map((t) => [t.currency, t.count, t.countedCount, t.countedMinor]),
        JSON.stringify(f),
      ).toEqual(want);
      expect(got.total, JSON.stringify(f)).toBe(set.length);
      expect(got.rows.map((r) => r.id).sort(), JSON.stringify(f)).toEqual(set.map((d) => d.id).sort());
    }
  });

  it("reduces 'counted' by what the filters imply", () => {
    expect(countedWithin({ trashed: true })).toBeNull();
    expect(countedWithin({ mode: "test" })).toBeNull();
    expect(countedWithin({ status: ["pending", "refunded"] })).toBeNull();
    expect(countedWithin({ status: ["completed"], mode: "live" })).toBe("");
    expect(countedWithin({ status: ["completed"] })).toBe("d.mode = 'live'");
    expect(countedWithin({ status: ["completed", "pending"], mode: "live" })).toBe(
      "d.status IN ('completed','partially_refunded')",
    );
    expect(countedWithin({})).toBe("d.status IN ('completed','partially_refunded') AND d.mode = 'live'");
  });
});
