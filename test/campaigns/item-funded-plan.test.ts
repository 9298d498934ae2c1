/**
 * What an item has funded (itemFundedSql, worker/campaigns/items/queries.ts) is summed from the
 * item's own gifts through donation_item_idx (drizzle/0023), the index alone: the items list, the
 * public page, campaign analytics and the overfunding check inside a gift's write all use it.
 * Without the index SQLite scanned every gift of the database for each item.
 */
import { describe, expect, it } from "vitest";
import { itemFundedSql } from "../../worker/campaigns/items/queries";
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
