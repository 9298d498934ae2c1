/**
 * Bulk status changes on "all N matching" (decision 024): donations.matchingIds snapshots exactly
 * the rows the list's filters match; donations.bulkUpdateStatus applies each id as a single change
 * would, in one batch per call, skipping (with the reason) what may not move and what another
 * organization owns, and keeps every rollup equal to a brute-force recount.
 */
import { BULK_MAX_IDS, bulkSummary, MATCHING_MAX } from "@core/bulk";
import { describe, expect, it } from "vitest";
import { CookieJar, signUp } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { donationsOf } from "./brute";
import { expectRecount } from "./recount";

type Caller = Awaited<ReturnType<typeof member>>["caller"];

/** `n` manual gifts spread over two campaigns, three donors, two statuses and two currencies. */
async function seed(caller: Caller, org: string, n: number) {
  const usd = await caller.campaigns.create({ title: "Roof", currency: "USD", goalType: "none" });
  const school = await caller.campaigns.create({ title: "School", currency: "USD", goalType: "none" });
  const donors: string[] = [];
  for (const name of ["Ada", "Bo", "Cy"]) {
    const d = await caller.donors.create({
      data: { firstName: name, lastName: "Giver", email: `${name.toLowerCase()}-${org}@example.test` },
    });
    if (!d.created) throw new Error("expected a new donor");
    donors.push(d.id);
  }
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const eur = i % 7 === 0;
    const d = await caller.donations.create({
      donorId: i % 5 === 4 ? null : (donors[i % 3] as string),
      campaignId: eur ? null : i % 2 ? usd.id : school.id,
      amountMinor: 1_000 + i * 10,
      currency: eur ? "EUR" : "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - (i + 1) * 3_600_000,
      status: i % 3 === 0 ? "pending" : "completed",
    });
    ids.push(d.id);
  }
  return { usd: usd.id, school: school.id, donors, ids };
}

/** Runs a bulk change over `ids` in batches, as the portal does. */
async function inBatches(
  caller: Caller,
  ids: string[],
  input: { status: "refunded" | "completed" | "cancelled" | "pending"; reason?: string },
  size = BULK_MAX_IDS,
) {
  const out = [];
  for (let i = 0; i < ids.length; i += size)
    out.push(...(await caller.donations.bulkUpdateStatus({ ids: ids.slice(i, i + size), ...input })));
  return out;
}

describe("select all matching", () => {
  it("snapshots exactly the rows the list's filters match, with the targets all of them may take", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const s = await seed(caller, org, 40);
    for (const f of [
      {},
      { status: ["completed" as const] },
      { status: ["pending" as const], campaignId: s.usd },
      { currency: "EUR" },
      { donorId: s.donors[1] },
      { q: "bo" },
      { minAmountMinor: 1_100, maxAmountMinor: 1_250 },
    ]) {
      const listed = await caller.donations.list({ ...f, pageSize: 100 });
      const got = await caller.donations.matchingIds(f);
      expect(new Set(got.ids), JSON.stringify(f)).toEqual(new Set(listed.rows.map((r) => r.id)));
      expect(got.ids.length, JSON.stringify(f)).toBe(listed.total);
      const allowed = listed.rows
        .map((r) => r.allowedTransitions)
        .reduce((a, b) => a.filter((t) => b.includes(t)));
      expect(got.allowedTransitions.sort(), JSON.stringify(f)).toEqual([...allowed].sort());
    }
    // The list's paging and sort are not filters: the same input as the list gives the same ids.
    const withPage = await caller.donations.matchingIds({
      status: ["completed"],
      page: 2,
      sort: "amount",
    } as {
      status: ["completed"];
    });
    expect(withPage.ids.length).toBe((await caller.donations.list({ status: ["completed"] })).total);
    // The trash takes no status change.
    await caller.donations.delete({ id: s.ids[0] as string });
    expect(await caller.donations.matchingIds({ trashed: true })).toEqual({
      ids: [s.ids[0]],
      allowedTransitions: [],
    });
  }, 60_000);

  it(`refuses more than ${MATCHING_MAX} matching rows with a 422 that names the cap`, async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ title: "Big", currency: "USD", goalType: "none" });
    // Rows written straight to the table: only the count matters to this refusal.
    const now = Date.now();
    const stmts = [];
    for (let i = 0; i <= MATCHING_MAX; i += 500) {
      stmts.push(
        testEnv.DB.prepare(
          `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
           INSERT INTO donation (id, organization_id, number, campaign_id, amount_minor, currency, status, frequency,
             payment_method, source, mode, anonymous, donated_at, created_at, updated_at)
           SELECT 'big-' || ?3 || '-' || i, ?3, i + 1, ?4, 1000, 'USD', 'completed', 'one_time', 'cash', 'manual', 'live', 0, ?5, ?5, ?5 FROM n`,
        ).bind(i, Math.min(i + 499, MATCHING_MAX), org, c.id, now - 1000),
      );
    }
    await testEnv.DB.batch(stmts);
    const refused = await caller.donations.matchingIds({}).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: "At most 10,000 donations can be selected at once; narrow the filters",
    });
    // One fewer matches: taken whole.
    await testEnv.DB.prepare(
      "DELETE FROM donation WHERE id = (SELECT id FROM donation WHERE organization_id = ? LIMIT 1)",
    )
      .bind(org)
      .run();
    expect((await caller.donations.matchingIds({})).ids).toHaveLength(MATCHING_MAX);
  }, 60_000);
});

describe("bulk status change", () => {
  it("changes the snapshot in batches, skips what may not move, and keeps every rollup equal to a recount", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const s = await seed(caller, org, 130);
    const snapshot = await caller.donations.matchingIds({ status: ["completed"], currency: "USD" });
    // A gift that starts matching after the snapshot is never touched.
    const late = s.ids.find((_, i) => i % 3 === 0 && i % 7 !== 0) as string;
    await caller.donations.updateStatus({ id: late, status: "completed" });
    // A gift of the snapshot that another write refunds meanwhile is skipped with the reason.
    const raced = snapshot.ids[5] as string;
    await caller.donations.updateStatus({ id: raced, status: "refunded", reason: "by hand" });
    const before = new Map((await donationsOf(org)).map((d) => [d.id, d]));
    const outcomes = await inBatches(caller, snapshot.ids, { status: "refunded", reason: "Bulk refund" }, 50);
    expect(outcomes.map((o) => o.id)).toEqual(snapshot.ids);
    expect(outcomes.filter((o) => !o.changed)).toEqual([
      { id: raced, changed: false, reason: "Already refunded" },
    ]);
    expect(bulkSummary(outcomes, "refunded").text).toBe(
      `${snapshot.ids.length - 1} refunded, 1 skipped: already refunded`,
    );
    const after = await donationsOf(org);
    for (const d of after) {
      const was = before.get(d.id);
      if (snapshot.ids.includes(d.id)) expect(d.status, d.id).toBe("refunded");
      else expect(d, d.id).toEqual(was);
    }
    expect(after.find((d) => d.id === late)?.status).toBe("completed");
    await expectRecount(org, "UTC", caller, "after the bulk refund");
    // Each change is audited with the reason, as a single change is.
    const audits = await testEnv.DB.prepare(
      "SELECT entity_id, reason FROM audit_event WHERE organization_id = ? AND action = 'donation.status' AND reason = 'Bulk refund'",
    )
      .bind(org)
      .all<{ entity_id: string }>();
    expect(new Set(audits.results.map((a) => a.entity_id))).toEqual(
      new Set(snapshot.ids.filter((id) => id !== raced)),
    );
    // Mixed statuses: each id is decided by the status machine, the refusal is its reason.
    const mixed = await caller.donations.bulkUpdateStatus({
      ids: [s.ids[0] as string, s.ids[1] as string, raced],
      status: "completed",
    });
    expect(mixed.map((o) => (o.changed ? "changed" : o.reason))).toEqual([
      "changed",
      "A refunded donation cannot become completed",
      "A refunded donation cannot become completed",
    ]);
    await expectRecount(org, "UTC", caller, "after the mixed change");
  }, 120_000);

  it("skips another organization's ids and leaves them untouched", async () => {
    const mine = await makeOrg();
    const theirs = await makeOrg();
    const me = await member(mine, "owner");
    const them = await member(theirs, "owner");
    const a = await seed(me.caller, mine, 3);
    const b = await seed(them.caller, theirs, 3);
    const beforeTheirs = await donationsOf(theirs);
    const out = await me.caller.donations.bulkUpdateStatus({
      ids: [...a.ids, ...b.ids],
      status: "cancelled",
      reason: "test",
    });
    expect(out.filter((o) => b.ids.includes(o.id))).toEqual(
      b.ids.map((id) => ({ id, changed: false, reason: "Not found" })),
    );
    expect(out.filter((o) => a.ids.includes(o.id)).every((o) => o.changed)).toBe(true);
    expect(await donationsOf(theirs)).toEqual(beforeTheirs);
    // matchingIds only ever sees the caller's organization.
    expect((await me.caller.donations.matchingIds({})).ids.some((id) => b.ids.includes(id))).toBe(false);
    await expectRecount(theirs, "UTC", them.caller, "the other organization");
  }, 60_000);

  it("refuses bad input with 4xx and changes nothing", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const s = await seed(caller, org, 2);
    const before = await donationsOf(org);
    const many = Array.from({ length: BULK_MAX_IDS + 1 }, (_, i) => `id-${i}`);
    for (const [label, p] of [
      ["too many ids", caller.donations.bulkUpdateStatus({ ids: many, status: "completed" })],
      ["no ids", caller.donations.bulkUpdateStatus({ ids: [], status: "completed" })],
      ["no reason", caller.donations.bulkUpdateStatus({ ids: s.ids, status: "refunded" })],
      [
        "partial refund",
        caller.donations.bulkUpdateStatus({ ids: s.ids, status: "partially_refunded", reason: "x" }),
      ],
      ["unknown status", caller.donations.bulkUpdateStatus({ ids: s.ids, status: "gone" as "completed" })],
    ] as const)
      expect(await codeOf(p), label).toBe("BAD_REQUEST");
    expect(await donationsOf(org)).toEqual(before);
    // Duplicates count once.
    const dup = await caller.donations.bulkUpdateStatus({
      ids: [s.ids[1] as string, s.ids[1] as string],
      status: "refunded",
      reason: "twice",
    });
    expect(dup).toEqual([{ id: s.ids[1], changed: true }]);
  }, 60_000);

  it("is for those who may change a status: owner, admin and organizer, not viewer or outsider", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const s = await seed(owner.caller, org, 4);
    // Seeded: 0 and 3 pending, 1 and 2 completed.
    const organizer = await member(org, "organizer");
    const admin = await member(org, "admin");
    for (const [role, caller, ids, status] of [
      ["owner", owner.caller, [s.ids[1]], "refunded"],
      ["organizer", organizer.caller, [s.ids[2]], "refunded"],
      ["admin", admin.caller, [s.ids[0], s.ids[3]], "completed"],
    ] as const) {
      expect(await codeOf(caller.donations.matchingIds({})), role).toBe("OK");
      const out = await caller.donations.bulkUpdateStatus({
        ids: [...ids] as string[],
        status,
        reason: role,
      });
      expect(
        out.map((o) => o.changed),
        role,
      ).toEqual(ids.map(() => true));
    }
    const before = await donationsOf(org);
    const viewer = await member(org, "viewer");
    const outsider = await callerFor((await signUp(new CookieJar())).jar);
    for (const [who, c] of [
      ["viewer", viewer.caller],
      ["outsider", outsider],
    ] as const) {
      expect(await codeOf(c.donations.matchingIds({})), who).toBe("FORBIDDEN");
      expect(
        await codeOf(c.donations.bulkUpdateStatus({ ids: s.ids, status: "cancelled", reason: "x" })),
        who,
      ).toBe("FORBIDDEN");
    }
    expect(await donationsOf(org)).toEqual(before);
  }, 60_000);
});

describe("move to trash in bulk", () => {
  it("says first how many receipts it voids, then trashes each gift as a single trash would, voiding their receipts", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const s = await seed(caller, org, 12);
    const completed = (await caller.donations.matchingIds({ status: ["completed"] })).ids;
    const receipted = (
      await testEnv.DB.prepare(
        "SELECT donation_id FROM receipt WHERE organization_id = ? AND status = 'issued' ORDER BY number",
      )
        .bind(org)
        .all<{ donation_id: string }>()
    ).results.map((r) => r.donation_id);
    expect(receipted.length).toBeGreaterThan(1);
    const chosen = [...receipted.slice(0, 2), s.ids[0] as string];
    expect(await caller.donations.trashPreview({ ids: chosen })).toEqual({
      gifts: 3,
      receipted: 2,
      numbers: ["000001", "000002"],
    });
    const all = await caller.donations.trashPreview({ matching: { status: ["completed"] } });
    expect(all).toMatchObject({ gifts: completed.length, receipted: receipted.length });

    const out = await caller.donations.bulkDelete({ ids: [...chosen, receipted[0] as string] });
    expect(out).toEqual([
      { id: chosen[0], changed: true },
      { id: chosen[1], changed: true },
      { id: chosen[2], changed: true },
    ]);
    const again = await caller.donations.bulkDelete({ ids: [chosen[0] as string, "nope"] });
    expect(again).toEqual([
      { id: chosen[0], changed: false, reason: "Already in the trash" },
      { id: "nope", changed: false, reason: "Not found" },
    ]);
    const voided = await testEnv.DB.prepare(
      "SELECT donation_id, void_cause, void_reason FROM receipt WHERE organization_id = ? AND status = 'void'",
    )
      .bind(org)
      .all<{ donation_id: string; void_cause: string; void_reason: string }>();
    expect(voided.results.map((r) => [r.donation_id, r.void_cause, r.void_reason]).sort()).toEqual(
      receipted
        .slice(0, 2)
        .map((id) => [id, "cancelled", "donation.trash"])
        .sort(),
    );
    await expectRecount(org, "UTC", caller, "after the bulk trash");
    const viewer = await member(org, "viewer");
    expect(await codeOf(viewer.caller.donations.bulkDelete({ ids: [s.ids[1] as string] }))).toBe("FORBIDDEN");
    const organizer = await member(org, "organizer");
    expect(await codeOf(organizer.caller.donations.trashPreview({ ids: [s.ids[1] as string] }))).toBe(
      "FORBIDDEN",
    );
  }, 60_000);
});
