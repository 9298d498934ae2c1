/**
 * A pause with an end (issue 53, M15): "pause for N months" or until a day, in the organization's
 * days; the plans' watch resumes the plan then, as a resume by hand does. The clock is fixed at a
 * month's end across a zone's midnight (31 Jan 2027, 23:30 UTC is 1 Feb in Paris).
 */

import { addMonthsToDay, MAX_PAUSE_MONTHS, pauseEndProblem } from "@core/plans";
import { startOfLocalDay } from "@core/time";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchPlans } from "../../worker/plans/cron";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";

const NOW = Date.UTC(2027, 0, 31, 23, 30);
const TZ = "Europe/Paris";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

async function plan(role: "owner" | "organizer" | "viewer" | "admin" = "owner") {
  const org = await makeOrg({ timeZone: TZ });
  const owner = await member(org, "owner");
  const donor = await owner.caller.donors.create({ data: { firstName: "Ada", lastName: "Pause" } });
  if (!donor.created) throw new Error("expected a new donor");
  const p = await owner.caller.plans.create({
    donorId: donor.id,
    amountMinor: 2500,
    currency: "USD",
    interval: "month",
    startDay: "2026-12-10",
  });
  const caller = role === "owner" ? owner.caller : (await member(org, role)).caller;
  return { org, caller, owner: owner.caller, id: p.id };
}

describe("a pause with an end", () => {
  it("counts months in the organization's days and refuses a day not ahead or too far", () => {
    expect(addMonthsToDay("2027-02-01", 1)).toBe("2027-03-01");
    expect(addMonthsToDay("2027-01-31", 1)).toBe("2027-02-28");
    expect(addMonthsToDay("2028-01-31", 1)).toBe("2028-02-29");
    expect(addMonthsToDay("2027-11-30", 3)).toBe("2028-02-29");
    expect(addMonthsToDay("2027-12-15", 12)).toBe("2028-12-15");
    expect(pauseEndProblem("2027-02-01", "2027-02-01")).toBe("The pause ends on a day after today");
    expect(pauseEndProblem("2027-01-31", "2027-02-01")).toBe("The pause ends on a day after today");
    expect(pauseEndProblem("2027-02-02", "2027-02-01")).toBeNull();
    expect(pauseEndProblem(addMonthsToDay("2027-02-01", MAX_PAUSE_MONTHS), "2027-02-01")).toBeNull();
    expect(pauseEndProblem("2029-02-02", "2027-02-01")).toBe(
      `A pause ends within ${MAX_PAUSE_MONTHS} months`,
    );
  });

  it("resumes by itself on its day, as a resume by hand would, and says so in the timeline", async () => {
    const { caller, id } = await plan("organizer");
    const paused = await caller.plans.setStatus({
      id,
      action: "pause",
      reason: "Skip the winter",
      resumeOn: "2027-03-01",
    });
    const resumeAt = startOfLocalDay("2027-03-01", TZ);
    expect(paused).toMatchObject({ status: "paused", resumeAt });
    expect(new Date(resumeAt).toISOString()).toBe("2027-02-28T23:00:00.000Z");
    // The watch leaves it paused until that midnight in Paris, then resumes it.
    // (The watch sees every organization's plans: only this plan's state is asserted.)
    await watchPlans(testEnv, testEnv.DB, resumeAt - 1);
    expect((await caller.plans.byId({ id })).status).toBe("paused");
    vi.setSystemTime(resumeAt + 15 * 60_000);
    await watchPlans(testEnv, testEnv.DB, resumeAt + 15 * 60_000);
    const resumed = await caller.plans.byId({ id });
    expect(resumed).toMatchObject({ status: "active", resumeAt: null, missedCount: 0 });
    // Its schedule's next due day from 1 March (the 10th of each month).
    expect(resumed.nextExpectedAt).toBeGreaterThanOrEqual(startOfLocalDay("2027-03-10", TZ));
    expect(resumed.nextExpectedAt).toBeLessThan(startOfLocalDay("2027-03-11", TZ));
    expect(resumed.timeline.at(-1)).toMatchObject({
      toStatus: "active",
      reason: "The pause ended on 2027-03-01",
    });
    // Once resumed it is not resumed again.
    await watchPlans(testEnv, testEnv.DB, resumeAt + 30 * 60_000);
    expect((await caller.plans.byId({ id })).timeline.filter((e) => e.toStatus === "active")).toHaveLength(2);
  });

  it("forgets the end when resumed by hand or cancelled first", async () => {
    const { caller, id } = await plan();
    await caller.plans.setStatus({ id, action: "pause", reason: "Summer", resumeOn: "2027-06-01" });
    expect((await caller.plans.setStatus({ id, action: "resume" })).resumeAt).toBeNull();
    await caller.plans.setStatus({ id, action: "pause", reason: "Again", resumeOn: "2027-06-01" });
    expect(
      (await caller.plans.setStatus({ id, action: "cancel", reason: "Moved away" })).resumeAt,
    ).toBeNull();
    await watchPlans(testEnv, testEnv.DB, startOfLocalDay("2027-06-02", TZ));
    expect((await caller.plans.byId({ id })).status).toBe("cancelled");
  });

  it("refuses an end that is today, past, too far, malformed or not on a pause", async () => {
    const { caller, id } = await plan();
    const tryPause = (resumeOn: string) =>
      codeOf(caller.plans.setStatus({ id, action: "pause", reason: "x", resumeOn }));
    // Today in Paris is 1 Feb (23:30 UTC on 31 Jan): neither day is ahead.
    expect(await tryPause("2027-02-01")).toBe("BAD_REQUEST");
    expect(await tryPause("2027-01-31")).toBe("BAD_REQUEST");
    expect(await tryPause("2029-02-02")).toBe("BAD_REQUEST");
    expect(await tryPause("2027-02-30")).toBe("BAD_REQUEST");
    expect(await tryPause("tomorrow")).toBe("BAD_REQUEST");
    expect(
      await codeOf(caller.plans.setStatus({ id, action: "cancel", reason: "x", resumeOn: "2027-03-01" })),
    ).toBe("BAD_REQUEST");
    expect((await caller.plans.byId({ id })).status).toBe("active");
    // 2 Feb is the first day ahead.
    expect(
      (await caller.plans.setStatus({ id, action: "pause", reason: "x", resumeOn: "2027-02-02" })).status,
    ).toBe("paused");
  });

  it("is a plan change: a viewer may not pause, with or without an end", async () => {
    const { caller, id } = await plan("viewer");
    expect(
      await codeOf(caller.plans.setStatus({ id, action: "pause", reason: "x", resumeOn: "2027-03-01" })),
    ).toBe("FORBIDDEN");
  });
});
