import { describe, expect, it } from "vitest";
import { buildDonorCsv, DONOR_CSV_HEADER } from "../../src/features/donors/export";
import { parseCsv } from "../csv";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { type Caller, gift, newDonor } from "./helpers";

/** The file as the browser saves it: a byte-order mark, then strict RFC 4180. */
function parseExport(text: string): string[][] {
  expect(text.startsWith("\uFEFF")).toBe(true);
  return parseCsv(text.slice(1));
}

async function exportRows(caller: Caller, filters: Parameters<Caller["donors"]["exportPage"]>[0] = {}) {
  const progress: [number, number][] = [];
  const { parts, rows } = await buildDonorCsv(
    (after) => caller.donors.exportPage({ ...filters, after, limit: filters.limit }),
    "UTC",
    (done, total) => progress.push([done, total]),
  );
  const table = parseExport(parts.join(""));
  expect(table.length - 1).toBe(rows);
  return { header: table[0], body: table.slice(1), progress };
}

describe("donor export", () => {
  it("escapes quotes, commas, line breaks and formulas so every cell reads back exactly", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const nasty = {
      firstName: '=HYPERLINK("http://evil")',
      lastName: 'O"Brien, Jr.',
      company: "Line one\nLine two",
      city: "+1 Plaza",
      postalCode: "-42",
      phone: "+1 503 555 0100",
      email: "nasty@example.test",
    };
    const id = await newDonor(caller, nasty);
    await gift(caller, id, 123_45);
    const tag = await caller.donors.tags.create({ name: "@risk; or not" });
    const tag2 = await caller.donors.tags.create({ name: "Alpha" });
    await caller.donors.tags.assign({ donorIds: [id], tagIds: [tag.id, tag2.id], mode: "add" });
    const { header, body } = await exportRows(caller);
    expect(header).toEqual(DONOR_CSV_HEADER);
    expect(body).toHaveLength(1);
    const row = Object.fromEntries((header ?? []).map((h, i) => [h, body[0]?.[i]]));
    expect(row).toMatchObject({
      donor_id: id,
      first_name: `'${nasty.firstName}`,
      last_name: nasty.lastName,
      company: nasty.company,
      city: "'+1 Plaza",
      // A number or a phone is data, not a formula: no guard (core/csv.ts FORMULA_GUARD).
      postal_code: "-42",
      phone: "+1 503 555 0100",
      email: nasty.email,
      donations_count: "1",
      lifetime_amount: "123.45",
      currency: "USD",
      donor_type: "one_time",
      // Sorted by name; the cell starts with @, so it is defused.
      tags: "'@risk; or not; Alpha",
      email_opt_in: "no",
    });
    expect(row.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  });

  it("exports every donor of a few thousand, in pages with progress, none twice, and exactly the filter", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const tag = await caller.donors.tags.create({ name: "Seeded" });
    const N = 3_000;
    const now = Date.now();
    // One statement seeds the set (a recursive CTE): every 3rd donor is tagged, every 5th opted in.
    await testEnv.DB.batch([
      testEnv.DB.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
         INSERT INTO donor (id, organization_id, type, first_name, last_name, email, email_opt_in, lifetime_minor, donation_count, created_at, updated_at)
         SELECT ?1 || '-' || printf('%05d', i), ?1, 'individual', 'Seed' || i, 'Donor, "' || i || '"', 'seed' || i || '@example.test', i % 5 = 0, i * 100, 1, ?2, ?2 FROM n`,
      ).bind(org, now, N),
      testEnv.DB.prepare(
        `INSERT INTO donor_tag_assignment (donor_id, tag_id, organization_id)
         SELECT id, ?2, ?1 FROM donor WHERE organization_id = ?1 AND CAST(substr(id, -5) AS INTEGER) % 3 = 0`,
      ).bind(org, tag.id),
    ]);
    const all = await exportRows(caller, { limit: 1000 });
    expect(all.body).toHaveLength(N);
    expect(new Set(all.body.map((r) => r[0])).size).toBe(N);
    expect(all.progress).toEqual([
      [1000, N],
      [2000, N],
      [3000, N],
      [3000, N],
    ]);
    // The last name survives the quoting on every row.
    expect(all.body.filter((r) => r[4] !== `Donor, "${Number(r[0]?.slice(-5))}"`)).toEqual([]);
    const listTotal = (await caller.donors.list({})).total;
    expect(listTotal).toBe(N);

    const tagged = await exportRows(caller, { tagId: tag.id, emailOptIn: true });
    expect(tagged.body).toHaveLength(N / 15);
    expect((await caller.donors.list({ tagId: tag.id, emailOptIn: true })).total).toBe(N / 15);
    const ranged = await exportRows(caller, { minLifetimeMinor: 100_000, maxLifetimeMinor: 200_000 });
    expect(ranged.body).toHaveLength(1_001);
    const searched = await exportRows(caller, { q: "seed2999@" });
    expect(searched.body.map((r) => r[0])).toEqual([`${org}-02999`]);

    // Exports are audited once per export, with the filters.
    const audit = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'donor.export'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(audit?.n).toBe(4);
  });

  it("needs the export right and never crosses organizations", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const viewer = await member(org, "viewer");
    await newDonor(owner.caller, { lastName: "Mine" });
    const other = await member(await makeOrg(), "owner");
    await newDonor(other.caller, { lastName: "Theirs" });
    expect(await codeOf(viewer.caller.donors.exportPage({}))).toBe("FORBIDDEN");
    const { body } = await exportRows(other.caller);
    expect(body.map((r) => r[4])).toEqual(["Theirs"]);
  });
});
