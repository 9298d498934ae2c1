import { describe, expect, it } from "vitest";
import { hasOrgPermission, hasPermission, isPlatformAdmin, refusal } from "./permissions";

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
