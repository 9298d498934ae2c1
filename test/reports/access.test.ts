/**
 * Who reads the fundraising reports (issue 27) and what a bad request gets: every organization
 * role reads every report (viewers too: donation:view); the lapsed donors' CSV is an export
 * (export:create and donor:view, never while impersonating); another organization's campaigns are
 * not found and its filters match nothing; inverted years, more than four campaigns, an unknown
 * currency, a year or day after today answer 400 in the error shape of SPEC §8 — never a 500.
 */
import { addDays, localDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv, trpcError, trpcHttp } from "../helpers";
import { bumpVersion } from "./brute";

async function world() {
  const org = await makeOrg({ timeZone: "Europe/Paris" });
  const owner = await member(org, "owner");
  const campaigns = [];
  for (const title of ["Alpha drive", "Beta drive", "Gamma drive", "Delta drive", "Epsilon drive"])
    campaigns.push((await owner.caller.campaigns.create({ title, currency: "USD", goalType: "none" })).id);
  const euro = (
    await owner.caller.campaigns.create({ title: "Euro drive", currency: "EUR", goalType: "none" })
  ).id;
  const donor = await owner.caller.donors.create({
    data: { firstName: "Ada", lastName: "Lovelace", email: "ada@r.test" },
  });
  const lastYear = Number(localDay(Date.now(), "Europe/Paris").slice(0, 4)) - 1;
  // A LYBUNT donor: gave last year, not this year.
  await owner.caller.donations.create({
    donorId: donor.id ?? null,
    campaignId: campaigns[0] ?? null,
    amountMinor: 12_500,
    currency: "USD",
    paymentMethod: "check",
    donatedAt: Date.UTC(lastYear, 5, 15, 12),
  });
  await bumpVersion(org);
  return { org, owner, campaigns, euro, lastYear, donorId: donor.id as string };
}

describe("reports access", () => {
  it("lets every organization role read every report, and only those with the export right download", async () => {
    const w = await world();
    for (const role of ["owner", "admin", "organizer", "viewer"] as const) {
      const { caller } = role === "owner" ? w.owner : await member(w.org, role);
      const lapsed = await caller.reports.lapsed({ kind: "lybunt" });
      expect(
        lapsed.rows.map((r) => [r.name, r.email, r.lastYearMinor]),
        role,
      ).toEqual([["Ada Lovelace", "ada@r.test", 12_500]]);
      expect((await caller.reports.yearly({})).giving.at(-2)?.raisedMinor, role).toBe(12_500);
      const pyramid = await caller.reports.pyramid({ year: w.lastYear });
      expect([pyramid.donors, pyramid.rows.map((r) => r.name)], role).toEqual([1, ["No tier"]]);
      expect(
        (await caller.reports.campaigns({ campaignIds: w.campaigns.slice(0, 2) })).campaigns[0]?.raisedMinor,
        role,
      ).toBe(12_500);
      const options = await caller.reports.options();
      expect([options.defaultCurrency, options.currencies, options.fiscalYearStartMonth], role).toEqual([
        "USD",
        ["USD"],
        1,
      ]);
      expect(await codeOf(caller.reports.lapsedExportPage({ kind: "lybunt" })), role).toBe(
        role === "viewer" ? "FORBIDDEN" : "OK",
      );
    }
    // The export is audited once, on its first page.
    const audits = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'report.export'",
    )
      .bind(w.org)
      .first<{ n: number }>();
    expect(audits?.n).toBe(3);
  });

  it("shows another organization nothing of ours", async () => {
    const w = await world();
    const other = await member(await makeOrg(), "owner");
    expect(await codeOf(other.caller.reports.campaigns({ campaignIds: w.campaigns.slice(0, 2) }))).toBe(
      "NOT_FOUND",
    );
    const theirs = await other.caller.reports.yearly({ campaignId: w.campaigns[0] });
    expect(theirs.giving.every((g) => g.raisedMinor === 0)).toBe(true);
    expect((await other.caller.reports.lapsed({ kind: "lybunt" })).total).toBe(0);
    expect((await other.caller.reports.lapsedExportPage({ kind: "lybunt" })).rows).toEqual([]);
  });

  it("answers bad input with a 400 in the spec's shape, never a 500", async () => {
    const w = await world();
    const thisYear = Number(localDay(Date.now(), "Europe/Paris").slice(0, 4));
    const today = localDay(Date.now(), "Europe/Paris");
    const cases: [string, unknown, RegExp][] = [
      ["reports.yearly", { fromYear: thisYear, toYear: thisYear - 3 }, /last year is before the first/],
      ["reports.yearly", { fromYear: thisYear - 30, toYear: thisYear }, /at most 20 years/],
      ["reports.yearly", { toYear: thisYear + 1 }, /cannot be after the current year/],
      ["reports.yearly", { currency: "XYZ" }, /Currency XYZ is not supported/],
      ["reports.yearly", { basis: "lunar" }, /Invalid/],
      ["reports.yearly", { fromYear: 1900 }, /from 1970/],
      ["reports.lapsed", { kind: "lapsed-ish" }, /Invalid/],
      ["reports.lapsed", { frequency: "weekly" }, /Invalid/],
      ["reports.pyramid", { source: "carrier-pigeon" }, /Invalid/],
      ["reports.yearly", { paymentMethod: "x".repeat(31) }, /Too big|at most 30/],
      ["reports.campaigns", { campaignIds: w.campaigns.slice(0, 2), frequency: "sometimes" }, /Invalid/],
      ["reports.lapsed", { pageSize: 7 }, /Page size/],
      ["reports.pyramid", { year: thisYear + 1 }, /cannot be after the current year/],
      ["reports.campaigns", { campaignIds: w.campaigns }, /at most 4 campaigns/],
      ["reports.campaigns", { campaignIds: [w.campaigns[0]] }, /at least 2 campaigns/],
      ["reports.campaigns", { campaignIds: [w.campaigns[0], w.campaigns[0]] }, /2 to 4 different campaigns/],
      ["reports.campaigns", { campaignIds: [w.campaigns[0], w.euro] }, /compare campaigns of one currency/],
      [
        "reports.campaigns",
        { campaignIds: w.campaigns.slice(0, 2), from: today, to: "2020-01-01" },
        /ends before it starts/,
      ],
      [
        "reports.campaigns",
        { campaignIds: w.campaigns.slice(0, 2), from: today, to: addDays(today, 1) },
        /cannot end after today/,
      ],
      ["reports.campaigns", { campaignIds: w.campaigns.slice(0, 2), currency: "usd!" }, /not supported/],
    ];
    for (const [path, input, message] of cases) {
      const at = `${path} ${JSON.stringify(input)}`;
      const res = await trpcHttp(w.owner.jar, path, input, { method: "GET" });
      expect(res.status, at).toBe(400);
      const err = (await trpcError(res)) as { code: string; message: string; fieldErrors?: object } | null;
      expect(err?.code, at).toBe("BAD_REQUEST");
      expect([err?.message, ...Object.values(err?.fieldErrors ?? {}).flat()].join(" "), at).toMatch(message);
    }
    const bad = await trpcHttp(w.owner.jar, "reports.lapsedExportPage", { kind: "lybunt", after: "nope" });
    expect(bad.status).toBe(400);
    expect((await trpcError(bad))?.code).toBe("BAD_REQUEST");
  });
});
