import { describe, expect, it } from "vitest";
import { runScheduled } from "../../worker/scheduled";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";

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

  it("completes a campaign set to complete on its goal once reached, by amount, gifts or donors, and no other", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const later = Date.now() + 30 * 86_400_000;
    const campaign = async (title: string, goal: Record<string, unknown>, completeOnGoal = true) => {
      const c = await caller.campaigns.create({
        title,
        currency: "USD",
        endAt: later,
        completeOnGoal,
        ...goal,
      });
      await caller.campaigns.setStatus({ id: c.id, action: "publish" });
      return c.id;
    };
    const give = async (
      campaignId: string,
      amountMinor: number,
      times = 1,
      donorId: string | null = null,
    ) => {
      for (let i = 0; i < times; i++)
        await caller.donations.create({
          donorId,
          campaignId,
          amountMinor,
          currency: "USD",
          paymentMethod: "cash",
          donatedAt: Date.now(),
        });
    };
    const byAmount = await campaign("By amount", { goalType: "amount", goalAmountMinor: 1000 });
    const byGifts = await campaign("By gifts", { goalType: "donations", goalCount: 2 });
    const byDonors = await campaign("By donors", { goalType: "donors", goalCount: 2 });
    const oneDonorTwice = await campaign("One donor, two gifts", { goalType: "donors", goalCount: 2 });
    const short = await campaign("Short of its goal", { goalType: "amount", goalAmountMinor: 5000 });
    const notSet = await campaign(
      "Reached, not set to complete",
      { goalType: "amount", goalAmountMinor: 100 },
      false,
    );
    const noGoal = await campaign("No goal", { goalType: "none" });
    await give(byAmount, 1000);
    await give(byGifts, 100, 2);
    for (const name of ["Ada", "Bo"]) {
      const donor = await caller.donors.create({
        data: { firstName: name, lastName: "Giver", email: `${name.toLowerCase()}-${org}@example.test` },
      });
      if (!donor.created) throw new Error("expected a new donor");
      await give(byDonors, 100, 2, donor.id);
      // Two gifts from one donor are one donor: this goal of two donors is not reached.
      if (name === "Ada") await give(oneDonorTwice, 100, 2, donor.id);
    }
    await give(short, 4999);
    await give(notSet, 500);
    await give(noGoal, 500);

    await runScheduled("*/15 * * * *", testEnv, new Date());
    const status = async (id: string) => (await caller.campaigns.byId({ id })).status;
    expect(await status(byAmount)).toBe("completed");
    expect(await status(byGifts)).toBe("completed");
    expect(await status(byDonors)).toBe("completed");
    expect(await status(oneDonorTwice)).toBe("active");
    expect(await status(short)).toBe("active");
    expect(await status(notSet)).toBe("active");
    expect(await status(noGoal)).toBe("active");
  });
});
