/**
 * Thank-you templates (issue 25, decision 031) on real D1: the default before anything is saved,
 * what owners and admins save (and its audit row), who may read and change them, a campaign's own
 * message winning over the organization's, another organization's campaign never reachable, and
 * what the shared schema refuses, over HTTP in the API's error shape.
 */
import { DEFAULT_THANK_YOU } from "@core/thanks";
import { describe, expect, it } from "vitest";
import { thankYouTemplateFor } from "../../worker/thanks/service";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv, trpcHttp } from "../helpers";

const mine = {
  subject: "Thank you, {{donor.firstName}}!",
  body: "Dear {{donor.name}},\n\nYour {{gift.amount}} keeps {{organization.name}} going.",
};
const coats = {
  subject: "Your coat gift to {{campaign.title}}",
  body: "Dear {{donor.firstName}},\n\nA child will be warm this winter.",
};

async function campaign(caller: Awaited<ReturnType<typeof member>>["caller"], title = "Winter Coats") {
  const c = await caller.campaigns.create({
    title,
    currency: "USD",
    goalType: "amount",
    goalAmountMinor: 100_000,
  });
  return c.id;
}

const audits = (org: string, action: string) =>
  testEnv.DB.prepare(
    "SELECT entity_type, entity_id, actor_id, before, after FROM audit_event WHERE organization_id = ? AND action = ? ORDER BY at, rowid",
  )
    .bind(org, action)
    .all<{ entity_type: string; entity_id: string; actor_id: string; before: string; after: string | null }>()
    .then((r) => r.results);

const ctxOf = (org: string) => ({ env: testEnv, org: { id: org } });

describe("thank-you templates", () => {
  it("start from the default, and read back what an owner saved, with its audit row", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    expect(await owner.caller.thanks.list()).toEqual({
      default: { ...DEFAULT_THANK_YOU, saved: false, updatedAt: null },
      campaigns: [],
    });
    expect(await thankYouTemplateFor(ctxOf(org), null)).toEqual(DEFAULT_THANK_YOU);

    const out = await owner.caller.thanks.save({
      campaignId: null,
      subject: `  ${mine.subject} `,
      body: `${mine.body}\n`,
    });
    expect(out).toMatchObject({ campaignId: null, ...mine });
    expect((await owner.caller.thanks.list()).default).toEqual({
      ...mine,
      saved: true,
      updatedAt: out.updatedAt,
    });
    expect(await thankYouTemplateFor(ctxOf(org), null)).toEqual(mine);

    // Saved again: the same row, changed in place.
    await owner.caller.thanks.save({ campaignId: null, subject: "Thanks!", body: mine.body });
    const rows = await testEnv.DB.prepare(
      "SELECT subject, updated_by FROM thank_you_template WHERE organization_id = ?",
    )
      .bind(org)
      .all();
    expect(rows.results).toEqual([{ subject: "Thanks!", updated_by: owner.user.id }]);

    const trail = await audits(org, "thanks.template_save");
    expect(trail).toHaveLength(2);
    expect(trail[0]).toMatchObject({ entity_type: "organization", entity_id: org, actor_id: owner.user.id });
    expect(JSON.parse(trail[0]?.before as string)).toEqual(DEFAULT_THANK_YOU);
    expect(JSON.parse(trail[0]?.after as string)).toEqual(mine);
    expect(JSON.parse(trail[1]?.before as string)).toEqual(mine);
    expect(JSON.parse(trail[1]?.after as string)).toMatchObject({ subject: "Thanks!" });
  });

  it("are changed by owners and admins only, read by everyone in the organization", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const c = await campaign(owner.caller);
    const admin = await member(org, "admin");
    expect(await codeOf(admin.caller.thanks.save({ campaignId: null, ...mine }))).toBe("OK");
    expect(await codeOf(admin.caller.thanks.save({ campaignId: c, ...coats }))).toBe("OK");
    for (const role of ["organizer", "viewer"] as const) {
      const m = await member(org, role);
      const list = await m.caller.thanks.list();
      expect(list.default, role).toMatchObject({ ...mine, saved: true });
      expect(list.campaigns, role).toEqual([
        { campaignId: c, campaignTitle: "Winter Coats", ...coats, updatedAt: expect.any(Number) },
      ]);
      expect(await codeOf(m.caller.thanks.save({ campaignId: null, ...coats })), role).toBe("FORBIDDEN");
      expect(await codeOf(m.caller.thanks.save({ campaignId: c, ...mine })), role).toBe("FORBIDDEN");
      expect(await codeOf(m.caller.thanks.remove({ campaignId: c })), role).toBe("FORBIDDEN");
    }
    const list = await owner.caller.thanks.list();
    expect(list.default).toMatchObject(mine);
    expect(list.campaigns.map((x) => x.subject)).toEqual([coats.subject]);
  });

  it("thank a campaign's gifts with its own message, else the organization's, else the default", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const c = await campaign(owner.caller, "Winter Coats");
    const other = await campaign(owner.caller, "Books for All");
    // Nothing saved: the default everywhere.
    expect(await thankYouTemplateFor(ctxOf(org), c)).toEqual(DEFAULT_THANK_YOU);
    // Only the campaign's: it wins for that campaign; the others still get the default.
    await owner.caller.thanks.save({ campaignId: c, ...coats });
    expect(await thankYouTemplateFor(ctxOf(org), c)).toEqual(coats);
    expect(await thankYouTemplateFor(ctxOf(org), other)).toEqual(DEFAULT_THANK_YOU);
    expect(await thankYouTemplateFor(ctxOf(org), null)).toEqual(DEFAULT_THANK_YOU);
    // The organization's saved too: the campaign's still wins for its gifts.
    await owner.caller.thanks.save({ campaignId: null, ...mine });
    expect(await thankYouTemplateFor(ctxOf(org), c)).toEqual(coats);
    expect(await thankYouTemplateFor(ctxOf(org), other)).toEqual(mine);
    expect(await thankYouTemplateFor(ctxOf(org), null)).toEqual(mine);
    expect(await thankYouTemplateFor(ctxOf(org), "no-such-campaign")).toEqual(mine);
    // Listed by title, each once however often saved.
    await owner.caller.thanks.save({ campaignId: other, ...coats, subject: "Books!" });
    await owner.caller.thanks.save({ campaignId: c, ...coats, subject: "Coats!" });
    expect((await owner.caller.thanks.list()).campaigns.map((x) => [x.campaignTitle, x.subject])).toEqual([
      ["Books for All", "Books!"],
      ["Winter Coats", "Coats!"],
    ]);
    expect(
      (await audits(org, "thanks.template_save"))
        .filter((a) => a.entity_type === "campaign")
        .map((a) => a.entity_id),
    ).toEqual([c, other, c]);
  });

  it("remove a campaign's message (audited), and its gifts get the organization's again", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const c = await campaign(owner.caller);
    await owner.caller.thanks.save({ campaignId: null, ...mine });
    await owner.caller.thanks.save({ campaignId: c, ...coats });
    expect(await owner.caller.thanks.remove({ campaignId: c })).toEqual({ campaignId: c, removed: true });
    expect((await owner.caller.thanks.list()).campaigns).toEqual([]);
    expect(await thankYouTemplateFor(ctxOf(org), c)).toEqual(mine);
    const trail = await audits(org, "thanks.template_delete");
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ entity_type: "campaign", entity_id: c, after: null });
    expect(JSON.parse(trail[0]?.before as string)).toEqual(coats);
    // Nothing left to remove: NOT_FOUND, and no second audit row.
    expect(await codeOf(owner.caller.thanks.remove({ campaignId: c }))).toBe("NOT_FOUND");
    expect(await audits(org, "thanks.template_delete")).toHaveLength(1);
    // Deleting the campaign takes its message with it.
    await owner.caller.thanks.save({ campaignId: c, ...coats });
    await owner.caller.campaigns.delete({ id: c });
    expect((await owner.caller.thanks.list()).campaigns).toEqual([]);
  });

  it("never reach another organization's campaign, nor show its messages", async () => {
    const orgA = await makeOrg();
    const orgB = await makeOrg();
    const a = await member(orgA, "owner");
    const b = await member(orgB, "owner");
    const cA = await campaign(a.caller);
    await a.caller.thanks.save({ campaignId: cA, ...coats });
    await a.caller.thanks.save({ campaignId: null, ...mine });

    expect(await codeOf(b.caller.thanks.save({ campaignId: cA, ...mine }))).toBe("NOT_FOUND");
    expect(await codeOf(b.caller.thanks.remove({ campaignId: cA }))).toBe("NOT_FOUND");
    expect(await codeOf(b.caller.thanks.save({ campaignId: "no-such-campaign", ...mine }))).toBe("NOT_FOUND");
    expect(await b.caller.thanks.list()).toEqual({
      default: { ...DEFAULT_THANK_YOU, saved: false, updatedAt: null },
      campaigns: [],
    });
    // Organization B's delivery asking for A's campaign gets B's own message.
    expect(await thankYouTemplateFor(ctxOf(orgB), cA)).toEqual(DEFAULT_THANK_YOU);
    // A's rows are as A left them.
    expect(await a.caller.thanks.list()).toMatchObject({
      default: mine,
      campaigns: [{ campaignId: cA, ...coats }],
    });
    expect(
      await testEnv.DB.prepare("SELECT count(*) AS n FROM audit_event WHERE actor_id = ?")
        .bind(b.user.id)
        .first(),
    ).toEqual({ n: 0 });
  });

  it("refuse unknown merge fields and unbalanced braces with a 400 in the API's error shape, saving nothing", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    let res = await trpcHttp(owner.jar, "thanks.save", {
      campaignId: null,
      subject: "Hello {{donor.firstName}}",
      body: "Dear {{donor.nickname}},\n\nThanks for {{gift.total}}.",
    });
    expect(res.status).toBe(400);
    let body = (await res.json()) as {
      error: { json: { message: string; data: { code: string; httpStatus: number; fieldErrors: object } } };
    };
    expect(body.error.json.message).toBe("Invalid input");
    expect(body.error.json.data).toMatchObject({
      code: "BAD_REQUEST",
      httpStatus: 400,
      fieldErrors: { body: ["Unknown merge fields {{donor.nickname}} and {{gift.total}}"] },
    });

    res = await trpcHttp(owner.jar, "thanks.save", {
      campaignId: null,
      subject: "Hello {{donor.firstName}",
      body: "",
    });
    expect(res.status).toBe(400);
    body = (await res.json()) as typeof body;
    expect(body.error.json.data.fieldErrors).toEqual({
      subject: ["Unbalanced braces: write a merge field as {{field}}, with two braces on each side"],
      body: ["Write the message"],
    });

    for (const bad of [
      { subject: "x".repeat(201) },
      { body: "x".repeat(10_001) },
      { subject: "two\nlines" },
      { campaignId: "" },
      { extra: true },
    ])
      expect(
        await codeOf(owner.caller.thanks.save({ campaignId: null, ...mine, ...bad } as never)),
        JSON.stringify(bad).slice(0, 60),
      ).toBe("BAD_REQUEST");
    expect((await owner.caller.thanks.list()).default.saved).toBe(false);
    expect(await audits(org, "thanks.template_save")).toEqual([]);
  });
});
