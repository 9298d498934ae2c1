import { describe, expect, it } from "vitest";
import { campaign, makeOrg, member } from "../fixtures";
import { codeOf } from "../helpers";

describe("tenancy and permissions", () => {
  it("answers NOT_FOUND for another organization's ids and FORBIDDEN for missing rights", async () => {
    const orgA = await makeOrg();
    const orgB = await makeOrg();
    const a = await member(orgA, "owner");
    const b = await member(orgB, "owner");
    const viewer = await member(orgA, "viewer");
    const c = await a.caller.campaigns.create(campaign);
    expect(await codeOf(b.caller.campaigns.byId({ id: c.id }))).toBe("NOT_FOUND");
    expect(await codeOf(b.caller.campaigns.toggleStatus({ id: c.id }))).toBe("NOT_FOUND");
    expect((await b.caller.campaigns.list({})).total).toBe(0);
    expect(await codeOf(viewer.caller.campaigns.create(campaign))).toBe("FORBIDDEN");
    expect((await viewer.caller.campaigns.byId({ id: c.id })).title).toBe("Winter Coats");
    // The tenant is never taken from input: unknown keys are refused, not obeyed.
    expect(await codeOf(a.caller.campaigns.create({ ...campaign, organizationId: orgB } as never))).toBe(
      "BAD_REQUEST",
    );
  });
});
