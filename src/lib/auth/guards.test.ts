import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { capabilitiesWithoutCheck } from "./access-check";
import { requireUser, safeRedirect } from "./guards";
import { type SessionSnapshot, sessionQueryKey } from "./session";
import { AuthError } from "./types";

describe("safeRedirect", () => {
  it("keeps same-site paths", () => {
    expect(safeRedirect("/donors?page=2")).toBe("/donors?page=2");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      42,
      undefined,
    ]) {
      expect(safeRedirect(bad)).toBe("/dashboard");
    }
  });
});

/**
 * The portal guard (decisions 044, 045; spec-audit deviation 1) on each kind of session snapshot,
 * as the session query holds it: in with portal access, to /onboarding when it has something for
 * them, to /login (signed out there) when nothing, and a failed access check: an admin or an
 * organizer go on by role, a role user gets the error with a retry, never /login.
 */
describe("requireUser", () => {
  const user = (role: string) => ({
    session: { id: "s", userId: "u", expiresAt: "", createdAt: "", updatedAt: "", impersonatedBy: null },
    user: { id: "u", name: "U", email: "u@x.test", emailVerified: true, role, createdAt: "", updatedAt: "" },
  });
  const caps = (o: Record<string, unknown>) =>
    ({ portalAccess: false, newOrganization: null, organizationRequest: null, ...o }) as never;

  async function guard(snapshot: SessionSnapshot) {
    const queryClient = new QueryClient();
    queryClient.setQueryData(sessionQueryKey, snapshot);
    try {
      return {
        ok: await requireUser({ queryClient } as never, { href: "/donations?notice=email-verified" }),
      };
    } catch (thrown) {
      return { thrown };
    }
  }
  const target = (r: { thrown?: unknown }) => {
    const t = r.thrown as { options?: { to?: string; search?: unknown } } | undefined;
    return t?.options ? { to: t.options.to, search: t.options.search } : undefined;
  };

  it("lets in whoever has portal access", async () => {
    const r = await guard({
      payload: user("user"),
      capabilities: caps({ portalAccess: true }),
      error: null,
      accessCheckFailed: false,
    });
    expect(r.ok?.user.id).toBe("u");
  });

  it("sends someone without portal access to /onboarding when it has something for them, else to /login", async () => {
    for (const [c, to] of [
      [{ newOrganization: "create" }, "/onboarding"],
      [{ newOrganization: "request" }, "/onboarding"],
      [{ organizationRequest: "pending" }, "/onboarding"],
      [{}, "/login"],
    ] as const) {
      const r = await guard({
        payload: user("user"),
        capabilities: caps(c),
        error: null,
        accessCheckFailed: false,
      });
      expect(target(r)?.to, JSON.stringify(c)).toBe(to);
    }
    const r = await guard({
      payload: user("user"),
      capabilities: caps({}),
      error: null,
      accessCheckFailed: false,
    });
    expect(target(r)?.search).toEqual({ denied: true, notice: "email-verified" });
  });

  it("keeps an admin and an organizer in when the access check failed; a role user gets the retry, not /login", async () => {
    for (const role of ["admin", "organizer", "user,organizer"]) {
      const r = await guard({
        payload: user(role),
        capabilities: capabilitiesWithoutCheck({ id: "u", role }),
        error: null,
        accessCheckFailed: true,
      });
      expect(r.ok?.capabilities.portalAccess, role).toBe(true);
    }
    const r = await guard({
      payload: user("user"),
      capabilities: capabilitiesWithoutCheck({ id: "u", role: "user" }),
      error: null,
      accessCheckFailed: true,
    });
    expect(r.thrown).toBeInstanceOf(AuthError);
    expect(r.thrown).toMatchObject({
      code: "ACCESS_CHECK_FAILED",
      message: "We couldn't check your access. Try again.",
    });
  });

  it("guesses nothing for role user, and only the role's own grants for an admin (no organization)", () => {
    expect(capabilitiesWithoutCheck({ id: "u", role: "user" })).toBeNull();
    expect(capabilitiesWithoutCheck({ id: "u", role: "" })).toBeNull();
    const admin = capabilitiesWithoutCheck({ id: "u", role: "admin" });
    expect(admin).toMatchObject({
      platformAdmin: true,
      portalAccess: true,
      org: null,
      newOrganization: null,
    });
    const organizer = capabilitiesWithoutCheck({ id: "u", role: "organizer" });
    expect(organizer).toMatchObject({ platformAdmin: false, portalAccess: true, org: null });
    expect(capabilitiesWithoutCheck({ id: "u", role: "admin" }, "someone")?.impersonating).toBe(true);
  });
});
