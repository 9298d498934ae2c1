/**
 * A campaign's currency is fixed once a donation names it (DESIGN §4). The save checks first, then
 * writes; a gift recorded between the two must not slip under a currency change: the write is
 * conditional in its own batch (worker/campaigns/service.ts `saveCampaign`, decision 020), so the
 * lost race changes nothing — not the campaign, its slugs nor the audit trail — and answers 409.
 */
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { createContext } from "../../worker/trpc/context";
import { createCallerFactory } from "../../worker/trpc/init";
import { makeOrg, member } from "../fixtures";
import { BASE_URL, testEnv } from "../helpers";
import { racingDb } from "../race";

const createCaller = createCallerFactory(appRouter);

describe("campaign currency under a racing gift", () => {
  it("a gift recorded between the save's check and its write keeps the campaign's currency: 409, nothing written", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const c = await owner.caller.campaigns.create({ title: "Coats", currency: "USD", goalType: "none" });
    const now = Date.now();
    const giftMeanwhile = () =>
      testEnv.DB.prepare(
        `INSERT INTO donation (id, organization_id, number, campaign_id, donor_id, amount_minor, currency, status, donated_at, created_at, updated_at)
         VALUES (?, ?, 1, ?, NULL, 5000, 'USD', 'completed', ?, ?, ?)`,
      )
        .bind(`race-${org}`, org, c.id, now, now, now)
        .run();
    const request = new Request(`${BASE_URL}/api/trpc`, { headers: { cookie: owner.jar.header() } });
    const racing = createCaller(
      await createContext({
        request,
        env: { ...testEnv, DB: racingDb("UPDATE campaign SET title", giftMeanwhile) },
        resHeaders: new Headers(),
      }),
    );

    const error = await racing.campaigns
      .update({
        id: c.id,
        data: { title: "Coats in euros", slug: "coats-eur", currency: "EUR", goalType: "none" },
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("CONFLICT");
    expect((error as TRPCError).message).toBe("The currency cannot change once the campaign has donations");

    // The gift landed; the campaign, its slugs and the audit trail are as before the save.
    const after = await owner.caller.campaigns.byId({ id: c.id });
    expect(after).toMatchObject({ currency: "USD", title: "Coats", slug: c.slug, donationCount: 0 });
    const gifts = await testEnv.DB.prepare("SELECT currency FROM donation WHERE campaign_id = ?")
      .bind(c.id)
      .all<{ currency: string }>();
    expect(gifts.results).toEqual([{ currency: "USD" }]);
    const slugs = await testEnv.DB.prepare("SELECT slug FROM campaign_slug WHERE campaign_id = ?")
      .bind(c.id)
      .all();
    expect(slugs.results).toEqual([]);
    const audits = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE entity_id = ? AND action = 'campaign.update'",
    )
      .bind(c.id)
      .first<{ n: number }>();
    expect(audits?.n).toBe(0);

    // Without a race the same refusal is the clear 422 of the check, and a save that keeps the
    // currency still goes through.
    await expect(
      owner.caller.campaigns.update({
        id: c.id,
        data: { title: "Coats", currency: "EUR", goalType: "none" },
      }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    const kept = await owner.caller.campaigns.update({
      id: c.id,
      data: { title: "Warm coats", currency: "USD", goalType: "none" },
    });
    expect(kept).toMatchObject({ title: "Warm coats", currency: "USD" });
  });
});
