import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { constraintRefusal, fail, Refusal } from "../../worker/lib/fail";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";

async function outcome(p: Promise<unknown>) {
  try {
    await p;
    return "OK";
  } catch (e) {
    return e instanceof TRPCError ? e.code : `non-tRPC: ${String(e)}`;
  }
}

describe("refusals", () => {
  it("are transport-free: fail() throws a Refusal, and tRPC answers one with its code, message and details", async () => {
    const thrown = (() => {
      try {
        fail("CONFLICT", "Taken", { field: "slug" });
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(Refusal);
    expect(thrown).not.toBeInstanceOf(TRPCError);
    const { caller } = await member(await makeOrg(), "owner");
    const c = await caller.campaigns.create({ title: "Spring", currency: "USD", goalType: "none" });
    const again = await caller.campaigns
      .create({ title: "Spring", slug: c.slug, currency: "USD", goalType: "none" })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(TRPCError);
    expect((again as TRPCError).code).toBe("CONFLICT");
    expect((again as TRPCError).cause).toBeInstanceOf(Refusal);
    expect(((again as TRPCError).cause as Refusal).details).toEqual({ field: "slug" });
  });
});

describe("database rules reach the caller as 4xx", () => {
  it("maps real D1 UNIQUE, CHECK and trigger refusals; leaves other errors alone", async () => {
    const org = await makeOrg();
    const refusal = async (sql: string, ...args: unknown[]) => {
      try {
        await testEnv.DB.prepare(sql)
          .bind(...args)
          .run();
      } catch (e) {
        return constraintRefusal(e);
      }
      throw new Error(`expected ${sql} to be refused`);
    };
    const dup = await refusal(
      "INSERT INTO organization (id, name, slug, default_currency, time_zone, status, created_at, updated_at) VALUES ('x-dup', 'Dup', ?, 'USD', 'UTC', 'active', 0, 0)",
      org,
    );
    expect(dup?.code).toBe("CONFLICT");
    expect(dup?.message).toMatch(/organization\.slug/);
    // An integrity trigger (0003): campaign money must be whole minor units.
    const now = Date.now();
    const trigger = await refusal(
      `INSERT INTO campaign (id, organization_id, title, slug, currency, goal_type, goal_amount_minor, status, created_at, updated_at)
       VALUES ('c-frac', ?, 'Fractional', 'fractional', 'USD', 'amount', 10.5, 'draft', ?, ?)`,
      org,
      now,
      now,
    );
    expect(trigger?.code).toBe("UNPROCESSABLE_CONTENT");
    expect(trigger?.message).toContain("campaign_money_integer");
    expect(constraintRefusal(new Error("D1_ERROR: no such table: nope"))).toBeNull();
  });

  it("two concurrent creates with one slug or one tag name: one wins, the other is a 409, never a 500", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const campaign = {
      title: "Race Day",
      slug: "race-day",
      currency: "USD" as const,
      goalType: "amount" as const,
      goalAmountMinor: 50_000,
    };
    const results = await Promise.all([
      outcome(owner.caller.campaigns.create(campaign)),
      outcome(owner.caller.campaigns.create(campaign)),
      outcome(owner.caller.campaigns.create(campaign)),
    ]);
    expect(results.filter((r) => r === "OK")).toHaveLength(1);
    expect(results.filter((r) => r !== "OK").every((r) => r === "CONFLICT")).toBe(true);
    const { results: rows } = await testEnv.DB.prepare(
      "SELECT id FROM campaign WHERE organization_id = ? AND slug = 'race-day'",
    )
      .bind(org)
      .all();
    expect(rows).toHaveLength(1);
    // Nothing half-written: exactly one audit row for the one campaign that exists.
    const audits = await testEnv.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'campaign.create'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(audits?.n).toBe(1);

    const tags = await Promise.all([
      outcome(owner.caller.donors.tags.create({ name: "Major donor" })),
      outcome(owner.caller.donors.tags.create({ name: "major DONOR" })),
    ]);
    expect(tags.sort()).toEqual(["CONFLICT", "OK"]);
  });
});
