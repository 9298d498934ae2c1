/**
 * New organizations (issue 53, decision 045) on real D1: a signed-up person creates one ("open")
 * or asks for one ("approval") that a platform admin approves or declines; "closed" names whom to
 * write to. Each mode is a copy of the test env with ORGANIZATIONS_CREATION set, read through the
 * real config path. Every rule is tried as each role: viewer, organizer, org admin, owner,
 * platform admin and no organization.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { newOrganizationFor } from "../../worker/organization/onboarding/service";
import { createContext } from "../../worker/trpc/context";
import { createCallerFactory } from "../../worker/trpc/init";
import { CookieJar, lastMail, makeAdmin, signUp, uniqueEmail, verifyByMail } from "../auth/jar";
import { makeOrg, member } from "../fixtures";
import { BASE_URL, codeOf, testEnv, trpcHttp } from "../helpers";

const createCaller = createCallerFactory(appRouter);
const modes = {
  open: testEnv,
  approval: { ...testEnv, ORGANIZATIONS_CREATION: "approval" } as Env,
  closed: {
    ...testEnv,
    ORGANIZATIONS_CREATION: "closed",
    ORGANIZATIONS_CONTACT_EMAIL: "help@platform.test",
  } as Env,
};

async function callerOn(jar: CookieJar, env: Env) {
  const request = new Request(`${BASE_URL}/api/trpc`, { headers: { cookie: jar.header() } });
  return createCaller(await createContext({ request, env, resHeaders: new Headers() }));
}

type Person = { jar: CookieJar; email: string; user: { id: string } };

/** A person as each role, their address verified (creating and requesting need it). */
async function everyone() {
  const org = await makeOrg();
  const people: [string, Person][] = [];
  for (const role of ["viewer", "organizer", "admin", "owner"] as const)
    people.push([`org ${role}`, await member(org, role)]);
  people.push(["platform admin", await makeAdmin()]);
  people.push(["no organization", await signUp(new CookieJar())]);
  for (const [, p] of people) await verifyByMail(p.email);
  return people;
}

const input = (name: string, o: Record<string, unknown> = {}) => ({
  name,
  country: "us",
  defaultCurrency: "usd",
  timeZone: "America/Chicago",
  fiscalYearStartMonth: 7,
  ...o,
});

const one = async <T>(sql: string, ...args: unknown[]) =>
  (await testEnv.DB.prepare(sql)
    .bind(...args)
    .first()) as T;
const all = async (sql: string, ...args: unknown[]) =>
  (
    await testEnv.DB.prepare(sql)
      .bind(...args)
      .all()
  ).results;

/** Everything a new organization must start with (the seed's and the migrations' rows). */
async function expectComplete(
  orgId: string,
  ownerId: string,
  o: { zone: string; currency: string; unit: number; country?: string },
) {
  expect(
    await one(
      "SELECT name, slug, country, default_currency, time_zone, fiscal_year_start_month, status FROM organization WHERE id = ?",
      orgId,
    ),
  ).toMatchObject({
    country: o.country ?? "US",
    default_currency: o.currency,
    time_zone: o.zone,
    status: "active",
  });
  expect(await all("SELECT user_id, role FROM membership WHERE organization_id = ?", orgId)).toEqual([
    { user_id: ownerId, role: "owner" },
  ]);
  expect(await one("SELECT active_organization_id AS a FROM user WHERE id = ?", ownerId)).toEqual({
    a: orgId,
  });
  expect(await all("SELECT name FROM org_counter WHERE organization_id = ?", orgId)).toEqual([
    { name: "receipts_from" },
  ]);
  expect(
    await one(
      "SELECT number_prefix, language, auto_send FROM receipt_settings WHERE organization_id = ?",
      orgId,
    ),
  ).toEqual({
    number_prefix: "",
    language: "en",
    auto_send: 0,
  });
  expect(await one("SELECT time_zone FROM donation_daily_state WHERE organization_id = ?", orgId)).toEqual({
    time_zone: o.zone,
  });
  expect(await one("SELECT time_zone FROM plan_rollup_state WHERE organization_id = ?", orgId)).toEqual({
    time_zone: o.zone,
  });
  expect(
    await all(
      "SELECT name, basis, min_minor, max_minor FROM donor_tier WHERE organization_id = ? ORDER BY sort_order",
      orgId,
    ),
  ).toEqual([
    { name: "General", basis: "lifetime", min_minor: 0, max_minor: 500 * o.unit },
    { name: "Mid", basis: "lifetime", min_minor: 500 * o.unit, max_minor: 5000 * o.unit },
    { name: "Major", basis: "lifetime", min_minor: 5000 * o.unit, max_minor: null },
  ]);
  expect(
    await all("SELECT action FROM audit_event WHERE organization_id = ? AND entity_id = ?", orgId, orgId),
  ).toEqual([{ action: "organization.create" }]);
}

describe("open: a signed-up person creates an organization and owns it", () => {
  let people: [string, Person][];
  beforeAll(async () => {
    people = await everyone();
  });

  it("as each role, complete, in one batch; the portal opens on it and its gifts get receipts", async () => {
    for (const [who, p] of people) {
      const caller = await callerOn(p.jar, modes.open);
      expect((await caller.onboarding.status()).newOrganization, who).toBe("create");
      const made = await caller.onboarding.create(input(`Neighbours of ${who} ${p.user.id.slice(0, 6)}`));
      await expectComplete(made.id, p.user.id, { zone: "America/Chicago", currency: "USD", unit: 100 });
      const caps = await caller.access.capabilities();
      expect(caps, who).toMatchObject({
        portalAccess: true,
        orgAdmin: true,
        grantsOwner: true,
        timeZone: "America/Chicago",
      });
      expect((await caller.organization.current()).id, who).toBe(made.id);
    }
    // It works as an organization: a gift is numbered, counted and receipted.
    const [, person] = people[people.length - 1] as [string, Person];
    const caller = await callerOn(person.jar, modes.open);
    const donor = await caller.donors.create({
      data: { firstName: "Ada", lastName: "Giver", email: uniqueEmail("ada") },
    });
    if (!donor.created) throw new Error("expected a donor");
    const gift = await caller.donations.create({
      donorId: donor.id,
      campaignId: null,
      amountMinor: 2_500,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 60_000,
    });
    expect((await caller.receipts.forDonation({ donationId: gift.id })).receipts).toHaveLength(1);
    expect((await caller.donations.list({})).total).toBe(1);
  });

  it("keeps the currency's minor units in the default tiers (JPY has none)", async () => {
    const p = await signUp(new CookieJar());
    await verifyByMail(p.email);
    const made = await (await callerOn(p.jar, modes.open)).onboarding.create(
      input("Kōyō Reading Circle", { country: "JP", defaultCurrency: "JPY", timeZone: "Asia/Tokyo" }),
    );
    await expectComplete(made.id, p.user.id, { zone: "Asia/Tokyo", currency: "JPY", unit: 1, country: "JP" });
    expect(made.slug).toMatch(/^koyo-reading-circle(-\d+)?$/);
  });

  it("refuses an unverified address, with nothing written", async () => {
    const p = await signUp(new CookieJar());
    const caller = await callerOn(p.jar, modes.open);
    const before = await one<{ n: number }>("SELECT count(*) AS n FROM organization");
    await expect(caller.onboarding.create(input("Unverified Friends"))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("Verify your e-mail address"),
    });
    expect(await one("SELECT count(*) AS n FROM organization")).toEqual(before);
    expect((await caller.onboarding.status()).emailVerified).toBe(false);
  });

  it("gives a long name its slug and the next free one, with no pattern over D1's LIKE limit", async () => {
    const a = await signUp(new CookieJar());
    const b = await signUp(new CookieJar());
    await verifyByMail(a.email);
    await verifyByMail(b.email);
    // 60 characters of slug words: as a LIKE pattern this passed D1's 50-byte limit (a 500).
    const name = `Neighbourhood Community Food And Reading Pantry ${Date.now().toString(36)}`;
    const first = await (await callerOn(a.jar, modes.open)).onboarding.create(input(name));
    const second = await (await callerOn(b.jar, modes.open)).onboarding.create(input(name));
    expect(first.slug.length).toBeGreaterThan(50);
    // The next free slug, cut to the same length (core/campaign.ts freeSlug).
    expect(second.slug).toMatch(/-2$/);
    expect(second.slug).not.toBe(first.slug);
  });

  it("makes one organization of a name per owner (a second click), and the next free slug for another owner", async () => {
    const a = await signUp(new CookieJar());
    const b = await signUp(new CookieJar());
    await verifyByMail(a.email);
    await verifyByMail(b.email);
    const name = `Harbour Pantry ${Date.now().toString(36)}`;
    const ca = await callerOn(a.jar, modes.open);
    const results = await Promise.allSettled([
      ca.onboarding.create(input(name)),
      ca.onboarding.create(input(name)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({
      code: "CONFLICT",
      message: `You already own an organization named ${name}`,
    });
    const first = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ slug: string }>)
      .value;
    const second = await (await callerOn(b.jar, modes.open)).onboarding.create(input(name));
    expect(second.slug).toBe(`${first.slug}-2`);
    expect(await one("SELECT count(*) AS n FROM organization WHERE name = ?", name)).toEqual({ n: 2 });
    expect(
      await one(
        "SELECT count(*) AS n FROM audit_event WHERE action = 'organization.create' AND actor_id = ?",
        a.user.id,
      ),
    ).toEqual({
      n: 1,
    });
  });

  it("answers bad input with 400 and the field, never a 500", async () => {
    const p = await signUp(new CookieJar());
    await verifyByMail(p.email);
    for (const [bad, field] of [
      [{ country: "XX" }, "country"],
      [{ country: "" }, "country"],
      [{ timeZone: "Mars/Olympus" }, "timeZone"],
      [{ defaultCurrency: "XYZ" }, "defaultCurrency"],
      [{ fiscalYearStartMonth: 13 }, "fiscalYearStartMonth"],
      [{ name: "A" }, "name"],
      [{ name: "\ud800 lone", country: "US", extra: 1 }, "_"],
    ] as const) {
      const res = await trpcHttp(p.jar, "onboarding.create", input("Fine Name", bad));
      expect(res.status, JSON.stringify(bad)).toBe(400);
      const body = (await res.json()) as {
        error: { json: { data: { fieldErrors: Record<string, string[]> } } };
      };
      expect(Object.keys(body.error.json.data.fieldErrors), JSON.stringify(bad)).toContain(field);
    }
  });

  it("is refused to an impersonated session (the admin would act as the person)", () => {
    const ctx = (impersonatedBy: string | null, role = "user") =>
      ({
        config: { organizations: { creation: "open" }, auth: { adminUserIds: [] } },
        user: { id: "u", role },
        session: { impersonatedBy },
      }) as unknown as Parameters<typeof newOrganizationFor>[0];
    expect(newOrganizationFor(ctx(null))).toBe("create");
    expect(newOrganizationFor(ctx("admin-id"))).toBeNull();
    expect(newOrganizationFor(ctx("admin-id", "admin"))).toBeNull();
  });
});

describe("approval: a request that platform admins approve or decline", () => {
  let admin: Awaited<ReturnType<typeof makeAdmin>>;
  beforeAll(async () => {
    admin = await makeAdmin();
    await verifyByMail(admin.email);
  });

  it("as each role but platform admin, a request (one pending); a platform admin creates at once", async () => {
    for (const [who, p] of await everyone()) {
      const caller = await callerOn(p.jar, modes.approval);
      const name = `Requested by ${who} ${p.user.id.slice(0, 6)}`;
      if (who === "platform admin") {
        expect((await caller.onboarding.status()).newOrganization).toBe("create");
        await expect(caller.onboarding.request(input(name))).rejects.toMatchObject({ code: "FORBIDDEN" });
        const made = await caller.onboarding.create(input(name));
        await expectComplete(made.id, p.user.id, { zone: "America/Chicago", currency: "USD", unit: 100 });
        continue;
      }
      await expect(caller.onboarding.create(input(name)), who).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: "New organizations need a platform administrator's approval: send a request",
      });
      const { id } = await caller.onboarding.request(input(name));
      await expect(caller.onboarding.request(input(`${name} again`)), who).rejects.toMatchObject({
        code: "CONFLICT",
        message: "You already have a request under review",
      });
      const status = await caller.onboarding.status();
      expect(status.request, who).toMatchObject({
        id,
        name,
        status: "pending",
        country: "US",
        defaultCurrency: "USD",
      });
      const caps = await caller.access.capabilities();
      expect(caps.newOrganization, who).toBe("request");
      // Only someone the portal turns away is told about the request by the access check.
      expect(caps.organizationRequest, who).toBe(caps.portalAccess ? null : "pending");
      expect(await one("SELECT action FROM audit_event WHERE entity_id = ?", id)).toEqual({
        action: "organization_request.create",
      });
    }
  });

  it("approves: the organization is created complete, the person its owner, the request marked, both audited, the person mailed", async () => {
    const p = await signUp(new CookieJar());
    await verifyByMail(p.email);
    const name = `Approved Pantry ${Date.now().toString(36)}`;
    const { id } = await (await callerOn(p.jar, modes.approval)).onboarding.request(
      input(name, {
        country: "GB",
        defaultCurrency: "GBP",
        timeZone: "Europe/London",
        fiscalYearStartMonth: 4,
      }),
    );
    const adminCaller = await callerOn(admin.jar, modes.approval);
    const queued = await adminCaller.onboarding.requests();
    expect(queued.find((r) => r.id === id)).toMatchObject({
      status: "pending",
      name,
      requester: { id: p.user.id, email: p.email },
    });
    const { organizationId } = await adminCaller.onboarding.approve({ id });
    await expectComplete(organizationId, p.user.id, {
      zone: "Europe/London",
      currency: "GBP",
      unit: 100,
      country: "GB",
    });
    expect(
      await one("SELECT status, organization_id, decided_by FROM organization_request WHERE id = ?", id),
    ).toEqual({
      status: "approved",
      organization_id: organizationId,
      decided_by: admin.user.id,
    });
    expect(
      await all(
        "SELECT action, actor_id FROM audit_event WHERE entity_id IN (?, ?) ORDER BY action",
        id,
        organizationId,
      ),
    ).toEqual([
      { action: "organization.create", actor_id: admin.user.id },
      { action: "organization_request.approve", actor_id: admin.user.id },
      { action: "organization_request.create", actor_id: p.user.id },
    ]);
    const mail = await lastMail(p.email);
    expect(mail?.subject).toBe(`${name} is ready on Almoner`);
    expect(mail?.url).toBe("http://localhost:3000/dashboard");
    const caps = await (await callerOn(p.jar, modes.approval)).access.capabilities();
    expect(caps).toMatchObject({ portalAccess: true, grantsOwner: true, organizationRequest: null });
    await expect(adminCaller.onboarding.approve({ id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This request was already approved",
    });
    expect(await one("SELECT count(*) AS n FROM organization WHERE name = ?", name)).toEqual({ n: 1 });
    // An approved request is done with: once its organization is gone, the access check names it no more.
    await testEnv.DB.prepare("DELETE FROM organization WHERE id = ?").bind(organizationId).run();
    expect(await (await callerOn(p.jar, modes.approval)).access.capabilities()).toMatchObject({
      portalAccess: false,
      newOrganization: "request",
      organizationRequest: null,
    });
  });

  it("declines with a reason the person is mailed and shown; they may ask again", async () => {
    const p = await signUp(new CookieJar());
    await verifyByMail(p.email);
    const caller = await callerOn(p.jar, modes.approval);
    const { id } = await caller.onboarding.request(input("Declined Friends"));
    const adminCaller = await callerOn(admin.jar, modes.approval);
    await expect(adminCaller.onboarding.decline({ id, reason: " " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await adminCaller.onboarding.decline({ id, reason: "We could not find this charity's registration." });
    expect((await caller.onboarding.status()).request).toMatchObject({
      id,
      status: "declined",
      reason: "We could not find this charity's registration.",
    });
    expect((await caller.access.capabilities()).organizationRequest).toBe("declined");
    const mail = await lastMail(p.email);
    expect(mail?.subject).toBe("Your request for Declined Friends on Almoner");
    expect(mail?.text).toContain("We could not find this charity's registration.");
    expect(mail?.url).toBe("http://localhost:3000/onboarding");
    expect(
      await one(
        "SELECT reason FROM audit_event WHERE entity_id = ? AND action = 'organization_request.decline'",
        id,
      ),
    ).toEqual({
      reason: "We could not find this charity's registration.",
    });
    await expect(adminCaller.onboarding.decline({ id, reason: "Twice" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const again = await caller.onboarding.request(input("Declined Friends"));
    expect((await caller.onboarding.status()).request).toMatchObject({ id: again.id, status: "pending" });
  });

  it("decides a request once when an approve and a decline race: exactly one wins, at most one organization", async () => {
    const p = await signUp(new CookieJar());
    await verifyByMail(p.email);
    const name = `Raced Request ${Date.now().toString(36)}`;
    const { id } = await (await callerOn(p.jar, modes.approval)).onboarding.request(input(name));
    const a = await callerOn(admin.jar, modes.approval);
    const results = await Promise.allSettled([
      a.onboarding.approve({ id }),
      a.onboarding.decline({ id, reason: "Duplicate of another request" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const row = await one<{ status: string }>("SELECT status FROM organization_request WHERE id = ?", id);
    const orgs = await one<{ n: number }>("SELECT count(*) AS n FROM organization WHERE name = ?", name);
    expect(orgs.n).toBe(row.status === "approved" ? 1 : 0);
    expect(
      await one(
        "SELECT count(*) AS n FROM audit_event WHERE entity_id = ? AND action <> 'organization_request.create'",
        id,
      ),
    ).toEqual({
      n: 1,
    });
  });

  it("keeps the queue and its decisions to platform admins", async () => {
    const org = await makeOrg();
    const p = await signUp(new CookieJar());
    await verifyByMail(p.email);
    const { id } = await (await callerOn(p.jar, modes.approval)).onboarding.request(
      input("Only Admins Decide"),
    );
    for (const role of ["viewer", "organizer", "admin", "owner"] as const) {
      const m = await member(org, role);
      const c = await callerOn(m.jar, modes.approval);
      expect(await codeOf(c.onboarding.requests()), role).toBe("FORBIDDEN");
      expect(await codeOf(c.onboarding.approve({ id })), role).toBe("FORBIDDEN");
      expect(await codeOf(c.onboarding.decline({ id, reason: "No" })), role).toBe("FORBIDDEN");
    }
    const self = await callerOn(p.jar, modes.approval);
    expect(await codeOf(self.onboarding.approve({ id }))).toBe("FORBIDDEN");
    expect(await one("SELECT status FROM organization_request WHERE id = ?", id)).toEqual({
      status: "pending",
    });
    expect(await codeOf((await callerOn(admin.jar, modes.approval)).onboarding.approve({ id: "nope" }))).toBe(
      "NOT_FOUND",
    );
  });
});

describe("closed: neither, and the person is told whom to write to", () => {
  it("refuses creating and requesting as each role but platform admin, naming the contact", async () => {
    for (const [who, p] of await everyone()) {
      const caller = await callerOn(p.jar, modes.closed);
      const status = await caller.onboarding.status();
      expect(status.contactEmail).toBe("help@platform.test");
      if (who === "platform admin") {
        expect(status.newOrganization).toBe("create");
        continue;
      }
      expect(status.newOrganization, who).toBeNull();
      expect((await caller.access.capabilities()).newOrganization, who).toBeNull();
      for (const attempt of [
        caller.onboarding.create(input(`Closed ${who}`)),
        caller.onboarding.request(input(`Closed ${who}`)),
      ])
        await expect(attempt, who).rejects.toMatchObject({
          code: "FORBIDDEN",
          message:
            "New organizations are set up by the platform's administrators: write to help@platform.test",
        });
    }
  });

  it("tells anyone the policy, signed in or not", async () => {
    const anon = await callerOn(new CookieJar(), modes.closed);
    expect(await anon.onboarding.policy()).toEqual({
      creation: "closed",
      contactEmail: "help@platform.test",
    });
    expect(await (await callerOn(new CookieJar(), modes.open)).onboarding.policy()).toEqual({
      creation: "open",
      contactEmail: "support@almoner.local",
    });
  });
});
