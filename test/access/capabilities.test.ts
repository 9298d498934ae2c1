/**
 * `access.capabilities` (issue 19): what the portal is told the caller may do. Each answer is checked
 * against the rungs themselves: every org and admin procedure is called as that caller, and a
 * capability must be held exactly when the procedure's rung lets the caller through. The configured
 * admin ids come from the Worker's vars through the real config path (a copy of the test env with
 * AUTH_ADMIN_USER_IDS, as test/auth/rate-limit.test.ts does with RATE_LIMIT_ENABLED).
 */

import type { Allowed, Capabilities, Permissions } from "@core/permissions";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { createContext } from "../../worker/trpc/context";
import { createCallerFactory } from "../../worker/trpc/init";
import { CookieJar, makeAdmin, signUp } from "../auth/jar";
import { makeOrg, member } from "../fixtures";
import { BASE_URL, call, codeOf, testEnv } from "../helpers";

type Proc = {
  _def: { type: string; meta?: { guard?: "authed" | "org" | "admin"; permissions?: Permissions } };
};
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>);
// organization.leave takes no input: called with {}, it would really leave.
const ruled = (guard: "org" | "admin") =>
  procedures.filter(([path, p]) => p._def.meta?.guard === guard && path !== "organization.leave");

const createCaller = createCallerFactory(appRouter);

/** A tRPC caller for `jar` on `env` (a copy of the test env carries other Worker vars). */
async function callerOn(jar: CookieJar, env: Env = testEnv) {
  const request = new Request(`${BASE_URL}/api/trpc`, { headers: { cookie: jar.header() } });
  return createCaller(await createContext({ request, env, resHeaders: new Headers() }));
}

function holds(allowed: Allowed | null, permissions: Permissions) {
  return Object.entries(permissions).every(([resource, actions]) =>
    (actions as readonly string[]).every((a) =>
      ((allowed?.[resource as keyof Allowed] ?? []) as readonly string[]).includes(a),
    ),
  );
}

/** Where the answer and the rungs disagree: `path: rung said X, capabilities said Y`. */
async function disagreements(caller: Awaited<ReturnType<typeof callerOn>>, caps: Capabilities) {
  const wrong: string[] = [];
  for (const [guard, allowed] of [
    ["org", caps.org],
    ["admin", caps.platform],
  ] as const) {
    for (const [path, p] of ruled(guard)) {
      const held = holds(allowed, p._def.meta?.permissions ?? {});
      const code = await codeOf(call(caller, path, {}));
      if (code.startsWith("THREW")) wrong.push(`${path}: ${code}`);
      else if ((code !== "FORBIDDEN") !== held) wrong.push(`${path}: rung ${code}, capabilities ${held}`);
    }
  }
  return wrong;
}

const CRUD = ["view", "create", "update", "delete"];

describe("access.capabilities", () => {
  let org: string;
  beforeAll(async () => {
    org = await makeOrg();
  });

  it("refuses anonymous callers", async () => {
    const anon = await callerOn(new CookieJar());
    expect(await codeOf(anon.access.capabilities())).toBe("UNAUTHORIZED");
  });

  for (const platformRole of ["user", "organizer"] as const) {
    for (const role of ["owner", "admin", "organizer", "viewer"] as const) {
      it(`answers org ${role} / platform ${platformRole} as the rungs decide`, async () => {
        const m = await member(org, role, platformRole);
        const caps = await m.caller.access.capabilities();
        expect(caps.platformAdmin).toBe(false);
        expect(caps.portalAccess).toBe(true);
        expect(caps.impersonating).toBe(false);
        expect(caps.orgAdmin).toBe(role === "owner" || role === "admin");
        expect(caps.grantsOwner).toBe(role === "owner");
        // Platform roles add nothing inside the organization (decision 017).
        if (role === "viewer") {
          // Imports are for owners and admins (decision 028): a viewer does not even see them.
          for (const [resource, actions] of Object.entries(caps.org ?? {}))
            expect(actions, resource).toEqual(
              ["user", "session", "import"].includes(resource) ? [] : ["view"],
            );
        }
        if (role === "organizer") {
          expect(caps.org?.donation).toEqual(["create", "view", "update"]);
          expect(caps.org?.export).toEqual(["view", "create"]);
          expect(caps.org?.import ?? []).toEqual([]);
        }
        if (role === "owner") expect(caps.org?.donor).toEqual(CRUD);
        expect(caps.platform.user).toEqual([]);
        expect(await disagreements(m.caller, caps)).toEqual([]);
      });
    }
  }

  it("carries the zone the portal shows dates in: the organization's, UTC without one", async () => {
    const la = await makeOrg({ timeZone: "America/Los_Angeles" });
    const m = await member(la, "viewer");
    expect((await m.caller.access.capabilities()).timeZone).toBe("America/Los_Angeles");
    const loner = await signUp(new CookieJar());
    expect((await (await callerOn(loner.jar)).access.capabilities()).timeZone).toBe("UTC");
  });

  it("answers a platform admin with everything, without a membership", async () => {
    const admin = await makeAdmin();
    const caller = await callerOn(admin.jar);
    const caps = await caller.access.capabilities();
    expect(caps).toMatchObject({
      platformAdmin: true,
      portalAccess: true,
      orgAdmin: true,
      grantsOwner: true,
    });
    expect(caps.platform.user).toContain("impersonate");
    expect(caps.org?.organization).toEqual(["view", "create", "update", "delete", "transfer"]);
    expect(await disagreements(caller, caps)).toEqual([]);
  });

  it("answers a configured admin id (platform role user, viewer of an organization) with everything", async () => {
    const m = await member(org, "viewer");
    const configured = { ...testEnv, AUTH_ADMIN_USER_IDS: `someone-else, ${m.user.id}` } as unknown as Env;
    const caller = await callerOn(m.jar, configured);
    const caps = await caller.access.capabilities();
    expect(caps).toMatchObject({
      platformAdmin: true,
      portalAccess: true,
      orgAdmin: true,
      grantsOwner: true,
    });
    expect(caps.platform.user).toContain("list");
    expect(caps.org?.donation).toEqual(["create", "view", "update", "delete"]);
    expect(await disagreements(caller, caps)).toEqual([]);
    // The same person without the var is the viewer they are.
    const plain = await m.caller.access.capabilities();
    expect(plain.platformAdmin).toBe(false);
    expect(plain.org?.donation).toEqual(["view"]);
  });

  it("lets a configured admin id without any membership into the portal", async () => {
    const loner = await signUp(new CookieJar());
    loner.jar.cookies.delete("better-auth.session_data");
    const refused = await (await callerOn(loner.jar)).access.capabilities();
    expect(refused).toMatchObject({ portalAccess: false, platformAdmin: false, org: null });
    const configured = { ...testEnv, AUTH_ADMIN_USER_IDS: loner.user.id } as unknown as Env;
    const caps = await (await callerOn(loner.jar, configured)).access.capabilities();
    expect(caps).toMatchObject({ portalAccess: true, platformAdmin: true });
  });

  it("answers a user without a membership: no portal access, no organization", async () => {
    const loner = await signUp(new CookieJar());
    loner.jar.cookies.delete("better-auth.session_data");
    const caller = await callerOn(loner.jar);
    const caps = await caller.access.capabilities();
    expect(caps).toMatchObject({ portalAccess: false, platformAdmin: false, org: null, orgAdmin: false });
    expect(await disagreements(caller, caps)).toEqual([]);
  });

  it("withholds export from an admin impersonating an owner, and nothing else", async () => {
    const owner = await member(org, "owner");
    const admin = await makeAdmin();
    const started = await admin.jar.post("/api/auth/admin/impersonate-user", {
      userId: owner.user.id,
      reason: "issue 19 capabilities",
    });
    expect(started.status).toBe(200);
    const caller = await callerOn(admin.jar);
    const caps = await caller.access.capabilities();
    expect(caps.impersonating).toBe(true);
    expect(caps.platformAdmin).toBe(false);
    expect(caps.org?.export).toEqual([]);
    expect(caps.org?.donor).toEqual(CRUD);
    expect(caps.platform.user).toEqual([]);
    expect(await disagreements(caller, caps)).toEqual([]);
    // The owner, signed in as themselves, holds the export right.
    expect((await owner.caller.access.capabilities()).org?.export).toEqual([...CRUD, "organization"]);
  });
});
