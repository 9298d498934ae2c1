/**
 * What an item has funded (itemFundedSql, worker/campaigns/items/queries.ts) is summed from the
 * item's own gifts through donation_item_idx (drizzle/0023), the index alone: the items list, the
 * public page, campaign analytics and the overfunding check inside a gift's write all use it.
 * Without the index SQLite scanned every gift of the database for each item.
 */
import { describe, expect, it } from "vitest";
import { donationWhere } from "../../worker/donations/list-queries";
import { itemFundedSql } from "../../worker/ledger/campaign-rollups";
import { testEnv } from "../helpers";

// D1 binds no parameters to EXPLAIN; literals plan as parameters do.
async function plan(sql: string) {
  const { results } = await testEnv.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).all<{ detail: string }>();
  return results.map((r) => r.detail);
}

describe("what an item has funded", () => {
  it("reads the item's gifts alone, through the covering item index, with or without one gift left out", async () => {
    for (const sql of [itemFundedSql("i.id"), itemFundedSql("i.id", "'gift'")]) {
      const steps = await plan(`SELECT i.id, ${sql} AS funded FROM campaign_item i WHERE i.id = 'item'`);
      const donation = steps.filter((s) => / f\b/.test(s));
      expect(donation, steps.join(" | ")).toEqual([
        expect.stringMatching(/^SEARCH f USING COVERING INDEX donation_item_idx \(campaign_item_id=\?/),
      ]);
    }
  });
});

describe("the donations list filtered by an item", () => {
  /** The list page's id query (worker/donations/list-queries.ts listPage), its values inlined. */
  const pageSql = (filters: Omit<Parameters<typeof donationWhere>[2], "trashed">) => {
    const w = donationWhere("org", "Europe/Lisbon", { trashed: false, ...filters });
    const values = [...w.params];
    const where = w.sql.join(" AND ").replace(/\?/g, () => {
      const v = values.shift();
      return typeof v === "number" ? String(v) : `'${String(v)}'`;
    });
    return `SELECT d.id FROM donation d WHERE ${where} ORDER BY d.donated_at DESC, d.id DESC LIMIT 25`;
  };

  it("reads the item's own gifts through the item index, not the organization's whole date index", async () => {
    for (const filters of [
      { campaignItemId: "item" },
      { campaignItemId: "item", campaignId: "campaign", from: "2026-01-01", status: ["completed" as const] },
    ]) {
      const steps = await plan(pageSql(filters));
      expect(steps[0], steps.join(" | ")).toMatch(
        /^SEARCH d USING INDEX donation_item_idx \(campaign_item_id=\?/,
      );
    }
    // Without it, the page still comes from the organization's date index in order.
    const steps = await plan(pageSql({}));
    expect(steps[0], steps.join(" | ")).toMatch(
      /^SEARCH d USING (COVERING )?INDEX donation_org_date_idx \(organization_id=\?\)/,
    );
  });
});
