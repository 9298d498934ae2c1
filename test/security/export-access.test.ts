/**
 * Every export answers to one access rule (core/permissions.ts `refusal`): signed in, not
 * impersonating, and `export:create` with the view right on what is exported, in the caller's
 * organization — the donations CSV over HTTP (worker/http/export-access.ts) and the donors CSV
 * through tRPC donors.exportPage (the org rung). Every refusal has the spec's shape and status, says
 * in plain words who may export (decision 052), and leaves no audit row behind.
 */
import { EXPORT_REFUSAL_MESSAGE } from "@core/permissions";
import { describe, expect, it } from "vitest";
import { makeAdmin, signUp } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { appFetch, testEnv } from "../helpers";

const ENDPOINTS = ["/api/export/donations.csv"];

async function refusal(path: string, cookie?: string) {
  const res = await appFetch(path, { headers: cookie ? { cookie } : {} });
  return { status: res.status, body: await res.json() };
}

describe("export access", () => {
  it("refuses guests, viewers, users without an organization and impersonators; lets owners in", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const viewer = await member(org, "viewer");
    const outsider = await signUp();
    const admin = await makeAdmin();
    const started = await admin.jar.post("/api/auth/admin/impersonate-user", {
      userId: owner.user.id,
      reason: "export access test",
    });
    expect(started.status).toBe(200);

    for (const path of ENDPOINTS) {
      expect(await refusal(path)).toEqual({
        status: 401,
        body: { code: "UNAUTHORIZED", message: "Unauthorized" },
      });
      for (const who of [viewer.jar, outsider.jar])
        expect(await refusal(path, who.header())).toEqual({
          status: 403,
          body: { code: "FORBIDDEN", message: EXPORT_REFUSAL_MESSAGE },
        });
      expect(await refusal(path, admin.jar.header())).toEqual({
        status: 403,
        body: { code: "FORBIDDEN", message: "Exports are not available while impersonating" },
      });
      const ok = await appFetch(path, { headers: { cookie: owner.jar.header() } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      await ok.arrayBuffer();
    }
    // Only the owner's donations export was recorded.
    const audits = await testEnv.DB.prepare(
      "SELECT actor_id AS actor FROM audit_event WHERE action = 'donation.export' AND organization_id = ?",
    )
      .bind(org)
      .all<{ actor: string }>();
    expect(audits.results).toEqual([{ actor: owner.user.id }]);
  });

  it("refuses the donors CSV (donors.exportPage) to the same callers, with the same answers", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const viewer = await member(org, "viewer");
    const outsider = await signUp();
    const admin = await makeAdmin();
    const started = await admin.jar.post("/api/auth/admin/impersonate-user", {
      userId: owner.user.id,
      reason: "export access test",
    });
    expect(started.status).toBe(200);
    const answer = async (jar: Parameters<typeof callerFor>[0]) =>
      (await callerFor(jar)).donors.exportPage({}).then(
        () => "OK",
        (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`,
      );

    expect(await answer(null)).toBe("UNAUTHORIZED: Unauthorized");
    expect(await answer(viewer.jar)).toBe(`FORBIDDEN: ${EXPORT_REFUSAL_MESSAGE}`);
    // The org rung's own refusal: there is no organization to export from.
    expect(await answer(outsider.jar)).toBe("FORBIDDEN: You are not a member of any organization");
    expect(await answer(admin.jar)).toBe("FORBIDDEN: Exports are not available while impersonating");
    expect(await answer(owner.jar)).toBe("OK");
    // Only the owner's donors export was recorded.
    const audits = await testEnv.DB.prepare(
      "SELECT actor_id AS actor FROM audit_event WHERE action = 'donor.export' AND organization_id = ?",
    )
      .bind(org)
      .all<{ actor: string }>();
    expect(audits.results).toEqual([{ actor: owner.user.id }]);
  });
});
