/**
 * Recurring plans in the portal (issue 24, decision 030) on real D1: a plan entered by hand, every
 * move of the status machine and every refusal, reasons, a manual plan's amount, who may do what,
 * and every rollup equal to a brute-force recount after each change.
 */
import { allowedPlanActions, planActions, planStatuses, planTransitions } from "@core/plans";
import { describe, expect, it } from "vitest";
import { watchPlans } from "../../worker/plans/cron";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { expectPlanRecount } from "./brute";

type Caller = Awaited<ReturnType<typeof member>>["caller"];

async function donor(caller: Caller, name = "Ada") {
  const d = await caller.donors.create({
    data: {
      firstName: name,
      lastName: "Giver",
      email: `${name.toLowerCase()}-${crypto.randomUUID()}@example.test`,
    },
  });
  if (!d.created) throw new Error("expected a new donor");
  return d.id;
}

const newPlan = (donorId: string, o: Partial<Parameters<Caller["plans"]["create"]>[0]> = {}) => ({
  donorId,
  campaignId: null,
  amountMinor: 2_500,
  currency: "USD" as const,
  interval: "month" as const,
  startDay: "2026-03-31",
  ...o,
});

/** Puts a plan straight into `status` (the cron and the processor's events are tested elsewhere). */
async function setStatus(planId: string, status: string) {
  await testEnv.DB.prepare(
    "UPDATE recurring_plan SET status = ?, change_token = lower(hex(randomblob(16))) WHERE id = ?",
  )
    .bind(status, planId)
    .run();
}

describe("plans entered by hand", () => {
  it("starts active with its first gift due on the start day, and counts in recurring revenue", async () => {
    const org = await makeOrg({ timeZone: "America/New_York" });
    const { caller } = await member(org, "owner");
    const id = await donor(caller);
    const plan = await caller.plans.create(newPlan(id, { amountMinor: 3_000, interval: "quarter" }));
    expect(plan).toMatchObject({
      status: "active",
      source: "manual",
      amountMinor: 3_000,
      monthlyMinor: 1_000,
      intervalDay: 31,
      donorId: id,
      allowedActions: ["pause", "cancel"],
      amountEditable: true,
    });
    // Noon of the start day in the organization's zone.
    expect(new Date(plan.nextExpectedAt as number).toISOString()).toBe("2026-03-31T16:00:00.000Z");
    const summary = await caller.plans.summary();
    expect(summary.currencies).toEqual([
      expect.objectContaining({
        currency: "USD",
        mrrMinor: 1_000,
        activePlans: 1,
        averageMonthlyMinor: 1_000,
      }),
    ]);
    const detail = await caller.plans.byId({ id: plan.id });
    expect(detail.timeline).toEqual([
      expect.objectContaining({ kind: "created", toStatus: "active", monthlyAfter: 1_000 }),
    ]);
    await expectPlanRecount(org, "America/New_York", "after create");
  });

  it("refuses a donor of another organization, an anonymized donor and a campaign in another currency", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const other = await member(await makeOrg(), "owner");
    const theirs = await donor(other.caller, "Bo");
    expect(await codeOf(caller.plans.create(newPlan(theirs)))).toBe("NOT_FOUND");
    const mine = await donor(caller, "Cy");
    const email = (await caller.donors.byId({ id: mine })).email as string;
    await caller.donors.anonymize({ id: mine, confirm: email });
    expect(await caller.plans.create(newPlan(mine)).catch((e: unknown) => e)).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: "An anonymized donor cannot start a plan",
    });
    const eur = await caller.campaigns.create({ title: "Euro fund", currency: "EUR", goalType: "none" });
    expect(
      await caller.plans
        .create(newPlan(await donor(caller, "Di"), { campaignId: eur.id }))
        .catch((e: unknown) => e),
    ).toMatchObject({
      code: "BAD_REQUEST",
      message: "This campaign collects EUR",
    });
  });
});

describe("the status machine", () => {
  it("allows exactly the moves of core/plans.ts, with the reasons it asks for, and keeps every rollup", async () => {
    const org = await makeOrg({ timeZone: "Europe/Berlin" });
    const { caller } = await member(org, "admin");
    const id = await donor(caller);
    for (const from of planStatuses) {
      for (const action of planActions) {
        const plan = await caller.plans.create(newPlan(id));
        if (from !== "active") await setStatus(plan.id, from);
        const target = { pause: "paused", resume: "active", cancel: "cancelled" }[action];
        const allowed = planTransitions[from].includes(target as never);
        const reason = action === "resume" ? undefined : "Donor asked";
        const res = await caller.plans.setStatus({ id: plan.id, action, reason }).catch((e: unknown) => e);
        if (allowed) expect(res, `${from} → ${action}`).toMatchObject({ status: target });
        else
          expect(res, `${from} → ${action}`).toMatchObject({
            code: "UNPROCESSABLE_CONTENT",
            cause: { details: { allowed: allowedPlanActions(from) } },
          });
      }
    }
    // Out-of-band status writes (setStatus above) bypass the rollups: rebuild before comparing.
    const { rebuildPlanRollups } = await import("../../worker/ledger/plan-rollups");
    await rebuildPlanRollups(testEnv.DB, org, "Europe/Berlin");
    await expectPlanRecount(org, "Europe/Berlin", "after every move");
  });

  it("asks why a plan is paused or cancelled, keeps the reason, and resumes at the next due date from today", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const plan = await caller.plans.create(newPlan(await donor(caller), { startDay: "2025-01-10" }));
    expect(
      await caller.plans.setStatus({ id: plan.id, action: "pause" }).catch((e: unknown) => e),
    ).toMatchObject({
      code: "BAD_REQUEST",
      message: "Say why (the donor's timeline keeps it)",
    });
    expect(
      await caller.plans.setStatus({ id: plan.id, action: "pause", reason: "  " }).catch((e: unknown) => e),
    ).toMatchObject({
      code: "BAD_REQUEST",
    });
    await caller.plans.setStatus({ id: plan.id, action: "pause", reason: "Between jobs" });
    const resumed = await caller.plans.setStatus({ id: plan.id, action: "resume" });
    // Its day stays the 10th; the next 10th from today.
    const next = new Date(resumed.nextExpectedAt as number);
    expect(next.getUTCDate()).toBe(10);
    expect(resumed.nextExpectedAt as number).toBeGreaterThanOrEqual(Date.now() - 86400_000);
    expect(resumed.nextExpectedAt as number).toBeLessThan(Date.now() + 32 * 86400_000);
    const cancelled = await caller.plans.setStatus({ id: plan.id, action: "cancel", reason: "Moved away" });
    expect(cancelled).toMatchObject({
      status: "cancelled",
      allowedActions: [],
      amountEditable: false,
      nextExpectedAt: null,
    });
    const detail = await caller.plans.byId({ id: plan.id });
    expect(detail.timeline.map((e) => [e.toStatus, e.reason])).toEqual([
      ["active", null],
      ["paused", "Between jobs"],
      ["active", null],
      ["cancelled", "Moved away"],
    ]);
    await expectPlanRecount(org, "UTC", "after pause, resume, cancel");
    const summary = await caller.plans.summary();
    const month = new Date().toISOString().slice(0, 7);
    const thisMonth = summary.series[0]?.months.find((m) => m.month === month);
    expect(thisMonth).toMatchObject({ paused: 1, reactivated: 1, cancelled: 1 });
    expect(summary.currencies[0]).toMatchObject({ mrrMinor: 0, activePlans: 0 });
  });

  it("changes a manual plan's amount (and its revenue), never a processor's, never a cancelled one's", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const plan = await caller.plans.create(newPlan(await donor(caller)));
    const changed = await caller.plans.changeAmount({ id: plan.id, amountMinor: 4_000, reason: "Raise" });
    expect(changed).toMatchObject({ amountMinor: 4_000, monthlyMinor: 4_000 });
    expect((await caller.plans.summary()).currencies[0]).toMatchObject({ mrrMinor: 4_000 });
    await testEnv.DB.prepare("UPDATE recurring_plan SET source = 'webhook' WHERE id = ?").bind(plan.id).run();
    expect(
      await caller.plans.changeAmount({ id: plan.id, amountMinor: 5_000 }).catch((e: unknown) => e),
    ).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: "This plan's amount changes at its payment processor",
    });
    await expectPlanRecount(org, "UTC", "after amount change");
  });

  it("lands one of two concurrent changes of a plan and answers the other 409", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const plan = await caller.plans.create(newPlan(await donor(caller)));
    const both = await Promise.allSettled([
      caller.plans.setStatus({ id: plan.id, action: "pause", reason: "One" }),
      caller.plans.setStatus({ id: plan.id, action: "cancel", reason: "Two" }),
    ]);
    const ok = both.filter((b) => b.status === "fulfilled");
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const b of both)
      if (b.status === "rejected")
        expect((b.reason as { code: string }).code).toMatch(/CONFLICT|UNPROCESSABLE_CONTENT/);
    const events = await testEnv.DB.prepare("SELECT count(*) AS n FROM plan_event WHERE plan_id = ?")
      .bind(plan.id)
      .first<{ n: number }>();
    expect(events?.n).toBe(1 + ok.length);
    await expectPlanRecount(org, "UTC", "after a race");
  });
});

describe("gifts recorded by hand against a plan", () => {
  const gift = (donorId: string, planId: string, o: Record<string, unknown> = {}) => ({
    donorId,
    campaignId: null,
    planId,
    amountMinor: 2_500,
    currency: "USD" as const,
    paymentMethod: "check" as const,
    donatedAt: Date.UTC(2026, 3, 2, 12),
    ...o,
  });

  it("joins the plan as a gift of its interval, moves the next gift a period on and brings a late plan back", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const donorId = await donor(caller);
    const plan = await caller.plans.create(newPlan(donorId, { startDay: "2026-03-01", dayOfMonth: 1 }));
    // The watch finds its March gift missing: lapsed (or past due, on a day within the lapse period).
    await watchPlans(testEnv, testEnv.DB, Date.UTC(2026, 2, 1) + 61 * 86_400_000);
    expect((await caller.plans.byId({ id: plan.id })).status).toBe("lapsed");
    const d = await caller.donations.create(gift(donorId, plan.id));
    expect(d).toMatchObject({ frequency: "monthly" });
    const after = await caller.plans.byId({ id: plan.id });
    expect(after).toMatchObject({ status: "active", giftCount: 1, givenMinor: 2_500, missedCount: 0 });
    expect(new Date(after.nextExpectedAt as number).toISOString()).toBe("2026-05-01T12:00:00.000Z");
    expect(after.gifts.map((g) => g.id)).toEqual([d.id]);
    expect(after.timeline.filter((e) => e.kind === "status").map((e) => [e.fromStatus, e.toStatus])).toEqual([
      ["active", "lapsed"],
      ["lapsed", "active"],
    ]);
    // A backlog entered later never moves the expected gift back.
    await caller.donations.create(gift(donorId, plan.id, { donatedAt: Date.UTC(2026, 2, 1, 12) }));
    const again = await caller.plans.byId({ id: plan.id });
    expect(again).toMatchObject({ giftCount: 2, givenMinor: 5_000 });
    expect(again.nextExpectedAt).toBe(after.nextExpectedAt);
    await expectPlanRecount(org, "UTC", "after gifts by hand");
  });

  it("refuses another donor's plan, another currency and a stopped plan, writing nothing", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const donorId = await donor(caller);
    const other = await donor(caller, "Bea");
    const plan = await caller.plans.create(newPlan(donorId));
    const refused = async (input: ReturnType<typeof gift>) =>
      caller.donations.create(input).catch((e: { code: string; message: string }) => ({
        code: e.code,
        message: e.message,
      }));
    expect(await refused(gift(other, plan.id))).toEqual({
      code: "UNPROCESSABLE_CONTENT",
      message: "This plan belongs to another donor",
    });
    expect(await refused(gift(donorId, plan.id, { currency: "EUR" }))).toEqual({
      code: "BAD_REQUEST",
      message: "This plan gives in USD",
    });
    expect(await refused(gift(donorId, "no-such-plan"))).toMatchObject({ code: "NOT_FOUND" });
    await caller.plans.setStatus({ id: plan.id, action: "pause", reason: "Travelling" });
    expect(await refused(gift(donorId, plan.id))).toEqual({
      code: "UNPROCESSABLE_CONTENT",
      message: "A paused plan takes no donations",
    });
    const elsewhere = await makeOrg();
    const stranger = await member(elsewhere, "owner");
    expect(await codeOf(stranger.caller.donations.create(gift(donorId, plan.id)))).not.toBe("OK");
    const gifts = await testEnv.DB.prepare("SELECT count(*) AS n FROM donation WHERE plan_id = ?")
      .bind(plan.id)
      .first<{ n: number }>();
    expect(gifts?.n).toBe(0);
  });

  it("writes neither the gift nor the plan's change when the plan changed since it was read", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const donorId = await donor(caller);
    const plan = await caller.plans.create(newPlan(donorId, { startDay: "2026-03-01" }));
    await watchPlans(testEnv, testEnv.DB, Date.UTC(2026, 2, 1) + 10 * 86_400_000);
    // Two gifts of the same late plan at once: each reads the plan, only one may bring it back.
    const both = await Promise.allSettled([
      caller.donations.create(gift(donorId, plan.id)),
      caller.donations.create(gift(donorId, plan.id, { amountMinor: 2_600 })),
    ]);
    const ok = both.filter((b) => b.status === "fulfilled").length;
    expect(ok).toBeGreaterThanOrEqual(1);
    for (const b of both)
      if (b.status === "rejected") expect((b.reason as { code: string }).code).toBe("CONFLICT");
    const after = await caller.plans.byId({ id: plan.id });
    expect(after.giftCount).toBe(ok);
    await expectPlanRecount(org, "UTC", "after a gift race");
  });
});

describe("the list", () => {
  it("sorts failing first, by next gift, amount, given and creation, and filters, as the plans themselves say", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const a = await donor(caller, "Ann");
    const b = await donor(caller, "Bob");
    const specs = [
      { donorId: a, amountMinor: 1_000, startDay: "2026-05-03", status: "active" },
      { donorId: a, amountMinor: 9_000, startDay: "2026-05-01", status: "past_due" },
      { donorId: b, amountMinor: 5_000, startDay: "2026-05-02", status: "lapsed", interval: "year" as const },
      { donorId: b, amountMinor: 3_000, startDay: "2026-05-04", status: "paused" },
      { donorId: b, amountMinor: 7_000, startDay: "2026-05-05", status: "cancelled", ended: true },
      {
        donorId: a,
        amountMinor: 2_000,
        startDay: "2026-05-06",
        status: "active",
        interval: "quarter" as const,
      },
    ];
    for (const { status, ended, ...spec } of specs) {
      const plan = await caller.plans.create(newPlan(spec.donorId, spec));
      if (status !== "active") await setStatus(plan.id, status);
      if (ended)
        await testEnv.DB.prepare("UPDATE recurring_plan SET next_expected_at = NULL WHERE id = ?")
          .bind(plan.id)
          .run();
    }
    const all = (await caller.plans.list({ pageSize: 100 })).rows;
    const rank = ["past_due", "lapsed", "active", "paused", "cancelled", "completed"];
    const risk = (p: (typeof all)[number]) => Math.min(rank.indexOf(p.status), 4);
    const next = (p: (typeof all)[number]) => p.nextExpectedAt ?? Number.POSITIVE_INFINITY;
    const order = (sortBy: (x: (typeof all)[number], y: (typeof all)[number]) => number) =>
      [...all].sort((x, y) => sortBy(x, y) || (x.id < y.id ? -1 : 1)).map((p) => p.id);
    const ids = async (input: Parameters<Caller["plans"]["list"]>[0]) =>
      (await caller.plans.list({ pageSize: 100, ...input })).rows.map((p) => p.id);

    expect(all.map((p) => p.status)).toEqual([
      "past_due",
      "lapsed",
      "active",
      "active",
      "paused",
      "cancelled",
    ]);
    expect(all.map((p) => p.id)).toEqual(order((x, y) => risk(x) - risk(y) || next(x) - next(y)));
    // Ended plans have no next gift: last whichever way the dates run.
    expect(await ids({ sort: "next", desc: false })).toEqual(order((x, y) => next(x) - next(y)));
    expect((await ids({ sort: "next", desc: true })).at(-1)).toBe(
      all.find((p) => p.nextExpectedAt === null)?.id,
    );
    expect(await ids({ sort: "amount", desc: true })).toEqual(order((x, y) => y.amountMinor - x.amountMinor));
    expect(await ids({ sort: "amount", desc: false })).toEqual(
      order((x, y) => x.amountMinor - y.amountMinor),
    );
    expect(await ids({ sort: "created" })).toEqual(order((x, y) => x.createdAt - y.createdAt).reverse());
    expect(await ids({ sort: "given" })).toHaveLength(6);

    const only = (f: (p: (typeof all)[number]) => boolean) => all.filter(f).map((p) => p.id);
    expect(await ids({ status: ["active", "past_due"] })).toEqual(
      only((p) => ["active", "past_due"].includes(p.status)),
    );
    expect(await ids({ status: ["paused"], sort: "amount" })).toEqual(only((p) => p.status === "paused"));
    expect(await ids({ donorId: b })).toEqual(only((p) => p.donorId === b));
    expect(await ids({ donorId: a, status: ["active"] })).toEqual(
      only((p) => p.donorId === a && p.status === "active"),
    );
    expect(await ids({ interval: "year" })).toEqual(only((p) => p.interval === "year"));
    expect(await ids({ minAmountMinor: 2_000, maxAmountMinor: 7_000 })).toEqual(
      only((p) => p.amountMinor >= 2_000 && p.amountMinor <= 7_000),
    );
    expect(await ids({ q: "bob" })).toEqual(only((p) => p.donorId === b));
    // The count reads the plans alone unless the search needs the donor's name.
    expect((await caller.plans.list({ status: ["active"], pageSize: 10 })).total).toBe(2);
    expect((await caller.plans.list({ q: "ann", pageSize: 10 })).total).toBe(3);
  });
});

describe("who may", () => {
  it("lets owners, admins and organizers change plans; viewers only read them", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const plan = await owner.caller.plans.create(newPlan(await donor(owner.caller)));
    const viewer = await member(org, "viewer");
    expect((await viewer.caller.plans.list({})).total).toBe(1);
    expect(await codeOf(viewer.caller.plans.byId({ id: plan.id }))).toBe("OK");
    expect(await codeOf(viewer.caller.plans.setStatus({ id: plan.id, action: "pause", reason: "x" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(viewer.caller.plans.create(newPlan(plan.donorId as string)))).toBe("FORBIDDEN");
    const organizer = await member(org, "organizer");
    expect(
      await codeOf(organizer.caller.plans.setStatus({ id: plan.id, action: "pause", reason: "x" })),
    ).toBe("OK");
  });
});
