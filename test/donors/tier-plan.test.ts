/**
 * A donor's tier is set in every gift's write (worker/ledger/donor-stats.ts `tierSql`, DESIGN §4). For
 * one donor the statement must find that donor by its id: written as one statement for one donor
 * or all (`(?2 IS NULL OR id = ?2)`), SQLite walked the organization's donor index for each gift,
 * ≈ 35 ms a write and ≈ 4 s a bulk call of 100 gifts at 100 000 donors (docs/performance.md).
 */
import { describe, expect, it } from "vitest";
import { tierSql } from "../../worker/ledger/donor-stats";
import { testEnv } from "../helpers";

// D1 binds no parameters to EXPLAIN; literals plan as parameters do.
async function plan(sql: string) {
  const inlined = sql.replace(/\?1\b/g, "'org'").replace(/\?2\b/g, "'donor'").replace(/\?3\b/g, "0");
  const { results } = await testEnv.DB.prepare(`EXPLAIN QUERY PLAN ${inlined}`).all<{ detail: string }>();
  return results.map((r) => r.detail);
}

describe("the tier statement's plan", () => {
  it("finds one donor by its primary key, not by the organization's donors", async () => {
    const steps = await plan(tierSql(true));
    expect(steps[0], steps.join(" | ")).toMatch(
      /^SEARCH donor USING INDEX sqlite_autoindex_donor_1 \(id=\?\)/,
    );
  });

  it("walks the organization's donors when every donor is re-evaluated (a ladder change, the cron)", async () => {
    const steps = await plan(tierSql(false));
    expect(steps[0], steps.join(" | ")).toMatch(/^SEARCH donor USING INDEX \w+ \(organization_id=\?/);
  });
});
