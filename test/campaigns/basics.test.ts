import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { callerFor, campaign, makeOrg, member } from "../fixtures";
import { codeOf } from "../helpers";

describe("campaigns", () => {
  it("walks the status machine and refuses the rest with 422 and the allowed targets", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "organizer", "organizer");
    const c = await caller.campaigns.create(campaign);
    expect(c.status).toBe("draft");
    const refused = await caller.campaigns.toggleStatus({ id: c.id }).catch((e: TRPCError) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("UNPROCESSABLE_CONTENT");
    expect(
      ((refused as TRPCError).cause as unknown as { details: { allowed: string[] } }).details.allowed,
    ).toEqual(["active", "archived"]);
    expect((await caller.campaigns.setStatus({ id: c.id, action: "publish" })).status).toBe("active");
    expect((await caller.campaigns.toggleStatus({ id: c.id })).status).toBe("paused");
    expect((await caller.campaigns.toggleStatus({ id: c.id })).status).toBe("active");
    expect(await codeOf(caller.campaigns.setStatus({ id: c.id, action: "unarchive" }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect((await caller.campaigns.setStatus({ id: c.id, action: "complete" })).status).toBe("completed");
    expect((await caller.campaigns.setStatus({ id: c.id, action: "archive" })).status).toBe("archived");
  });

  it("validates input, keeps slugs unique per organization and redirects old slugs", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    expect(await codeOf(caller.campaigns.create({ ...campaign, title: "ab" }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.campaigns.create({ ...campaign, goalAmountMinor: null }))).toBe("BAD_REQUEST");
    const c = await caller.campaigns.create({ ...campaign, slug: "coats" });
    expect(await codeOf(caller.campaigns.create({ ...campaign, slug: "coats" }))).toBe("CONFLICT");
    await caller.campaigns.update({ id: c.id, data: { ...campaign, slug: "warm-coats" } });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    const anon = await callerFor(null);
    const pub = await anon.campaigns.public({ organizationSlug: org, slug: "coats" });
    expect(pub.campaign.slug).toBe("warm-coats");
    expect(await codeOf(caller.campaigns.create({ ...campaign, slug: "coats" }))).toBe("CONFLICT");
  });

  it("refuses to delete a campaign with donations and locks its currency", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create(campaign);
    await caller.donations.create({
      donorId: null,
      campaignId: c.id,
      amountMinor: 5000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    });
    const err = (await caller.campaigns.delete({ id: c.id }).catch((e) => e)) as TRPCError;
    expect(err.code).toBe("UNPROCESSABLE_CONTENT");
    expect(err.message).toContain("Archive it instead");
    expect(await codeOf(caller.campaigns.update({ id: c.id, data: { ...campaign, currency: "EUR" } }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    const empty = await caller.campaigns.create({ ...campaign, title: "Empty one" });
    expect(await codeOf(caller.campaigns.delete({ id: empty.id }))).toBe("OK");
  });

  it("hides anonymous donors on the public page", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ ...campaign, slug: "pub" });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    const donor = await caller.donors.create({
      data: { firstName: "Secret", lastName: "Giver", email: "secret@example.test" },
    });
    if (!donor.created) throw new Error("expected a new donor");
    await caller.donations.create({
      donorId: donor.id,
      campaignId: c.id,
      amountMinor: 2500,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
      anonymous: true,
      message: "private",
    });
    const pub = await (await callerFor(null)).campaigns.public({ organizationSlug: org, slug: "pub" });
    expect(JSON.stringify(pub)).not.toContain("Secret");
    expect(JSON.stringify(pub)).not.toContain("secret@");
    expect(pub.recent[0]?.name).toBe("Anonymous");
    expect(pub.campaign.raisedMinor).toBe(2500);
  });
});
