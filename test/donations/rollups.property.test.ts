/**
 * Property: whatever sequence of creates, edits, status changes, trash/restore, permanent deletes
 * and webhook deliveries happens, every rollup equals a brute-force recount of the donation table —
 * org_daily (per campaign and the '*' organization rows), campaign_stats, donor stats and item
 * funding; the dashboard's and the campaigns' own analytics rollups (decisions 032, 037) equal a
 * rebuild, and campaign analytics from them equals its exact answer. Seeded, so a failure names
 * the seed and the step that broke it.
 */

import { allowedDonationTargets, type DonationStatus } from "@core/status";
import { addDays, localDay, offsetSpans, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { buildCampaignRollups } from "../../worker/ledger/campaign-rollups";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import {
  allTimeOf,
  bruteAllTime,
  bruteCampaign,
  bruteDaily,
  bruteDailyTotals,
  bruteDonor,
  bruteItemFunded,
  bruteListTotals,
  bruteTotals,
  dailyStateOf,
  deliver,
  donationsOf,
  exactFieldsOf,
  expectAnalyticsRebuildable,
  expectCampaignRollupsRebuildable,
  isCounted,
  type ListFilter,
  net,
  platformAdmin,
  prng,
  type RawDonation,
  storedDaily,
  storedDailyTotals,
  storedTotals,
  totalsOf,
  webhookEvent,
} from "./brute";

// Auckland: DST, far east; Asuncion: the clocks jumped at local midnight (a day without 00:00).
for (const [seed, TZ] of [
  [8, "Pacific/Auckland"],
  [2026, "America/Asuncion"],
] as const) {
  describe(`rollups under random operations (seed ${seed}, ${TZ})`, () => {
    it("stay equal to a brute-force recount after every batch of 20 operations", async () => {
      const r = prng(seed);
      const org = await makeOrg({ timeZone: TZ });
      const owner = await member(org, "owner");
      // A platform admin may purge; an owner only trashes.
      const admin = await platformAdmin(org);
      const campaigns = [
        await owner.caller.campaigns.create({ title: "Coats", currency: "USD", goalType: "none" }),
        await owner.caller.campaigns.create({ title: "Boots", currency: "USD", goalType: "none" }),
        await owner.caller.campaigns.create({ title: "Schals", currency: "EUR", goalType: "none" }),
      ].map((c) => ({ id: c.id, currency: c.currency as "USD" | "EUR" }));
      const coatsId = campaigns[0]?.id as string;
      const item = await owner.caller.campaigns.items.create({
        campaignId: coatsId,
        title: "Coat",
        unitAmountMinor: 4_500,
      });
      // Two of the three campaigns keep rollups of their own from the start (decision 037; the
      // cron builds them past campaignRollupsFrom (10 000) gifts); the third is read from its gifts.
      const built = campaigns.slice(0, 2);
      for (const c of built) expect(await buildCampaignRollups(testEnv.DB, org, c.id, TZ)).toBe(true);
      const donors: string[] = [];
      for (const name of ["Ana", "Ben", "Cai"]) {
        const d = await owner.caller.donors.create({
          data: {
            firstName: name,
            lastName: "Prop",
            email: `${name.toLowerCase()}-${seed}-${org}@example.test`,
          },
        });
        if (!d.created) throw new Error("expected a new donor");
        donors.push(d.id);
      }
      const today = localDay(Date.now(), TZ);
      // Gifts within a few minutes of a local midnight, so a wrong time zone lands on the wrong day.
      const when = () => {
        const midnight = startOfLocalDay(addDays(today, -r.int(1, 400)), TZ);
        return midnight + r.pick([-1, 1]) * r.int(1, 300) * 1000;
      };
      let tx = 0;
      const log: string[] = [];

      const check = async (step: number) => {
        const rows = await donationsOf(org);
        const ctx = `seed ${seed}, after step ${step}: ${log.slice(-5).join("; ")}`;
        expect(Object.fromEntries(await storedDaily(org)), ctx).toEqual(
          Object.fromEntries(bruteDaily(rows, TZ)),
        );
        // donation_totals (every status) and the unfiltered list that reads it.
        expect(await storedTotals(org), ctx).toEqual(bruteTotals(rows));
        // donation_daily_totals by local day, still built in the organization's zone.
        expect(await storedDailyTotals(org), ctx).toEqual(bruteDailyTotals(rows, TZ));
        expect(await dailyStateOf(org), ctx).toBe(TZ);
        const list = await owner.caller.donations.list({});
        const live = rows.filter((d) => d.trashed_at === null);
        expect(list.total, ctx).toBe(live.length);
        expect(
          list.totalsByCurrency.map((t) => [t.currency, t.count, t.countedCount, t.countedMinor]),
          ctx,
        ).toEqual(
          [...new Set(live.map((d) => d.currency))].sort().map((cur) => {
            const counted = live.filter((d) => d.currency === cur && isCounted(d));
            return [
              cur,
              live.filter((d) => d.currency === cur).length,
              counted.length,
              counted.reduce((t, d) => t + net(d), 0),
            ];
          }),
        );
        // Date-filtered lists are totalled from the index with "counted" reduced by the filters.
        const since = addDays(localDay(Date.now(), TZ), -20);
        const sinceMs = startOfLocalDay(since, TZ);
        for (const filter of [
          { status: ["completed" as const], from: since },
          { status: ["completed" as const, "pending" as const, "refunded" as const], from: since },
          { mode: "live" as const, from: since },
          { mode: "test" as const, from: since },
          { trashed: true, from: since },
        ]) {
          const got = await owner.caller.donations.list(filter);
          const set = rows.filter(
            (d) =>
              d.donated_at >= sinceMs &&
              (filter.trashed ? d.trashed_at !== null : d.trashed_at === null) &&
              (!("status" in filter) || (filter.status as string[]).includes(d.status)) &&
              (!("mode" in filter) || d.mode === filter.mode),
          );
          const want = [...new Set(set.map((d) => d.currency))].sort().map((cur) => {
            const counted = set.filter((d) => d.currency === cur && isCounted(d));
            return [
              cur,
              set.filter((d) => d.currency === cur).length,
              counted.length,
              counted.reduce((t, d) => t + net(d), 0),
            ];
          });
          expect(
            got.totalsByCurrency.map((t) => [t.currency, t.count, t.countedCount, t.countedMinor]),
            `${ctx} ${JSON.stringify(filter)}`,
          ).toEqual(want);
        }
        // Date ranges (from the daily rows): random ones, and the days around each offset change.
        const rr = prng(seed * 31 + step);
        const today = localDay(Date.now(), TZ);
        const ranges: [string | undefined, string | undefined][] = [];
        for (let i = 0; i < 4; i++) {
          const a = addDays(today, -rr.int(0, 420));
          ranges.push([a, addDays(a, rr.int(0, 120))]);
        }
        ranges.push([undefined, addDays(today, -rr.int(0, 300))]);
        for (const [b] of offsetSpans(Date.now() - 420 * 86_400_000, Date.now(), TZ).slice(1)) {
          const day = localDay(b, TZ);
          ranges.push([addDays(day, -1), day], [day, day], [day, addDays(day, 1)]);
        }
        for (const [from, to] of ranges) {
          for (const extra of [
            { status: ["completed" as const, "partially_refunded" as const] },
            { mode: "test" as const },
            { trashed: true },
            { currency: "EUR" },
          ]) {
            const f: ListFilter = { ...extra, ...(from ? { from } : {}), ...(to ? { to } : {}) };
            const got = await owner.caller.donations.list(f);
            expect(totalsOf(got), `${ctx} ${JSON.stringify(f)}`).toEqual(bruteListTotals(rows, f, TZ));
            expect(got.total, `${ctx} ${JSON.stringify(f)}`).toBe(
              bruteListTotals(rows, f, TZ).reduce((n, t) => n + (t[1] as number), 0),
            );
          }
        }
        for (const c of campaigns) {
          const stats = await testEnv.DB.prepare(
            "SELECT raised_minor, donation_count, donor_count, refunded_minor FROM campaign_stats WHERE campaign_id = ?",
          )
            .bind(c.id)
            .first();
          expect(stats ?? bruteCampaign([], c.id), ctx).toEqual(bruteCampaign(rows, c.id));
        }
        const { results: donorRows } = await testEnv.DB.prepare(
          "SELECT id, lifetime_minor, donation_count, largest_gift_minor, first_gift_at, last_gift_at FROM donor WHERE organization_id = ?",
        )
          .bind(org)
          .all<{ id: string }>();
        for (const d of donorRows) {
          const { id, ...stored } = d;
          expect(stored, `${ctx} donor ${id}`).toEqual(bruteDonor(rows, id));
        }
        const items = await owner.caller.campaigns.items.list({ campaignId: coatsId });
        expect(items.find((i) => i.id === item.id)?.quantityFunded, ctx).toBe(bruteItemFunded(rows, item.id));
        // The analytics rollups (decision 032) kept by every change equal a rebuild from the donations.
        await expectAnalyticsRebuildable(org, TZ, ctx);
        // The dashboard from the rollups equals its exact answer (a few donors: the distinct counts
        // are exact below SKETCH_K), the median within its stated bound, over presets and a random period.
        const a = addDays(today, -rr.int(20, 400));
        for (const period of [
          { days: 0 },
          { days: 30 },
          { days: 365 },
          { days: 30, from: a, to: addDays(a, rr.int(0, 19)) },
        ])
          for (const currency of ["USD", "EUR"]) {
            const fast = await owner.caller.dashboard.summary({ ...period, currency });
            const exact = await owner.caller.dashboard.summary({ ...period, currency, exact: true });
            const at = `${ctx} ${currency} ${JSON.stringify(period)}`;
            expect(exactFieldsOf(fast), at).toEqual(exactFieldsOf(exact));
            // Answered from the rollups (the only path that marks the median ≈).
            expect(fast.estimated.median, at).toBe(fast.donations > 0);
            expect(
              fast.estimated.uniqueDonors || fast.estimated.previousDonors || fast.estimated.donorsByKind,
              at,
            ).toBe(false);
            expect(Math.abs(fast.medianMinor - exact.medianMinor), at).toBeLessThanOrEqual(
              exact.medianMinor * fast.errorBounds.median + 1,
            );
            if (!fast.estimated.topDonors)
              expect(
                fast.topDonors.map((d) => d.total),
                at,
              ).toEqual(exact.topDonors.map((d) => d.total));
          }
        // A campaign's own rollups kept by every change equal a build from its gifts, and its
        // analytics from them equal the exact answer (the median within its bound).
        for (const c of built) {
          await expectCampaignRollupsRebuildable(org, c.id, TZ, `${ctx} campaign ${c.id}`);
          for (const period of [
            { days: 0 },
            { days: 30 },
            { days: 365 },
            { days: 7, from: addDays(a, -45), to: a },
          ]) {
            const fast = await owner.caller.campaigns.analytics({ id: c.id, ...period });
            const exact = await owner.caller.campaigns.analytics({ id: c.id, ...period, exact: true });
            const at = `${ctx} campaign ${c.id} ${JSON.stringify(period)}`;
            const { medianMinor: fm, estimated: fe, topDonors: ft, ...fastRest } = fast;
            const { medianMinor: em, estimated: ee, topDonors: et, ...exactRest } = exact;
            expect(fastRest, at).toEqual(exactRest);
            // Answered from the rollups (the only path that marks the median ≈); few donors: exact counts.
            expect(fe.median, at).toBe(fast.donations > 0);
            expect(fe.uniqueDonors || fe.previousDonors, at).toBe(false);
            expect(Object.values(ee).some(Boolean), at).toBe(false);
            expect(Math.abs(fm - em), at).toBeLessThanOrEqual(em * fast.errorBounds.median + 1);
            if (!fe.topDonors)
              expect(ft.map((d) => [d.id, d.total, d.gifts]).sort(), at).toEqual(
                et.map((d) => [d.id, d.total, d.gifts]).sort(),
              );
          }
        }
        // The dashboard's all-time tiles, exact, per currency.
        for (const currency of ["USD", "EUR"]) {
          const s = await owner.caller.dashboard.summary({ days: 0, currency, exact: true });
          const counted = rows.filter((d) => isCounted(d) && d.currency === currency);
          expect(s.raisedMinor, ctx).toBe(counted.reduce((t, d) => t + net(d), 0));
          expect(s.donations, ctx).toBe(counted.length);
          expect(
            s.series.reduce((t, p) => t + p.raised, 0),
            ctx,
          ).toBe(s.raisedMinor);
          // All time reads its own indexes (median, donors, methods) and donation_totals (status).
          expect(allTimeOf(s), `${ctx} ${currency} all time`).toEqual(bruteAllTime(rows, currency));
        }
      };

      for (let step = 1; step <= 200; step++) {
        const rows = await donationsOf(org);
        const live = rows.filter((d) => d.trashed_at === null);
        const trashed = rows.filter((d) => d.trashed_at !== null);
        const roll = r.next();
        if (roll < 0.35 || rows.length < 3) {
          const campaign = r.chance(0.8) ? r.pick(campaigns) : null;
          const currency = campaign?.currency ?? r.pick(["USD", "EUR"] as const);
          const withItem = campaign?.id === coatsId && r.chance(0.5);
          const status = r.chance(0.8) ? "completed" : "pending";
          const res = await owner.caller.donations.create({
            donorId: r.chance(0.85) ? r.pick(donors) : null,
            campaignId: campaign?.id ?? null,
            campaignItemId: withItem ? item.id : null,
            itemQuantity: withItem ? r.int(1, 3) : 0,
            amountMinor: r.int(100, 50_000),
            currency,
            paymentMethod: r.pick(["cash", "check", "bank_transfer"] as const),
            status,
            frequency: r.chance(0.3) ? "monthly" : "one_time",
            mode: r.chance(0.1) ? "test" : "live",
            donatedAt: when(),
          });
          log.push(`${step} create ${res.id} ${status}`);
        } else if (roll < 0.6 && live.length) {
          const d = r.pick(live);
          const targets = allowedDonationTargets(d.status as DonationStatus, d.source);
          if (!targets.length) continue;
          const to = r.pick(targets);
          const left = d.amount_minor - d.refunded_minor;
          if (to === "partially_refunded" && left < 2) continue;
          const refundAmountMinor = to === "partially_refunded" ? r.int(1, left - 1) : undefined;
          const code = await codeOf(
            owner.caller.donations.updateStatus({
              id: d.id,
              status: to,
              reason: "property",
              refundAmountMinor,
            }),
          );
          log.push(`${step} ${d.id} ${d.status}→${to} ${refundAmountMinor ?? ""}`);
          expect(code, log.at(-1)).toBe("OK");
        } else if (roll < 0.75 && live.length) {
          const d = r.pick(live);
          const sameCurrency = campaigns.filter((c) => c.currency === d.currency);
          const data: Record<string, unknown> = {};
          if (r.chance(0.5)) data.campaignId = r.chance(0.8) ? r.pick(sameCurrency).id : null;
          if (d.source === "manual" && r.chance(0.6))
            data.amountMinor = r.int(Math.max(100, d.refunded_minor), 60_000);
          if (r.chance(0.3)) data.anonymous = r.chance(0.5);
          const campaignAfter = "campaignId" in data ? data.campaignId : d.campaign_id;
          if (campaignAfter === coatsId && r.chance(0.5)) {
            data.campaignItemId = r.chance(0.7) ? item.id : null;
            data.itemQuantity = r.int(1, 4);
          }
          const code = await codeOf(owner.caller.donations.update({ id: d.id, data }));
          log.push(`${step} update ${d.id} ${JSON.stringify(data)}`);
          expect(code, log.at(-1)).toBe("OK");
        } else if (roll < 0.83 && live.length) {
          const d = r.pick(live);
          await owner.caller.donations.delete({ id: d.id });
          log.push(`${step} trash ${d.id}`);
        } else if (roll < 0.9 && trashed.length) {
          const d = r.pick(trashed);
          await owner.caller.donations.restore({ id: d.id });
          log.push(`${step} restore ${d.id}`);
        } else if (roll < 0.93 && rows.length) {
          const d = r.pick(rows);
          await admin.caller.donations.delete({ id: d.id, permanent: true });
          log.push(`${step} purge ${d.id}`);
        } else if (roll < 0.97) {
          tx += 1;
          const currency = r.pick(["USD", "EUR"]);
          const res = await deliver(
            webhookEvent(
              org,
              `prop-${seed}-${tx}`,
              r.chance(0.8) ? "donation.succeeded" : "donation.pending",
              {
                amount: `${r.int(1, 300)}.${String(r.int(0, 99)).padStart(2, "0")}`,
                currency,
                donatedAt: new Date(when()).toISOString(),
                donor: { email: `webhook-${r.int(1, 2)}-${seed}@example.test` },
              },
            ),
          );
          log.push(`${step} webhook ${tx}`);
          expect(res.status, log.at(-1)).toBe(201);
        } else {
          const hooked = live.filter((d) => d.source === "webhook");
          if (!hooked.length) continue;
          const d = r.pick(hooked);
          const tId = (
            await testEnv.DB.prepare("SELECT gateway_transaction_id AS t FROM donation WHERE id = ?")
              .bind(d.id)
              .first<{ t: string }>()
          )?.t as string;
          const type = r.pick(["donation.refunded", "donation.disputed", "donation.succeeded"]);
          const res = await deliver(
            webhookEvent(org, tId, type, { amount: (d.amount_minor / 100).toFixed(2), currency: d.currency }),
          );
          log.push(`${step} webhook ${type} ${d.id} (${d.status})`);
          expect([200, 422], log.at(-1)).toContain(res.status);
        }
        if (step % 20 === 0) await check(step);
      }
      // The sequence really exercised the machine: counted, refunded, trashed and test gifts exist.
      const rows: RawDonation[] = await donationsOf(org);
      expect(rows.some(isCounted)).toBe(true);
      expect(rows.some((d) => d.refunded_minor > 0)).toBe(true);
      expect(rows.some((d) => d.trashed_at !== null || d.mode === "test")).toBe(true);
    }, 240_000);
  });
}
