/**
 * Issue 26, "Integrity under concurrency (high)": the adversarial run fired the same write from
 * many tabs and clients at once. Every change that moves rollups is conditional on the row it read
 * (decision 020, extending 006), so a lost race changes nothing: these tests fire the races and
 * then compare every rollup with a brute-force recount (test/donations/recount.ts).
 */
import { describe, expect, it } from "vitest";
import { runScheduled } from "../../worker/scheduled";
import { deliver, donationsOf, platformAdmin, webhookEvent } from "../donations/brute";
import { expectRecount } from "../donations/recount";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { runImport } from "../imports/run";

const TZ = "Europe/Berlin";

/** The id of a donor donors.create has just created (not a duplicate it pointed at). */
function createdId(d: { created: boolean; id?: string }) {
  if (!d.created || !d.id) throw new Error("expected a new donor");
  return d.id;
}

async function setup() {
  const org = await makeOrg({ timeZone: TZ });
  const owner = await member(org, "owner");
  const campaign = await owner.caller.campaigns.create({ title: "Coats", currency: "USD", goalType: "none" });
  const donor = {
    id: createdId(
      await owner.caller.donors.create({
        data: { firstName: "Ana", lastName: "Race", email: `ana-${org}@example.test` },
      }),
    ),
  };
  const gift = (amountMinor = 5_000, extra: Record<string, unknown> = {}) =>
    owner.caller.donations.create({
      donorId: donor.id,
      campaignId: campaign.id,
      amountMinor,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 3 * 86_400_000,
      ...extra,
    });
  return { org, owner, campaign, donor, gift };
}

async function auditCount(org: string, action: string, entityId?: string) {
  const row = await testEnv.DB.prepare(
    "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = ? AND (? IS NULL OR entity_id = ?)",
  )
    .bind(org, action, entityId ?? null, entityId ?? null)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

const tally = (codes: string[]) =>
  codes.reduce<Record<string, number>>((t, c) => {
    t[c] = (t[c] ?? 0) + 1;
    return t;
  }, {});

describe("integrity under concurrency (issue 26)", () => {
  it("an owner trashing one gift from ten tabs at once: every trash answers OK, the rollups move once", async () => {
    const { org, owner, gift } = await setup();
    const d = await gift();
    await gift(2_000);
    const codes = await Promise.all(
      Array.from({ length: 10 }, () => codeOf(owner.caller.donations.delete({ id: d.id }))),
    );
    // Trashing a gift that is already in the trash is what the user asked for: success, no delta.
    expect(codes).toEqual(Array(10).fill("OK"));
    expect(await auditCount(org, "donation.trash", d.id)).toBe(1);
    const rows = await expectRecount(org, TZ, owner.caller, "after 10 concurrent trashes");
    expect(rows.find((r) => r.id === d.id)?.trashed_at).not.toBeNull();
  });

  it("an owner restoring one gift from ten tabs at once: every restore answers OK, the rollups move once", async () => {
    const { org, owner, gift } = await setup();
    const d = await gift();
    await owner.caller.donations.delete({ id: d.id });
    const codes = await Promise.all(
      Array.from({ length: 10 }, () => codeOf(owner.caller.donations.restore({ id: d.id }))),
    );
    expect(codes).toEqual(Array(10).fill("OK"));
    expect(await auditCount(org, "donation.restore", d.id)).toBe(1);
    const rows = await expectRecount(org, TZ, owner.caller, "after 10 concurrent restores");
    expect(rows.find((r) => r.id === d.id)?.trashed_at).toBeNull();
  });

  it("trashes and restores of one gift interleaved from many tabs leave the rollups equal to the recount", async () => {
    const { org, owner, gift } = await setup();
    const d = await gift();
    const codes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        codeOf(
          i % 2 ? owner.caller.donations.restore({ id: d.id }) : owner.caller.donations.delete({ id: d.id }),
        ),
      ),
    );
    expect(
      codes.every((c) => c === "OK" || c === "CONFLICT"),
      codes.join(),
    ).toBe(true);
    await expectRecount(org, TZ, owner.caller, "after interleaved trash/restore");
  });

  it("an owner saving ten different amounts for one gift at once: the rollups match the amount that won", async () => {
    const { org, owner, gift } = await setup();
    const d = await gift(5_000);
    const amounts = Array.from({ length: 10 }, (_, i) => 1_000 * (i + 1) + 11);
    const codes = await Promise.all(
      amounts.map((amountMinor) =>
        codeOf(owner.caller.donations.update({ id: d.id, data: { amountMinor } })),
      ),
    );
    const c = tally(codes);
    expect(Object.keys(c).sort(), codes.join()).toEqual(c.CONFLICT ? ["CONFLICT", "OK"] : ["OK"]);
    expect(await auditCount(org, "donation.update", d.id)).toBe(c.OK);
    const rows = await expectRecount(org, TZ, owner.caller, "after 10 concurrent amount updates");
    const won = rows.find((r) => r.id === d.id)?.amount_minor;
    expect(amounts).toContain(won);
    const stats = await testEnv.DB.prepare("SELECT lifetime_minor FROM donor WHERE id = ?")
      .bind(rows[0]?.donor_id)
      .first<{ lifetime_minor: number }>();
    expect(stats?.lifetime_minor).toBe(won);
  });

  it("an owner moving one gift to different campaigns at once: the campaign rollups follow the winner", async () => {
    const { org, owner, gift } = await setup();
    const others = await Promise.all(
      ["Boots", "Hats", "Scarves"].map((title) =>
        owner.caller.campaigns.create({ title, currency: "USD", goalType: "none" }),
      ),
    );
    const d = await gift(7_500);
    const codes = await Promise.all(
      [...others, ...others].map((c) =>
        codeOf(owner.caller.donations.update({ id: d.id, data: { campaignId: c.id } })),
      ),
    );
    expect(codes).toContain("OK");
    expect(
      codes.every((x) => x === "OK" || x === "CONFLICT"),
      codes.join(),
    ).toBe(true);
    await expectRecount(org, TZ, owner.caller, "after concurrent campaign moves");
  });

  it("a status change (partial refund) racing an amount update of the same gift stays consistent", async () => {
    const { org, owner, gift } = await setup();
    for (let round = 0; round < 4; round++) {
      const d = await gift(10_000);
      const [refund, update] = await Promise.all([
        codeOf(
          owner.caller.donations.updateStatus({
            id: d.id,
            status: "partially_refunded",
            refundAmountMinor: 3_000,
            reason: "race",
          }),
        ),
        codeOf(owner.caller.donations.update({ id: d.id, data: { amountMinor: 4_000 + round } })),
      ]);
      expect([refund, update], `round ${round}`).toContain("OK");
      expect(
        [refund, update].every((x) => x === "OK" || x === "CONFLICT" || x === "BAD_REQUEST"),
        `round ${round}: ${refund} ${update}`,
      ).toBe(true);
      const row = (await donationsOf(org)).find((r) => r.id === d.id);
      expect(row && row.refunded_minor <= row.amount_minor).toBe(true);
    }
    await expectRecount(org, TZ, owner.caller, "after status/amount races");
  });

  it("a platform admin purging one gift five times at once: one purge, deltas applied once", async () => {
    const { org, owner, gift } = await setup();
    const admin = await platformAdmin(org);
    const d = await gift(6_000);
    await gift(1_500);
    const codes = await Promise.all(
      Array.from({ length: 5 }, () => codeOf(admin.caller.donations.delete({ id: d.id, permanent: true }))),
    );
    // The first purge wins; the others find the gift gone, as they would a moment later.
    expect(tally(codes)).toEqual({ OK: 1, NOT_FOUND: 4 });
    expect(await auditCount(org, "donation.purge", d.id)).toBe(1);
    const rows = await expectRecount(org, TZ, owner.caller, "after 5 concurrent purges");
    expect(rows.map((r) => r.id)).not.toContain(d.id);
  });

  it("purges racing trashes and restores of the same gifts leave the rollups equal to the recount", async () => {
    const { org, owner, gift } = await setup();
    const admin = await platformAdmin(org);
    const gifts = [await gift(1_000), await gift(2_000), await gift(3_000)];
    await owner.caller.donations.delete({ id: gifts[1]?.id as string });
    await Promise.all(
      gifts.flatMap((g) => [
        codeOf(admin.caller.donations.delete({ id: g.id, permanent: true })),
        codeOf(owner.caller.donations.delete({ id: g.id })),
        codeOf(owner.caller.donations.restore({ id: g.id })),
        codeOf(owner.caller.donations.update({ id: g.id, data: { amountMinor: 9_900 } })),
      ]),
    );
    await expectRecount(org, TZ, owner.caller, "after purges racing trash/restore/update");
  });

  it("two organizers merging donors A into B and B into A at the same time: one wins, the other is refused and writes nothing", async () => {
    const { org, owner, campaign } = await setup();
    const other = await member(org, "admin");
    for (let round = 0; round < 3; round++) {
      const mk = async (name: string, email: string | null) => {
        const d = await owner.caller.donors.create({
          data: { firstName: name, lastName: `Merge${round}`, ...(email ? { email } : {}) },
          force: true,
        });
        return createdId(d);
      };
      const a = await mk("Ada", `ada-${round}-${org}@example.test`);
      const b = await mk("Bea", round === 1 ? `bea-${round}-${org}@example.test` : null);
      const tag = await owner.caller.donors.tags.create({ name: `T${round}` });
      const tagB = await owner.caller.donors.tags.create({ name: `U${round}` });
      await owner.caller.donors.tags.assign({ donorIds: [a], tagIds: [tag.id], mode: "add" });
      await owner.caller.donors.tags.assign({ donorIds: [b], tagIds: [tagB.id], mode: "add" });
      await owner.caller.donors.notes.create({ donorId: a, body: "note a" });
      await owner.caller.donors.notes.create({ donorId: b, body: "note b" });
      for (const [donorId, amountMinor] of [
        [a, 1_000],
        [a, 2_000],
        [b, 4_000],
      ] as const)
        await owner.caller.donations.create({
          donorId,
          campaignId: campaign.id,
          amountMinor,
          currency: "USD",
          paymentMethod: "cash",
          donatedAt: Date.now(),
        });
      const auditBefore = await auditCount(org, "donor.merge");
      const [ab, ba] = await Promise.all([
        codeOf(owner.caller.donors.merge({ sourceId: a, targetId: b, dryRun: false })),
        codeOf(other.caller.donors.merge({ sourceId: b, targetId: a, dryRun: false })),
      ]);
      expect([ab, ba].sort(), `round ${round}`).toEqual(["CONFLICT", "OK"]);
      const [source, target] = ab === "OK" ? [a, b] : [b, a];
      const donors = await testEnv.DB.prepare(
        "SELECT id, merged_into_id, email, donation_count, lifetime_minor FROM donor WHERE id IN (?, ?)",
      )
        .bind(a, b)
        .all<{ id: string; merged_into_id: string | null; email: string | null; donation_count: number }>();
      const byId = Object.fromEntries(donors.results.map((r) => [r.id, r]));
      expect(byId[source]?.merged_into_id, `round ${round}`).toBe(target);
      expect(byId[target]?.merged_into_id, `round ${round}`).toBeNull();
      expect(byId[source]?.email).toBeNull();
      expect(byId[target]?.donation_count).toBe(3);
      // Every donation, note and tag sits with the survivor; nothing points at the merged donor.
      const left = await testEnv.DB.prepare(
        `SELECT (SELECT count(*) FROM donation WHERE donor_id = ?1) AS donations,
                (SELECT count(*) FROM donor_note WHERE donor_id = ?1) AS notes,
                (SELECT count(*) FROM donor_tag_assignment WHERE donor_id = ?1) AS tags,
                (SELECT count(*) FROM donation WHERE donor_id = ?2) AS kept,
                (SELECT count(*) FROM donor_note WHERE donor_id = ?2) AS keptNotes,
                (SELECT count(*) FROM donor_tag_assignment WHERE donor_id = ?2) AS keptTags`,
      )
        .bind(source, target)
        .first();
      expect(left, `round ${round}`).toEqual({
        donations: 0,
        notes: 0,
        tags: 0,
        kept: 3,
        keptNotes: 2,
        keptTags: 2,
      });
      // One merge in the history: the refused one wrote no audit row.
      expect(await auditCount(org, "donor.merge")).toBe(auditBefore + 1);
      expect(await auditCount(org, "donor.merged_into", target)).toBe(0);
      expect(await auditCount(org, "donor.merged_into", source)).toBe(1);
    }
    await expectRecount(org, TZ, owner.caller, "after opposite merges");
  });

  it("the same merge sent twice at once is applied once", async () => {
    const { org, owner } = await setup();
    const a = {
      id: createdId(
        await owner.caller.donors.create({ data: { lastName: "Twice", email: `t-${org}@example.test` } }),
      ),
    };
    const b = {
      id: createdId(await owner.caller.donors.create({ data: { lastName: "Twice" }, force: true })),
    };
    const codes = await Promise.all(
      [0, 1, 2].map(() =>
        codeOf(owner.caller.donors.merge({ sourceId: a.id, targetId: b.id, dryRun: false })),
      ),
    );
    expect(codes).toContain("OK");
    expect(await auditCount(org, "donor.merged_into", a.id)).toBe(codes.filter((c) => c === "OK").length);
    expect(codes.filter((c) => c === "OK")).toHaveLength(1);
  });

  it("an owner anonymizing a donor while an organizer merges it away: one lands, the other changes nothing", async () => {
    const { org, owner, campaign } = await setup();
    const other = await member(org, "admin");
    for (let round = 0; round < 4; round++) {
      const email = `anon-${round}-${org}@example.test`;
      const a = createdId(await owner.caller.donors.create({ data: { lastName: "Anon", email } }));
      const b = createdId(await owner.caller.donors.create({ data: { lastName: "Keep" }, force: true }));
      await owner.caller.donations.create({
        donorId: a,
        campaignId: campaign.id,
        amountMinor: 2_000,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now(),
        message: "From Ana, 12 Privet Drive",
      });
      const [anonymize, merge] = await Promise.all([
        codeOf(owner.caller.donors.anonymize({ id: a, confirm: email })),
        codeOf(other.caller.donors.merge({ sourceId: a, targetId: b, dryRun: false })),
      ]);
      // Both landing would anonymize a record whose gifts (and their messages) moved elsewhere.
      expect(
        [anonymize, merge].filter((c) => c === "OK"),
        `round ${round}: ${anonymize} ${merge}`,
      ).toHaveLength(1);
      const kept = await testEnv.DB.prepare(
        `SELECT count(*) AS n FROM donation d JOIN donor o ON o.id = ?1
          WHERE d.donor_id IN (?1, o.merged_into_id) AND d.message IS NOT NULL AND o.anonymized_at IS NOT NULL`,
      )
        .bind(a)
        .first<{ n: number }>();
      expect(kept?.n, `round ${round}`).toBe(0);
    }
  });

  it("an owner deleting a donor while a pending gift of theirs completes: a donor with a completed gift is never deleted", async () => {
    const { org, owner, campaign } = await setup();
    for (let round = 0; round < 5; round++) {
      const id = createdId(
        await owner.caller.donors.create({ data: { lastName: `Del${round}` }, force: true }),
      );
      const gift = await owner.caller.donations.create({
        donorId: id,
        campaignId: campaign.id,
        amountMinor: 3_000,
        currency: "USD",
        paymentMethod: "cash",
        status: "pending",
        donatedAt: Date.now(),
      });
      const [del, complete] = await Promise.all([
        codeOf(owner.caller.donors.delete({ id })),
        codeOf(owner.caller.donations.updateStatus({ id: gift.id, status: "completed" })),
      ]);
      if (del === "OK" && complete === "OK") {
        // Both may land only in this order: the donor went first, the gift completed afterwards.
        const order = await testEnv.DB.prepare(
          "SELECT action FROM audit_event WHERE organization_id = ? AND ((action = 'donor.delete' AND entity_id = ?) OR (action = 'donation.status' AND entity_id = ?)) ORDER BY rowid",
        )
          .bind(org, id, gift.id)
          .all<{ action: string }>();
        expect(
          order.results.map((r) => r.action),
          `round ${round}`,
        ).toEqual(["donor.delete", "donation.status"]);
      } else expect([del, complete].sort(), `round ${round}`).toContain("OK");
    }
    await expectRecount(org, TZ, owner.caller, "after deletes racing completions");
  });

  it("an organizer deleting an empty campaign (and an item) while a gift to it is recorded: the gift never loses its campaign", async () => {
    const { org, owner } = await setup();
    for (let round = 0; round < 4; round++) {
      const c = await owner.caller.campaigns.create({
        title: `Gone ${round}`,
        currency: "USD",
        goalType: "none",
      });
      const item = await owner.caller.campaigns.items.create({
        campaignId: c.id,
        title: "Blanket",
        unitAmountMinor: 2_000,
      });
      const keep = await owner.caller.campaigns.create({
        title: `Kept ${round}`,
        currency: "USD",
        goalType: "none",
      });
      const keptItem = await owner.caller.campaigns.items.create({
        campaignId: keep.id,
        title: "Scarf",
        unitAmountMinor: 2_000,
      });
      const gift = (campaignId: string, campaignItemId: string | null) =>
        codeOf(
          owner.caller.donations.create({
            donorId: null,
            campaignId,
            campaignItemId,
            itemQuantity: campaignItemId ? 1 : 0,
            amountMinor: 2_000,
            currency: "USD",
            paymentMethod: "cash",
            donatedAt: Date.now(),
          }),
        );
      // Each delete checks "no gifts" and then deletes; the gift lands in between.
      const codes = await Promise.all([
        gift(keep.id, keptItem.id),
        codeOf(owner.caller.campaigns.items.delete({ id: keptItem.id })),
        codeOf(owner.caller.campaigns.delete({ id: c.id })),
        gift(c.id, round % 2 ? item.id : null),
      ]);
      expect(
        codes.every((x) => ["OK", "NOT_FOUND", "UNPROCESSABLE_CONTENT"].includes(x)),
        `round ${round}: ${codes}`,
      ).toBe(true);
      const orphans = await testEnv.DB.prepare(
        "SELECT count(*) AS n FROM donation WHERE organization_id = ? AND (campaign_id IS NULL OR (campaign_item_id IS NULL AND item_quantity > 0))",
      )
        .bind(org)
        .first<{ n: number }>();
      expect(orphans?.n, `round ${round}: ${codes}`).toBe(0);
    }
    await expectRecount(org, TZ, owner.caller, "after deletes racing gifts");
  });

  it("two organizers recording the last coats of an item that allows no overfunding at once: it is never overfunded", async () => {
    const { org, owner, campaign } = await setup();
    const item = await owner.caller.campaigns.items.create({
      campaignId: campaign.id,
      title: "Coat",
      unitAmountMinor: 4_500,
      quantityNeeded: 3,
      allowOverfunding: false,
    });
    const codes = await Promise.all(
      Array.from({ length: 6 }, () =>
        codeOf(
          owner.caller.donations.create({
            donorId: null,
            campaignId: campaign.id,
            campaignItemId: item.id,
            itemQuantity: 1,
            amountMinor: 4_500,
            currency: "USD",
            paymentMethod: "cash",
            donatedAt: Date.now(),
          }),
        ),
      ),
    );
    expect(tally(codes)).toEqual({ OK: 3, UNPROCESSABLE_CONTENT: 3 });
    const items = await owner.caller.campaigns.items.list({ campaignId: campaign.id });
    expect(items.find((i) => i.id === item.id)?.quantityFunded).toBe(3);
    // Moving gifts onto the item at once cannot overfund it either.
    const loose = await Promise.all(
      [1, 2].map(() =>
        owner.caller.donations.create({
          donorId: null,
          campaignId: campaign.id,
          amountMinor: 4_500,
          currency: "USD",
          paymentMethod: "cash",
          donatedAt: Date.now(),
        }),
      ),
    );
    await owner.caller.donations.delete({
      id: (await donationsOf(org)).find((d) => d.campaign_item_id)?.id as string,
    });
    const moves = await Promise.all(
      loose.map((d) =>
        codeOf(
          owner.caller.donations.update({ id: d.id, data: { campaignItemId: item.id, itemQuantity: 1 } }),
        ),
      ),
    );
    expect(tally(moves)).toEqual({ OK: 1, UNPROCESSABLE_CONTENT: 1 });
    const after = await owner.caller.campaigns.items.list({ campaignId: campaign.id });
    expect(after.find((i) => i.id === item.id)?.quantityFunded).toBe(3);
    await expectRecount(org, TZ, owner.caller, "after item races");
  });

  it("a processor's refund racing an owner's edits of the same gift is applied once, not dropped", async () => {
    const { org, owner } = await setup();
    const tx = `tx-race-${org}`;
    expect((await deliver(webhookEvent(org, tx, "donation.succeeded", { amount: "80.00" }))).status).toBe(
      201,
    );
    const id = (await donationsOf(org))[0]?.id as string;
    // As a processor does: a delivery answered 409 (it lost three races in a row) comes again.
    const refundEvent = async () => {
      for (;;) {
        const res = await deliver(webhookEvent(org, tx, "donation.refunded", { amount: "80.00" }));
        if (res.status !== 409) return res.status;
      }
    };
    const [refund, dup, ...edits] = await Promise.all([
      refundEvent(),
      refundEvent(),
      ...[1, 2, 3].map((i) => codeOf(owner.caller.donations.update({ id, data: { internalNote: `n${i}` } }))),
      codeOf(owner.caller.donations.delete({ id })),
    ]);
    expect([refund, dup]).toEqual([200, 200]);
    expect(
      edits.every((c) => c === "OK" || c === "CONFLICT"),
      edits.join(),
    ).toBe(true);
    const row = (await donationsOf(org))[0];
    expect(row?.status).toBe("refunded");
    expect(await auditCount(org, "donation.webhook_status", id)).toBe(1);
    await expectRecount(org, TZ, owner.caller, "after a refund racing edits");
  });

  it("a write that bypasses the guarded helper (an import, a hand-written fix) still invalidates the token others read", async () => {
    const { org, owner, gift } = await setup();
    const d = await gift(4_000);
    const token = async () =>
      (
        await testEnv.DB.prepare("SELECT change_token AS t FROM donation WHERE id = ?")
          .bind(d.id)
          .first<{ t: string | null }>()
      )?.t;
    const read = await token();
    expect(read).toBeTruthy();
    await testEnv.DB.prepare("UPDATE donation SET internal_note = 'fixed by hand' WHERE id = ?")
      .bind(d.id)
      .run();
    const renewed = await token();
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(read);
    // A row from before change tokens (NULL) is claimed by the first guarded write, once.
    await testEnv.DB.prepare("UPDATE donation SET change_token = NULL WHERE id = ?").bind(d.id).run();
    expect(await token()).toBeNull();
    const codes = await Promise.all(
      [5_000, 6_000, 7_000].map((amountMinor) =>
        codeOf(owner.caller.donations.update({ id: d.id, data: { amountMinor } })),
      ),
    );
    expect(codes).toContain("OK");
    expect(await token()).toBeTruthy();
    await expectRecount(org, TZ, owner.caller, "after writes outside the helper");
  });

  it("the abandonment cron racing an owner's trash and update of the same pending gift stays consistent", async () => {
    const { org, owner, gift } = await setup();
    for (let round = 0; round < 3; round++) {
      const d = await gift(3_000 + round, { status: "pending" });
      await testEnv.DB.prepare("UPDATE donation SET created_at = ? WHERE id = ?")
        .bind(Date.now() - 80 * 3600_000, d.id)
        .run();
      await Promise.all([
        runScheduled("*/15 * * * *", testEnv, new Date()),
        codeOf(owner.caller.donations.delete({ id: d.id })),
        codeOf(owner.caller.donations.update({ id: d.id, data: { amountMinor: 7_000 + round } })),
      ]);
    }
    await expectRecount(org, TZ, owner.caller, "after the cron racing writes");
  });
});

/**
 * Issue 53, adversarial 6: an audit row says a change happened. A write conditional on what was
 * read that loses its race, or one that matches no row, leaves none (previousWriteLanded, as
 * revokeInvitation and thanks.remove have it).
 */
describe("audit rows only for changes that happened (issue 53)", () => {
  const importFile =
    "Email,Amount,Date\r\na@example.test,20.00,2025-02-01\r\nb@example.test,30.00,2025-02-02\r\n";
  const importFields = { Email: "email", Amount: "amount", Date: "donatedAt" } as const;

  it("imports.mappings.delete of an unknown id or another organization's mapping: 404, no audit row anywhere, the mapping kept", async () => {
    const org = await makeOrg();
    const other = await makeOrg();
    const owner = await member(org, "owner");
    const otherOwner = await member(other, "owner");
    const saved = await otherOwner.caller.imports.mappings.save({
      kind: "donations",
      name: "Theirs",
      fields: { email: "email" },
      options: { dateOrder: "auto", decimal: "auto", matchPolicy: "fill" },
    });
    expect(saved?.id).toBeTruthy();
    for (const id of ["nope", saved?.id as string])
      expect(await codeOf(owner.caller.imports.mappings.delete({ id })), id).toBe("NOT_FOUND");
    expect(await auditCount(org, "import.mapping_delete")).toBe(0);
    expect(await auditCount(other, "import.mapping_delete")).toBe(0);
    expect(await otherOwner.caller.imports.mappings.list({ kind: "donations" })).toHaveLength(1);
    // Deleting it from five tabs at once: one deletes, one row says so.
    const codes = await Promise.all(
      Array.from({ length: 5 }, () =>
        codeOf(otherOwner.caller.imports.mappings.delete({ id: saved?.id as string })),
      ),
    );
    expect(codes.filter((c) => c === "OK")).toHaveLength(1);
    expect(await auditCount(other, "import.mapping_delete")).toBe(1);
  });

  it("imports.finish from twelve tabs, and the first undo step from five, each write one audit row", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const { import: imp } = await runImport(caller, "donations", importFile, { fields: importFields });
    expect(imp.status).toBe("completed");
    expect(await auditCount(org, "import.complete", imp.id)).toBe(1);
    // Every row sent, not yet finished: as the page leaves it before its last call.
    await testEnv.DB.prepare("UPDATE data_import SET status = 'running', completed_at = NULL WHERE id = ?")
      .bind(imp.id)
      .run();
    const finished = await Promise.all(
      Array.from({ length: 12 }, () => codeOf(caller.imports.finish({ id: imp.id }))),
    );
    expect(finished).toEqual(Array(12).fill("OK"));
    expect(await auditCount(org, "import.complete", imp.id)).toBe(2);
    const started = await Promise.all(
      Array.from({ length: 5 }, () => codeOf(caller.imports.rollback({ id: imp.id }))),
    );
    expect(started).toContain("OK");
    expect(await auditCount(org, "import.rollback_start", imp.id)).toBe(1);
  });

  it("a member's role set from five tabs, two owners removing each other, a member leaving twice: one audit row per change that landed", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const viewer = await member(org, "viewer");
    // Five tabs make the viewer an admin: one change, one row (the others lose their race or find
    // the role already set).
    const codes = await Promise.all(
      Array.from({ length: 5 }, () =>
        codeOf(
          owner.caller.organization.setMemberRole({ membershipId: `m-${viewer.user.id}`, role: "admin" }),
        ),
      ),
    );
    expect(codes).toContain("OK");
    expect(await auditCount(org, "member.set_role", viewer.user.id)).toBe(1);

    const second = await member(org, "owner");
    const removals = await Promise.all([
      codeOf(owner.caller.organization.removeOrgMember({ membershipId: `m-${second.user.id}` })),
      codeOf(second.caller.organization.removeOrgMember({ membershipId: `m-${owner.user.id}` })),
    ]);
    const owners = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM membership WHERE organization_id = ? AND role = 'owner'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(owners?.n).toBeGreaterThanOrEqual(1);
    const removed = 2 - (owners?.n ?? 0);
    expect(removals.filter((c) => c === "OK")).toHaveLength(removed);
    expect(await auditCount(org, "member.remove")).toBe(removed);

    const leaver = await member(org, "organizer");
    await Promise.all([
      codeOf(leaver.caller.organization.leave()),
      codeOf(leaver.caller.organization.leave()),
    ]);
    expect(await auditCount(org, "member.leave", leaver.user.id)).toBe(1);
    const admin = await platformAdmin(org);
    const gone = await member(org, "viewer");
    await Promise.all(
      Array.from({ length: 3 }, () =>
        codeOf(admin.caller.organization.removeMember({ membershipId: `m-${gone.user.id}` })),
      ),
    );
    expect(await auditCount(org, "member.remove", gone.user.id)).toBe(1);
  });

  it("a note, a tag and a badge deleted or revoked from five tabs at once leave one audit row each", async () => {
    const { org, owner, donor } = await setup();
    const note = await owner.caller.donors.notes.create({
      donorId: donor.id,
      body: "Call back",
      visibility: "internal",
      pinned: false,
    });
    await Promise.all(
      Array.from({ length: 5 }, () => codeOf(owner.caller.donors.notes.delete({ id: note.id }))),
    );
    expect(await auditCount(org, "note.delete", donor.id)).toBe(1);
    const tag = await owner.caller.donors.tags.create({ name: "Major", color: "#2255aa" });
    await Promise.all(
      Array.from({ length: 5 }, () => codeOf(owner.caller.donors.tags.delete({ id: tag.id }))),
    );
    expect(await auditCount(org, "tag.delete", tag.id)).toBe(1);
    const admin = await platformAdmin(org);
    const badge = await admin.caller.badges.grant({ organizationId: org, badge: "verified_organization" });
    await Promise.all(
      Array.from({ length: 5 }, () => codeOf(admin.caller.badges.revoke({ id: badge.id, reason: "Lapsed" }))),
    );
    expect(await auditCount(org, "badge.revoke")).toBe(1);
  });
});
