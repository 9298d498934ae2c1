/**
 * Importing gifts (issue 23, docs/decisions/028-csv-import.md) on real D1: what a file creates
 * (gifts marked as imported, their donors and campaigns), that every total then equals a
 * brute-force recount, that the same file twice creates nothing new, that an interrupted or failed
 * import resumes where it stopped, and that a batch lands once however often it is sent.
 */
import { describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { createContext } from "../../worker/trpc/context";
import { createCallerFactory } from "../../worker/trpc/init";
import { donationsOf } from "../donations/brute";
import { expectRecount } from "../donations/recount";
import { makeOrg, member } from "../fixtures";
import { BASE_URL, codeOf, testEnv } from "../helpers";
import { baseOptions, type Caller, continueImport, csv, mappingFor, runImport, sha256 } from "./run";

const createCaller = createCallerFactory(appRouter);

const GIFT_FIELDS = {
  "Donation ID": "giftExternalId",
  "First Name": "firstName",
  "Last Name": "lastName",
  Email: "email",
  Amount: "amount",
  Currency: "currency",
  Date: "donatedAt",
  Status: "status",
  "Amount Refunded": "refundedAmount",
  Campaign: "campaign",
  Frequency: "frequency",
  Comment: "message",
} as const;

const HEADER = Object.keys(GIFT_FIELDS);

/** `n` gifts from `donors` people (one in five gives twice), over two campaigns and two currencies. */
function giftsFile(n: number, o: { ids?: boolean; offset?: number } = {}) {
  const rows: (string | number)[][] = [HEADER];
  for (let i = 0; i < n; i++) {
    const k = i + (o.offset ?? 0);
    const person = k % 7;
    const eur = k % 11 === 0;
    rows.push([
      o.ids ? `G-${k}` : "",
      ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"][person] as string,
      "Giver",
      `giver${person}@example.test`,
      eur ? `€${10 + k}.50` : `$${(1000 + k * 3).toLocaleString("en-US")}.00`,
      eur ? "EUR" : "USD",
      `2025-0${1 + (k % 9)}-1${k % 10}T1${k % 10}:30:00Z`,
      k % 13 === 0 ? "Refunded" : k % 17 === 0 ? "Pending" : "Completed",
      "",
      eur ? "Europe Fund" : k % 2 ? "Winter Appeal" : "Roof Repair",
      k % 5 === 0 ? "Monthly" : "One-time",
      k % 4 === 0 ? "Thank you,\nfor everything" : "",
    ]);
  }
  return csv(rows);
}

describe("importing donations", () => {
  it("creates gifts marked with their source and import, their donors once, and the campaigns they name", async () => {
    const org = await makeOrg({ timeZone: "America/Los_Angeles" });
    const { caller } = await member(org, "owner");
    const existing = await caller.campaigns.create({
      title: "Roof Repair",
      currency: "USD",
      goalType: "none",
    });
    const text = giftsFile(40);
    const { import: done, rejected } = await runImport(caller, "donations", text, {
      fields: GIFT_FIELDS,
      options: { timeZone: "America/Los_Angeles" },
      batchRows: 15,
    });
    expect(rejected).toEqual([]);
    expect(done).toMatchObject({
      status: "completed",
      nextRow: 42,
      rowsDone: 40,
      counts: { giftsCreated: 40, donorsCreated: 7, campaignsCreated: 2, rowsSkipped: 0, rowsInvalid: 0 },
    });
    const rows = await donationsOf(org);
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(["import"]));
    const imported = await testEnv.DB.prepare(
      "SELECT count(*) AS n, count(DISTINCT number) AS numbers FROM donation WHERE organization_id = ? AND import_id = ?",
    )
      .bind(org, done.id)
      .first<{ n: number; numbers: number }>();
    expect(imported).toEqual({ n: 40, numbers: 40 });
    // The campaign the organization had took its gifts; the two it lacked were made, as drafts.
    const campaigns = await caller.campaigns.list({ pageSize: 100 });
    const byTitle = new Map(campaigns.rows.map((c) => [c.title, c]));
    expect(byTitle.get("Roof Repair")?.id).toBe(existing.id);
    expect(byTitle.get("Winter Appeal")).toMatchObject({ status: "draft", currency: "USD" });
    expect(byTitle.get("Europe Fund")).toMatchObject({ status: "draft", currency: "EUR" });
    // Refunded rows are refunded in full; a message keeps its line break.
    const refunded = rows.filter((r) => r.status === "refunded");
    expect(refunded.length).toBeGreaterThan(0);
    for (const r of refunded) expect(r.refunded_minor).toBe(r.amount_minor);
    const withMessage = await testEnv.DB.prepare(
      "SELECT message FROM donation WHERE organization_id = ? AND message IS NOT NULL LIMIT 1",
    )
      .bind(org)
      .first<{ message: string }>();
    expect(withMessage?.message).toBe("Thank you,\nfor everything");
    // Every figure the writes keep equals a recount from the gifts, in the organization's zone.
    await expectRecount(org, "America/Los_Angeles", caller, "after import");
    // The list finds the import's gifts by the import.
    const listed = await caller.donations.list({ importId: done.id, pageSize: 100 });
    expect(listed.total).toBe(40);
  });

  it("names new campaigns as the campaign form does, past the slugs the organization and the batch took", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.campaigns.create({
      title: "Other",
      slug: "spring-fete-2",
      currency: "USD",
      goalType: "none",
    });
    const gift = (campaign: string, i: number) => [
      "",
      "Ada",
      "Giver",
      "ada@example.test",
      `$${10 + i}.00`,
      "USD",
      `2025-03-1${i}T10:00:00Z`,
      "Completed",
      "",
      campaign,
      "One-time",
      "",
    ];
    // Two names of one slug in one batch: the first takes it, the second the next one free.
    const text = csv([HEADER, gift("Spring Fête", 1), gift("Spring Fete!", 2)]);
    const { import: done } = await runImport(caller, "donations", text, { fields: GIFT_FIELDS });
    expect(done.counts).toMatchObject({ giftsCreated: 2, campaignsCreated: 2 });
    const { rows } = await caller.campaigns.list({ pageSize: 100 });
    expect(Object.fromEntries(rows.map((c) => [c.title, c.slug]))).toEqual({
      Other: "spring-fete-2",
      "Spring Fête": "spring-fete",
      "Spring Fete!": "spring-fete-3",
    });
  });

  it("creates nothing new from the same file twice, and skips gifts another file already brought", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "admin");
    const text = giftsFile(30, { ids: true });
    await runImport(caller, "donations", text, { fields: GIFT_FIELDS, batchRows: 10 });
    const before = await donationsOf(org);
    const again = await runImport(caller, "donations", text, { fields: GIFT_FIELDS, batchRows: 10 });
    expect(again.import.counts).toMatchObject({
      giftsCreated: 0,
      donorsCreated: 0,
      campaignsCreated: 0,
      rowsSkipped: 30,
    });
    expect(await donationsOf(org)).toEqual(before);
    // Next month's export overlaps this one: its first 20 rows are gifts already imported (same ids).
    const overlapping = giftsFile(30, { ids: true, offset: 10 });
    const next = await runImport(caller, "donations", overlapping, { fields: GIFT_FIELDS, batchRows: 10 });
    expect(next.import.counts).toMatchObject({ giftsCreated: 10, rowsSkipped: 20, donorsCreated: 0 });
    expect(await donationsOf(org)).toHaveLength(40);
    await expectRecount(org, "UTC", caller, "after overlapping imports");
  });

  it("skips a gift whose processor transaction the organization already has", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const fields = { Id: "transactionId", Amount: "amount", Created: "donatedAt", Email: "email" } as const;
    const file = (ids: string[]) =>
      csv([
        ["Id", "Amount", "Created", "Email"],
        ...ids.map((id) => [id, "12.00", "2025-03-01", "pat@example.test"]),
      ]);
    await runImport(caller, "donations", file(["ch_1", "ch_2"]), { fields });
    const second = await runImport(caller, "donations", file(["ch_2", "ch_3", "ch_3"]), { fields });
    expect(second.import.counts).toMatchObject({ giftsCreated: 1, rowsSkipped: 2 });
    const stored = await testEnv.DB.prepare(
      "SELECT gateway_transaction_id AS t FROM donation WHERE organization_id = ? ORDER BY t",
    )
      .bind(org)
      .all<{ t: string }>();
    expect(stored.results.map((r) => r.t)).toEqual(["ch_1", "ch_2", "ch_3"]);
  });

  it("refuses rows it cannot store, with the reason, and keeps them for the download", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.campaigns.create({ title: "Dollars only", currency: "USD", goalType: "none" });
    const future = new Date(Date.now() + 5 * 86400_000).toISOString().slice(0, 10);
    const text = csv([
      ["Email", "Amount", "Currency", "Date", "Campaign"],
      ["ok@example.test", "25.00", "USD", "2025-01-02", ""],
      ["bad@example.test", "lots", "USD", "2025-01-02", ""],
      ["cheap@example.test", "0.50", "USD", "2025-01-02", ""],
      ["later@example.test", "25.00", "USD", future, ""],
      ["mars@example.test", "25.00", "XYZ", "2025-01-02", ""],
      ["euro@example.test", "25.00", "EUR", "2025-01-02", "Dollars only"],
      ["not-an-email", "25.00", "USD", "2025-01-02", ""],
      ["", "", "", "", ""],
      ["ok2@example.test", "30", "USD", "2025-01-03", ""],
    ]);
    const fields = {
      Email: "email",
      Amount: "amount",
      Currency: "currency",
      Date: "donatedAt",
      Campaign: "campaign",
    } as const;
    const { import: done, rejected } = await runImport(caller, "donations", text, { fields });
    expect(done.counts).toMatchObject({ giftsCreated: 3, rowsInvalid: 5 });
    const reasons = new Map(rejected.map((r) => [r.row, r.reason]));
    // Row 7's euros go to "Dollars only (EUR)": a currency is never a reason to refuse.
    expect([...reasons.keys()]).toEqual([3, 4, 5, 6, 8]);
    expect(reasons.get(4)).toMatch(/^Amount: At least 1\.00/);
    expect(reasons.get(5)).toMatch(/^Date: The donation date cannot be in the future/);
    expect(reasons.get(6)).toMatch(/^Currency: Currency XYZ is not supported/);
    expect(reasons.get(8)).toBe("E-mail: Enter a valid e-mail address");
    // The download: the file's own cells with the row number and the reason, in row order.
    const page = await caller.imports.rejections({ id: done.id });
    expect(page.headers).toEqual(["Email", "Amount", "Currency", "Date", "Campaign"]);
    expect(page.rows.map((r) => r.row)).toEqual([3, 4, 5, 6, 8]);
    expect(page.rows[0]).toEqual({
      row: 3,
      reason: reasons.get(3),
      cells: ["bad@example.test", "lots", "USD", "2025-01-02", ""],
    });
    // Nothing of a refused row was written: no donor for it either.
    const donors = await testEnv.DB.prepare(
      "SELECT email FROM donor WHERE organization_id = ? ORDER BY email",
    )
      .bind(org)
      .all<{ email: string }>();
    expect(donors.results.map((d) => d.email)).toEqual([
      "euro@example.test",
      "ok2@example.test",
      "ok@example.test",
    ]);
  });

  it("puts a campaign's gifts in other currencies in its sibling per currency, refusing none", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.campaigns.create({ title: "Winter appeal", currency: "USD", goalType: "none" });
    const text = csv([
      ["Email", "Amount", "Currency", "Date", "Campaign"],
      ["a@example.test", "10.00", "USD", "2025-01-02", "Winter appeal"],
      ["b@example.test", "20.00", "EUR", "2025-01-02", "Winter appeal"],
      ["c@example.test", "30.00", "EUR", "2025-01-03", "winter appeal"],
      ["d@example.test", "40.00", "GBP", "2025-01-03", "Spring fair"],
      ["e@example.test", "50.00", "CAD", "2025-01-04", "Spring fair"],
      ["f@example.test", "60.00", "GBP", "2025-01-04", "Spring fair"],
    ]);
    const fields = {
      Email: "email",
      Amount: "amount",
      Currency: "currency",
      Date: "donatedAt",
      Campaign: "campaign",
    } as const;
    const { import: done } = await runImport(caller, "donations", text, { fields });
    expect(done.counts).toMatchObject({ giftsCreated: 6, rowsInvalid: 0, campaignsCreated: 3 });
    const byCampaign = await testEnv.DB.prepare(
      `SELECT c.title, c.currency, COUNT(*) AS n, SUM(d.amount_minor) AS minor, MIN(d.currency) AS gift_currency,
              MAX(d.currency) AS gift_currency_max
         FROM donation d JOIN campaign c ON c.id = d.campaign_id
        WHERE d.organization_id = ? GROUP BY c.id ORDER BY c.title`,
    )
      .bind(org)
      .all<{
        title: string;
        currency: string;
        n: number;
        minor: number;
        gift_currency: string;
        gift_currency_max: string;
      }>();
    expect(byCampaign.results).toEqual([
      {
        title: "Spring fair",
        currency: "GBP",
        n: 2,
        minor: 10_000,
        gift_currency: "GBP",
        gift_currency_max: "GBP",
      },
      {
        title: "Spring fair (CAD)",
        currency: "CAD",
        n: 1,
        minor: 5_000,
        gift_currency: "CAD",
        gift_currency_max: "CAD",
      },
      {
        title: "Winter appeal",
        currency: "USD",
        n: 1,
        minor: 1_000,
        gift_currency: "USD",
        gift_currency_max: "USD",
      },
      {
        title: "Winter appeal (EUR)",
        currency: "EUR",
        n: 2,
        minor: 5_000,
        gift_currency: "EUR",
        gift_currency_max: "EUR",
      },
    ]);
    // A later file finds the siblings by name: no new campaign, and nothing imported twice.
    const later = csv([
      ["Email", "Amount", "Currency", "Date", "Campaign"],
      ["g@example.test", "70.00", "EUR", "2025-02-01", "Winter appeal"],
    ]);
    const second = await runImport(caller, "donations", later, { fields });
    expect(second.import.counts).toMatchObject({ giftsCreated: 1, campaignsCreated: 0 });
    const again = await runImport(caller, "donations", text, { fields });
    expect(again.import.counts).toMatchObject({ giftsCreated: 0, campaignsCreated: 0, rowsSkipped: 6 });
  });

  it("answers a dry run with the counts the import then has, writing nothing", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const text = giftsFile(25);
    const { readShape } = await import("@core/import/read");
    const shape = readShape(text, { sampleRows: 1000 });
    const fileHash = await sha256(text);
    const check = await caller.imports.check({
      kind: "donations",
      fileHash,
      headers: shape.headers,
      mapping: mappingFor(shape.headers, GIFT_FIELDS),
      options: baseOptions(),
      rows: shape.sample,
    });
    expect(check.counts).toMatchObject({
      giftsCreated: 25,
      donorsCreated: 7,
      campaignsCreated: 3,
      rowsInvalid: 0,
    });
    expect(check.rows[0]).toMatchObject({
      row: 2,
      outcome: "new",
      donor: { isNew: true },
      stored: {
        donor: { firstName: "Ada", lastName: "Giver", email: "giver0@example.test" },
        gift: { currency: "EUR" },
      },
    });
    expect(await donationsOf(org)).toEqual([]);
    const { n } = (await testEnv.DB.prepare("SELECT count(*) AS n FROM donor WHERE organization_id = ?")
      .bind(org)
      .first<{ n: number }>()) ?? { n: -1 };
    expect(n).toBe(0);
    const done = await runImport(caller, "donations", text, { fields: GIFT_FIELDS });
    expect(done.import.counts).toMatchObject(check.counts);
  });
});

describe("an import that stops", () => {
  it("resumes where it stopped when the same file is chosen again", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const text = giftsFile(50);
    const first = await runImport(caller, "donations", text, {
      fields: GIFT_FIELDS,
      batchRows: 10,
      stopAfter: 2,
    });
    expect(first.complete).toBe(false);
    expect(first.import).toMatchObject({ status: "running", nextRow: 22 });
    // The totals are right at every moment, also mid-import.
    await expectRecount(org, "UTC", caller, "mid-import");
    // It cannot be finished half way.
    expect(await caller.imports.finish({ id: first.import.id }).catch((e: unknown) => e)).toMatchObject({
      code: "CONFLICT",
      message: "30 rows are still to be imported; continue from row 22",
    });
    const found = await caller.imports.resumable({ kind: "donations", fileHash: await sha256(text) });
    expect(found?.id).toBe(first.import.id);
    const rest = await continueImport(caller, first.import.id, text, { batchRows: 10 });
    expect(rest.import).toMatchObject({
      status: "completed",
      nextRow: 52,
      counts: { giftsCreated: 50, donorsCreated: 7 },
    });
    expect(await donationsOf(org)).toHaveLength(50);
    await expectRecount(org, "UTC", caller, "resumed");
  });

  it("writes nothing of a batch that fails, and goes on from that batch", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const text = giftsFile(30);
    const first = await runImport(owner.caller, "donations", text, {
      fields: GIFT_FIELDS,
      batchRows: 10,
      stopAfter: 1,
    });
    // Every write of the next batch fails (the database is unreachable): twice, as the service retries once.
    const failing = await failingCaller(owner.jar.header(), "INSERT INTO donation (number", 2);
    const error = await codeOf(continueImport(failing, first.import.id, text, { batchRows: 10 }));
    expect(error).toBe("INTERNAL_SERVER_ERROR");
    expect(await owner.caller.imports.byId({ id: first.import.id })).toMatchObject({
      nextRow: 12,
      status: "running",
    });
    expect(await donationsOf(org)).toHaveLength(10);
    await expectRecount(org, "UTC", owner.caller, "after a failed batch");
    const rest = await continueImport(owner.caller, first.import.id, text, { batchRows: 10 });
    expect(rest.import).toMatchObject({ status: "completed", counts: { giftsCreated: 30 } });
    expect(await donationsOf(org)).toHaveLength(30);
    await expectRecount(org, "UTC", owner.caller, "after the resume");
  });

  it("lands a batch once: a retry answers 'already imported', two at once land one, a gap is refused", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const text = giftsFile(12);
    const { readShape } = await import("@core/import/read");
    const shape = readShape(text, { sampleRows: 100 });
    const imp = await caller.imports.start({
      kind: "donations",
      fileName: "gifts.csv",
      fileHash: await sha256(text),
      fileSize: text.length,
      totalRows: 12,
      headers: shape.headers,
      mapping: mappingFor(shape.headers, GIFT_FIELDS),
      options: baseOptions(),
    });
    const firstSix = shape.sample.slice(0, 6);
    const both = await Promise.allSettled([
      caller.imports.commit({ id: imp.id, rows: firstSix }),
      caller.imports.commit({ id: imp.id, rows: firstSix }),
    ]);
    const answers = both.map((b) => (b.status === "fulfilled" ? b.value.alreadyImported : "refused"));
    expect(answers.filter((a) => a === false)).toHaveLength(1);
    expect(await donationsOf(org)).toHaveLength(6);
    const retry = await caller.imports.commit({ id: imp.id, rows: firstSix });
    expect(retry).toMatchObject({ alreadyImported: true, nextRow: 8 });
    const gap = await caller.imports
      .commit({ id: imp.id, rows: shape.sample.slice(8) })
      .catch((e: unknown) => e);
    expect(gap).toMatchObject({ code: "CONFLICT", message: "This import continues at row 8" });
    await caller.imports.commit({ id: imp.id, rows: shape.sample.slice(6) });
    await caller.imports.finish({ id: imp.id });
    expect(await codeOf(caller.imports.commit({ id: imp.id, rows: shape.sample.slice(0, 1) }))).toBe(
      "CONFLICT",
    );
    expect(await donationsOf(org)).toHaveLength(12);
    await expectRecount(org, "UTC", caller, "after racing commits");
  });
});

/** A caller whose database fails every batch holding a statement with `marker`, `times` times. */
async function failingCaller(cookie: string, marker: string, times: number): Promise<Caller> {
  let left = times;
  // A batch holds the marked statement when it was prepared since the last batch (racingDb's way,
  // test/race.ts: a bound statement is another object than the prepared one).
  let marked = false;
  const failing = new Proxy(testEnv.DB, {
    get(target, key) {
      if (key === "prepare")
        return (sql: string) => {
          if (sql.includes(marker)) marked = true;
          return target.prepare(sql);
        };
      if (key === "batch")
        return async (stmts: D1PreparedStatement[]) => {
          const hit = marked;
          marked = false;
          if (hit && left > 0) {
            left--;
            throw new Error("D1_ERROR: Network connection lost.");
          }
          return target.batch(stmts);
        };
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const request = new Request(`${BASE_URL}/api/trpc`, { headers: { cookie } });
  return createCaller(
    await createContext({ request, env: { ...testEnv, DB: failing }, resHeaders: new Headers() }),
  );
}
