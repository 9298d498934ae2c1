/**
 * Property (issue 26, decision 020): whatever mix of writes lands at the same moment — manual
 * gifts, edits of amount, campaign and item, status changes and refunds, trash, restore, permanent
 * deletes, webhook deliveries and their duplicates, donor merges (opposite ones too) and the
 * abandonment cron — each write either lands whole or changes nothing, so after every round every
 * rollup equals a brute-force recount of the donation table and donations.list's total equals
 * SELECT count(*). Seeded: a failure names the seed and the round.
 */

import { allowedDonationTargets, type DonationStatus } from "@core/status";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { runScheduled } from "../../worker/scheduled";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";

import { deliver, donationsOf, isCounted, platformAdmin, prng, webhookEvent } from "./brute";
import { expectRecount } from "./recount";

/** Refusals a write may meet when another write changed its row first; never a 500. */
const ACCEPTED = new Set(["OK", "CONFLICT", "NOT_FOUND", "UNPROCESSABLE_CONTENT", "BAD_REQUEST"]);
const WEBHOOK_ACCEPTED = new Set([200, 201, 409, 422]);

// New York: DST at 02:00; Kathmandu: +05:45, so a UTC day is never a local day.
for (const [seed, TZ] of [
  [26, "America/New_York"],
  [2026_11, "Asia/Kathmandu"],
] as const) {
  describe(`rollups under concurrent random operations (seed ${seed}, ${TZ})`, () => {
    it("equal a brute-force recount after every round of 20–40 simultaneous operations", async () => {
      const r = prng(seed);
      const org = await makeOrg({ timeZone: TZ });
      const owner = await member(org, "owner");
      const admin = await member(org, "admin");
      const platform = await platformAdmin(org);
      const callers = [owner.caller, admin.caller];
      const campaigns = [
        await owner.caller.campaigns.create({ title: "Coats", currency: "USD", goalType: "none" }),
        await owner.caller.campaigns.create({ title: "Boots", currency: "USD", goalType: "none" }),
        await owner.caller.campaigns.create({ title: "Schals", currency: "EUR", goalType: "none" }),
      ].map((c) => ({ id: c.id, currency: c.currency as "USD" | "EUR" }));
      const coats = campaigns[0]?.id as string;
      const item = await owner.caller.campaigns.items.create({
        campaignId: coats,
        title: "Coat",
        unitAmountMinor: 4_500,
        quantityNeeded: 8,
        allowOverfunding: false,
      });
      const donors: string[] = [];
      for (const name of ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay"]) {
        const d = await owner.caller.donors.create({
          data: {
            firstName: name,
            lastName: "Conc",
            email: `${name.toLowerCase()}-${seed}-${org}@example.test`,
          },
        });
        if (!d.created) throw new Error("expected a new donor");
        donors.push(d.id);
      }
      const today = localDay(Date.now(), TZ);
      // Near a local midnight, so a gift on the wrong zone's day shows in the daily rollups.
      const when = () =>
        startOfLocalDay(addDays(today, -r.int(1, 60)), TZ) + r.pick([-1, 1]) * r.int(1, 300) * 1000;
      let tx = 0;
      const codes: Record<string, Record<string, number>> = {};
      const note = (kind: string, code: string) => {
        codes[kind] ??= {};
        (codes[kind] as Record<string, number>)[code] =
          ((codes[kind] as Record<string, number>)[code] ?? 0) + 1;
      };

      const manualGift = (c = r.pick(callers)) => {
        const campaign = r.chance(0.8) ? r.pick(campaigns) : null;
        const withItem = campaign?.id === coats && r.chance(0.4);
        return c.donations.create({
          donorId: r.chance(0.8) ? r.pick(donors) : null,
          campaignId: campaign?.id ?? null,
          campaignItemId: withItem ? item.id : null,
          itemQuantity: withItem ? r.int(1, 2) : 0,
          amountMinor: r.int(100, 40_000),
          currency: campaign?.currency ?? r.pick(["USD", "EUR"] as const),
          paymentMethod: r.pick(["cash", "check", "bank_transfer"] as const),
          status: r.chance(0.75) ? "completed" : "pending",
          mode: r.chance(0.1) ? "test" : "live",
          donatedAt: when(),
        });
      };
      for (let i = 0; i < 12; i++) await manualGift(owner.caller);

      for (let round = 1; round <= 6; round++) {
        const rows = await donationsOf(org);
        // Half the operations aim at a few "hot" gifts, so writes really collide.
        const hot = rows.slice(0, 4);
        const target = () => (r.chance(0.5) && hot.length ? r.pick(hot) : r.pick(rows));
        const { results: unmerged } = await testEnv.DB.prepare(
          "SELECT id FROM donor WHERE organization_id = ? AND merged_into_id IS NULL",
        )
          .bind(org)
          .all<{ id: string }>();
        // Some pending gifts are old enough for the abandonment cron this round.
        for (const d of rows.filter((x) => x.status === "pending").slice(0, 2))
          await testEnv.DB.prepare("UPDATE donation SET created_at = ? WHERE id = ?")
            .bind(Date.now() - 80 * 3600_000, d.id)
            .run();
        const ops: [string, () => Promise<string>][] = [];
        const n = r.int(20, 40);
        while (ops.length < n) {
          const roll = r.next();
          const c = r.pick(callers);
          const d = target();
          if (roll < 0.14) ops.push(["create", () => codeOf(manualGift(c))]);
          else if (roll < 0.3) {
            const targets = allowedDonationTargets(d.status as DonationStatus, d.source);
            const to = targets.length ? r.pick(targets) : "completed";
            const left = d.amount_minor - d.refunded_minor;
            ops.push([
              "status",
              () =>
                codeOf(
                  c.donations.updateStatus({
                    id: d.id,
                    status: to,
                    reason: "concurrent",
                    refundAmountMinor:
                      to === "partially_refunded" ? r.int(1, Math.max(1, left - 1)) : undefined,
                  }),
                ),
            ]);
          } else if (roll < 0.45) {
            const data: Record<string, unknown> = {};
            if (d.source === "manual" && r.chance(0.7))
              data.amountMinor = r.int(Math.max(100, d.refunded_minor), 50_000);
            if (r.chance(0.4)) {
              const same = campaigns.filter((x) => x.currency === d.currency);
              data.campaignId = same.length && r.chance(0.8) ? r.pick(same).id : null;
            }
            if ((data.campaignId ?? d.campaign_id) === coats && r.chance(0.4)) {
              data.campaignItemId = item.id;
              data.itemQuantity = r.int(1, 2);
            }
            if (r.chance(0.3)) data.internalNote = `n${r.int(1, 9)}`;
            ops.push(["update", () => codeOf(c.donations.update({ id: d.id, data }))]);
          } else if (roll < 0.55) ops.push(["trash", () => codeOf(c.donations.delete({ id: d.id }))]);
          else if (roll < 0.63) ops.push(["restore", () => codeOf(c.donations.restore({ id: d.id }))]);
          else if (roll < 0.67)
            ops.push([
              "purge",
              () => codeOf(platform.caller.donations.delete({ id: d.id, permanent: true })),
            ]);
          else if (roll < 0.8) {
            tx += 1;
            const ev = webhookEvent(
              org,
              `conc-${seed}-${tx}`,
              r.chance(0.8) ? "donation.succeeded" : "donation.pending",
              {
                amount: `${r.int(1, 300)}.${String(r.int(0, 99)).padStart(2, "0")}`,
                currency: r.pick(["USD", "EUR"]),
                donatedAt: new Date(when()).toISOString(),
                donor: {
                  email: r.chance(0.5)
                    ? `ana-${seed}-${org}@example.test`
                    : `hook-${r.int(1, 3)}-${seed}@example.test`,
                },
              },
            );
            // Processors retry: the same event may arrive two or three times at once.
            for (let k = r.pick([1, 1, 2, 3]); k > 0; k--)
              ops.push(["webhook", async () => String((await deliver(ev)).status)]);
          } else if (roll < 0.9) {
            const hooked = rows.filter((x) => x.source === "webhook");
            if (!hooked.length) continue;
            const h = r.pick(hooked);
            const txId = (
              await testEnv.DB.prepare("SELECT gateway_transaction_id AS t FROM donation WHERE id = ?")
                .bind(h.id)
                .first<{ t: string }>()
            )?.t;
            if (!txId) continue;
            const type = r.pick([
              "donation.refunded",
              "donation.disputed",
              "donation.succeeded",
              "donation.failed",
            ]);
            const ev = webhookEvent(org, txId, type, {
              amount: (h.amount_minor / 100).toFixed(2),
              currency: h.currency,
            });
            for (let k = r.pick([1, 2]); k > 0; k--)
              ops.push(["webhook-status", async () => String((await deliver(ev)).status)]);
          } else if (roll < 0.97) {
            if (unmerged.length < 3) continue;
            const a = r.pick(unmerged).id;
            const b = r.pick(unmerged.filter((x) => x.id !== a)).id;
            ops.push(["merge", () => codeOf(c.donors.merge({ sourceId: a, targetId: b, dryRun: false }))]);
            // Sometimes someone else merges the other way at the same time.
            if (r.chance(0.5))
              ops.push([
                "merge",
                () => codeOf(r.pick(callers).donors.merge({ sourceId: b, targetId: a, dryRun: false })),
              ]);
          } else
            ops.push([
              "cron",
              async () => {
                const res = await runScheduled("*/15 * * * *", testEnv, new Date());
                return res.every((x) => x.status === "fulfilled") ? "OK" : "CRON FAILED";
              },
            ]);
        }
        const settled = await Promise.allSettled(ops.map(([, f]) => f()));
        const ctx = `seed ${seed}, round ${round}`;
        settled.forEach((s, i) => {
          const kind = ops[i]?.[0] as string;
          const code = s.status === "fulfilled" ? s.value : `REJECTED ${String(s.reason)}`;
          note(kind, code);
          if (kind.startsWith("webhook"))
            expect(WEBHOOK_ACCEPTED.has(Number(code)), `${ctx} ${kind} ${code}`).toBe(true);
          else expect(ACCEPTED.has(code), `${ctx} ${kind} ${code}`).toBe(true);
        });
        await expectRecount(org, TZ, owner.caller, ctx, [
          { status: ["completed"], from: addDays(today, -30) },
        ]);
        // Merges: nobody points at a merged donor, and no donor is merged into a merged one.
        const dangling = await testEnv.DB.prepare(
          `SELECT (SELECT count(*) FROM donation d JOIN donor m ON m.id = d.donor_id WHERE d.organization_id = ?1 AND m.merged_into_id IS NOT NULL) AS donations,
                  (SELECT count(*) FROM donor x JOIN donor m ON m.id = x.merged_into_id WHERE x.organization_id = ?1 AND m.merged_into_id IS NOT NULL) AS chains,
                  (SELECT count(*) FROM donor_note n JOIN donor m ON m.id = n.donor_id WHERE n.organization_id = ?1 AND m.merged_into_id IS NOT NULL) AS notes`,
        )
          .bind(org)
          .first();
        expect(dangling, ctx).toEqual({ donations: 0, chains: 0, notes: 0 });
        // The item that allows no overfunding never is.
        const funded = await owner.caller.campaigns.items.list({ campaignId: coats });
        expect(funded.find((i) => i.id === item.id)?.quantityFunded ?? 0, ctx).toBeLessThanOrEqual(8);
      }
      // The rounds really raced: writes won, some lost, and counted gifts exist.
      const all = Object.values(codes).flatMap((c) => Object.entries(c));
      expect(
        all.some(([c]) => c === "CONFLICT"),
        JSON.stringify(codes),
      ).toBe(true);
      for (const kind of ["create", "update", "status", "trash", "webhook"])
        expect(
          codes[kind]?.OK ?? codes[kind]?.["201"] ?? 0,
          `${kind}: ${JSON.stringify(codes)}`,
        ).toBeGreaterThan(0);
      expect((await donationsOf(org)).some(isCounted)).toBe(true);
    }, 120_000);
  });
}
