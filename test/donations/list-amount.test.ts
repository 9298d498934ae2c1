/**
 * donations.list sorted by amount reads a window of the organization's gifts in amount order
 * (donation_org_amount_idx, which carries the status) and falls back to the general page when the
 * window does not hold the page: a short range or a rare status. Both paths must give exactly the
 * brute-force order, ties broken by id, with one status, several, or none.
 */

import type { DonationStatus } from "@core/status";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { AMOUNT_WINDOW_FACTOR } from "../../worker/donations/list";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";
import { donationsOf, prng, type RawDonation, rebuildRollups } from "./brute";

describe("donations list by amount", () => {
  it("pages exactly like a brute-force sort, from the amount window or the fallback", async () => {
    const tz = "America/Los_Angeles";
    const org = await makeOrg({ timeZone: tz });
    const { caller } = await member(org, "owner");
    const r = prng(77);
    const now = Date.now();
    const today = localDay(now, tz);
    // 1 400 gifts over ~400 days: more completed gifts than the first page's window (40 × 25), so
    // a short date range misses the window and must take the fallback. Amounts repeat (ties).
    const N = 1400;
    for (let start = 0; start < N; start += 200) {
      const batch: D1PreparedStatement[] = [];
      for (let i = start; i < Math.min(N, start + 200); i++) {
        batch.push(
          testEnv.DB.prepare(
            `INSERT INTO donation (id, organization_id, number, amount_minor, refunded_minor, currency, status, frequency, payment_method, source, mode, donated_at, created_at, updated_at, trashed_at)
             VALUES (?, ?, ?, ?, 0, ?, ?, 'one_time', 'cash', 'manual', ?, ?, ?, ?, ?)`,
          ).bind(
            `amt-${org}-${String(i).padStart(5, "0")}`,
            org,
            i + 1,
            r.int(1, 60) * 500,
            r.chance(0.85) ? "USD" : "EUR",
            r.chance(0.8) ? "completed" : "pending",
            r.chance(0.95) ? "live" : "test",
            startOfLocalDay(addDays(today, -r.int(0, 400)), tz) + r.int(0, 86_399) * 1000,
            now,
            now,
            r.chance(0.03) ? now : null,
          ),
        );
      }
      await testEnv.DB.batch(batch);
    }
    await rebuildRollups(testEnv.DB, org, tz);
    const rows = await donationsOf(org);
    const day = (d: RawDonation) => localDay(d.donated_at, tz);

    const cases = [
      { name: "wide range, first page", from: addDays(today, -399), page: 1, pageSize: 25, desc: true },
      { name: "all time, third page ascending", page: 3, pageSize: 25, desc: false },
      { name: "one week (sparse: fallback)", from: addDays(today, -6), page: 1, pageSize: 25, desc: true },
      { name: "one week, page 2", from: addDays(today, -6), page: 2, pageSize: 10, desc: true },
      {
        name: "EUR live, amount range",
        currency: "EUR",
        mode: "live" as const,
        minAmountMinor: 5_000,
        maxAmountMinor: 20_000,
        page: 1,
        pageSize: 50,
        desc: true,
      },
      { name: "past the last row", from: addDays(today, -6), page: 40, pageSize: 100, desc: true },
    ];
    const statuses: DonationStatus[][] = [["completed"], [], ["pending"], ["completed", "pending"]];
    for (const c of cases.flatMap((c) => statuses.map((status) => ({ ...c, status })))) {
      const { status, ...rest } = c;
      const name = `${rest.name} [${status.join(", ") || "every status"}]`;
      const { name: _, ...filter } = rest;
      const got = await caller.donations.list({ ...filter, status, sort: "amount" });
      const set = rows.filter(
        (d) =>
          (!status.length || status.includes(d.status as DonationStatus)) &&
          d.trashed_at === null &&
          (!c.from || day(d) >= c.from) &&
          (!("currency" in c) || d.currency === c.currency) &&
          (!("mode" in c) || d.mode === c.mode) &&
          (!("minAmountMinor" in c) || d.amount_minor >= (c.minAmountMinor as number)) &&
          (!("maxAmountMinor" in c) || d.amount_minor <= (c.maxAmountMinor as number)),
      );
      const sign = c.desc ? -1 : 1;
      set.sort(
        (a, b) => sign * (a.amount_minor - b.amount_minor || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      );
      const want = set.slice((c.page - 1) * c.pageSize, c.page * c.pageSize).map((d) => d.id);
      expect(got.total, name).toBe(set.length);
      expect(
        got.rows.map((d) => d.id),
        name,
      ).toEqual(want);
    }
    // The fallback case really is one: fewer matches in the window than the page asks for.
    const window = rows
      .sort((a, b) => b.amount_minor - a.amount_minor || (a.id < b.id ? 1 : -1))
      .slice(0, AMOUNT_WINDOW_FACTOR * 25);
    const inWeek = window.filter(
      (d) => d.status === "completed" && d.trashed_at === null && day(d) >= addDays(today, -6),
    ).length;
    expect(inWeek).toBeLessThan(25);
  }, 120_000);
});
