/**
 * Router inventory (DESIGN §5.1): walks every procedure of appRouter and checks the ladder.
 * - a procedure without a guard must be in the explicit PUBLIC allow-list;
 * - every non-public procedure refuses an anonymous caller (UNAUTHORIZED);
 * - admin procedures refuse a signed-in non-admin, org procedures refuse a user with no membership,
 *   and every org procedure refuses the org roles its permissions do not grant (FORBIDDEN);
 * - every org procedure taking a record id answers NOT_FOUND to another organization's owner
 *   (the CROSS_TENANT table must cover each such procedure, so a new one cannot be forgotten).
 */

import { hasOrgPermission, type Permissions } from "@core/permissions";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { CookieJar, signUp } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { call, codeOf, testEnv } from "../helpers";

const PUBLIC = new Set(["system.health", "campaigns.public", "onboarding.policy"]);

/**
 * The authed rung asks only for a session: these procedures are for anyone signed in, with or
 * without an organization (the caller's own access, organizations and onboarding, decision 045).
 * A new one is added here on purpose, never by taking the lowest rung by mistake.
 */
const AUTHED = new Set([
  "access.capabilities",
  "organization.mine",
  "organization.setActive",
  "onboarding.status",
  "onboarding.create",
  "onboarding.request",
  // Offers of ownership are answered by the member they name, in whichever organization is current.
  "organization.ownershipOffersToMe",
  "organization.acceptOwnership",
  "organization.declineOwnership",
  "organization.soleOwnerships",
]);

type Proc = {
  _def: {
    type: string;
    meta?: { guard?: "authed" | "org" | "admin"; permissions?: Permissions };
    inputs?: { shape?: Record<string, unknown> }[];
  };
};
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>);
const byGuard = (g: string) => procedures.filter(([, p]) => p._def.meta?.guard === g);

describe("router inventory", () => {
  it("has a guard on every procedure outside the PUBLIC allow-list, and no stale allow-list entry", () => {
    expect(procedures.length).toBeGreaterThan(40);
    const paths = new Set(procedures.map(([p]) => p));
    for (const p of PUBLIC) expect(paths.has(p), `${p} is allow-listed but does not exist`).toBe(true);
    const unguarded = procedures
      .filter(([path, p]) => !p._def.meta?.guard && !PUBLIC.has(path))
      .map(([x]) => x);
    expect(unguarded).toEqual([]);
    // The org and admin rungs always carry the permissions they check.
    for (const [path, p] of [...byGuard("org"), ...byGuard("admin")])
      expect(Object.keys(p._def.meta?.permissions ?? {}).length, path).toBeGreaterThan(0);
  });

  it("puts on the authed rung only the procedures meant for anyone signed in", () => {
    expect(
      byGuard("authed")
        .map(([p]) => p)
        .sort(),
    ).toEqual([...AUTHED].sort());
  });

  it("refuses anonymous callers on every non-public procedure", async () => {
    const anon = await callerFor(null);
    const wrong: string[] = [];
    for (const [path] of procedures) {
      if (PUBLIC.has(path)) continue;
      const code = await codeOf(call(anon, path, {}));
      if (code !== "UNAUTHORIZED") wrong.push(`${path}: ${code}`);
    }
    expect(wrong).toEqual([]);
  });

  it("refuses signed-in callers without the permission", async () => {
    // A plain user with no membership: no organization, no platform rights.
    const loner = await signUp(new CookieJar());
    loner.jar.cookies.delete("better-auth.session_data");
    const lonerCaller = await callerFor(loner.jar);
    const org = await makeOrg();
    const roles = {
      viewer: await member(org, "viewer"),
      organizer: await member(org, "organizer"),
      admin: await member(org, "admin"),
      owner: await member(org, "owner"),
    };
    const wrong: string[] = [];
    for (const [path] of byGuard("admin")) {
      for (const [name, caller] of [
        ["no membership", lonerCaller],
        ["org owner", roles.owner.caller],
      ] as const) {
        const code = await codeOf(call(caller, path, {}));
        if (code !== "FORBIDDEN") wrong.push(`${path} as ${name}: ${code}`);
      }
    }
    for (const [path, p] of byGuard("org")) {
      const code = await codeOf(call(lonerCaller, path, {}));
      if (code !== "FORBIDDEN") wrong.push(`${path} without membership: ${code}`);
      for (const [role, m] of Object.entries(roles)) {
        const granted = hasOrgPermission(
          { userId: m.user.id, role: "user" },
          role,
          p._def.meta?.permissions ?? {},
        );
        if (granted) continue;
        const c = await codeOf(call(m.caller, path, {}));
        if (c !== "FORBIDDEN") wrong.push(`${path} as org ${role}: ${c}`);
      }
    }
    expect(wrong).toEqual([]);
    // Sanity: the matrix is not vacuous — a viewer is refused at least one write of each kind.
    expect(byGuard("org").filter(([, p]) => p._def.type === "mutation").length).toBeGreaterThan(10);
  });
});

const campaign = {
  title: "Winter Coats",
  currency: "USD" as const,
  goalType: "amount" as const,
  goalAmountMinor: 100_000,
};

/** Creates answer optional ids when they can also answer "a duplicate exists"; here they cannot. */
function must(id: string | undefined): string {
  if (!id) throw new Error("expected an id");
  return id;
}

type Ids = Record<
  | "campaign"
  | "campaign2"
  | "item"
  | "donor"
  | "donor2"
  | "donation"
  | "tag"
  | "note"
  | "tier"
  | "invitation"
  | "membership"
  | "viewerUser"
  | "import"
  | "mapping"
  | "plan"
  | "statementRun",
  string
>;

describe("cross-tenant ids", () => {
  let ids: Ids;
  let b: Awaited<ReturnType<typeof member>>;
  let orgA: string;

  beforeAll(async () => {
    orgA = await makeOrg();
    const orgB = await makeOrg();
    const a = await member(orgA, "owner");
    const viewerA = await member(orgA, "viewer");
    b = await member(orgB, "owner");
    const c = await a.caller.campaigns.create(campaign);
    const c2 = await a.caller.campaigns.create({ ...campaign, title: "Spring Books" });
    const item = await a.caller.campaigns.items.create({
      campaignId: c.id,
      title: "Coat",
      unitAmountMinor: 5000,
    });
    const d = await a.caller.donors.create({
      data: { firstName: "Ada", lastName: "A", email: "ada@a.test" },
    });
    const d2 = await a.caller.donors.create({
      data: { firstName: "Bea", lastName: "B", email: "bea@a.test" },
    });
    const dn = await a.caller.donations.create({
      donorId: must(d.id),
      campaignId: c.id,
      amountMinor: 5000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    });
    const tag = await a.caller.donors.tags.create({ name: "Board" });
    const note = await a.caller.donors.notes.create({ donorId: must(d.id), body: "Met at the gala" });
    const tier = await a.caller.donors.tiers.create({ name: "Major", minMinor: 0, maxMinor: null });
    const inv = await a.caller.organization.invite({ email: "someone@a.test", role: "viewer" });
    if ("alreadyMember" in inv) throw new Error("unexpected");
    const imp = await a.caller.imports.start({
      kind: "donors",
      fileName: "donors.csv",
      fileHash: "a".repeat(64),
      fileSize: 100,
      totalRows: 2,
      headers: ["Name"],
      mapping: ["name"],
      options: { currency: "USD", timeZone: "UTC" },
    });
    const plan = await a.caller.plans.create({
      donorId: must(d.id),
      campaignId: null,
      amountMinor: 2_500,
      currency: "USD",
      interval: "month",
      startDay: "2026-01-15",
    });
    const mapping = await a.caller.imports.mappings.save({
      kind: "donors",
      name: "Our old CRM",
      fields: { name: "name" },
      options: { dateOrder: "auto", decimal: "auto", matchPolicy: "fill" },
    });
    await a.caller.thanks.save({
      campaignId: c.id,
      subject: "Thanks for the coats",
      body: "Dear {{donor.name}}",
    });
    const run = await a.caller.receipts.startStatements({
      year: new Date().getUTCFullYear(),
      basis: "calendar",
    });
    const mem = await testEnv.DB.prepare("SELECT id FROM membership WHERE user_id = ?")
      .bind(viewerA.user.id)
      .first<{ id: string }>();
    ids = {
      campaign: c.id,
      campaign2: c2.id,
      item: item.id,
      donor: must(d.id),
      donor2: must(d2.id),
      donation: dn.id,
      tag: tag.id,
      note: note.id,
      tier: tier.id,
      invitation: inv.id,
      membership: mem?.id ?? "",
      viewerUser: viewerA.user.id,
      import: imp.id,
      mapping: mapping?.id ?? "",
      plan: plan.id,
      statementRun: run.id,
    };
  });

  /** One representative, otherwise valid input per org procedure that takes a record id. */
  const CROSS_TENANT: Record<string, (i: Ids) => unknown> = {
    "organization.revokeInvitation": (i) => ({ id: i.invitation }),
    "organization.resendInvitation": (i) => ({ id: i.invitation }),
    "organization.setMemberRole": (i) => ({ membershipId: i.membership, role: "admin" }),
    "organization.removeOrgMember": (i) => ({ membershipId: i.membership }),
    "organization.offerOwnership": (i) => ({ membershipId: i.membership, stepDown: false }),
    "campaigns.byId": (i) => ({ id: i.campaign }),
    "campaigns.update": (i) => ({ id: i.campaign, data: { ...campaign, title: "Hijacked" } }),
    "campaigns.delete": (i) => ({ id: i.campaign }),
    "campaigns.toggleStatus": (i) => ({ id: i.campaign }),
    "campaigns.setStatus": (i) => ({ id: i.campaign, action: "publish" }),
    "campaigns.items.list": (i) => ({ campaignId: i.campaign }),
    "campaigns.items.create": (i) => ({ campaignId: i.campaign, title: "Boots", unitAmountMinor: 1000 }),
    "campaigns.items.update": (i) => ({ id: i.item, title: "Hijacked" }),
    "campaigns.items.delete": (i) => ({ id: i.item }),
    "campaigns.items.reorder": (i) => ({ campaignId: i.campaign, ids: [i.item] }),
    "campaigns.analytics": (i) => ({ id: i.campaign }),
    "donors.byId": (i) => ({ id: i.donor }),
    "donors.update": (i) => ({
      id: i.donor,
      data: { firstName: "Hijacked", lastName: "A", email: "ada@a.test" },
    }),
    "donors.delete": (i) => ({ id: i.donor }),
    "donors.anonymize": (i) => ({ id: i.donor, confirm: "ada@a.test" }),
    "donors.merge": (i) => ({ sourceId: i.donor2, targetId: i.donor, dryRun: true }),
    "donors.tags.update": (i) => ({ id: i.tag, name: "Hijacked" }),
    "donors.tags.delete": (i) => ({ id: i.tag }),
    "donors.tags.assign": (i) => ({ donorIds: [i.donor], tagIds: [i.tag], mode: "add" }),
    "donors.notes.list": (i) => ({ donorId: i.donor }),
    "donors.notes.create": (i) => ({ donorId: i.donor, body: "Hijacked" }),
    "donors.notes.update": (i) => ({ id: i.note, body: "Hijacked" }),
    "donors.notes.delete": (i) => ({ id: i.note }),
    "donors.tiers.update": (i) => ({ id: i.tier, name: "Hijacked", minMinor: 0, maxMinor: null }),
    "donors.tiers.delete": (i) => ({ id: i.tier }),
    "donors.tiers.setLock": (i) => ({ donorId: i.donor, locked: true, tierId: i.tier }),
    "donations.byId": (i) => ({ id: i.donation }),
    "donations.create": (i) => ({
      donorId: i.donor,
      campaignId: i.campaign,
      amountMinor: 5000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    }),
    "donations.update": (i) => ({ id: i.donation, data: { message: "Hijacked" } }),
    "donations.updateStatus": (i) => ({ id: i.donation, status: "refunded", reason: "x" }),
    "donations.delete": (i) => ({ id: i.donation }),
    "donations.restore": (i) => ({ id: i.donation }),
    "audit.list": (i) => ({ entityType: "donor", entityId: i.donor }),
    "imports.byId": (i) => ({ id: i.import }),
    "imports.commit": (i) => ({ id: i.import, rows: [{ row: 2, cells: ["Hijacked"] }] }),
    "imports.finish": (i) => ({ id: i.import }),
    "imports.rejections": (i) => ({ id: i.import }),
    "imports.rollbackPreview": (i) => ({ id: i.import }),
    "imports.rollback": (i) => ({ id: i.import }),
    "imports.mappings.delete": (i) => ({ id: i.mapping }),
    "plans.byId": (i) => ({ id: i.plan }),
    "plans.create": (i) => ({
      donorId: i.donor,
      campaignId: null,
      amountMinor: 1_000,
      currency: "USD",
      interval: "month",
      startDay: "2026-02-01",
    }),
    "plans.setStatus": (i) => ({ id: i.plan, action: "cancel", reason: "Hijacked" }),
    "plans.changeAmount": (i) => ({ id: i.plan, amountMinor: 100 }),
    "receipts.forDonation": (i) => ({ donationId: i.donation }),
    "receipts.send": (i) => ({ donationId: i.donation }),
    "receipts.sendThanks": (i) => ({ donationId: i.donation }),
    "receipts.statementYears": (i) => ({ donorId: i.donor }),
    "receipts.stepStatements": (i) => ({ runId: i.statementRun }),
    "thanks.save": (i) => ({ campaignId: i.campaign, subject: "Hijacked", body: "Hijacked" }),
    "thanks.remove": (i) => ({ campaignId: i.campaign }),
    "reports.campaigns": (i) => ({ campaignIds: [i.campaign, i.campaign2] }),
  };
  /**
   * Org procedures with id-like inputs that do not look one record up: list filters and history
   * reads are scoped to the caller's organization, so another tenant's id matches nothing (checked
   * below), and organization.update's registrationId/taxId are not record ids. Bulk procedures
   * answer per id: another tenant's ids are skipped as "Not found" (checked below; decision 024).
   */
  const NOT_A_LOOKUP = new Set<string>([
    "organization.update",
    "donors.list",
    "donors.exportPage",
    "donors.matchingIds",
    "donors.tags.bulkAssign",
    "donations.list",
    "donations.matchingIds",
    "donations.history",
    "donations.bulkUpdateStatus",
    "donations.bulkDelete",
    "donations.trashPreview",
    // Answers per id (another organization's: "Donation not found"), asserted below.
    "receipts.sendMany",
    "campaigns.bulkArchive",
    // The pickers name campaigns by id (`ids`): another tenant's id names none.
    "campaigns.list",
    "campaigns.matchingIds",
    "plans.list",
    "plans.exportPage",
    // Report filters (issue 27): another tenant's campaign, tier or tag matches none of our gifts.
    "reports.yearly",
    "reports.lapsed",
    "reports.lapsedExportPage",
    "reports.pyramid",
  ]);

  it("covers every org procedure that takes a record id", () => {
    const idLike = /(^id$|Id$|Ids$|^ids$)/;
    const missing = byGuard("org")
      .filter(([path, p]) => {
        const shape = p._def.inputs?.[0]?.shape;
        return shape && Object.keys(shape).some((k) => idLike.test(k)) && !NOT_A_LOOKUP.has(path);
      })
      .map(([path]) => path)
      .filter((path) => !CROSS_TENANT[path]);
    expect(missing).toEqual([]);
    for (const path of Object.keys(CROSS_TENANT))
      expect(
        byGuard("org").some(([p]) => p === path),
        `${path} is not an org procedure`,
      ).toBe(true);
  });

  it("answers NOT_FOUND for another organization's ids and leaves its rows untouched", async () => {
    const wrong: string[] = [];
    for (const [path, input] of Object.entries(CROSS_TENANT)) {
      const code = await codeOf(call(b.caller, path, input(ids)));
      if (code !== "NOT_FOUND") wrong.push(`${path}: ${code}`);
    }
    expect(wrong).toEqual([]);
    const db = testEnv.DB;
    const still = await db.batch([
      db.prepare("SELECT title FROM campaign WHERE id = ?").bind(ids.campaign),
      db.prepare("SELECT first_name AS f FROM donor WHERE id = ?").bind(ids.donor),
      db.prepare("SELECT trashed_at AS t FROM donation WHERE id = ?").bind(ids.donation),
      db.prepare("SELECT role FROM membership WHERE id = ?").bind(ids.membership),
      db.prepare("SELECT revoked_at AS r FROM invitation WHERE id = ?").bind(ids.invitation),
      db
        .prepare("SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND actor_id = ?")
        .bind(orgA, b.user.id),
      db.prepare("SELECT status, next_row FROM data_import WHERE id = ?").bind(ids.import),
      db.prepare("SELECT count(*) AS n FROM import_mapping WHERE id = ?").bind(ids.mapping),
      db.prepare("SELECT status, amount_minor FROM recurring_plan WHERE id = ?").bind(ids.plan),
      db.prepare("SELECT subject FROM thank_you_template WHERE campaign_id = ?").bind(ids.campaign),
    ]);
    // Scoped reads: another tenant's ids filter to nothing rather than leaking rows.
    expect((await b.caller.donors.list({ tagId: ids.tag })).total).toBe(0);
    expect((await b.caller.donations.list({ campaignId: ids.campaign })).total).toBe(0);
    expect((await b.caller.campaigns.list({ ids: [ids.campaign] })).total).toBe(0);
    expect((await b.caller.campaigns.matchingIds({ ids: [ids.campaign] })).ids).toEqual([]);
    expect((await b.caller.donations.list({ donorId: ids.donor })).total).toBe(0);
    expect(
      (await b.caller.reports.yearly({ campaignId: ids.campaign })).giving.some((g) => g.gifts > 0),
    ).toBe(false);
    expect((await b.caller.reports.lapsed({ tagId: ids.tag, tierId: ids.tier })).total).toBe(0);
    expect(await b.caller.donations.history({ entityType: "donation", entityId: ids.donation })).toEqual([]);
    expect((await b.caller.donations.matchingIds({ campaignId: ids.campaign })).ids).toEqual([]);
    expect(
      await b.caller.donations.bulkUpdateStatus({ ids: [ids.donation], status: "refunded", reason: "x" }),
    ).toEqual([{ id: ids.donation, changed: false, reason: "Not found" }]);
    expect(
      (await db.prepare("SELECT status FROM donation WHERE id = ?").bind(ids.donation).first())?.status,
    ).toBe("completed");
    expect(await b.caller.donations.bulkDelete({ ids: [ids.donation] })).toEqual([
      { id: ids.donation, changed: false, reason: "Not found" },
    ]);
    expect(await b.caller.donations.trashPreview({ ids: [ids.donation] })).toMatchObject({ receipted: 0 });
    expect(await b.caller.receipts.sendMany({ ids: [ids.donation] })).toEqual([
      { id: ids.donation, changed: false, reason: "Donation not found" },
    ]);
    expect(
      (
        await db
          .prepare("SELECT count(*) AS n FROM acknowledgement WHERE donation_id = ?")
          .bind(ids.donation)
          .first()
      )?.n,
    ).toBe(0);
    expect((await b.caller.donors.matchingIds({ tagId: ids.tag })).ids).toEqual([]);
    const bTag = await b.caller.donors.tags.create({ name: "Theirs" });
    expect(
      await b.caller.donors.tags.bulkAssign({ ids: [ids.donor], tagIds: [bTag.id], mode: "replace" }),
    ).toEqual([{ id: ids.donor, changed: false, reason: "Not found" }]);
    expect(
      (
        await db
          .prepare("SELECT count(*) AS n FROM donor_tag_assignment WHERE donor_id = ?")
          .bind(ids.donor)
          .first()
      )?.n,
    ).toBe(0);
    expect((await b.caller.campaigns.matchingIds({ q: "Winter Coats" })).ids).toEqual([]);
    expect(await b.caller.campaigns.bulkArchive({ ids: [ids.campaign] })).toEqual([
      { id: ids.campaign, changed: false, reason: "Not found" },
    ]);
    expect(
      (await db.prepare("SELECT status FROM campaign WHERE id = ?").bind(ids.campaign).first())?.status,
    ).toBe("draft");
    expect(still.map((r) => r.results[0])).toEqual([
      { title: "Winter Coats" },
      { f: "Ada" },
      { t: null },
      { role: "viewer" },
      { r: null },
      { n: 0 },
      { status: "running", next_row: 2 },
      { n: 1 },
      { status: "active", amount_minor: 2_500 },
      { subject: "Thanks for the coats" },
    ]);
    // Their campaign's message is not among ours.
    expect((await b.caller.thanks.list()).campaigns).toEqual([]);
  });
});
