/**
 * Ingestion webhook under concurrency: duplicate deliveries of one event (each signed on its own),
 * and first gifts of a new donor arriving at once.
 */
import { describe, expect, it } from "vitest";
import { bruteDonor, deliver, donationsOf, webhookEvent } from "../donations/brute";
import { makeOrg } from "../fixtures";
import { testEnv } from "../helpers";

describe("donation webhook concurrency", () => {
  it("turns ten concurrent deliveries of one event into exactly one donation, counted once", async () => {
    const org = await makeOrg();
    const ev = webhookEvent(org, "tx-storm", "donation.succeeded", {
      donor: { email: `storm-${org}@example.test`, firstName: "Sto" },
    });
    // Processors retry with a fresh timestamp: each delivery carries its own signature.
    const now = Math.floor(Date.now() / 1000);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(ev, { t: now - i })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 200)).toBe(true);
    const bodies = (await Promise.all(results.map((r) => r.json()))) as { id: string }[];
    const rows = await donationsOf(org);
    expect(rows).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.id))).toEqual(new Set([rows[0]?.id]));
    const daily = await testEnv.DB.prepare(
      "SELECT SUM(raised_minor) AS s, SUM(donation_count) AS n FROM org_daily WHERE organization_id = ? AND campaign_id = '*'",
    )
      .bind(org)
      .first();
    expect(daily).toEqual({ s: 4_250, n: 1 });
    const audit = await testEnv.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'donation.webhook_create'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(audit?.n).toBe(1);
    // The same event once more, later, is still a no-op.
    const again = await deliver(ev);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true, id: rows[0]?.id });
    expect(await donationsOf(org)).toHaveLength(1);
  });

  it("creates one donor for first gifts arriving together, with stats counting all of them", async () => {
    const org = await makeOrg();
    const email = `new-${org}@example.test`;
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        deliver(
          webhookEvent(org, `tx-first-${i}`, "donation.succeeded", {
            amount: `${10 + i}.00`,
            donor: { email: email.toUpperCase(), firstName: "Neu" },
          }),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const donors = await testEnv.DB.prepare(
      "SELECT id, lifetime_minor, donation_count FROM donor WHERE organization_id = ?",
    )
      .bind(org)
      .all<{ id: string; lifetime_minor: number; donation_count: number }>();
    expect(donors.results).toHaveLength(1);
    const rows = await donationsOf(org);
    expect(rows.every((d) => d.donor_id === donors.results[0]?.id)).toBe(true);
    expect(donors.results[0]).toMatchObject({
      lifetime_minor: bruteDonor(rows, donors.results[0]?.id as string).lifetime_minor,
      donation_count: 4,
    });
    expect(donors.results[0]?.lifetime_minor).toBe(1_000 + 1_100 + 1_200 + 1_300);
  });

  it("refuses a delivery signed with another secret, or outside the five-minute window either way", async () => {
    const org = await makeOrg();
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(webhookEvent(org, "tx-a"), { secret: "not-the-secret" })).status).toBe(401);
    expect((await deliver(webhookEvent(org, "tx-b"), { t: now - 301 })).status).toBe(401);
    expect((await deliver(webhookEvent(org, "tx-c"), { t: now + 301 })).status).toBe(401);
    expect((await deliver(webhookEvent(org, "tx-d"), { t: now - 290 })).status).toBe(201);
    expect(await donationsOf(org)).toHaveLength(1);
  });
});
