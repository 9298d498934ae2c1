/**
 * Year-end statements (issue 25, decision 031) on real D1: a donor's statement lists every gift
 * with an issued receipt in the calendar or fiscal year (in the organization's time zone), the
 * corrected amount after a refund and nothing of another year, with totals per currency; it
 * downloads as a PDF for those who may see receipts; a bulk run e-mails each donor with an
 * address once, skips the others, shows its progress, resumes after a pause, and two steps at
 * once never send a donor two statements. Imported gifts are listed, marked "Previous system"
 * (decision 048); before a run the preview counts its donors, a test goes to the person asking, and
 * attachments are named for the donor (issue 53). The PDFs are read back with unpdf.
 */
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { STEP_DONORS, statementFileName } from "../../worker/receipts/statements";
import { makeOrg, member } from "../fixtures";
import { appFetch, codeOf, testEnv } from "../helpers";
import { csv, runImport } from "../imports/run";

type Caller = Awaited<ReturnType<typeof member>>["caller"];

async function donor(
  caller: Caller,
  firstName: string,
  email: string | null = `${crypto.randomUUID()}@example.test`,
) {
  const d = await caller.donors.create({ data: { firstName, lastName: "Giver", email } });
  if (!d.created) throw new Error("expected a new donor");
  return d.id;
}

const gift = (donorId: string, donatedAt: number, o: Record<string, unknown> = {}) => ({
  donorId,
  campaignId: null,
  amountMinor: 10_000,
  currency: "USD" as const,
  paymentMethod: "cash" as const,
  donatedAt,
  ...o,
});

async function text(bytes: ArrayBuffer | Uint8Array) {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/[\s\u00a0\u202f]+/g, " ");
}

const at = (iso: string) => Date.parse(iso);

describe("year-end statements", () => {
  it("list a year's receipted gifts in the organization's time zone, corrected after a refund, totalled per currency", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Auckland" });
    const { caller, jar } = await member(org, "owner");
    const d = await donor(caller, "Ngaio");
    // 2025-12-31 23:30 UTC is 2026-01-01 in Auckland: a 2026 gift there.
    const newYear = await caller.donations.create(
      gift(d, at("2025-12-31T23:30:00Z"), { amountMinor: 4_000 }),
    );
    const refunded = await caller.donations.create(
      gift(d, at("2026-03-10T00:00:00Z"), { amountMinor: 20_000 }),
    );
    await caller.donations.updateStatus({
      id: refunded.id,
      status: "partially_refunded",
      refundAmountMinor: 5_000,
      reason: "Part returned",
    });
    await caller.donations.create(
      gift(d, at("2026-06-01T00:00:00Z"), { amountMinor: 7_000, currency: "EUR" }),
    );
    await caller.donations.create(gift(d, at("2025-06-01T00:00:00Z"), { amountMinor: 99_900 }));
    expect(newYear.id).toBeTruthy();

    const years = await caller.receipts.statementYears({ donorId: d });
    expect(years.calendar.map((y) => y.label)).toEqual(["2026", "2025"]);

    const res = await jar.get(`/api/donors/${d}/statement.pdf?year=2026&basis=calendar`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const t = await text(await res.arrayBuffer());
    expect(t).toContain("Ngaio Giver");
    expect(t).toContain("2026");
    expect(t).toContain("$40.00");
    expect(t).toContain("$150.00"); // the refunded gift, as corrected
    expect(t).not.toContain("$999.00"); // 2025's
    // Totals per currency, never summed across them.
    expect(t).toContain("$190.00");
    expect(t).toContain("€70.00");
  });

  it("cover the fiscal year when the organization's starts in July", async () => {
    const org = await makeOrg();
    const { caller, jar } = await member(org, "owner");
    await testEnv.DB.prepare("UPDATE organization SET fiscal_year_start_month = 7 WHERE id = ?")
      .bind(org)
      .run();
    const d = await donor(caller, "Fiscal");
    await caller.donations.create(gift(d, at("2026-06-30T12:00:00Z"), { amountMinor: 1_100 }));
    await caller.donations.create(gift(d, at("2026-07-01T12:00:00Z"), { amountMinor: 2_200 }));
    const years = await caller.receipts.statementYears({ donorId: d });
    expect(years.fiscal.map((y) => y.label)).toEqual(["FY 2026/27", "FY 2025/26"]);
    const t = await text(
      await (await jar.get(`/api/donors/${d}/statement.pdf?year=2026&basis=fiscal`)).arrayBuffer(),
    );
    expect(t).toContain("FY 2026/27");
    expect(t).toContain("$22.00");
    expect(t).not.toContain("$11.00");
  });

  it("download only for members who see receipts, with clear refusals for a bad year or a donor without gifts", async () => {
    const org = await makeOrg();
    const { caller, jar } = await member(org, "owner");
    const d = await donor(caller, "Viewed");
    await caller.donations.create(gift(d, at("2026-02-01T00:00:00Z")));
    const { jar: viewer } = await member(org, "viewer");
    expect((await viewer.get(`/api/donors/${d}/statement.pdf?year=2026`)).status).toBe(200);
    const outsider = await member(await makeOrg(), "owner");
    expect((await outsider.jar.get(`/api/donors/${d}/statement.pdf?year=2026`)).status).toBe(404);
    const bad = await jar.get(`/api/donors/${d}/statement.pdf?year=20226`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "BAD_REQUEST" });
    expect((await jar.get(`/api/donors/${d}/statement.pdf?year=2019`)).status).toBe(404);
    expect((await appFetch(`/api/donors/${d}/statement.pdf?year=2026`)).status).toBe(401);
  });

  it("e-mail every donor with an address once in a bulk run (none to the anonymized), step by step, resuming after a pause", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "admin");
    const donors = STEP_DONORS + 3;
    const emails: string[] = [];
    for (let i = 0; i < donors; i++) {
      const email = i === 0 ? null : `bulk-${i}-${crypto.randomUUID()}@example.test`;
      const id = await donor(caller, `Bulk${i}`, email);
      await caller.donations.create(gift(id, at("2026-04-01T00:00:00Z")));
      // One donor anonymized after giving: their receipt stays (a tax record), no statement goes.
      if (i === 1 && email) await caller.donors.anonymize({ id, confirm: email });
      else if (email) emails.push(email);
    }
    const run = await caller.receipts.startStatements({ year: 2026, basis: "calendar" });
    expect(run).toMatchObject({ total: donors, sent: 0, skipped: 0, finishedAt: null, label: "2026" });
    const first = await caller.receipts.stepStatements({ runId: run.id });
    expect(first.sent + first.skipped).toBe(STEP_DONORS);
    // Paused here; starting the same year again resumes the same run.
    const again = await caller.receipts.startStatements({ year: 2026, basis: "calendar" });
    expect(again.id).toBe(run.id);
    let r = again;
    while (!r.finishedAt) r = await caller.receipts.stepStatements({ runId: run.id });
    expect(r).toMatchObject({ total: donors, sent: donors - 2, skipped: 2 });

    const { results } = await testEnv.DB.prepare(
      `SELECT "to", attachments FROM mail_outbox WHERE "to" IN (SELECT value FROM json_each(?))`,
    )
      .bind(JSON.stringify(emails))
      .all<{ to: string; attachments: string }>();
    expect(results.map((m) => m.to).sort()).toEqual([...emails].sort());
    const [one] = JSON.parse(results[0]?.attachments ?? "[]") as { content: string; filename: string }[];
    expect(one?.filename).toMatch(/^statement-2026-.*\.pdf$/);
    const runs = await caller.receipts.statementRuns();
    expect(runs.runs[0]).toMatchObject({ id: run.id, sent: donors - 2, skipped: 2 });
  });

  it("never send a donor two statements when two steps of one run race", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    for (let i = 0; i < 3; i++)
      await caller.donations.create(gift(await donor(caller, `Race${i}`), at("2026-05-01T00:00:00Z")));
    const run = await caller.receipts.startStatements({ year: 2026, basis: "calendar" });
    const outcomes = await Promise.allSettled([
      caller.receipts.stepStatements({ runId: run.id }),
      caller.receipts.stepStatements({ runId: run.id }),
    ]);
    const codes = outcomes.map((o) =>
      o.status === "fulfilled" ? "ok" : (o.reason as { code: string }).code,
    );
    expect(codes.filter((c) => c === "ok").length).toBeGreaterThanOrEqual(1);
    expect(codes.every((c) => c === "ok" || c === "CONFLICT")).toBe(true);
    let r = await caller.receipts.stepStatements({ runId: run.id });
    while (!r.finishedAt) r = await caller.receipts.stepStatements({ runId: run.id });
    expect(r.sent).toBe(3);
    const acks = await testEnv.DB.prepare(
      "SELECT donor_id, COUNT(*) AS n FROM acknowledgement WHERE organization_id = ? AND kind = 'statement' GROUP BY donor_id",
    )
      .bind(org)
      .all<{ n: number }>();
    expect(acks.results.map((a) => a.n)).toEqual([1, 1, 1]);
    expect(await codeOf(caller.receipts.startStatements({ year: 2019, basis: "calendar" }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("list a known donor's imported gifts beside Almoner's receipts, marked as receipted by the previous system, and send them in the run", async () => {
    const org = await makeOrg();
    const { caller, jar } = await member(org, "owner");
    const email = `daniel-${crypto.randomUUID()}@example.test`;
    const file = csv([
      ["First Name", "Last Name", "Email", "Amount", "Currency", "Date", "Status", "Campaign"],
      ["Daniel", "Kim", email, "500.00", "USD", "2026-01-30T12:00:00Z", "Completed", "Roof Repair"],
      ["Daniel", "Kim", email, "75.00", "USD", "2026-02-14T12:00:00Z", "Refunded", ""],
      ["Daniel", "Kim", email, "60.00", "USD", "2025-12-30T12:00:00Z", "Completed", ""],
    ]);
    const { rejected } = await runImport(caller, "donations", file, {
      fields: {
        "First Name": "firstName",
        "Last Name": "lastName",
        Email: "email",
        Amount: "amount",
        Currency: "currency",
        Date: "donatedAt",
        Status: "status",
        Campaign: "campaign",
      },
    });
    expect(rejected).toEqual([]);
    const receiptsBefore = await testEnv.DB.prepare(
      "SELECT COUNT(*) AS n FROM receipt WHERE organization_id = ?",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(receiptsBefore?.n).toBe(0);
    const donorId = (
      await testEnv.DB.prepare("SELECT id FROM donor WHERE organization_id = ? AND email = ?")
        .bind(org, email)
        .first<{ id: string }>()
    )?.id as string;
    // A gift recorded here after the move: Almoner's receipt, numbered.
    await caller.donations.create(gift(donorId, at("2026-09-01T00:00:00Z"), { amountMinor: 2_500 }));

    expect((await caller.receipts.statementYears({ donorId })).calendar.map((y) => y.label)).toEqual([
      "2026",
      "2025",
    ]);
    const res = await jar.get(`/api/donors/${donorId}/statement.pdf?year=2026&basis=calendar`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("statement-2026-daniel-kim.pdf");
    const t = await text(await res.arrayBuffer());
    expect(t).toContain("Previous system");
    expect(t).toContain("receipted by the system we used before");
    expect(t).toContain("000001");
    expect(t).toContain("$500.00");
    expect(t).toContain("Roof Repair");
    // L10: a gift to no campaign says so.
    expect(t).toContain("General fund");
    expect(t).not.toContain("$75.00"); // refunded: nothing to deduct
    expect(t).not.toContain("$60.00"); // 2025's
    expect(t).toContain("$525.00");
    // Still no receipt was issued for the imported gifts: the sequence has only ours.
    const numbers = await testEnv.DB.prepare("SELECT number FROM receipt WHERE organization_id = ?")
      .bind(org)
      .all<{ number: number }>();
    expect(numbers.results.map((r) => r.number)).toEqual([1]);

    const preview = await caller.receipts.statementPreview({ year: 2025, basis: "calendar" });
    expect(preview).toMatchObject({ label: "2025", donors: 1, reachable: 1, imported: 1, over: true });
    const run = await caller.receipts.startStatements({ year: 2025, basis: "calendar" });
    let r = await caller.receipts.stepStatements({ runId: run.id });
    while (!r.finishedAt) r = await caller.receipts.stepStatements({ runId: run.id });
    expect(r).toMatchObject({ total: 1, sent: 1, skipped: 0 });
    const mail = await testEnv.DB.prepare(`SELECT attachments FROM mail_outbox WHERE "to" = ?`)
      .bind(email)
      .first<{ attachments: string }>();
    const [pdf] = JSON.parse(mail?.attachments ?? "[]") as { filename: string; content: string }[];
    expect(pdf?.filename).toBe("statement-2025-daniel-kim.pdf");
    const sent = await text(Uint8Array.from(atob(pdf?.content ?? ""), (c) => c.charCodeAt(0)));
    expect(sent).toContain("$60.00");
    expect(sent).toContain("Previous system");
  });

  it("say before a run how many donors it e-mails and whether the year is over, and send a test to the person asking", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Auckland" });
    const { caller, email } = await member(org, "organizer");
    const d = await donor(caller, "Rosa");
    await caller.donations.create(gift(d, at("2026-03-01T00:00:00Z")));
    await caller.donations.create(gift(await donor(caller, "Nomail", null), at("2026-03-02T00:00:00Z")));
    const preview = await caller.receipts.statementPreview({ year: 2026, basis: "calendar" });
    expect(preview).toMatchObject({ label: "2026", donors: 2, reachable: 1, imported: 0 });
    // In Auckland 2026 ends at 2026-12-31T11:00Z.
    expect(preview.periodEnd).toBe(at("2026-12-31T11:00:00Z"));
    expect(preview.over).toBe(Date.now() >= at("2026-12-31T11:00:00Z"));

    const test = await caller.receipts.testStatement({ year: 2026, basis: "calendar" });
    expect(test).toMatchObject({ sentTo: email.toLowerCase(), label: "2026" });
    const mail = await testEnv.DB.prepare(
      `SELECT subject, text, attachments FROM mail_outbox WHERE "to" = ? AND subject LIKE '[Test]%'`,
    )
      .bind(email.toLowerCase())
      .first<{ subject: string; text: string; attachments: string }>();
    expect(mail?.subject).toMatch(/^\[Test\] Your 2026 giving statement from /);
    expect(mail?.text).toContain("Nothing was sent to any donor.");
    expect((JSON.parse(mail?.attachments ?? "[]") as { filename: string }[])[0]?.filename).toMatch(
      /^statement-2026-(rosa|nomail)-giver\.pdf$/,
    );
    const acks = await testEnv.DB.prepare(
      "SELECT COUNT(*) AS n FROM acknowledgement WHERE organization_id = ?",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(acks?.n).toBe(0);
    const viewer = await member(org, "viewer");
    expect(await codeOf(viewer.caller.receipts.testStatement({ year: 2026, basis: "calendar" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(viewer.caller.receipts.statementPreview({ year: 2026, basis: "calendar" }))).toBe(
      "FORBIDDEN",
    );
  });

  it("name the attachment by the period and the donor's name, never an internal id", () => {
    const f = (first: string | null, last: string | null, company: string | null = null) =>
      statementFileName("2026", { first_name: first, last_name: last, company });
    expect(f("Rosa", "Delgado")).toBe("statement-2026-rosa-delgado.pdf");
    expect(f("Łucja", "Żółć")).toBe("statement-2026-lucja-zolc.pdf");
    expect(f(null, null, "Acme & Sons, Ltd.")).toBe("statement-2026-acme-sons-ltd.pdf");
    expect(f("花子", "佐藤")).toBe("statement-2026.pdf");
    expect(statementFileName("FY 2026/27", { first_name: "Ada", last_name: null, company: null })).toBe(
      "statement-fy-2026-27-ada.pdf",
    );
  });
});
