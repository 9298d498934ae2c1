import { describe, expect, it } from "vitest";
import { signWebhook } from "../../worker/http/webhook";
import { makeOrg } from "../fixtures";
import { appFetch, testEnv } from "../helpers";

const SECRET = "whsec-test-0123456789";

async function deliver(body: unknown, opts: { t?: number; secret?: string } = {}) {
  const raw = JSON.stringify(body);
  return appFetch("/api/webhooks/donations", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-almoner-signature": await signWebhook(opts.secret ?? SECRET, raw, opts.t),
    },
    body: raw,
  });
}

function event(org: string, tx: string, type = "donation.succeeded", extra: Record<string, unknown> = {}) {
  return {
    id: `evt_${tx}_${type}`,
    type,
    data: {
      organization: org,
      gatewayTransactionId: tx,
      amount: "42.50",
      currency: "usd",
      donatedAt: new Date().toISOString(),
      donor: { email: "Payer@Example.test", firstName: "Pat" },
      ...extra,
    },
  };
}

describe("donation ingestion webhook", () => {
  it("refuses bad signatures and replays older than five minutes", async () => {
    const org = await makeOrg();
    expect((await deliver(event(org, "tx-sig"), { secret: "wrong" })).status).toBe(401);
    expect((await deliver(event(org, "tx-old"), { t: Math.floor(Date.now() / 1000) - 301 })).status).toBe(
      401,
    );
    const unsigned = await appFetch("/api/webhooks/donations", { method: "POST", body: "{}" });
    expect(unsigned.status).toBe(401);
    expect((await deliver({ nope: true })).status).toBe(400);
  });

  it("creates exactly one donation under concurrent duplicate deliveries, with the donor by e-mail", async () => {
    const org = await makeOrg();
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(event(org, "tx-dup"))));
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    const rows = await testEnv.DB.prepare(
      "SELECT id, amount_minor, status, donor_id FROM donation WHERE organization_id = ?",
    )
      .bind(org)
      .all<{ amount_minor: number; status: string; donor_id: string }>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]).toMatchObject({ amount_minor: 4250, status: "completed" });
    const donor = await testEnv.DB.prepare("SELECT email, lifetime_minor FROM donor WHERE id = ?")
      .bind(rows.results[0]?.donor_id)
      .first();
    expect(donor).toEqual({ email: "payer@example.test", lifetime_minor: 4250 });
    const daily = await testEnv.DB.prepare(
      "SELECT SUM(raised_minor) AS s, SUM(donation_count) AS n FROM org_daily WHERE organization_id = ? AND campaign_id = '*'",
    )
      .bind(org)
      .first();
    expect(daily).toEqual({ s: 4250, n: 1 });
  });

  it("applies a refund once and refuses impossible transitions", async () => {
    const org = await makeOrg();
    await deliver(event(org, "tx-ref"));
    const refunds = await Promise.all([
      deliver(event(org, "tx-ref", "donation.refunded")),
      deliver(event(org, "tx-ref", "donation.refunded")),
    ]);
    expect(refunds.every((r) => r.status === 200)).toBe(true);
    const row = await testEnv.DB.prepare(
      "SELECT status, refunded_minor FROM donation WHERE organization_id = ?",
    )
      .bind(org)
      .first();
    expect(row).toEqual({ status: "refunded", refunded_minor: 4250 });
    const daily = await testEnv.DB.prepare(
      "SELECT SUM(raised_minor) AS s FROM org_daily WHERE organization_id = ? AND campaign_id = '*'",
    )
      .bind(org)
      .first<{ s: number }>();
    expect(daily?.s).toBe(0);
    expect((await deliver(event(org, "tx-ref", "donation.pending"))).status).toBe(422);
  });
});
