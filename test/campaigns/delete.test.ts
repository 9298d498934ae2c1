/**
 * Deleting a campaign (DESIGN §5.3, core/campaign.ts `campaignDeletable`): only while nobody gave
 * to it — a live, a test or a trashed gift each keeps it — in one batch with its items, its rollup
 * and an audit row; `byId` says whether the portal may offer it. Real D1, every role.
 */
import { CAMPAIGN_HAS_GIFTS_MESSAGE } from "@core/campaign";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";

const base = { title: "Spring Drive", currency: "USD" as const };
type Caller = Awaited<ReturnType<typeof member>>["caller"];

const gift = (caller: Caller, campaignId: string, more: { mode?: "live" | "test" } = {}) =>
  caller.donations.create({
    donorId: null,
    campaignId,
    amountMinor: 2500,
    currency: "USD",
    paymentMethod: "cash",
    donatedAt: Date.now(),
    ...more,
  });

const count = async (sql: string, ...args: unknown[]) =>
  (
    await testEnv.DB.prepare(sql)
      .bind(...args)
      .first<{ n: number }>()
  )?.n ?? -1;

describe("deleting a campaign", () => {
  it("deletes a campaign nobody gave to, with its items, in one audited batch", async () => {
    const org = await makeOrg();
    const { caller, user } = await member(org, "owner");
    const c = await caller.campaigns.create(base);
    await caller.campaigns.items.create({ campaignId: c.id, title: "Seeds", unitAmountMinor: 500 });
    expect((await caller.campaigns.byId({ id: c.id })).deletable).toBe(true);

    expect(await caller.campaigns.delete({ id: c.id })).toEqual({ id: c.id });

    expect(await codeOf(caller.campaigns.byId({ id: c.id }))).toBe("NOT_FOUND");
    expect(await count("SELECT COUNT(*) AS n FROM campaign_item WHERE campaign_id = ?", c.id)).toBe(0);
    const audit = await testEnv.DB.prepare(
      "SELECT actor_id, organization_id, before FROM audit_event WHERE action = 'campaign.delete' AND entity_id = ?",
    )
      .bind(c.id)
      .all<{ actor_id: string; organization_id: string; before: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]).toMatchObject({ actor_id: user.id, organization_id: org });
    expect(JSON.parse(audit.results[0]?.before ?? "{}")).toMatchObject({ title: base.title });
  });

  it("refuses a campaign with a live, a test or a trashed gift, changing nothing, and byId says so", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const cases = {
      live: async (id: string) => void (await gift(caller, id)),
      test: async (id: string) => void (await gift(caller, id, { mode: "test" })),
      trashed: async (id: string) => {
        const d = await gift(caller, id);
        await caller.donations.delete({ id: d.id });
      },
    };
    for (const [name, give] of Object.entries(cases)) {
      const c = await caller.campaigns.create({ ...base, title: `With a ${name} gift` });
      await caller.campaigns.items.create({ campaignId: c.id, title: "Seeds", unitAmountMinor: 500 });
      await give(c.id);
      expect((await caller.campaigns.byId({ id: c.id })).deletable, name).toBe(false);
      const err = (await caller.campaigns.delete({ id: c.id }).catch((e) => e)) as TRPCError;
      expect(err, name).toBeInstanceOf(TRPCError);
      expect(err.code, name).toBe("UNPROCESSABLE_CONTENT");
      expect(err.message, name).toBe(CAMPAIGN_HAS_GIFTS_MESSAGE);
      expect((await caller.campaigns.byId({ id: c.id })).title, name).toBe(`With a ${name} gift`);
      expect(await count("SELECT COUNT(*) AS n FROM campaign_item WHERE campaign_id = ?", c.id), name).toBe(
        1,
      );
      expect(
        await count(
          "SELECT COUNT(*) AS n FROM audit_event WHERE action = 'campaign.delete' AND entity_id = ?",
          c.id,
        ),
        name,
      ).toBe(0);
    }
  });

  it("lets owners, admins and organizers delete; refuses viewers and other organizations", async () => {
    const org = await makeOrg();
    const other = await makeOrg();
    const owner = await member(org, "owner");
    for (const role of ["owner", "admin", "organizer"] as const) {
      const { caller } = role === "owner" ? owner : await member(org, role);
      const c = await owner.caller.campaigns.create({ ...base, title: `For the ${role}` });
      expect(await codeOf(caller.campaigns.delete({ id: c.id })), role).toBe("OK");
    }
    const c = await owner.caller.campaigns.create(base);
    const viewer = await member(org, "viewer");
    expect(await codeOf(viewer.caller.campaigns.delete({ id: c.id }))).toBe("FORBIDDEN");
    const outsider = await member(other, "owner");
    expect(await codeOf(outsider.caller.campaigns.delete({ id: c.id }))).toBe("NOT_FOUND");
    expect(await codeOf(owner.caller.campaigns.delete({ id: "no-such-campaign" }))).toBe("NOT_FOUND");
    expect((await owner.caller.campaigns.byId({ id: c.id })).deletable).toBe(true);
  });
});
