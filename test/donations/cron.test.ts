import { describe, expect, it } from "vitest";
import { runScheduled } from "../../worker/scheduled";
import { makeOrg, member } from "../domain/fixtures";
import { testEnv } from "../helpers";
import { bruteTotals, donationsOf, storedTotals } from "./brute";

describe("abandoning stale pending gifts", () => {
  it("abandons pending gifts older than 72 hours, only those, each with an audit row and a timeline entry", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const gift = (status: "pending" | "completed") =>
      caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor: 500,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now() - 1000,
        status,
      });
    const stale = await gift("pending");
    const fresh = await gift("pending");
    const done = await gift("completed");
    const now = Date.now();
    const age = (id: string, hours: number) =>
      testEnv.DB.prepare("UPDATE donation SET created_at = ? WHERE id = ?")
        .bind(now - hours * 3600_000, id)
        .run();
    await age(stale.id, 72.1);
    await age(fresh.id, 71.9);
    await age(done.id, 500);
    await runScheduled("*/15 * * * *", testEnv, new Date(now));
    expect((await caller.donations.byId({ id: stale.id })).status).toBe("abandoned");
    expect((await caller.donations.byId({ id: fresh.id })).status).toBe("pending");
    expect((await caller.donations.byId({ id: done.id })).status).toBe("completed");
    await runScheduled("*/15 * * * *", testEnv, new Date(now)); // a repeated run changes nothing
    // donation_totals moved the gift from pending to abandoned (once), and the list filter agrees.
    expect(await storedTotals(org)).toEqual(bruteTotals(await donationsOf(org)));
    expect((await caller.donations.list({ status: ["abandoned"] })).total).toBe(1);
    expect((await caller.donations.list({ status: ["pending"] })).total).toBe(1);
    const audit = await testEnv.DB.prepare(
      "SELECT entity_id, reason FROM audit_event WHERE organization_id = ? AND action = 'donation.abandon'",
    )
      .bind(org)
      .all();
    expect(audit.results).toEqual([{ entity_id: stale.id, reason: "Pending for more than 72 hours" }]);
    const timeline = (await caller.donations.byId({ id: stale.id })).timeline;
    expect(timeline.at(-1)).toMatchObject({ kind: "status", status: "abandoned", actor: "System" });
    expect(timeline[0]).toMatchObject({ kind: "recorded", status: "pending" });
  });
});
