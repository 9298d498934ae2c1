import { describe, expect, it } from "vitest";
import { runScheduled } from "../../worker/scheduled";
import { testEnv } from "../helpers";
import { makeOrg, member } from "./fixtures";

describe("cron jobs", () => {
  it("abandons stale pending gifts, completes ended campaigns and grants automatic badges", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({
      title: "Short drive",
      currency: "USD",
      goalType: "amount",
      goalAmountMinor: 1000,
      endAt: Date.now() + 3_600_000,
      startAt: Date.now() - 3_600_000,
    });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    await caller.donations.create({
      donorId: null,
      campaignId: c.id,
      amountMinor: 1500,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    });
    const pending = await caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 500,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
      status: "pending",
    });
    await testEnv.DB.prepare("UPDATE donation SET created_at = ? WHERE id = ?")
      .bind(Date.now() - 73 * 3600_000, pending.id)
      .run();
    const later = new Date(Date.now() + 2 * 3_600_000);
    await runScheduled("*/15 * * * *", testEnv, later);
    expect((await caller.donations.byId({ id: pending.id })).status).toBe("abandoned");
    expect((await caller.campaigns.byId({ id: c.id })).status).toBe("completed");
    await runScheduled("0 3 * * *", testEnv, new Date());
    const badges = await testEnv.DB.prepare(
      "SELECT badge FROM organization_badge WHERE organization_id = ? AND revoked_at IS NULL ORDER BY badge",
    )
      .bind(org)
      .all();
    expect(badges.results.map((b) => b.badge)).toContain("goal_achiever");
  });
});
