/**
 * The receipt ledger (issue 25, decision 031) on real D1: a receipt for each completed live gift of
 * a known donor, numbered from one sequence per organization with no gap and no duplicate under
 * simultaneous gifts; a refund voids it and issues a corrected one naming it; test-mode, imported,
 * anonymous and anonymized gifts get none, and the gift's page is told why (core/receipts.ts
 * whyNoReceipt, held here to the ledger's own SQL verdict).
 */
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";

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

const gift = (donorId: string | null, o: Record<string, unknown> = {}) => ({
  donorId,
  campaignId: null,
  amountMinor: 10_000,
  currency: "USD" as const,
  paymentMethod: "cash" as const,
  donatedAt: Date.now() - 60_000,
  ...o,
});

async function numbers(org: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT number, status, kind, deductible_minor, donation_id FROM receipt WHERE organization_id = ? ORDER BY number",
  )
    .bind(org)
    .all<{ number: number; status: string; kind: string; deductible_minor: number; donation_id: string }>();
  return results;
}

describe("the receipt ledger", () => {
  it("gives each completed live gift one receipt, numbered on from one sequence, with the organization's prefix", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings({
      signatoryName: "Ada",
      signatoryTitle: null,
      taxStatement: "No goods or services were provided.",
      numberPrefix: "R-",
      language: "en",
      autoSend: false,
    });
    const who = await donor(caller);
    const a = await caller.donations.create(gift(who, { tributeType: "in_memory", tributeName: "Grace" }));
    const pending = await caller.donations.create(gift(who, { status: "pending" }));
    expect((await caller.receipts.forDonation({ donationId: pending.id })).none).toBe(
      "Only completed donations get a receipt.",
    );
    await caller.donations.updateStatus({ id: pending.id, status: "completed" });
    const first = await caller.receipts.forDonation({ donationId: a.id });
    expect(first).toMatchObject({
      none: null,
      receipts: [
        expect.objectContaining({
          number: "R-000001",
          kind: "original",
          status: "issued",
          deductibleMinor: 10_000,
        }),
      ],
    });
    expect((await caller.receipts.forDonation({ donationId: pending.id })).receipts[0]?.number).toBe(
      "R-000002",
    );
    const snap = await testEnv.DB.prepare("SELECT snapshot FROM receipt WHERE donation_id = ?")
      .bind(a.id)
      .first<{
        snapshot: string;
      }>();
    expect(JSON.parse(snap?.snapshot as string)).toMatchObject({
      donor: { name: "Ada Giver" },
      gift: { amountMinor: 10_000, tributeType: "in_memory", tributeName: "Grace" },
      settings: { numberPrefix: "R-", taxStatement: "No goods or services were provided." },
    });
    // An edit that changes nothing a receipt says keeps the receipt.
    await caller.donations.update({ id: a.id, data: { internalNote: "thanked by phone" } });
    expect((await numbers(org)).map((r) => [r.number, r.status])).toEqual([
      [1, "issued"],
      [2, "issued"],
    ]);
  });

  it("voids the receipt on a refund and issues a corrected one that names it; a full refund leaves none", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const d = await caller.donations.create(gift(await donor(caller)));
    await caller.donations.updateStatus({
      id: d.id,
      status: "partially_refunded",
      reason: "duplicate line",
      refundAmountMinor: 2_500,
    });
    const after = await caller.receipts.forDonation({ donationId: d.id });
    expect(after.receipts).toEqual([
      expect.objectContaining({ number: "000001", status: "void", voidReason: "duplicate line" }),
      expect.objectContaining({
        number: "000002",
        kind: "correction",
        status: "issued",
        deductibleMinor: 7_500,
        replaces: "000001",
      }),
    ]);
    await caller.donations.updateStatus({ id: d.id, status: "refunded", reason: "donor asked" });
    const refunded = await caller.receipts.forDonation({ donationId: d.id });
    expect(refunded.receipts.map((r) => r.status)).toEqual(["void", "void"]);
    expect(refunded.none).toBe("Only completed donations get a receipt.");
  });

  it("voids on trash and issues a correction on restore", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const d = await caller.donations.create(gift(await donor(caller)));
    await caller.donations.delete({ id: d.id });
    expect((await numbers(org)).map((r) => r.status)).toEqual(["void"]);
    await caller.donations.restore({ id: d.id });
    expect((await numbers(org)).map((r) => [r.number, r.status, r.kind])).toEqual([
      [1, "void", "original"],
      [2, "issued", "correction"],
    ]);
  });

  it("numbers simultaneous gifts with no gap and no duplicate, each organization on its own", async () => {
    const org = await makeOrg();
    const other = await makeOrg();
    const { caller } = await member(org, "owner");
    const them = await member(other, "owner");
    const who = await donor(caller);
    const elsewhere = await donor(them.caller);
    const made = await Promise.all([
      ...Array.from({ length: 12 }, () => caller.donations.create(gift(who))),
      ...Array.from({ length: 5 }, () => them.caller.donations.create(gift(elsewhere))),
    ]);
    expect(made).toHaveLength(17);
    expect((await numbers(org)).map((r) => r.number)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect((await numbers(other)).map((r) => r.number)).toEqual([1, 2, 3, 4, 5]);
    // Two changes of one gift at once: one lands, one receipt is voided, one issued.
    const d = made[0] as { id: string };
    await Promise.allSettled([
      caller.donations.updateStatus({
        id: d.id,
        status: "partially_refunded",
        reason: "a",
        refundAmountMinor: 1_000,
      }),
      caller.donations.updateStatus({
        id: d.id,
        status: "partially_refunded",
        reason: "b",
        refundAmountMinor: 2_000,
      }),
    ]);
    const mine = (await numbers(org)).filter((r) => r.donation_id === d.id);
    expect(mine.map((r) => r.status)).toEqual(["void", "issued"]);
    expect((await numbers(org)).map((r) => r.number)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    const counter = await testEnv.DB.prepare(
      "SELECT value FROM org_counter WHERE organization_id = ? AND name = 'receipt'",
    )
      .bind(org)
      .first<{ value: number }>();
    expect(counter?.value).toBe(13);
  });

  it("gives none to test-mode, donorless and anonymized donors' gifts, and says why as the ledger decides", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const cases = [
      { make: gift(await donor(caller), { mode: "test" }), why: "Test-mode donations get no receipt." },
      { make: gift(null), why: "A donation without a donor record gets no receipt." },
      { make: gift(await donor(caller, "Bea")), why: null },
    ];
    for (const c of cases) {
      const d = await caller.donations.create(c.make as never);
      const r = await caller.receipts.forDonation({ donationId: d.id });
      expect(r.none, JSON.stringify(c.make)).toBe(c.why);
      expect(r.receipts.length, JSON.stringify(c.make)).toBe(c.why === null ? 1 : 0);
    }
    // A gift recorded before receipts began here gets none, also when edited later.
    await testEnv.DB.prepare(
      "INSERT INTO org_counter (organization_id, name, value) VALUES (?, 'receipts_from', ?) ON CONFLICT DO UPDATE SET value = excluded.value",
    )
      .bind(org, Date.now() + 60_000)
      .run();
    const old = await caller.donations.create(gift(await donor(caller, "Old")));
    await caller.donations.update({ id: old.id, data: { internalNote: "edited after receipts began" } });
    const oldReceipts = await caller.receipts.forDonation({ donationId: old.id });
    expect(oldReceipts).toMatchObject({
      receipts: [],
      none: "Recorded before receipts began here: no receipt.",
    });
    await testEnv.DB.prepare("DELETE FROM org_counter WHERE organization_id = ? AND name = 'receipts_from'")
      .bind(org)
      .run();
    // Anonymizing keeps the receipt issued (a tax record) but a later change of the gift voids it.
    const anon = await donor(caller, "Cy");
    const d = await caller.donations.create(gift(anon));
    const { email } = await caller.donors.byId({ id: anon });
    await caller.donors.anonymize({ id: anon, confirm: email as string });
    const scrubbed = await testEnv.DB.prepare("SELECT snapshot FROM receipt WHERE donation_id = ?")
      .bind(d.id)
      .first<{ snapshot: string }>();
    expect(JSON.parse(scrubbed?.snapshot as string).donor).toEqual({ name: "Anonymized" });
    expect(scrubbed?.snapshot).not.toContain("Cy");
    await caller.donations.update({ id: d.id, data: { internalNote: "after the erasure" } });
    const r = await caller.receipts.forDonation({ donationId: d.id });
    expect(r.receipts.map((x) => x.status)).toEqual(["void"]);
    expect(r.none).toBe("The donor was anonymized: no receipt.");
  });
});
