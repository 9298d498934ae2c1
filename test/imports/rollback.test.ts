/**
 * Undoing an import (issue 23): everything it created goes, in batches, and every total equals a
 * brute-force recount at each step; what came to depend on it since blocks the undo, and the
 * refusal names it.
 */
import { describe, expect, it } from "vitest";
import { donationsOf } from "../donations/brute";
import { expectRecount } from "../donations/recount";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";
import { csv, runImport } from "./run";

const FIELDS = {
  Email: "email",
  Name: "name",
  Amount: "amount",
  Date: "donatedAt",
  Campaign: "campaign",
  Status: "status",
} as const;

function file(n: number, o: { campaign?: string; people?: number } = {}) {
  const rows: (string | number)[][] = [Object.keys(FIELDS)];
  for (let i = 0; i < n; i++) {
    const p = i % (o.people ?? 9);
    rows.push([
      `person${p}@example.test`,
      `Person ${p}`,
      `${20 + i}.00`,
      `2025-02-${String(1 + (i % 27)).padStart(2, "0")}`,
      o.campaign ?? "Imported Appeal",
      i % 10 === 3 ? "Refunded" : "Completed",
    ]);
  }
  return csv(rows);
}

async function count(sql: string, ...args: unknown[]) {
  const r = await testEnv.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>();
  return r?.n ?? -1;
}

describe("undoing an import", () => {
  it("removes its gifts, donors and campaigns in batches, totals right after every batch", async () => {
    const org = await makeOrg({ timeZone: "Asia/Tokyo" });
    const { caller } = await member(org, "owner");
    // Gifts that were there before the import stay, with their donor whom the import matched.
    const kept = await caller.donors.create({
      data: { firstName: "Kept", lastName: "Donor", email: "person0@example.test" },
    });
    if (!kept.created) throw new Error("expected a new donor");
    await caller.donations.create({
      donorId: kept.id,
      campaignId: null,
      amountMinor: 7_000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 86400_000,
    });
    const { import: done } = await runImport(caller, "donations", file(1_100), {
      fields: FIELDS,
      options: { timeZone: "Asia/Tokyo" },
    });
    expect(done.counts).toMatchObject({ giftsCreated: 1_100, donorsCreated: 8, campaignsCreated: 1 });
    const preview = await caller.imports.rollbackPreview({ id: done.id });
    expect(preview).toMatchObject({ gifts: 1_100, donors: 8, campaigns: 1, blockers: [] });

    const first = await caller.imports.rollback({ id: done.id });
    expect(first).toMatchObject({ done: false, import: { status: "rolling_back" } });
    // A rolling-back import takes no more rows.
    let steps = 0;
    for (;;) {
      const step = await caller.imports.rollback({ id: done.id });
      steps++;
      await expectRecount(org, "Asia/Tokyo", caller, `undo step ${steps}`);
      if (step.done) {
        expect(step.remaining).toEqual({ gifts: 0, donors: 0, campaigns: 0 });
        expect(step.import.status).toBe("rolled_back");
        break;
      }
    }
    // 1 100 gifts in batches of 500 (three steps), then the donors, then the campaigns and the end.
    expect(steps).toBe(5);
    const rows = await donationsOf(org);
    expect(rows.map((r) => r.amount_minor)).toEqual([7_000]);
    expect(await count("SELECT count(*) AS n FROM donor WHERE organization_id = ?", org)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM campaign WHERE organization_id = ?", org)).toBe(0);
    const donor = await caller.donors.byId({ id: kept.id });
    expect(donor).toMatchObject({ lifetimeMinor: 7_000, donationCount: 1 });
    const history = await testEnv.DB.prepare(
      "SELECT action FROM audit_event WHERE organization_id = ? AND entity_type = 'import' ORDER BY at, rowid",
    )
      .bind(org)
      .all<{ action: string }>();
    expect(history.results.map((h) => h.action)).toEqual([
      "import.start",
      "import.batch",
      "import.batch",
      "import.batch",
      "import.complete",
      "import.rollback_start",
      "import.rollback_batch",
      "import.rollback_batch",
      "import.rollback_batch",
      "import.rollback_batch",
      "import.rollback",
    ]);
  });

  it("is refused while something depends on what it created, naming what", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const { import: done } = await runImport(caller, "donations", file(20, { people: 4 }), {
      fields: FIELDS,
    });
    const gift = await testEnv.DB.prepare(
      "SELECT id, number FROM donation WHERE organization_id = ? AND status = 'completed' ORDER BY number LIMIT 1",
    )
      .bind(org)
      .first<{ id: string; number: number }>();
    const donor = await testEnv.DB.prepare(
      "SELECT id FROM donor WHERE organization_id = ? AND import_id = ? LIMIT 1",
    )
      .bind(org, done.id)
      .first<{ id: string }>();
    if (!gift || !donor) throw new Error("expected imported rows");
    await caller.donations.update({ id: gift.id, data: { internalNote: "Thanked by phone" } });
    await caller.donors.notes.create({ donorId: donor.id, body: "Prefers mail" });
    const campaign = await testEnv.DB.prepare(
      "SELECT id FROM campaign WHERE organization_id = ? AND import_id = ?",
    )
      .bind(org, done.id)
      .first<{ id: string }>();
    await caller.campaigns.setStatus({ id: campaign?.id as string, action: "publish" });

    const preview = await caller.imports.rollbackPreview({ id: done.id });
    expect(preview.blockers).toEqual([
      `1 donation it created was changed since (first: donation #${gift.number})`,
      "1 donor it created has notes",
      "1 campaign it created was edited, published or given items",
    ]);
    const refused = await caller.imports.rollback({ id: done.id }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: "CONFLICT",
      message: `This import cannot be undone: ${preview.blockers.join("; ")}`,
    });
    expect(await caller.imports.byId({ id: done.id })).toMatchObject({ status: "completed" });
    expect(await donationsOf(org)).toHaveLength(20);
  });
});
