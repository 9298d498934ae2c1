/**
 * Issue 53, the adversarial review's plan findings (3, 4, 5): a processor's plan events obey the
 * rules the portal's plans obey. Dates outside the platform's instants are refused as gifts' are
 * (decision 019), a gift joins a plan only in the plan's currency, and an ended plan keeps its
 * amount, by the one rule each path calls (core/plans.ts).
 */

import { localMonth } from "@core/plans";
import { localDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { deliver, webhookEvent } from "../donations/brute";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";
import { expectPlanRecount, plansOf } from "../plans/brute";

function planEvent(org: string, sub: string, type: string, data: Record<string, unknown> = {}) {
  return {
    id: `evt_${type}-${sub}-${Math.random().toString(36).slice(2)}`,
    type,
    data: {
      organization: org,
      subscriptionId: sub,
      amount: "12.00",
      currency: "usd",
      interval: "month",
      startedAt: "2026-01-05T10:00:00Z",
      donor: { email: `${sub}@example.test` },
      ...data,
    },
  };
}

async function planOf(org: string, sub: string) {
  return testEnv.DB.prepare(
    "SELECT id, status, amount_minor, interval, gift_count, given_minor FROM recurring_plan WHERE organization_id = ? AND gateway_subscription_id = ?",
  )
    .bind(org, sub)
    .first<{
      id: string;
      status: string;
      amount_minor: number;
      interval: string;
      gift_count: number;
      given_minor: number;
    }>();
}

describe("plan events dated outside the platform's instants (adversarial 3)", () => {
  it("plan.created with startedAt in years 0001, 0500, 0999 or 1969, and plan.paused at year 0500, answer 422 with the field, write nothing, and 1970 and 2099 are taken", async () => {
    const org = await makeOrg({ timeZone: "America/New_York" });
    for (const startedAt of [
      "0001-01-01T00:00:00Z",
      "0500-06-15T12:00:00Z",
      "0999-12-31T23:59:59Z",
      "1969-12-31T23:59:59Z",
      "2100-01-01T00:00:01Z",
      "9999-12-31T00:00:00Z",
    ]) {
      const res = await deliver(
        planEvent(org, `sub-old-${startedAt.slice(0, 4)}`, "plan.created", { startedAt }),
      );
      expect(res.status, startedAt).toBe(422);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code, startedAt).toBe("UNPROCESSABLE_CONTENT");
      expect(body.message, startedAt).toMatch(/^startedAt: /);
    }
    expect(await plansOf(org)).toHaveLength(0);
    for (const startedAt of ["1970-01-01T00:00:00Z", "2099-12-31T00:00:00Z"]) {
      const res = await deliver(
        planEvent(org, `sub-ok-${startedAt.slice(0, 4)}`, "plan.created", { startedAt }),
      );
      expect(res.status, startedAt).toBe(201);
    }
    await deliver(planEvent(org, "sub-live", "plan.created"));
    for (const at of ["0500-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "1969-12-31T00:00:00Z"]) {
      const res = await deliver(planEvent(org, "sub-live", "plan.paused", { at }));
      expect(res.status, at).toBe(422);
      expect(((await res.json()) as { message: string }).message, at).toMatch(/^at: /);
    }
    expect((await planOf(org, "sub-live"))?.status).toBe("active");
    await expectPlanRecount(org, "America/New_York", "after the refused events");
  });

  it("localDay and localMonth give four-digit years for instants before year 1000, and no day at all before year 0", () => {
    const at = (y: number, m = 6, d = 15, h = 12) => {
      const date = new Date(Date.UTC(2000, m - 1, d, h));
      date.setUTCFullYear(y);
      return date.getTime();
    };
    expect(localDay(at(500), "UTC")).toBe("0500-06-15");
    expect(localDay(at(1), "UTC")).toBe("0001-06-15");
    expect(localDay(at(999, 12, 31), "Etc/GMT-14")).toBe("1000-01-01");
    expect(localDay(at(0), "UTC")).toBe("0000-06-15");
    expect(localDay(at(1000, 1, 1, 11), "Etc/GMT+12")).toBe("0999-12-31");
    expect(localDay(at(1, 1, 1, 11), "Etc/GMT+12")).toBe("0000-12-31");
    expect(localMonth(at(500), "UTC")).toBe("0500-06");
    expect(localMonth(at(1), "Europe/Paris")).toBe("0001-06");
    // 1 BC and earlier: no four-digit day, the key that sorts before every day.
    expect(localDay(at(-1), "UTC")).toBe("0000-00-00");
    expect(localDay(at(-500), "UTC")).toBe("0000-00-00");
    expect(localDay(at(10_000), "UTC")).toBe("9999-99-99");
    expect(localDay(at(2026, 3, 1), "UTC")).toBe("2026-03-01");
    for (const y of [1, 99, 500, 999, 1000, 2026, 9999])
      expect(localDay(at(y), "Asia/Tokyo"), String(y)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe("a gift of a plan in another currency (adversarial 4)", () => {
  it("the webhook refuses it with 400 'This plan gives in USD', as the portal does, and the plan's given total stays in its currency", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    expect((await deliver(planEvent(org, "sub-cur", "plan.created"))).status).toBe(201);
    const gift = (tx: string, data: Record<string, unknown>) =>
      webhookEvent(org, tx, "donation.succeeded", {
        subscriptionId: "sub-cur",
        frequency: "monthly",
        donor: { email: "sub-cur@example.test" },
        ...data,
      });
    expect((await deliver(gift("tx-usd", { currency: "USD", amount: "12.00" }))).status).toBe(201);
    const eur = await deliver(gift("tx-eur", { currency: "EUR", amount: "7.00" }));
    expect(eur.status).toBe(400);
    expect(await eur.json()).toEqual({ code: "BAD_REQUEST", message: "This plan gives in USD" });
    const stored = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM donation WHERE organization_id = ? AND gateway_transaction_id = 'tx-eur'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
    const plan = await planOf(org, "sub-cur");
    expect(plan).toMatchObject({ gift_count: 1, given_minor: 1_200 });
    // The portal's refusal is the same rule, word for word.
    const donor = (await caller.donors.list({ q: "sub-cur@example.test" })).rows[0];
    const manual = await caller.donations
      .create({
        donorId: donor?.id ?? null,
        campaignId: null,
        planId: plan?.id,
        amountMinor: 700,
        currency: "EUR",
        paymentMethod: "cash",
        donatedAt: Date.now() - 1000,
      })
      .then(
        () => "created",
        (e: Error) => e.message,
      );
    expect(manual).toBe("This plan gives in USD");
    await expectPlanRecount(org, "UTC", "after the refused gifts");
  });

  it("a gift in another currency joined to a plan before the fix is not added to its given total at the next recount", async () => {
    const org = await makeOrg();
    await deliver(planEvent(org, "sub-old", "plan.created"));
    const plan = await planOf(org, "sub-old");
    const gift = (tx: string, currency: string, amount: string) =>
      webhookEvent(org, tx, "donation.succeeded", {
        subscriptionId: "sub-old",
        frequency: "monthly",
        donor: { email: "sub-old@example.test" },
        currency,
        amount,
      });
    expect((await deliver(gift("tx-1", "USD", "12.00"))).status).toBe(201);
    // As the webhook attached it before the fix.
    expect(
      (await deliver(webhookEvent(org, "tx-2", "donation.succeeded", { currency: "EUR", amount: "7.00" })))
        .status,
    ).toBe(201);
    await testEnv.DB.prepare(
      "UPDATE donation SET plan_id = ? WHERE organization_id = ? AND gateway_transaction_id = 'tx-2'",
    )
      .bind(plan?.id, org)
      .run();
    expect((await deliver(gift("tx-3", "USD", "12.00"))).status).toBe(201);
    expect(await planOf(org, "sub-old")).toMatchObject({ gift_count: 2, given_minor: 2_400 });
  });
});

describe("plan.updated on an ended plan (adversarial 5)", () => {
  it("a cancelled plan keeps its amount and interval: 422 with the portal's message, nothing written", async () => {
    const org = await makeOrg();
    await deliver(planEvent(org, "sub-end", "plan.created"));
    expect((await deliver(planEvent(org, "sub-end", "plan.cancelled"))).status).toBe(200);
    for (const data of [
      { amount: "30.00" },
      { interval: "year" },
      { amount: "30.00", interval: "quarter" },
    ]) {
      const res = await deliver(planEvent(org, "sub-end", "plan.updated", data));
      expect(res.status, JSON.stringify(data)).toBe(422);
      expect(await res.json()).toEqual({
        code: "UNPROCESSABLE_CONTENT",
        message: "A cancelled plan keeps its amount",
      });
    }
    expect(await planOf(org, "sub-end")).toMatchObject({
      status: "cancelled",
      amount_minor: 1_200,
      interval: "month",
    });
    // The same amount again is no change, so nothing to refuse.
    const same = await deliver(planEvent(org, "sub-end", "plan.updated", { amount: "12.00" }));
    expect(same.status).toBe(200);
    expect(await same.json()).toMatchObject({ duplicate: true });
    // A running plan still changes.
    await deliver(planEvent(org, "sub-run", "plan.created"));
    const run = await deliver(planEvent(org, "sub-run", "plan.updated", { amount: "30.00" }));
    expect(await run.json()).toMatchObject({ changed: true });
    expect((await planOf(org, "sub-run"))?.amount_minor).toBe(3_000);
    const audits = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'plan.webhook_update'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(audits?.n).toBe(1);
    await expectPlanRecount(org, "UTC", "after the refused updates");
  });
});
