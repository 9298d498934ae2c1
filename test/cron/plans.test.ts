/**
 * The plans' watch with a clock (issue 24, decision 030): a plan whose gift is late past the grace
 * period becomes past due, past the longer period lapses and leaves recurring revenue, a gift that
 * arrives brings it back; and recurring revenue, per currency and interval, equals a brute force
 * over the plans and their events.
 */

import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../app.config";
import { buildMissingPlanRollups, watchPlans } from "../../worker/plans/cron";
import { deliver, webhookEvent } from "../donations/brute";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";
import { expectPlanRecount, plansOf } from "../plans/brute";

const DAY = 86_400_000;
const { pastDueAfterDays, lapsedAfterDays } = defaultConfig.plans;

function created(
  org: string,
  sub: string,
  o: { amount?: string; currency?: string; interval?: string; startedAt?: string } = {},
) {
  return deliver({
    id: `evt_${sub}`,
    type: "plan.created",
    data: {
      organization: org,
      subscriptionId: sub,
      amount: o.amount ?? "30.00",
      currency: o.currency ?? "usd",
      interval: o.interval ?? "month",
      startedAt: o.startedAt ?? "2026-01-15T12:00:00Z",
      donor: { email: `${sub}@example.test` },
    },
  });
}

const planOf = async (org: string, sub: string) =>
  (await plansOf(org)).find(
    (p) => (p as unknown as { gateway_subscription_id: string }).gateway_subscription_id === sub,
  );

describe("the plans' watch", () => {
  it("marks a late plan past due after the grace period and lapsed after the longer one, counting missed gifts", async () => {
    const org = await makeOrg({ timeZone: "Asia/Tokyo" });
    const { caller } = await member(org, "owner");
    await created(org, "sub_w", { startedAt: "2026-01-15T03:00:00Z" });
    const plan = (await caller.plans.list({})).rows[0];
    const due = plan?.nextExpectedAt as number;
    expect(new Date(due).toISOString()).toBe("2026-02-15T03:00:00.000Z");
    await watchPlans(testEnv, testEnv.DB, due + (pastDueAfterDays - 1) * DAY);
    expect((await caller.plans.byId({ id: plan?.id as string })).status).toBe("active");
    await watchPlans(testEnv, testEnv.DB, due + (pastDueAfterDays + 1) * DAY);
    expect(await caller.plans.byId({ id: plan?.id as string })).toMatchObject({
      status: "past_due",
      missedCount: 1,
    });
    await expectPlanRecount(org, "Asia/Tokyo", "past due");
    // Running again changes nothing; past the lapse period the plan lapses, 3 gifts missed by then.
    await watchPlans(testEnv, testEnv.DB, due + (pastDueAfterDays + 2) * DAY);
    await watchPlans(testEnv, testEnv.DB, due + (lapsedAfterDays + 1) * DAY);
    const lapsed = await caller.plans.byId({ id: plan?.id as string });
    expect(lapsed).toMatchObject({ status: "lapsed", missedCount: 3 });
    expect(lapsed.timeline.map((e) => e.toStatus)).toEqual(["active", "past_due", "lapsed"]);
    expect(lapsed.timeline[2]?.at).toBe(due + lapsedAfterDays * DAY);
    expect((await caller.plans.summary()).currencies[0]).toMatchObject({ mrrMinor: 0, activePlans: 0 });
    await expectPlanRecount(org, "Asia/Tokyo", "lapsed");
    // A gift brings it back: active, counting again, nothing missed.
    await deliver(
      webhookEvent(org, "ch_back", "donation.succeeded", { subscriptionId: "sub_w", amount: "30.00" }),
    );
    expect(await caller.plans.byId({ id: plan?.id as string })).toMatchObject({
      status: "active",
      missedCount: 0,
    });
    const summary = await caller.plans.summary();
    expect(summary.currencies[0]).toMatchObject({ mrrMinor: 3_000, activePlans: 1 });
    await expectPlanRecount(org, "Asia/Tokyo", "back");
  });

  it("builds the plan months of organizations without them, in their zone", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Auckland" });
    await created(org, "sub_b");
    await testEnv.DB.batch([
      testEnv.DB.prepare("DELETE FROM plan_rollup_state WHERE organization_id = ?").bind(org),
      testEnv.DB.prepare("DELETE FROM plan_monthly WHERE organization_id = ?").bind(org),
    ]);
    const { caller } = await member(org, "owner");
    // Without the months, the summary counts from the events, and says so.
    const before = await caller.plans.summary();
    expect(before.exact).toBe(false);
    await buildMissingPlanRollups(testEnv.DB, () => true, 500);
    const after = await caller.plans.summary();
    expect(after.exact).toBe(true);
    expect(after.series).toEqual(before.series);
    await expectPlanRecount(org, "Pacific/Auckland", "rebuilt");
  });
});

describe("recurring revenue", () => {
  it("is every counting plan's amount over a month, per currency, whatever its interval", async () => {
    const org = await makeOrg({ timeZone: "Europe/Berlin" });
    const { caller } = await member(org, "admin");
    const plans = [
      ["m1", "12.00", "usd", "month"],
      ["q1", "30.00", "usd", "quarter"],
      ["y1", "120.00", "usd", "year"],
      ["m2", "7.00", "eur", "month"],
      ["y2", "100.00", "eur", "year"],
      ["m3", "5.00", "usd", "month"],
    ] as const;
    // Started some weeks ago, so the series (the last twelve months) holds their month whatever today is.
    const startedAt = new Date(Date.now() - 45 * DAY).toISOString();
    const startMonth = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" })
      .format(new Date(startedAt))
      .slice(0, 7);
    for (const [sub, amount, currency, interval] of plans)
      await created(org, sub, { amount, currency, interval, startedAt });
    // One fails (still counted), one pauses (not counted).
    await deliver({
      id: "f",
      type: "plan.payment_failed",
      data: { organization: org, subscriptionId: "q1" },
    });
    await deliver({ id: "p", type: "plan.paused", data: { organization: org, subscriptionId: "m3" } });
    const summary = await caller.plans.summary();
    // USD: 12 + 30/3 + 120/12 = 32.00 a month; EUR: 7 + 100/12 = 15.33.
    const brute = (cur: string) =>
      plans
        .filter(([sub, , c]) => c === cur && sub !== "m3")
        .reduce((t, [, a, , i]) => t + (Number(a) * 100 * { month: 12, quarter: 4, year: 1 }[i]) / 12, 0);
    expect(summary.currencies).toEqual([
      expect.objectContaining({ currency: "EUR", mrrMinor: Math.round(brute("eur")), activePlans: 2 }),
      expect.objectContaining({
        currency: "USD",
        mrrMinor: Math.round(brute("usd")),
        activePlans: 3,
        pastDuePlans: 1,
      }),
    ]);
    expect(summary.currencies[1]?.mrrMinor).toBe(3_200);
    expect(summary.currencies[0]?.mrrMinor).toBe(1_533);
    expect(summary.atRisk.map((p) => p.gatewaySubscriptionId)).toEqual(["q1"]);
    // The month's end carries the same MRR; the month counts the new plans and the pause.
    // This month in Berlin: on a month's last evening UTC is still in the one before.
    const month = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" })
      .format(new Date())
      .slice(0, 7);
    const usd = summary.series.find((s) => s.currency === "USD")?.months.find((m) => m.month === month);
    const started = summary.series
      .find((s) => s.currency === "USD")
      ?.months.find((m) => m.month === startMonth);
    expect(usd?.mrrEndMinor).toBe(3_200);
    expect(started?.new).toBe(4);
    await expectPlanRecount(org, "Europe/Berlin", "mixed plans");
    const m3 = await planOf(org, "m3");
    expect(m3?.status).toBe("paused");
  });
});
