import { describe, expect, it } from "vitest";
import {
  capabilities,
  hasOrgPermission,
  hasPermission,
  isPlatformAdmin,
  parseRoles,
  portalAccess,
  refusal,
  statements,
} from "./permissions";

const u = (role: string, userId = "u1") => ({ userId, role });

describe("platform roles (SPEC §6)", () => {
  it("gives admin every statement", () => {
    expect(
      hasPermission(u("admin"), { user: ["ban", "impersonate", "set-password"], session: ["revoke"] }),
    ).toBe(true);
    expect(hasPermission(u("admin"), { campaign: ["delete"], donation: ["update"] })).toBe(true);
  });
  it("gives user donation create/view and profile only", () => {
    expect(hasPermission(u("user"), { donation: ["create", "view"], profile: ["update"] })).toBe(true);
    expect(hasPermission(u("user"), { user: ["list"] })).toBe(false);
    expect(hasPermission(u("user"), { campaign: ["view"] })).toBe(false);
  });
  it("gives organizer campaign management and donation view", () => {
    expect(hasPermission(u("organizer"), { campaign: ["create", "view", "update", "delete"] })).toBe(true);
    expect(hasPermission(u("organizer"), { donation: ["view"] })).toBe(true);
    expect(hasPermission(u("organizer"), { donation: ["create"] })).toBe(false);
    expect(hasPermission(u("organizer"), { user: ["ban"] })).toBe(false);
  });
  it("reads comma-separated roles: any role granting suffices", () => {
    expect(hasPermission(u("user, organizer"), { campaign: ["update"] })).toBe(true);
    expect(hasPermission(u("user,organizer"), { user: ["ban"] })).toBe(false);
    expect(hasPermission(u("nonsense"), { profile: ["view"] })).toBe(false);
    expect(hasPermission(u(""), { profile: ["view"] })).toBe(false);
  });
  it("gives configured admin ids everything, whatever their role", () => {
    expect(hasPermission(u("user", "boss"), { user: ["delete"] }, { adminUserIds: ["boss"] })).toBe(true);
    expect(isPlatformAdmin(u("user", "boss"), ["boss"])).toBe(true);
    expect(isPlatformAdmin(u("user", "x"), ["boss"])).toBe(false);
  });
});

describe("organization roles", () => {
  it("lets a viewer only view", () => {
    expect(hasOrgPermission(u("user"), "viewer", { donor: ["view"] })).toBe(true);
    expect(hasOrgPermission(u("user"), "viewer", { donor: ["create"] })).toBe(false);
  });
  it("lets an organizer manage donors but not delete them", () => {
    expect(hasOrgPermission(u("organizer"), "organizer", { donor: ["create", "update"] })).toBe(true);
    expect(hasOrgPermission(u("organizer"), "organizer", { donor: ["delete"] })).toBe(false);
  });
  it("refuses non-members, except platform admins", () => {
    expect(hasOrgPermission(u("organizer"), null, { campaign: ["view"] })).toBe(false);
    expect(hasOrgPermission(u("admin"), null, { donor: ["delete"] })).toBe(true);
  });
  it("lets owners delete the organization, not org admins", () => {
    expect(hasOrgPermission(u("user"), "owner", { organization: ["delete"] })).toBe(true);
    expect(hasOrgPermission(u("user"), "admin", { organization: ["delete"] })).toBe(false);
  });
});

describe("the organization role bounds a member (decision 017)", () => {
  it("adds nothing from the platform role inside an organization", () => {
    // Platform user grants donation:create, platform organizer campaign:*; a viewer holds neither.
    expect(hasPermission(u("user"), { donation: ["create"] })).toBe(true);
    expect(hasOrgPermission(u("user"), "viewer", { donation: ["create"] })).toBe(false);
    expect(hasOrgPermission(u("organizer"), "viewer", { campaign: ["create"] })).toBe(false);
    expect(hasOrgPermission(u("user,organizer"), "viewer", { campaign: ["update"] })).toBe(false);
    expect(hasOrgPermission(u("user", "boss"), "viewer", { donor: ["delete"] }, ["boss"])).toBe(true);
  });
  it("never lets an impersonated session export, on either rung", () => {
    const imp = { ...u("user"), impersonatedBy: "an-admin" };
    const exporting = { donor: ["view"], export: ["create"] } as const;
    expect(refusal(imp, exporting, { orgRole: "owner" })).toBe(
      "Exports are not available while impersonating",
    );
    expect(refusal(u("user"), exporting, { orgRole: "owner" })).toBeNull();
    expect(refusal(imp, { donor: ["view"] }, { orgRole: "owner" })).toBeNull();
    expect(
      refusal(
        { ...u("admin"), impersonatedBy: "x" },
        { user: ["list"], export: ["create"] },
        { platform: true },
      ),
    ).toBe("Exports are not available while impersonating");
    expect(refusal(u("user"), { donor: ["view"] }, { orgRole: null })).toBe(
      "You are not allowed to access resource: donor",
    );
  });
});

describe("portal access rule (SPEC §6)", () => {
  it("lets admins and organizers in without memberships", () => {
    expect(portalAccess(u("admin"), false)).toBe(true);
    expect(portalAccess(u("organizer"), false)).toBe(true);
    expect(portalAccess(u("user, organizer"), false)).toBe(true);
  });
  it("lets a plain user in only with a membership", () => {
    expect(portalAccess(u("user"), false)).toBe(false);
    expect(portalAccess(u("user"), true)).toBe(true);
    expect(portalAccess(u("somethingelse"), false)).toBe(false);
  });
  it("lets a configured admin id in without a membership, whatever the role", () => {
    expect(portalAccess(u("user", "boss"), false, ["boss"])).toBe(true);
    expect(portalAccess(u("user", "x"), false, ["boss"])).toBe(false);
  });
  it("reads comma-separated roles", () => {
    expect(parseRoles(" Admin ,user,")).toEqual(["admin", "user"]);
    expect(isPlatformAdmin(u("user,admin"))).toBe(true);
    expect(isPlatformAdmin(u("administrator"))).toBe(false);
  });
});

describe("capabilities: what the portal is told the caller may do", () => {
  const every = (grants: Record<string, readonly string[]>) =>
    Object.entries(statements).every(([r, actions]) => actions.every((a) => grants[r]?.includes(a)));

  it("is refusal's answer for every statement, on both rungs", () => {
    for (const role of ["user", "organizer", "admin", "user,organizer"])
      for (const orgRole of ["owner", "admin", "organizer", "viewer", null]) {
        const caps = capabilities(u(role), { role: orgRole }, { hasMembership: orgRole !== null });
        for (const [resource, actions] of Object.entries(statements))
          for (const action of actions) {
            const p = { [resource]: [action] };
            expect(caps.platform[resource as keyof typeof statements].includes(action as never)).toBe(
              refusal(u(role), p, { platform: true }) === null,
            );
            expect(caps.org?.[resource as keyof typeof statements].includes(action as never)).toBe(
              refusal(u(role), p, { orgRole }) === null,
            );
          }
      }
  });

  it("gives a viewer only views, whatever the platform role", () => {
    const caps = capabilities(u("user"), { role: "viewer" }, { hasMembership: true });
    expect(caps.org?.donation).toEqual(["view"]);
    expect(caps.org?.campaign).toEqual(["view"]);
    expect(caps.org?.export).toEqual(["view"]);
    expect(caps.platform.donation).toEqual(["create", "view"]);
    expect(caps).toMatchObject({
      platformAdmin: false,
      portalAccess: true,
      orgAdmin: false,
      grantsOwner: false,
    });
  });

  it("gives configured admin ids everything and the admin screens", () => {
    const caps = capabilities(
      u("user", "boss"),
      { role: "viewer" },
      { hasMembership: true, adminUserIds: ["boss"] },
    );
    expect(caps.platformAdmin).toBe(true);
    expect(every(caps.platform)).toBe(true);
    expect(every(caps.org ?? {})).toBe(true);
    expect(caps).toMatchObject({ orgAdmin: true, grantsOwner: true });
  });

  it("withholds export from an impersonated session, and nothing else", () => {
    const caps = capabilities(
      { ...u("user"), impersonatedBy: "an-admin" },
      { role: "owner" },
      { hasMembership: true },
    );
    expect(caps.impersonating).toBe(true);
    expect(caps.org?.export).toEqual([]);
    expect(caps.org?.donor).toEqual(["view", "create", "update", "delete"]);
  });

  it("answers org null without an organization", () => {
    const caps = capabilities(u("organizer"), null, { hasMembership: false });
    expect(caps.org).toBeNull();
    expect(caps).toMatchObject({ portalAccess: true, orgAdmin: false, grantsOwner: false });
    expect(capabilities(u("user"), null, { hasMembership: false }).portalAccess).toBe(false);
  });
});
