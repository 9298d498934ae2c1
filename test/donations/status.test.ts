/**
 * The donation status machine of DESIGN §4, written out here independently of the code, walked
 * for manual and processor (webhook) gifts; refunds; trash; corrections; edits; permissions.
 */
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, codeOf, testEnv } from "../helpers";
import { deliver, platformAdmin, webhookEvent } from "./brute";

const STATUSES = [
  "pending",
  "processing",
  "completed",
  "failed",
  "cancelled",
  "abandoned",
  "refunded",
  "partially_refunded",
  "disputed",
] as const;
type S = (typeof STATUSES)[number];

/** DESIGN §4, verbatim; `cancelled` from completed only for manual entries. */
const MACHINE: Record<S, S[]> = {
  pending: ["processing", "completed", "failed", "cancelled", "abandoned"],
  processing: ["completed", "failed"],
  failed: ["pending"],
  completed: ["partially_refunded", "refunded", "disputed", "cancelled"],
  partially_refunded: ["refunded", "disputed"],
  disputed: ["completed", "refunded"],
  refunded: [],
  cancelled: [],
  abandoned: [],
};
const allowed = (from: S, source: "manual" | "webhook") =>
  from === "completed" && source !== "manual"
    ? MACHINE[from].filter((s) => s !== "cancelled")
    : MACHINE[from];

/** A path from pending along allowed edges to each status. */
const PATH: Record<S, S[]> = {
  pending: [],
  processing: ["processing"],
  completed: ["completed"],
  failed: ["failed"],
  cancelled: ["cancelled"],
  abandoned: ["abandoned"],
  refunded: ["completed", "refunded"],
  partially_refunded: ["completed", "partially_refunded"],
  disputed: ["completed", "disputed"],
};

function refusal(e: unknown) {
  if (!(e instanceof TRPCError)) throw e;
  return { code: e.code, details: (e.cause as { details?: { allowed?: string[] } } | undefined)?.details };
}

describe("status machine", () => {
  for (const source of ["manual", "webhook"] as const) {
    it(`allows exactly DESIGN §4's transitions for ${source} gifts and names the allowed targets when refusing`, async () => {
      const org = await makeOrg();
      const { caller } = await member(org, "owner");
      let n = 0;
      for (const from of STATUSES) {
        for (const to of STATUSES) {
          n += 1;
          let id: string;
          if (source === "manual") {
            id = (
              await caller.donations.create({
                donorId: null,
                campaignId: null,
                amountMinor: 10_000,
                currency: "USD",
                paymentMethod: "cash",
                donatedAt: Date.now() - 1000,
                status: "pending",
              })
            ).id;
          } else {
            const res = await deliver(
              webhookEvent(org, `sm-${n}`, "donation.pending", { amount: "100.00", donor: undefined }),
            );
            id = ((await res.json()) as { id: string }).id;
          }
          for (const step of PATH[from])
            await caller.donations.updateStatus({
              id,
              status: step,
              reason: "walk",
              refundAmountMinor: 1_000,
            });
          expect((await caller.donations.byId({ id })).allowedTransitions, `${source} ${from}`).toEqual(
            allowed(from, source),
          );
          const attempt = caller.donations
            .updateStatus({ id, status: to, reason: "test", refundAmountMinor: 1_000 })
            .then(() => ({ code: "OK" as const, details: undefined }), refusal);
          const result = await attempt;
          if (from === "partially_refunded" && to === from) {
            // Not a transition: a further partial refund ("Refund more…", issue 53 M17).
            expect(result.code, `${source} ${from} → ${to}`).toBe("OK");
            expect(await caller.donations.byId({ id })).toMatchObject({ status: to, refundedMinor: 2_000 });
          } else if (allowed(from, source).includes(to)) {
            expect(result.code, `${source} ${from} → ${to}`).toBe("OK");
            expect((await caller.donations.byId({ id })).status).toBe(to);
          } else {
            expect(result, `${source} ${from} → ${to}`).toEqual({
              code: "UNPROCESSABLE_CONTENT",
              details: { from, allowed: allowed(from, source) },
            });
            expect((await caller.donations.byId({ id })).status).toBe(from);
          }
        }
      }
    }, 180_000);
  }

  it("answers a refused transition over HTTP with 422 and the allowed targets", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const d = await owner.caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 5_000,
      currency: "USD",
      paymentMethod: "check",
      donatedAt: Date.now() - 1000,
    });
    await owner.caller.donations.updateStatus({ id: d.id, status: "refunded", reason: "returned" });
    const res = await appFetch("/api/trpc/donations.updateStatus", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: owner.jar.header(), origin: BASE_URL },
      body: JSON.stringify({ json: { id: d.id, status: "completed" } }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { json: { data: { details: unknown } } } };
    expect(body.error.json.data.details).toEqual({ from: "refunded", allowed: [] });
  });
});

describe("refunds", () => {
  it("keeps partial refunds, then refunds the rest; totals, donor and campaign follow", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ title: "Roof repair", currency: "USD", goalType: "none" });
    const donor = await caller.donors.create({
      data: { firstName: "Rae", lastName: "Fund", email: `rae-${org}@example.test` },
    });
    if (!donor.created) throw new Error("expected a new donor");
    const d = await caller.donations.create({
      donorId: donor.id,
      campaignId: c.id,
      amountMinor: 10_000,
      currency: "USD",
      paymentMethod: "bank_transfer",
      donatedAt: Date.now() - 1000,
    });
    const totals = async () => {
      const list = await caller.donations.list({});
      const stats = await testEnv.DB.prepare(
        "SELECT raised_minor, refunded_minor FROM campaign_stats WHERE campaign_id = ?",
      )
        .bind(c.id)
        .first();
      return {
        list: list.totalsByCurrency[0]?.countedMinor,
        donor: (await caller.donors.byId({ id: donor.id })).lifetimeMinor,
        dashboard: (await caller.dashboard.summary({ days: 7 })).raisedMinor,
        stats,
      };
    };
    // A reason and an amount are required; a "partial" refund of everything is refused.
    expect(
      await codeOf(
        caller.donations.updateStatus({ id: d.id, status: "partially_refunded", refundAmountMinor: 100 }),
      ),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(caller.donations.updateStatus({ id: d.id, status: "partially_refunded", reason: "x" })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(
        caller.donations.updateStatus({
          id: d.id,
          status: "partially_refunded",
          reason: "x",
          refundAmountMinor: 10_000,
        }),
      ),
    ).toBe("BAD_REQUEST");
    // More than the gift: the refusal names what is left to refund, on the amount field.
    const tooMuch = await caller.donations
      .updateStatus({ id: d.id, status: "partially_refunded", reason: "x", refundAmountMinor: 12_000 })
      .catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(TRPCError);
    expect((tooMuch as TRPCError).code).toBe("BAD_REQUEST");
    expect((tooMuch as TRPCError).message).toBe("That is more than the $100.00 left to refund");
    expect((tooMuch as TRPCError & { cause: { details: unknown } }).cause.details).toEqual({
      field: "refundAmountMinor",
      leftMinor: 10_000,
    });
    const all = await caller.donations
      .updateStatus({ id: d.id, status: "partially_refunded", reason: "x", refundAmountMinor: 10_000 })
      .catch((e: unknown) => e);
    expect((all as TRPCError).message).toBe("That refunds all $100.00 left: choose Refund instead");
    const p = await caller.donations.updateStatus({
      id: d.id,
      status: "partially_refunded",
      reason: "duplicate line",
      refundAmountMinor: 2_500,
    });
    expect(p).toMatchObject({ status: "partially_refunded", refundedMinor: 2_500, netMinor: 7_500 });
    expect(await totals()).toEqual({
      list: 7_500,
      donor: 7_500,
      dashboard: 7_500,
      stats: { raised_minor: 7_500, refunded_minor: 2_500 },
    });
    // Partially refunded → refunded refunds the remainder (the machine has no second partial step).
    expect(await codeOf(caller.donations.updateStatus({ id: d.id, status: "refunded" }))).toBe("BAD_REQUEST");
    const f = await caller.donations.updateStatus({ id: d.id, status: "refunded", reason: "donor asked" });
    expect(f).toMatchObject({
      status: "refunded",
      refundedMinor: 10_000,
      netMinor: 0,
      allowedTransitions: [],
    });
    expect(await totals()).toEqual({
      list: 0,
      donor: 0,
      dashboard: 0,
      stats: { raised_minor: 0, refunded_minor: 10_000 },
    });
    const detail = await caller.donations.byId({ id: d.id });
    expect(detail.timeline.map((t) => [t.kind, t.status, t.refundedMinor, t.reason])).toEqual([
      ["recorded", "completed", null, null],
      ["status", "partially_refunded", 2_500, "duplicate line"],
      ["status", "refunded", 10_000, "donor asked"],
    ]);
    const s = await caller.dashboard.summary({ days: 7 });
    expect(s.refunds).toEqual({ count: 1, amountMinor: 10_000 });
  });
});

describe("trash", () => {
  it("takes a gift out of every total, lists it under Trash, refuses status changes, and restores it", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ title: "Library", currency: "USD", goalType: "none" });
    const keep = await caller.donations.create({
      donorId: null,
      campaignId: c.id,
      amountMinor: 1_000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 1000,
    });
    const d = await caller.donations.create({
      donorId: null,
      campaignId: c.id,
      amountMinor: 4_000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 1000,
    });
    const snapshot = async () => ({
      list: (await caller.donations.list({})).rows.map((r) => r.id).sort(),
      trash: (await caller.donations.list({ trashed: true })).rows.map((r) => r.id),
      counted: (await caller.donations.list({})).totalsByCurrency[0]?.countedMinor,
      dashboard: (await caller.dashboard.summary({ days: 7 })).raisedMinor,
      campaign: (await caller.campaigns.byId({ id: c.id })).raisedMinor,
    });
    await caller.donations.delete({ id: d.id });
    expect(await snapshot()).toEqual({
      list: [keep.id],
      trash: [d.id],
      counted: 1_000,
      dashboard: 1_000,
      campaign: 1_000,
    });
    expect((await caller.donations.byId({ id: d.id })).allowedTransitions).toEqual([]);
    expect(await codeOf(caller.donations.updateStatus({ id: d.id, status: "refunded", reason: "x" }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    await caller.donations.delete({ id: d.id }); // trashing twice changes nothing
    expect((await snapshot()).dashboard).toBe(1_000);
    await caller.donations.restore({ id: d.id });
    await caller.donations.restore({ id: d.id }); // restoring twice neither
    expect(await snapshot()).toEqual({
      list: [keep.id, d.id].sort(),
      trash: [],
      counted: 5_000,
      dashboard: 5_000,
      campaign: 5_000,
    });
    expect((await caller.donations.byId({ id: d.id })).timeline.map((t) => t.kind)).toEqual([
      "recorded",
      "trash",
      "restore",
    ]);
  });

  it("deletes permanently only for platform admins", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const d = await owner.caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 2_000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 1000,
    });
    expect(await codeOf(owner.caller.donations.delete({ id: d.id, permanent: true }))).toBe("FORBIDDEN");
    expect((await owner.caller.donations.byId({ id: d.id })).trashed).toBe(false);
    const admin = await platformAdmin(org);
    await admin.caller.donations.delete({ id: d.id, permanent: true });
    expect(await codeOf(owner.caller.donations.byId({ id: d.id }))).toBe("NOT_FOUND");
    expect((await owner.caller.dashboard.summary({ days: 7 })).raisedMinor).toBe(0);
    const audit = await testEnv.DB.prepare("SELECT action FROM audit_event WHERE entity_id = ? ORDER BY at")
      .bind(d.id)
      .all<{ action: string }>();
    expect(audit.results.map((a) => a.action)).toEqual(["donation.create", "donation.purge"]);
  });
});

describe("corrections", () => {
  it("let platform admins leave a terminal status with a reason, and nobody else", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await platformAdmin(org);
    const d = await owner.caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 6_000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 1000,
    });
    await owner.caller.donations.updateStatus({
      id: d.id,
      status: "refunded",
      reason: "clicked the wrong one",
    });
    expect(
      await codeOf(
        owner.caller.donations.updateStatus({
          id: d.id,
          status: "completed",
          correction: true,
          reason: "oops",
        }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      await codeOf(admin.caller.donations.updateStatus({ id: d.id, status: "completed", correction: true })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(
        admin.caller.donations.updateStatus({
          id: d.id,
          status: "refunded",
          correction: true,
          reason: "same",
        }),
      ),
    ).toBe("BAD_REQUEST");
    const fixed = await admin.caller.donations.updateStatus({
      id: d.id,
      status: "completed",
      correction: true,
      reason: "The refund never went out",
    });
    expect(fixed).toMatchObject({ status: "completed", refundedMinor: 0 });
    expect((await owner.caller.dashboard.summary({ days: 7 })).raisedMinor).toBe(6_000);
    const partial = await admin.caller.donations.updateStatus({
      id: d.id,
      status: "partially_refunded",
      correction: true,
      refundAmountMinor: 1_000,
      reason: "Only ten went back",
    });
    expect(partial).toMatchObject({ refundedMinor: 1_000, netMinor: 5_000 });
    const history = await owner.caller.donations.history({ entityType: "donation", entityId: d.id });
    expect(history.filter((h) => h.action === "donation.correction").map((h) => h.reason)).toEqual([
      "Only ten went back",
      "The refund never went out",
    ]);
  });
});

describe("edits, manual entry and permissions", () => {
  it("edits only the editable fields, amounts only on manual entries, and refuses bad input with 4xx", async () => {
    const org = await makeOrg();
    const other = await makeOrg();
    const owner = await member(org, "owner");
    const stranger = await member(other, "owner");
    const viewer = await member(org, "viewer");
    const usd = await owner.caller.campaigns.create({ title: "Dollars", currency: "USD", goalType: "none" });
    const eur = await owner.caller.campaigns.create({ title: "Euros", currency: "EUR", goalType: "none" });
    const foreign = await stranger.caller.campaigns.create({
      title: "Theirs",
      currency: "USD",
      goalType: "none",
    });
    const base = {
      donorId: null,
      campaignId: usd.id,
      amountMinor: 5_000,
      currency: "USD" as const,
      paymentMethod: "check" as const,
      donatedAt: Date.now() - 1000,
    };
    expect(await codeOf(owner.caller.donations.create({ ...base, donatedAt: Date.now() + 3_600_000 }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(owner.caller.donations.create({ ...base, amountMinor: 99 }))).toBe("BAD_REQUEST");
    expect(await codeOf(owner.caller.donations.create({ ...base, currency: "EUR" }))).toBe("BAD_REQUEST");
    expect(await codeOf(owner.caller.donations.create({ ...base, campaignId: foreign.id }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await codeOf(
        owner.caller.donations.create({ ...base, paymentMethod: "card", organizationId: other } as never),
      ),
    ).toBe("BAD_REQUEST");
    const d = await owner.caller.donations.create(base);
    expect(d).toMatchObject({ source: "manual", status: "completed", amountMinor: 5_000 });
    expect(await codeOf(owner.caller.donations.update({ id: d.id, data: { campaignId: eur.id } }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(owner.caller.donations.update({ id: d.id, data: { campaignId: foreign.id } }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await codeOf(owner.caller.donations.update({ id: d.id, data: { status: "refunded" } as never })),
    ).toBe("BAD_REQUEST");
    const edited = await owner.caller.donations.update({
      id: d.id,
      data: {
        amountMinor: 5_500,
        message: "=HYPERLINK(1)",
        tributeType: "in_memory",
        tributeName: "Gran",
        anonymous: true,
        campaignId: null,
      },
    });
    expect(edited).toMatchObject({
      amountMinor: 5_500,
      tributeName: "Gran",
      anonymous: true,
      campaignId: null,
    });
    expect((await owner.caller.campaigns.byId({ id: usd.id })).raisedMinor).toBe(0);
    // Item reassignment: only an item of the gift's campaign; a fully funded item refuses more.
    const coats = await owner.caller.campaigns.items.create({
      campaignId: usd.id,
      title: "Coat",
      unitAmountMinor: 2_500,
      quantityNeeded: 3,
      allowOverfunding: false,
    });
    const otherItem = await owner.caller.campaigns.items.create({
      campaignId: eur.id,
      title: "Scarf",
      unitAmountMinor: 1_000,
    });
    expect(
      await codeOf(owner.caller.donations.update({ id: d.id, data: { campaignItemId: coats.id } })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(
        owner.caller.donations.update({
          id: d.id,
          data: { campaignId: usd.id, campaignItemId: otherItem.id },
        }),
      ),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(
        owner.caller.donations.update({
          id: d.id,
          data: { campaignId: usd.id, campaignItemId: coats.id, itemQuantity: 4 },
        }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    const withItem = await owner.caller.donations.update({
      id: d.id,
      data: { campaignId: usd.id, campaignItemId: coats.id, itemQuantity: 2 },
    });
    expect(withItem).toMatchObject({ campaignId: usd.id, campaignItemId: coats.id, itemQuantity: 2 });
    const funded = async () =>
      (await owner.caller.campaigns.items.list({ campaignId: usd.id })).find((i) => i.id === coats.id)
        ?.quantityFunded;
    expect(await funded()).toBe(2);
    // Its own quantity does not count against it when it changes.
    await owner.caller.donations.update({ id: d.id, data: { itemQuantity: 3 } });
    expect(await funded()).toBe(3);
    await owner.caller.donations.update({ id: d.id, data: { campaignId: null } });
    expect(await funded()).toBe(0);
    expect((await owner.caller.donations.byId({ id: d.id })).campaignItemId).toBeNull();
    // A processor's gift keeps its amount.
    const res = await deliver(webhookEvent(org, `edit-${org}`));
    const hooked = ((await res.json()) as { id: string }).id;
    expect(await codeOf(owner.caller.donations.update({ id: hooked, data: { amountMinor: 100 } }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(await codeOf(owner.caller.donations.update({ id: hooked, data: { message: "thanks" } }))).toBe(
      "OK",
    );
    // Tenancy: another organization's gift does not exist for this caller.
    for (const p of [
      stranger.caller.donations.byId({ id: d.id }),
      stranger.caller.donations.update({ id: d.id, data: { message: "x" } }),
      stranger.caller.donations.updateStatus({ id: d.id, status: "refunded", reason: "x" }),
      stranger.caller.donations.delete({ id: d.id }),
      stranger.caller.donations.restore({ id: d.id }),
    ])
      expect(await codeOf(p)).toBe("NOT_FOUND");
    expect((await stranger.caller.donations.list({})).rows.map((r) => r.id)).not.toContain(d.id);
    // A viewer reads, and changes nothing.
    expect(await codeOf(viewer.caller.donations.byId({ id: d.id }))).toBe("OK");
    for (const p of [
      viewer.caller.donations.update({ id: d.id, data: { message: "x" } }),
      viewer.caller.donations.updateStatus({ id: d.id, status: "refunded", reason: "x" }),
      viewer.caller.donations.delete({ id: d.id }),
      viewer.caller.donations.restore({ id: d.id }),
    ])
      expect(await codeOf(p)).toBe("FORBIDDEN");
    expect(
      (await appFetch("/api/export/donations.csv", { headers: { cookie: viewer.jar.header() } })).status,
    ).toBe(403);
    const after = await owner.caller.donations.byId({ id: d.id });
    expect(after).toMatchObject({ status: "completed", amountMinor: 5_500, trashed: false });
  });
});
