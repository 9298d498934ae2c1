import { describe, expect, it } from "vitest";
import { campaign, makeOrg, member } from "../fixtures";
import { codeOf } from "../helpers";

describe("campaign items", () => {
  it("counts funded quantity, enforces the overfunding rule and deletes only unused items", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create(campaign);
    const { id: itemId } = await caller.campaigns.items.create({
      campaignId: c.id,
      title: "Blanket",
      unitAmountMinor: 2500,
      quantityNeeded: 3,
      allowOverfunding: false,
    });
    const gift = (qty: number) =>
      caller.donations.create({
        donorId: null,
        campaignId: c.id,
        campaignItemId: itemId,
        itemQuantity: qty,
        amountMinor: 2500 * qty,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now(),
      });
    await gift(2);
    expect(await codeOf(gift(2))).toBe("UNPROCESSABLE_CONTENT");
    await gift(1);
    const [item] = await caller.campaigns.items.list({ campaignId: c.id });
    expect(item).toMatchObject({ quantityFunded: 3, fullyFunded: true });
    expect(await codeOf(caller.campaigns.items.delete({ id: itemId }))).toBe("UNPROCESSABLE_CONTENT");
    const spare = await caller.campaigns.items.create({
      campaignId: c.id,
      title: "Spare",
      unitAmountMinor: 500,
    });
    expect(await codeOf(caller.campaigns.items.delete({ id: spare.id }))).toBe("OK");
  });
});
