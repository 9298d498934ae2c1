/**
 * Issue 26, "Permissions and tenancy": each finding as the role and request that found it.
 * The rule they prove is docs/decisions/017-org-role-bounds-members.md: inside an organization the
 * membership role alone decides (platform admins excepted); platform roles grant platform abilities
 * only; an impersonated session never holds export rights, whatever the rung or endpoint.
 */

import { orgRoles, type Permissions } from "@core/permissions";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { authClient, CookieJar, makeAdmin, PASSWORD, setRole, signUp } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, call, codeOf, postJson, testEnv } from "../helpers";

type Proc = {
  _def: { type: string; meta?: { guard?: "authed" | "org" | "admin"; permissions?: Permissions } };
};
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>);
const byGuard = (g: string) => procedures.filter(([, p]) => p._def.meta?.guard === g);

const ORG_ROLES = ["owner", "admin", "organizer", "viewer"] as const;
type OrgRole = (typeof ORG_ROLES)[number];
const PLATFORM_ROLES = ["user", "organizer"] as const;

const CRUD = ["view", "create", "update", "delete"];
/**
 * The expectation, written out (DESIGN §3 with decision 017): what each organization role may do
 * inside its organization. Nothing the caller's platform role grants appears here.
 */
const ORG_GRANTS: Record<OrgRole, Record<string, string[]>> = {
  owner: {
    donation: CRUD,
    campaign: CRUD,
    donor: CRUD,
    tag: CRUD,
    note: CRUD,
    export: [...CRUD, "organization"],
    organization: ["view", "update", "delete", "transfer"],
    member: CRUD,
    profile: ["view", "update"],
    import: ["view", "create", "delete"],
    receipt: ["view", "send"],
  },
  admin: {
    donation: CRUD,
    campaign: CRUD,
    donor: CRUD,
    tag: CRUD,
    note: CRUD,
    export: CRUD,
    organization: ["view", "update"],
    member: CRUD,
    profile: ["view", "update"],
    import: ["view", "create", "delete"],
    receipt: ["view", "send"],
  },
  organizer: {
    donation: ["view", "create", "update"],
    campaign: CRUD,
    donor: ["view", "create", "update"],
    tag: CRUD,
    note: CRUD,
    export: ["view", "create"],
    organization: ["view"],
    member: ["view"],
    profile: ["view", "update"],
    receipt: ["view", "send"],
  },
  viewer: {
    donation: ["view"],
    campaign: ["view"],
    donor: ["view"],
    tag: ["view"],
    note: ["view"],
    export: ["view"],
    organization: ["view"],
    member: ["view"],
    profile: ["view"],
    receipt: ["view"],
  },
};

function expected(role: OrgRole, permissions: Permissions) {
  return Object.entries(permissions).every(([resource, actions]) =>
    (actions as readonly string[]).every((a) => ORG_GRANTS[role][resource]?.includes(a) ?? false),
  );
}

/** `organization.leave` with `{}` really leaves: it runs last so the member stays for the rest. */
const LAST = new Set(["organization.leave"]);

describe("A viewer can create donations (platform roles were unioned with the organization role)", () => {
  it("keeps the written-out grant table and the permissions module's organization roles the same", () => {
    const sorted = (g: Record<string, readonly string[]>) =>
      Object.fromEntries(
        Object.entries(g)
          .filter(([, a]) => a.length > 0)
          .map(([r, a]) => [r, [...a].sort()])
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      );
    for (const role of ORG_ROLES)
      expect(sorted(orgRoles[role] as Record<string, string[]>), role).toEqual(sorted(ORG_GRANTS[role]));
  });

  it("refuses every org procedure exactly when the org role lacks the permission, for platform roles user and organizer", async () => {
    const org = await makeOrg();
    const orgProcs = [...byGuard("org")].sort(([a], [b]) => Number(LAST.has(a)) - Number(LAST.has(b)));
    expect(orgProcs.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    let refused = 0;
    let granted = 0;
    for (const platformRole of PLATFORM_ROLES) {
      for (const role of ORG_ROLES) {
        const m = await member(org, role, platformRole);
        for (const [path, p] of orgProcs) {
          const may = expected(role, p._def.meta?.permissions ?? {});
          const code = await codeOf(call(m.caller, path, {}));
          if (may ? code === "FORBIDDEN" || code.startsWith("THREW") : code !== "FORBIDDEN")
            wrong.push(`${path} as org ${role} / platform ${platformRole}: ${code} (granted: ${may})`);
          if (may) granted++;
          else refused++;
        }
      }
    }
    expect(wrong).toEqual([]);
    // Not vacuous: both sides of the table are exercised many times.
    expect(refused).toBeGreaterThan(50);
    expect(granted).toBeGreaterThan(200);
  });

  it("refuses donations.create to a viewer with platform role user or organizer: no row, totals unchanged", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const campaign = await owner.caller.campaigns.create({
      title: "Winter Coats",
      currency: "USD",
      goalType: "amount",
      goalAmountMinor: 100_000,
    });
    const donor = await owner.caller.donors.create({
      data: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.test" },
    });
    await owner.caller.donations.create({
      donorId: donor.id ?? null,
      campaignId: campaign.id,
      amountMinor: 2500,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    });
    const db = testEnv.DB;
    const snapshot = async () =>
      (
        await db.batch([
          db.prepare("SELECT count(*) AS n FROM donation WHERE organization_id = ?").bind(org),
          db
            .prepare("SELECT * FROM donation_totals WHERE organization_id = ? ORDER BY 1, 2, 3, 4, 5")
            .bind(org),
          db
            .prepare(
              "SELECT * FROM donation_daily_totals WHERE organization_id = ? ORDER BY 1, 2, 3, 4, 5, 6",
            )
            .bind(org),
          db.prepare("SELECT * FROM org_daily WHERE organization_id = ? ORDER BY 1, 2, 3, 4").bind(org),
          db
            .prepare(
              "SELECT raised_minor, donation_count, donor_count FROM campaign_stats WHERE campaign_id = ?",
            )
            .bind(campaign.id),
        ])
      ).map((r) => r.results);
    const before = await snapshot();
    expect(before[0]).toEqual([{ n: 1 }]);
    for (const platformRole of PLATFORM_ROLES) {
      const viewer = await member(org, "viewer", platformRole);
      const attempt = viewer.caller.donations.create({
        donorId: donor.id ?? null,
        campaignId: campaign.id,
        amountMinor: 990_000,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now(),
      });
      await expect(attempt, `viewer with platform role ${platformRole}`).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: "You are not allowed to access resource: donation",
      });
    }
    expect(await snapshot()).toEqual(before);
    expect((await owner.caller.donations.list({})).total).toBe(1);
  });
});

describe("POST /api/auth/admin/has-permission answered for any userId without a session", () => {
  it("answers 401 without a session, whatever userId or role the body names", async () => {
    const admin = await makeAdmin();
    // The same 401 as every other admin endpoint without a session (contract §6).
    const other = await appFetch("/api/auth/admin/list-users");
    expect(other.status).toBe(401);
    const unauthorized = await other.text();
    for (const body of [
      { userId: admin.user.id, permissions: { user: ["ban"] } },
      { role: "admin", permissions: { user: ["ban"] } },
      { userId: admin.user.id, role: "admin", permission: { user: ["impersonate"] } },
    ]) {
      const res = await postJson("/api/auth/admin/has-permission", body);
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(await res.text()).toBe(unauthorized);
    }
  });

  it("answers a signed-in non-admin about themselves only, as better-auth 1.3 does", async () => {
    const admin = await makeAdmin();
    const plain = await signUp();
    const { client } = authClient(plain.jar);
    for (const body of [
      { userId: admin.user.id, permissions: { user: ["ban"] } },
      { role: "admin", permissions: { user: ["ban"] } },
    ]) {
      const res = await client.admin.hasPermission(body as never);
      expect(res.data, JSON.stringify(body)).toEqual({ error: null, success: false });
    }
    // Their own rights answer truthfully (a user holds donation create/view, SPEC §6).
    const own = await client.admin.hasPermission({ permissions: { donation: ["create"] } } as never);
    expect(own.data).toEqual({ error: null, success: true });
  });
});

describe("An organization's logo may point at another organization's media", () => {
  const profile = {
    name: "Harbor Food Bank",
    type: "charity" as const,
    defaultCurrency: "EUR" as const,
    timeZone: "UTC",
    fiscalYearStartMonth: 1,
  };
  async function upload(cookie: string) {
    const bytes = new Uint8Array(64);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const form = new FormData();
    form.append("file", new File([bytes], "logo.png", { type: "image/png" }));
    const res = await appFetch("/api/media", {
      method: "POST",
      body: form,
      headers: { cookie, origin: BASE_URL },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { url: string }).url;
  }

  it("refuses another organization's image as the logo, and keeps accepting its own", async () => {
    const orgA = await makeOrg();
    const orgB = await makeOrg();
    const a = await member(orgA, "owner");
    const b = await member(orgB, "owner");
    const theirs = await upload(b.jar.header());
    const err = await a.caller.organization
      .update({ ...profile, logoUrl: theirs })
      .then(() => null)
      .catch((e: { code: string; message: string; cause?: { details?: unknown } }) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST", message: "That image was not found; upload it again" });
    expect(err?.cause?.details).toEqual({ field: "logoUrl" });
    expect((await a.caller.organization.current()).logoUrl).toBeNull();
    const ours = await upload(a.jar.header());
    await a.caller.organization.update({ ...profile, logoUrl: ours });
    expect((await a.caller.organization.current()).logoUrl).toBe(ours);
    // Saving again with the same (own) logo still works.
    await a.caller.organization.update({ ...profile, name: "Harbor Food Bank Lisbon", logoUrl: ours });
  });
});

describe("An impersonating admin gets donor rows with e-mails from tRPC donors.exportPage", () => {
  let admin: Awaited<ReturnType<typeof makeAdmin>>;
  let owner: Awaited<ReturnType<typeof member>>;

  beforeAll(async () => {
    const org = await makeOrg();
    owner = await member(org, "owner");
    await owner.caller.donors.create({
      data: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.test" },
    });
    admin = await makeAdmin();
    const started = await admin.jar.post("/api/auth/admin/impersonate-user", {
      userId: owner.user.id,
      reason: "issue 26 export rule",
    });
    expect(started.status).toBe(200);
  });

  it("refuses every export path to an admin impersonating an owner", async () => {
    const impersonating = await callerFor(admin.jar);
    // The same owner, signed in as themselves, gets the rows (the refusal is the impersonation's).
    expect((await owner.caller.donors.exportPage({})).rows.length).toBe(1);
    await expect(impersonating.donors.exportPage({})).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Exports are not available while impersonating",
    });
    for (const path of ["/api/export/donations.csv", "/api/export/organization.zip"]) {
      const res = await appFetch(path, { headers: { cookie: admin.jar.header() } });
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual({
        code: "FORBIDDEN",
        message: "Exports are not available while impersonating",
      });
    }
  });

  it("declares the export right on every export procedure, and withholds it from impersonators on each", async () => {
    const exports = procedures.filter(([path]) => /export/i.test(path));
    expect(exports.length).toBeGreaterThan(1);
    const undeclared = exports.filter(([, p]) => !p._def.meta?.permissions?.export).map(([path]) => path);
    expect(undeclared).toEqual([]);
    const impersonating = await callerFor(admin.jar);
    const wrong: string[] = [];
    for (const [path, p] of procedures) {
      if (!p._def.meta?.permissions?.export) continue;
      const res = await call(impersonating, path, {}).then(
        () => "OK",
        (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`,
      );
      if (res !== "FORBIDDEN: Exports are not available while impersonating") wrong.push(`${path}: ${res}`);
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Issue 53, spec audit 8 and 17: a role string is read one way everywhere (core/permissions.ts
 * parseRoles: comma-separated, trimmed, any case), and SPEC §6's portal rule lets in admins,
 * organizers and users with a membership; anyone else is signed out at once.
 */
describe("role names, read one way", () => {
  async function signedInAs(role: string, org: string | null) {
    const s = await signUp();
    await setRole(s.user.id, role);
    if (org)
      await testEnv.DB.prepare(
        "INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, 'viewer', ?, ?)",
      )
        .bind(`m-${s.user.id}`, org, s.user.id, Date.now(), Date.now())
        .run();
    const jar = new CookieJar();
    expect((await jar.post("/api/auth/sign-in/email", { email: s.email, password: PASSWORD })).status).toBe(
      200,
    );
    return { ...s, jar, caller: await callerFor(jar) };
  }

  it("a role the platform does not know gets no portal access, even with a membership; known names count in any case and beside others", async () => {
    const org = await makeOrg();
    const cases: [string, boolean, boolean][] = [
      // role, with a membership, portal access
      ["moderator", true, false],
      ["moderator", false, false],
      ["user", true, true],
      ["user", false, false],
      ["USER", true, true],
      [" User , moderator", true, true],
      ["Organizer", false, true],
      ["moderator,ORGANIZER", false, true],
      ["Admin", false, true],
    ];
    const wrong: string[] = [];
    for (const [role, withMembership, expected] of cases) {
      const who = await signedInAs(role, withMembership ? org : null);
      const caps = await who.caller.access.capabilities();
      if (caps.portalAccess !== expected)
        wrong.push(`${JSON.stringify(role)} membership=${withMembership}: ${caps.portalAccess}`);
    }
    expect(wrong).toEqual([]);
  });

  it("an admin whose role is spelled 'Admin' keeps the impersonation they started past the cookie cache", async () => {
    const admin = await signedInAs("Admin", null);
    const target = await signUp();
    const started = await admin.jar.post("/api/auth/admin/impersonate-user", { userId: target.user.id });
    expect(started.status).toBe(200);
    // Past the cookie cache: the session row is read from D1 and the impersonator re-checked.
    const res = await admin.jar.get("/api/auth/get-session?disableCookieCache=true");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      user?: { id: string };
      session?: { impersonatedBy?: string };
    } | null;
    expect(body?.user?.id).toBe(target.user.id);
    expect(body?.session?.impersonatedBy).toBe(admin.user.id);
    // An impersonator who is no admin any more (in any spelling) loses it at the next read.
    await setRole(admin.user.id, "user,Organizer");
    const after = await admin.jar.get("/api/auth/get-session?disableCookieCache=true");
    expect(await after.json()).toBeNull();
  });
});
