/**
 * A processor's recurring plans through the signed webhook (issue 24, decision 030): plan events
 * are idempotent and safe under concurrent delivery, gifts of a subscription join (or start) their
 * plan in the gift's batch, a failing plan recovers when a gift arrives, and every figure equals a
 * brute-force recount.
 */
import { describe, expect, it } from "vitest";
import { deliver, webhookEvent } from "../donations/brute";
import { expectRecount } from "../donations/recount";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";
import { expectPlanRecount, plansOf } from "../plans/brute";

function planEvent(
  org: string,
  sub: string,
  type: string,
  data: Record<string, unknown> = {},
  id = `${type}-${sub}`,
) {
  return {
    id: `evt_${id}`,
    type,
    data: {
      organization: org,
      subscriptionId: sub,
      amount: "20.00",
      currency: "usd",
      interval: "month",
      startedAt: "2026-01-05T10:00:00Z",
      gateway: "stripe",
      paymentMethod: "Visa •••• 4242",
      donor: { email: "sub@example.test", firstName: "Sam" },
      ...data,
    },
  };
}

async function statusOf(org: string, sub: string) {
  return testEnv.DB.prepare(
    "SELECT status, amount_minor, missed_count, next_expected_at FROM recurring_plan WHERE organization_id = ? AND gateway_subscription_id = ?",
  )
    .bind(org, sub)
    .first<{ status: string; amount_minor: number; missed_count: number; next_expected_at: number | null }>();
}

describe("plan events", () => {
  it("creates a plan once however often plan.created arrives, also all at once", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const event = planEvent(org, "sub_1", "plan.created");
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(await plansOf(org)).toHaveLength(1);
    const [plan] = (await caller.plans.list({})).rows;
    expect(plan).toMatchObject({
      status: "active",
      source: "webhook",
      amountMinor: 2_000,
      currency: "USD",
      gateway: "stripe",
      gatewaySubscriptionId: "sub_1",
      paymentMethod: "Visa •••• 4242",
      donorEmail: "sub@example.test",
      intervalDay: 5,
    });
    await expectPlanRecount(org, "UTC", "after concurrent creates");
  });

  it("pauses, resumes, cancels and fails a plan, each once, refusing a move the machine forbids", async () => {
    const org = await makeOrg();
    await deliver(planEvent(org, "sub_2", "plan.created"));
    for (const [type, status] of [
      ["plan.payment_failed", "past_due"],
      ["plan.payment_failed", "past_due"],
      ["plan.paused", "paused"],
      ["plan.resumed", "active"],
      ["plan.cancelled", "cancelled"],
    ] as const) {
      const res = await deliver(planEvent(org, "sub_2", type, {}, `${type}-${Math.random()}`));
      expect(res.status, type).toBe(200);
      expect((await statusOf(org, "sub_2"))?.status, type).toBe(status);
    }
    // The same cancellation again changes nothing; resuming a cancelled plan is refused.
    const again = await deliver(planEvent(org, "sub_2", "plan.cancelled", {}, "again"));
    expect(await again.json()).toMatchObject({ duplicate: true });
    const resume = await deliver(planEvent(org, "sub_2", "plan.resumed", {}, "late"));
    expect(resume.status).toBe(422);
    expect(await resume.json()).toMatchObject({ code: "UNPROCESSABLE_CONTENT", allowed: [] });
    const events = await testEnv.DB.prepare(
      "SELECT to_status FROM plan_event e JOIN recurring_plan p ON p.id = e.plan_id WHERE p.gateway_subscription_id = 'sub_2' AND p.organization_id = ? ORDER BY e.at, e.rowid",
    )
      .bind(org)
      .all<{ to_status: string }>();
    expect(events.results.map((e) => e.to_status)).toEqual([
      "active",
      "past_due",
      "paused",
      "active",
      "cancelled",
    ]);
    await expectPlanRecount(org, "UTC", "after the events");
  });

  it("updates a plan's amount once, refuses a new currency, and answers 404 for an unknown plan", async () => {
    const org = await makeOrg();
    await deliver(planEvent(org, "sub_3", "plan.created"));
    const up = planEvent(org, "sub_3", "plan.updated", { amount: "35.00", interval: "quarter" });
    expect((await deliver(up)).status).toBe(200);
    expect(await (await deliver(up)).json()).toMatchObject({ duplicate: true });
    expect(await statusOf(org, "sub_3")).toMatchObject({ amount_minor: 3_500 });
    const eur = await deliver(planEvent(org, "sub_3", "plan.updated", { currency: "eur" }, "eur"));
    expect(eur.status).toBe(422);
    expect((await deliver(planEvent(org, "sub_nope", "plan.paused"))).status).toBe(404);
    expect((await deliver(planEvent(org, "sub_4", "plan.created", { amount: undefined }))).status).toBe(422);
    await expectPlanRecount(org, "UTC", "after updates");
  });
});

describe("gifts of a subscription", () => {
  it("start the plan when first seen, join it afterwards, and keep its totals with the gift", async () => {
    const org = await makeOrg({ timeZone: "America/Los_Angeles" });
    const { caller } = await member(org, "owner");
    const gift = (tx: string, at: string, type = "donation.succeeded") =>
      deliver(
        webhookEvent(org, tx, type, {
          subscriptionId: "sub_g",
          frequency: "monthly",
          amount: "15.00",
          donatedAt: at,
        }),
      );
    expect((await gift("ch_1", "2026-02-03T20:00:00Z")).status).toBe(201);
    expect((await gift("ch_2", "2026-03-03T20:00:00Z")).status).toBe(201);
    expect((await gift("ch_3", "2026-04-03T20:00:00Z", "donation.failed")).status).toBe(201);
    const plans = await plansOf(org);
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      gift_count: 2,
      given_minor: 3_000,
      last_gift_at: Date.parse("2026-03-03T20:00:00Z"),
    });
    const gifts = await testEnv.DB.prepare(
      "SELECT plan_id, frequency FROM donation WHERE organization_id = ?",
    )
      .bind(org)
      .all<{ plan_id: string; frequency: string }>();
    expect(new Set(gifts.results.map((g) => g.plan_id))).toEqual(new Set([plans[0]?.id]));
    // A refund takes the gift out of the plan's totals in the same batch.
    await gift("ch_2", "2026-03-03T20:00:00Z", "donation.refunded");
    expect((await plansOf(org))[0]).toMatchObject({ gift_count: 1, given_minor: 1_500 });
    await expectPlanRecount(org, "America/Los_Angeles", "after gifts");
    await expectRecount(org, "America/Los_Angeles", caller, "gifts of a plan");
  });

  it("bring a failing plan back and move its next gift a period on", async () => {
    const org = await makeOrg();
    await deliver(planEvent(org, "sub_r", "plan.created"));
    await deliver(planEvent(org, "sub_r", "plan.payment_failed"));
    expect((await statusOf(org, "sub_r"))?.status).toBe("past_due");
    const res = await deliver(
      webhookEvent(org, "ch_r", "donation.succeeded", {
        subscriptionId: "sub_r",
        amount: "20.00",
        donatedAt: "2026-06-05T12:00:00Z",
      }),
    );
    expect(res.status).toBe(201);
    expect(await statusOf(org, "sub_r")).toMatchObject({
      status: "active",
      missed_count: 0,
      next_expected_at: Date.parse("2026-07-05T12:00:00Z"),
    });
    await expectPlanRecount(org, "UTC", "after recovery");
  });

  it("leave plans alone in test mode: a sandbox payment starts no plan and moves none", async () => {
    const org = await makeOrg();
    const sandbox = (tx: string, sub: string) =>
      deliver(webhookEvent(org, tx, "donation.succeeded", { subscriptionId: sub, mode: "test" }));
    expect((await sandbox("ch_t1", "sub_sandbox")).status).toBe(201);
    expect(await plansOf(org)).toHaveLength(0);
    await deliver(planEvent(org, "sub_live", "plan.created"));
    await deliver(planEvent(org, "sub_live", "plan.payment_failed"));
    expect((await sandbox("ch_t2", "sub_live")).status).toBe(201);
    expect(await statusOf(org, "sub_live")).toMatchObject({ status: "past_due" });
    const linked = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM donation WHERE organization_id = ? AND plan_id IS NOT NULL",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(linked?.n).toBe(0);
    await expectPlanRecount(org, "UTC", "after sandbox gifts");
  });

  it("create one plan when two first gifts of a subscription arrive at once", async () => {
    const org = await makeOrg();
    const answers = await Promise.all(
      ["ch_a", "ch_b", "ch_c"].map((tx, i) =>
        deliver(
          webhookEvent(org, tx, "donation.succeeded", {
            subscriptionId: "sub_race",
            donatedAt: `2026-0${i + 1}-10T10:00:00Z`,
          }),
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const plans = await plansOf(org);
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ gift_count: 3 });
    await expectPlanRecount(org, "UTC", "after racing first gifts");
  });
});
