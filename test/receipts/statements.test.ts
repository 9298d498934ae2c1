/**
 * Year-end statements (issue 25, decision 031) on real D1: a donor's statement lists every gift
 * with an issued receipt in the calendar or fiscal year (in the organization's time zone), the
 * corrected amount after a refund and nothing of another year, with totals per currency; it
 * downloads as a PDF for those who may see receipts; a bulk run e-mails each donor with an
 * address once, skips the others, shows its progress, resumes after a pause, and two steps at
 * once never send a donor two statements. The PDFs are read back with unpdf.
 */
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { STEP_DONORS } from "../../worker/receipts/statements";
import { makeOrg, member } from "../domain/fixtures";
import { appFetch, codeOf, testEnv } from "../helpers";

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
});
