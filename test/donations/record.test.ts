/**
 * Record a donation (issue 53, L5): an offline gift keeps its check number or transfer reference
 * (payment_reference, not the processor's gateway id) and may fund one of its campaign's items.
 */

import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf } from "../helpers";

const gift = {
  donorId: null,
  amountMinor: 5000,
  currency: "USD",
  paymentMethod: "check" as const,
  donatedAt: Date.UTC(2026, 10, 2, 12),
};

describe("recording an offline gift", () => {
  it("keeps the check number apart from the gateway id, and the item it funds", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "organizer");
    const c = await caller.campaigns.create({ title: "Winter Coats", currency: "USD", goalType: "none" });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    const coat = await caller.campaigns.items.create({
      campaignId: c.id,
      title: "Coat",
      unitAmountMinor: 2500,
    });
    const made = await caller.donations.create({
      ...gift,
      campaignId: c.id,
      campaignItemId: coat.id,
      itemQuantity: 2,
      paymentReference: "  Check #1042 ",
    });
    const d = await caller.donations.byId({ id: made.id });
    expect(d).toMatchObject({
      paymentReference: "Check #1042",
      gatewayTransactionId: null,
      campaignItemId: coat.id,
      itemQuantity: 2,
    });
    const items = await caller.campaigns.items.list({ campaignId: c.id });
    expect(items.find((i) => i.id === coat.id)?.quantityFunded).toBe(2);
    // No reference: none stored, not an empty string.
    const plain = await caller.donations.create({ ...gift, campaignId: null, paymentReference: " " });
    expect((await caller.donations.byId({ id: plain.id })).paymentReference).toBeNull();
  });

  it("refuses a reference too long, another campaign's item, and a viewer", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const viewer = (await member(org, "viewer")).caller;
    const a = await caller.campaigns.create({ title: "Campaign A", currency: "USD", goalType: "none" });
    const b = await caller.campaigns.create({ title: "Campaign B", currency: "USD", goalType: "none" });
    await caller.campaigns.setStatus({ id: a.id, action: "publish" });
    await caller.campaigns.setStatus({ id: b.id, action: "publish" });
    const itemOfB = await caller.campaigns.items.create({
      campaignId: b.id,
      title: "Boots",
      unitAmountMinor: 3000,
    });
    expect(
      await codeOf(caller.donations.create({ ...gift, campaignId: a.id, paymentReference: "x".repeat(101) })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(caller.donations.create({ ...gift, campaignId: a.id, campaignItemId: itemOfB.id })),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(viewer.donations.create({ ...gift, campaignId: a.id, paymentReference: "Check #1" })),
    ).toBe("FORBIDDEN");
    expect((await caller.donations.list({})).total).toBe(0);
  });
});
