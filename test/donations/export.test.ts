/**
 * Donations export on a large seeded set: every row of the current filters (never truncated, the
 * same count as the list), RFC 4180 quoting, formula cells neutralized, domain.md §5.1 columns.
 */

import { toMajorString } from "@core/money";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { DONATION_COLUMNS } from "../../worker/donations/export-columns";
import { parseCsv } from "../csv";
import { makeOrg, member } from "../fixtures";
import { appFetch, testEnv } from "../helpers";
import { donationsOf, isCounted, net, prng, rebuildRollups } from "./brute";

const NASTY = [
  "=cmd|' /C calc'!A0",
  "+SUM(1,2)",
  "-2+3",
  "@import",
  "\tTabbed",
  'He said "thanks", twice',
  "line one\r\nline two",
  "Ünïcødé ✓ 寄付",
  // Data, not formulas: written as they are.
  "+1 503 555 0100",
  "-29.30",
  null,
];

/** A signed number or a phone (core/csv.ts FORMULA_GUARD): no guard. */
const SIGNED_DATA = /^[+-][0-9 .()-]*\d[0-9 .()-]*$/;

describe("donations export", () => {
  it("streams all 5 000 seeded gifts, and exactly the list's rows under filters, escaped", async () => {
    const tz = "America/Los_Angeles";
    const org = await makeOrg({ timeZone: tz });
    const owner = await member(org, "owner");
    const r = prng(5000);
    const donors: string[] = [];
    const now = Date.now();
    const stmts: D1PreparedStatement[] = [];
    for (let i = 0; i < 40; i++) {
      const id = `xd-${org}-${i}`;
      donors.push(id);
      stmts.push(
        testEnv.DB.prepare(
          "INSERT INTO donor (id, organization_id, first_name, last_name, email, city, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).bind(
          id,
          org,
          i % 5 ? `Donor${i}` : "=Evil",
          i % 7 ? "Lastname" : 'O"Neil, Jr.',
          `d${i}-${org}@example.test`,
          "Zürich",
          now,
          now,
        ),
      );
    }
    await testEnv.DB.batch(stmts);
    const statuses = [
      "completed",
      "completed",
      "completed",
      "pending",
      "refunded",
      "partially_refunded",
      "failed",
    ];
    const today = localDay(now, tz);
    for (let start = 0; start < 5000; start += 250) {
      const batch: D1PreparedStatement[] = [];
      for (let i = start; i < start + 250; i++) {
        const amount = r.int(100, 500_000);
        const status = r.pick(statuses);
        const refunded =
          status === "refunded" ? amount : status === "partially_refunded" ? Math.floor(amount / 3) : 0;
        batch.push(
          testEnv.DB.prepare(
            `INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, amount_minor, refunded_minor, currency, status, frequency, payment_method, source, mode, message, donated_at, created_at, updated_at, trashed_at)
             VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, 'manual', ?, ?, ?, ?, ?, ?)`,
          ).bind(
            `x-${org}-${String(i).padStart(5, "0")}`,
            org,
            i + 1,
            r.chance(0.9) ? r.pick(donors) : null,
            amount,
            refunded,
            r.chance(0.8) ? "USD" : "JPY",
            status,
            r.chance(0.2) ? "monthly" : "one_time",
            r.pick(["cash", "check", "bank_transfer"]),
            r.chance(0.95) ? "live" : "test",
            r.pick(NASTY),
            // Some gifts share one instant, so the keyset pagination must break ties by id.
            i % 50 === 0
              ? startOfLocalDay(today, tz) - 1
              : startOfLocalDay(addDays(today, -r.int(0, 60)), tz) + r.int(0, 86_399) * 1000,
            now,
            now,
            r.chance(0.03) ? now : null,
          ),
        );
      }
      await testEnv.DB.batch(batch);
    }
    // Written behind the API's back: rebuild the rollups the list reads (donation_totals).
    await rebuildRollups(testEnv.DB, org, tz);
    const rows = await donationsOf(org);
    expect(rows).toHaveLength(5000);

    const exportOf = async (query: string) => {
      const res = await appFetch(`/api/export/donations.csv${query}`, {
        headers: { cookie: owner.jar.header() },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toMatch(
        new RegExp(`^attachment; filename="${org}-donations-\\d{8}-\\d{4}\\.csv"$`),
      );
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const parsed = parseCsv(new TextDecoder().decode(bytes));
      expect(parsed[0]).toEqual([...DONATION_COLUMNS]);
      for (const line of parsed) expect(line).toHaveLength(DONATION_COLUMNS.length);
      const col = (name: (typeof DONATION_COLUMNS)[number]) => DONATION_COLUMNS.indexOf(name);
      return { data: parsed.slice(1), col };
    };

    // Everything not trashed: 5 000 minus the trash, no row twice.
    const all = await exportOf("");
    const notTrashed = rows.filter((d) => d.trashed_at === null);
    expect(all.data).toHaveLength(notTrashed.length);
    expect(new Set(all.data.map((l) => l[all.col("donation_id")]))).toEqual(
      new Set(notTrashed.map((d) => d.id)),
    );
    expect((await owner.caller.donations.list({})).total).toBe(notTrashed.length);

    // Every formula-looking cell is neutralized, every other value survives exactly.
    for (const line of all.data) {
      for (const cell of line) if (!SIGNED_DATA.test(cell)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      const row = rows.find((d) => d.id === line[all.col("donation_id")]);
      if (!row) throw new Error("unknown id");
      const msg = (row as unknown as { message: string | null }).message;
      const expected =
        msg === null ? "" : /^[=+\-@\t\r]/.test(msg) && !SIGNED_DATA.test(msg) ? `'${msg}` : msg;
      // Amounts are numbers, written as they are (no fees in this seed: the net is what was kept).
      expect(line[all.col("net_amount")]).toBe(
        toMajorString(row.amount_minor - row.refunded_minor, row.currency),
      );
      expect(line[all.col("public_message")]).toBe(expected);
      expect(line[all.col("amount")]).toBe(toMajorString(row.amount_minor, row.currency));
      expect(line[all.col("refunded_amount")]).toBe(toMajorString(row.refunded_minor, row.currency));
    }
    expect(all.data.some((l) => l[all.col("public_message")] === "'=cmd|' /C calc'!A0")).toBe(true);
    expect(all.data.some((l) => l[all.col("donor_first_name")] === "'=Evil")).toBe(true);
    expect(all.data.some((l) => l[all.col("public_message")] === "+1 503 555 0100")).toBe(true);
    expect(all.data.some((l) => l[all.col("public_message")] === "'-2+3")).toBe(true);
    expect(all.data.some((l) => l[all.col("donor_last_name")] === 'O"Neil, Jr.')).toBe(true);
    expect(all.data.some((l) => l[all.col("public_message")] === "line one\r\nline two")).toBe(true);
    // JPY has no minor unit: 1234 yen is "1234", never "12.34".
    const yen = all.data.find((l) => l[all.col("currency")] === "JPY");
    expect(yen?.[all.col("amount")]).toMatch(/^\d+$/);

    // Filtered: the list's own filters select the same rows, counted and listed alike.
    const from = addDays(today, -20);
    const to = addDays(today, -1);
    const filters = {
      status: ["completed", "partially_refunded"] as const,
      from,
      to,
      mode: "live" as const,
      currency: "USD",
    };
    const list = await owner.caller.donations.list({ ...filters, status: [...filters.status] });
    const filtered = await exportOf(
      `?status=completed,partially_refunded&from=${from}&to=${to}&mode=live&currency=USD`,
    );
    const day = (ms: number) => localDay(ms, tz);
    const brute = rows.filter(
      (d) => isCounted(d) && d.currency === "USD" && day(d.donated_at) >= from && day(d.donated_at) <= to,
    );
    expect(filtered.data).toHaveLength(brute.length);
    expect(list.total).toBe(brute.length);
    expect(list.totalsByCurrency).toEqual([
      {
        currency: "USD",
        count: brute.length,
        countedCount: brute.length,
        countedMinor: brute.reduce((t, d) => t + net(d), 0),
      },
    ]);
    expect(new Set(filtered.data.map((l) => l[filtered.col("donation_id")]))).toEqual(
      new Set(brute.map((d) => d.id)),
    );
    // Local dates: the local column carries the organization's offset and day.
    for (const l of filtered.data) {
      const local = l[filtered.col("donated_at_local")] as string;
      expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[78]:00$/);
      expect(local.slice(0, 10)).toBe(day(Date.parse(l[filtered.col("donated_at")] as string)));
    }

    const trash = await exportOf("?trashed=true");
    expect(trash.data).toHaveLength(rows.length - notTrashed.length);
    const bad = await appFetch("/api/export/donations.csv?from=yesterday", {
      headers: { cookie: owner.jar.header() },
    });
    expect(bad.status).toBe(400);
    const audit = await testEnv.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'donation.export'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(audit?.n).toBe(3);
  }, 120_000);
});
