/**
 * Issue 53, adversarial finding 1 (high): a permanently deleted gift left its tax receipt issued,
 * detached from any gift (donation_id NULL by the foreign key), and the year-end statement still
 * listed it. The purge's batch now voids the receipt before the row goes (the ledger sees the gift
 * as gone), and drizzle's migration voids any receipt already left that way.
 */
import { env } from "cloudflare:test";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { platformAdmin } from "../donations/brute";
import { makeOrg, member } from "../fixtures";
import { appFetch, testEnv } from "../helpers";

async function pdfText(res: Response) {
  const doc = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
  return (await extractText(doc, { mergePages: true })).text.replace(/\s+/g, " ");
}

describe("a purged gift's receipt", () => {
  it("is voided in the purge's batch and leaves the donor's year-end statement", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const created = await owner.caller.donors.create({
      data: { firstName: "Pia", lastName: "Purge", email: `pia-${org}@example.test` },
    });
    if (!created.created) throw new Error("expected a new donor");
    const donorId = created.id;
    const year = new Date().getUTCFullYear();
    const gift = (amountMinor: number) =>
      owner.caller.donations.create({
        donorId,
        campaignId: null,
        amountMinor,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now() - 60_000,
      });
    const kept = await gift(2_500);
    const purged = await gift(9_900);
    const receipt = (await owner.caller.receipts.forDonation({ donationId: purged.id })).receipts[0];
    expect(receipt).toMatchObject({ status: "issued", number: "000002" });

    const admin = await platformAdmin(org);
    await admin.caller.donations.delete({ id: purged.id, permanent: true });

    const row = await testEnv.DB.prepare(
      "SELECT status, donation_id, voided_at, void_cause FROM receipt WHERE id = ?",
    )
      .bind(receipt?.id)
      .first<{ status: string; donation_id: string | null; voided_at: number | null; void_cause: string }>();
    expect(row).toMatchObject({ status: "void", donation_id: null, void_cause: "cancelled" });
    expect(row?.voided_at).toBeGreaterThan(0);
    // The other gift's receipt is untouched.
    expect((await owner.caller.receipts.forDonation({ donationId: kept.id })).receipts[0]?.status).toBe(
      "issued",
    );

    const res = await appFetch(`/api/donors/${donorId}/statement.pdf?year=${year}&basis=calendar`, {
      headers: { cookie: owner.jar.header() },
    });
    expect(res.status).toBe(200);
    const text = await pdfText(res);
    expect(text).toContain("000001");
    expect(text).not.toContain("000002");
    expect(text).not.toContain("99.00");
  });

  it("left by a purge before the fix is voided by the migration", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const created = await owner.caller.donors.create({
      data: { firstName: "Old", lastName: "Purge", email: `old-${org}@example.test` },
    });
    if (!created.created) throw new Error("expected a new donor");
    const d = await owner.caller.donations.create({
      donorId: created.id,
      campaignId: null,
      amountMinor: 4_200,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 60_000,
    });
    // The state the old purge left: the gift deleted under its issued receipt.
    await testEnv.DB.prepare("DELETE FROM donation WHERE id = ?").bind(d.id).run();
    const orphan = () =>
      testEnv.DB.prepare("SELECT status, void_cause FROM receipt WHERE organization_id = ?")
        .bind(org)
        .first<{ status: string; void_cause: string | null }>();
    expect(await orphan()).toEqual({ status: "issued", void_cause: null });

    const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes("receipt_void_cause"));
    // Its repairs (the column and index it adds exist already).
    const repairs = (migration?.queries ?? []).filter((q) => /^\s*UPDATE/i.test(q.replace(/^--.*$/gm, "")));
    expect(repairs.length).toBe(2);
    await testEnv.DB.batch(repairs.map((q) => testEnv.DB.prepare(q)));
    expect(await orphan()).toEqual({ status: "void", void_cause: "cancelled" });
  });
});
