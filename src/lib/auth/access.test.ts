import { describe, expect, it } from "vitest";
import { hasPortalAccess, isPlatformAdmin, rolesOf } from "./access";

const m = [{ id: "m", organizationId: "o", organizationName: "O", organizationSlug: "o", role: "viewer" }];

describe("portal access rule (SPEC §6)", () => {
  it("lets admins and organizers in without memberships", () => {
    expect(hasPortalAccess({ role: "admin" }, [])).toBe(true);
    expect(hasPortalAccess({ role: "organizer" }, null)).toBe(true);
    expect(hasPortalAccess({ role: "user, organizer" }, [])).toBe(true);
  });
  it("lets a plain user in only with a membership", () => {
    expect(hasPortalAccess({ role: "user" }, [])).toBe(false);
    expect(hasPortalAccess({ role: "user" }, null)).toBe(false);
    expect(hasPortalAccess({ role: "user" }, m)).toBe(true);
    expect(hasPortalAccess({ role: "somethingelse" }, [])).toBe(false);
  });
  it("reads comma-separated roles", () => {
    expect(rolesOf(" Admin ,user,")).toEqual(["admin", "user"]);
    expect(isPlatformAdmin({ role: "user,admin" })).toBe(true);
    expect(isPlatformAdmin({ role: "administrator" })).toBe(false);
  });
});
