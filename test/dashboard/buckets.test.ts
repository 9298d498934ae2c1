/**
 * Issue 19: one revenue bucket rule for every chart (core/analytics.ts). The dashboard and campaign
 * analytics had their own copies, and a 184-day series was drawn by day on one screen and by month
 * on the other. Here both screens draw the same two series: 184 days (a calendar half-year) by day,
 * 185 days by month.
 */
import { bucketFor } from "@core/analytics";
import { addDays, localDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";

describe("revenue buckets", () => {
  it("draw up to 184 days by day, then by month up to five years, then by year", () => {
    expect(bucketFor("2026-07-01", "2026-12-31")).toBe("day"); // 184 days
    expect(bucketFor("2026-06-30", "2026-12-31")).toBe("month"); // 185 days
    expect(bucketFor("2022-01-03", "2026-12-31")).toBe("month"); // 1 824 days
    expect(bucketFor("2022-01-02", "2026-12-31")).toBe("year"); // 1 825 days (five years of 365)
  });

  for (const [spanDays, expected] of [
    [184, "day"],
    [185, "month"],
  ] as const) {
    it(`are the same on the dashboard and in campaign analytics for a ${spanDays}-day history`, async () => {
      const org = await makeOrg();
      const { caller } = await member(org, "owner");
      const today = localDay(Date.now(), "UTC");
      const first = addDays(today, -(spanDays - 1));
      const campaign = await caller.campaigns.create({
        title: "Half a year",
        currency: "USD",
        goalType: "none",
      });
      // The campaign started on the first day of the history (its analytics run from its creation).
      await testEnv.DB.prepare("UPDATE campaign SET created_at = ? WHERE id = ?")
        .bind(Date.parse(`${first}T12:00:00Z`), campaign.id)
        .run();
      await caller.donations.create({
        donorId: null,
        campaignId: campaign.id,
        amountMinor: 5_000,
        currency: "USD",
        paymentMethod: "check",
        donatedAt: Date.parse(`${first}T12:00:00Z`),
      });
      const dashboard = await caller.dashboard.summary({ days: 0 });
      const analytics = await caller.campaigns.analytics({ id: campaign.id, days: 0 });
      expect(dashboard.bucket).toBe(expected);
      expect(analytics.bucket).toBe(expected);
    });
  }
});
