/**
 * The donations export writes most rows from SQL parts and a donor cache (worker/donations/export.ts,
 * docs/decisions/016). Whatever the values, the file must be byte for byte what the reference line
 * writer gives for the same rows: every awkward value in every free-text cell, other currencies,
 * negative net amounts, NUL characters, dates before 1970 and on offset changes, missing donors;
 * across page edges, donor-cache evictions and a prefetch split into pages.
 */

import { CSV_BOM, csvCell, csvRow } from "@core/csv";
import { describe, expect, it } from "vitest";
import { donationCsvStream } from "../../worker/donations/export";
import {
  DONATION_COLUMNS,
  donationLine,
  RAW_COLUMNS,
  type RawRow,
} from "../../worker/donations/export-columns";
import { DonorCells, IdTable } from "../../worker/donations/export-donors";
import {
  fastPageSql,
  pageRows,
  plainParts,
  plainRow,
  RECORD_BYTES,
} from "../../worker/donations/export-page";
import { donationFilters } from "../../worker/donations/filters";
import { makeOrg } from "../fixtures";
import { testEnv } from "../helpers";
import { prng } from "./brute";

/** Values that need quoting, defusing or care, for every free-text column. */
const AWKWARD = [
  null,
  "",
  "plain",
  "Food, Shelter & Warmth",
  'He said "thanks"',
  "line one\r\nline two",
  "only\nLF",
  "=cmd|' /C calc'!A0",
  "+SUM(1,2)",
  "-2+3",
  "-29.30",
  "+1 503 555 0100",
  "+1 (503) 555-0100, ext. 2",
  "-",
  "+ ",
  "@import",
  "\tTabbed",
  "\rCR first",
  "Ünïcødé ✓ 寄付 🎁",
  "a\u0000b",
  "\u0000lead",
  "a\u007fb",
  "trailing,",
  "x".repeat(700),
];
const TIME_ZONE = "America/Los_Angeles";
// 2026-03-08 10:00 UTC is 02:00 in Los Angeles, when the clocks jump to 03:00.
const DST_JUMP = Date.UTC(2026, 2, 8, 10, 0, 0);

async function world(seed: number) {
  const org = await makeOrg({ timeZone: TIME_ZONE, currency: "USD" });
  const r = prng(seed);
  const now = Date.now();
  const text = () => r.pick(AWKWARD);
  const words = () =>
    r.chance(0.5)
      ? "Plain"
      : r.pick(["Food, Shelter & Warmth", '"Quoted"', "=Formula", "Ünï ✓ 🎁", "abc\u0000de"]);
  const stmts: D1PreparedStatement[] = [];
  const campaigns: string[] = [];
  const items: { id: string; campaign: string }[] = [];
  for (let i = 0; i < 6; i++) {
    const id = `c-${org}-${i}`;
    campaigns.push(id);
    stmts.push(
      testEnv.DB.prepare(
        `INSERT INTO campaign (id, organization_id, title, slug, currency, goal_type, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'USD', 'none', 'active', ?, ?)`,
      ).bind(id, org, `${words()} ${i}`, `c-${i}`, now, now),
    );
    for (let j = 0; j < 2; j++) {
      const item = `i-${org}-${i}-${j}`;
      items.push({ id: item, campaign: id });
      stmts.push(
        testEnv.DB.prepare(
          `INSERT INTO campaign_item (id, organization_id, campaign_id, title, unit_amount_minor, created_at, updated_at)
           VALUES (?, ?, ?, ?, 500, ?, ?)`,
        ).bind(item, org, id, `${words()} item`, now, now),
      );
    }
  }
  const donors: string[] = [];
  for (let i = 0; i < 60; i++) {
    const id = `d-${org}-${String(i).padStart(3, "0")}`;
    donors.push(id);
    stmts.push(
      testEnv.DB.prepare(
        `INSERT INTO donor (id, organization_id, first_name, last_name, email, phone, company, address_line1, city, region, postal_code, country, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        id,
        org,
        text(),
        text(),
        `d${i}-${org}@example.test`,
        r.pick([null, "+1 503 555 0100", "-1", "555, ext 2"]),
        text(),
        text(),
        r.pick(["Zürich", "Portland", "=City"]),
        "OR",
        "97201",
        "US",
        now,
        now,
      ),
    );
  }
  await testEnv.DB.batch(stmts);
  const instants = [
    () => DST_JUMP + r.int(-7_200, 7_200) * 1000 + r.int(0, 999),
    () => Date.UTC(1969, 11, 31, 23, 59, 59, 999) - r.int(0, 10) * 86_400_000,
    () => now - r.int(0, 400) * 86_400_000 - r.int(0, 86_399_999),
    () => Date.UTC(2026, 10, 1, 9, 0, 0), // shared instants: ties broken by id across pages
  ];
  const rows: D1PreparedStatement[] = [];
  for (let i = 0; i < 420; i++) {
    const amount = r.int(1, 2_000_000);
    const refunded = r.chance(0.15) ? amount : r.chance(0.1) ? Math.floor(amount / 2) : 0;
    const item = r.chance(0.4) ? r.pick(items) : null;
    rows.push(
      testEnv.DB.prepare(
        `INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, campaign_item_id, item_quantity, amount_minor,
           fee_covered_minor, processing_fee_minor, platform_fee_minor, refunded_minor, currency, status, frequency,
           payment_method, gateway, gateway_transaction_id, source, mode, anonymous, message, tribute_type, tribute_name,
           donated_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        `x-${org}-${String(i).padStart(4, "0")}`,
        org,
        i + 1,
        r.chance(0.9) ? r.pick(donors) : null,
        item ? item.campaign : r.chance(0.8) ? r.pick(campaigns) : null,
        item?.id ?? null,
        item ? r.int(1, 9) : 0,
        amount,
        r.chance(0.3) ? r.int(0, 5_000) : 0,
        r.chance(0.6) ? r.int(0, 9_000) : 0,
        r.chance(0.1) ? r.int(0, 900) : 0,
        refunded,
        r.chance(0.85) ? "USD" : r.pick(["EUR", "JPY", "KWD"]),
        refunded === amount
          ? "refunded"
          : refunded
            ? "partially_refunded"
            : r.pick(["completed", "pending", "failed"]),
        r.pick(["one_time", "monthly", "annually"]),
        r.chance(0.9) ? r.pick(["card", "paypal"]) : r.pick(["=card", "bank, transfer"]),
        r.pick([null, "stripe", "paypal"]),
        r.chance(0.7) ? `ch_${i}${r.chance(0.9) ? "" : r.pick([",x", '"y', "\n"])}` : null,
        r.pick(["online", "manual", "webhook"]),
        r.chance(0.95) ? "live" : "test",
        r.chance(0.1) ? 1 : 0,
        // SQL escapes these three itself: any value leaves the row on the fast path.
        r.chance(0.6) ? text() : null,
        r.chance(0.7) ? r.pick([null, "in_memory"]) : text(),
        r.chance(0.4) ? text() : null,
        r.pick(instants)(),
        now,
        now,
      ),
    );
  }
  for (let i = 0; i < rows.length; i += 100) await testEnv.DB.batch(rows.slice(i, i + 100));
  return { id: org, timeZone: TIME_ZONE, defaultCurrency: "USD" };
}

/** The file as the reference writes it: every row read plainly, every line by donationLine. */
async function reference(org: { id: string; timeZone: string; defaultCurrency: string }) {
  const results = await testEnv.DB.prepare(
    `SELECT ${RAW_COLUMNS}, dn.id, dn.first_name, dn.last_name, dn.email, dn.phone, dn.company, dn.address_line1,
            dn.address_line2, dn.city, dn.region, dn.postal_code, dn.country
       FROM donation d LEFT JOIN campaign c ON c.id = d.campaign_id LEFT JOIN campaign_item i ON i.id = d.campaign_item_id
       LEFT JOIN donor dn ON dn.id = d.donor_id
      WHERE d.organization_id = ? AND d.trashed_at IS NULL ORDER BY d.donated_at DESC, d.id DESC`,
  )
    .bind(org.id)
    .raw<unknown[]>();
  let out = CSV_BOM + csvRow(DONATION_COLUMNS);
  for (const row of results) {
    const raw = row.slice(0, 26) as RawRow;
    const donor = row.slice(26);
    const cells = donor[0] === null ? ",".repeat(11) : `${donor.slice(1).map(csvCell).join(",")},`;
    out += donationLine(raw, cells, org);
  }
  return { text: out, rows: results.length };
}

async function read(stream: ReadableStream<Uint8Array>) {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

describe("donations export: SQL-written rows equal the reference", () => {
  it("gives the reference bytes for awkward rows, on every page size, cache size and prefetch", async () => {
    const org = await world(16);
    const expected = await reference(org);
    expect(expected.rows).toBe(420);
    const filters = donationFilters.parse({});

    // Both paths are exercised: most rows come from SQL, the awkward ones from donationLine.
    const [result] = await testEnv.DB.prepare(
      fastPageSql(
        2,
        "donation d LEFT JOIN campaign c ON c.id = d.campaign_id LEFT JOIN campaign_item i ON i.id = d.campaign_item_id",
        "WHERE d.organization_id = ? AND d.trashed_at IS NULL",
        1000,
      ),
    )
      .bind("USD", org.id, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, "\uffff")
      .raw<[number, string]>();
    const [count, records] = result as [number, string];
    const page = pageRows(records);
    expect(page).toHaveLength(count);
    const plain = page.filter(([, , a, b, c]) => plainRow(a, b, c)).length;
    expect(plain).toBeGreaterThan(40);
    expect(page.length - plain).toBeGreaterThan(40);
    // Negative net amounts and awkward messages are written by SQL, not re-read.
    expect(page.some(([, , a, b, c]) => plainRow(a, b, c) && /,-\d/.test(b))).toBe(true);
    expect(page.some(([, , a, b, c]) => plainRow(a, b, c) && c.includes('"'))).toBe(true);
    // Every record fits its share of D1's 2 MB string limit (long ones take the re-read path).
    expect(page.some(([, rowid, a]) => a === "" && rowid > 0)).toBe(true);
    const bytes = new TextEncoder();
    for (const record of records.split(/\u007f(?=-?\d+\u007f\d+\u007f)/))
      expect(bytes.encode(record).length).toBeLessThanOrEqual(RECORD_BYTES);
    expect(() => pageRows("1\u007f1\u007fa\u007fb\u007fc\u007f2\u007f2\u007fa\u007fb\u007fc")).toThrow(
      /order/,
    );
    expect(() => pageRows("1\u007f1\u007fa")).toThrow(/malformed/);

    for (const options of [
      {},
      { pageSize: 1 },
      { pageSize: 37, donorChars: 400, donorPrefetchPage: 7 },
      { pageSize: 50, donorChars: 10_000_000, donorPrefetchPage: 7 },
      { pageSize: 419 },
      { pageSize: 420 },
    ]) {
      const text = await read(donationCsvStream(testEnv.DB, org, filters, options));
      expect(text, JSON.stringify(options)).toBe(expected.text);
    }
  });

  it("writes a JPY organization's amounts without decimals, and filters by the list's rules", async () => {
    const org = await makeOrg({ timeZone: "Asia/Tokyo", currency: "JPY" });
    const now = Date.now();
    await testEnv.DB.batch(
      [1, 2, 3].map((n) =>
        testEnv.DB.prepare(
          `INSERT INTO donation (id, organization_id, number, amount_minor, processing_fee_minor, currency, status, payment_method, source, mode, donated_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, 30, 'JPY', 'completed', 'card', 'online', 'live', ?, ?, ?)`,
        ).bind(`y-${org}-${n}`, org, n, 1000 * n, now - n * 1000, now, now),
      ),
    );
    const ctx = { id: org, timeZone: "Asia/Tokyo", defaultCurrency: "JPY" };
    const text = await read(donationCsvStream(testEnv.DB, ctx, donationFilters.parse({}), { pageSize: 2 }));
    expect(text).toBe((await reference(ctx)).text);
    expect(text).toContain(",completed,live,2000,0,30,1970,0,JPY,2000,JPY,1,one_time,card,");
    const minAmount = await read(
      donationCsvStream(testEnv.DB, ctx, donationFilters.parse({ minAmountMinor: 2000 }), { pageSize: 1 }),
    );
    expect(minAmount.trim().split("\r\n")).toHaveLength(3);
  });

  it("caches donors within a character budget, starting over when full, and reads missing ones by id", async () => {
    const org = await world(23);
    const ids = Array.from({ length: 60 }, (_, i) => `d-${org.id}-${String(i).padStart(3, "0")}`);
    const full = new DonorCells(testEnv.DB, org.id, 10_000_000, 7);
    await full.prefetch();
    expect(full.size).toBe(60);
    const all = await full.cellsOf([...ids, null, "no-such-donor"]);
    const small = new DonorCells(testEnv.DB, org.id, 500, 7);
    await small.prefetch();
    // The prefetch stops once over the budget; a look-up past it starts the cache over.
    expect(small.size).toBeLessThan(60);
    for (let i = 0; i < 3; i++) expect(await small.cellsOf([...ids, null, "no-such-donor"])).toEqual(all);
    expect(small.size).toBeLessThan(60);
    expect(all[60]).toBe(",".repeat(11));
    expect(all[61]).toBe(",".repeat(11));
  });

  it("plainParts accepts only cells csvCell leaves as they are", () => {
    expect(plainParts("a,b,", 2)).toBe(true);
    expect(plainParts(",,", 2)).toBe(true);
    expect(plainParts("a,b", 2)).toBe(false); // no closing comma
    expect(plainParts("a,b,c,", 2)).toBe(false); // a comma inside a cell
    for (const bad of ['"', "\r", "\n", "\u0000"]) expect(plainParts(`a${bad}b,c,`, 2)).toBe(false);
    // A signed number or a phone is plain (csvCell writes it as it is); a signed formula is not.
    expect(plainParts("-29.30,+1 503 555 0100,", 2)).toBe(true);
    expect(plainParts("-1+2,b,", 2)).toBe(false);
    expect(plainParts("a,+SUM(1),", 2)).toBe(false);
    for (const lead of ["=", "+", "-", "@", "\t"]) {
      expect(plainParts(`${lead}a,b,`, 2)).toBe(false);
      expect(plainParts(`a,${lead}b,`, 2)).toBe(false);
      expect(plainParts(`a${lead},b${lead},`, 2)).toBe(true);
    }
    expect(plainRow("1,x,", `${"v,".repeat(20)}`, "no,,,,online,\r\n")).toBe(true);
    expect(plainRow("1,x,", `${"v,".repeat(19)}`, "no,,,,online,\r\n")).toBe(false);
    expect(plainRow("1,=x,", `${"v,".repeat(20)}`, "no,,,,online,\r\n")).toBe(false);
    expect(plainRow("", "", "")).toBe(false); // a re-read row's empty parts
    expect(plainRow("1,x,", `${"v,".repeat(20)}`, null)).toBe(false);
  });
});

describe("IdTable", () => {
  it("keeps every key through growth and clears", () => {
    const t = new IdTable();
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i * 7919}`);
    for (const k of keys) t.set(k, `v${k}`);
    t.set("k0", "again");
    expect(t.size).toBe(5000);
    for (const k of keys.slice(1)) expect(t.get(`${k}`)).toBe(`v${k}`);
    expect(t.get("k0")).toBe("again");
    expect(t.get("nope")).toBeUndefined();
    expect(t.get("")).toBeUndefined();
    t.clear();
    expect(t.size).toBe(0);
    expect(t.get("k7919")).toBeUndefined();
  });
});
