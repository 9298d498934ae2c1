import { describe, expect, it } from "vitest";
import { __setAuthClock } from "../../worker/auth";
import { testEnv } from "../helpers";
import { authClient, CookieJar, makeAdmin, PASSWORD, signUp, uniqueEmail } from "./jar";

describe("admin plugin through the official client, with both bases", () => {
  for (const base of ["/api/auth", "/api/auth/admin"]) {
    it(`lists, creates, sets roles and reads users (base ${base})`, async () => {
      const admin = await makeAdmin();
      const { client } = authClient(admin.jar, base);
      const created = await client.admin.createUser({
        email: uniqueEmail("made"),
        password: PASSWORD,
        name: "Made Person",
        role: "organizer" as never,
      });
      expect(created.error).toBeNull();
      expect(created.data?.user.role).toBe("organizer");
      const list = await client.admin.listUsers({
        query: { searchValue: "made-", searchField: "email", searchOperator: "starts_with", limit: 5 },
      });
      expect(list.error).toBeNull();
      expect(list.data?.users.length).toBeGreaterThan(0);
      expect(list.data?.users.every((u) => u.email.startsWith("made-"))).toBe(true);
      expect(list.data?.total).toBeGreaterThanOrEqual(list.data?.users.length ?? 0);
      const role = await client.admin.setRole({
        userId: created.data?.user.id as string,
        role: ["user", "organizer"] as never,
      });
      expect(role.data?.user.role).toBe("user,organizer");
      // The role change is audited with who did it and what it was before.
      const audit = await testEnv.DB.prepare(
        "SELECT actor_id, after FROM audit_event WHERE action = 'user.set_role' AND entity_id = ?",
      )
        .bind(created.data?.user.id)
        .first<{ actor_id: string; after: string }>();
      expect(audit?.actor_id).toBe(admin.user.id);
      expect(JSON.parse(audit?.after ?? "{}")).toEqual({ before: "organizer", role: "user,organizer" });
      // The same client also reaches the core endpoints under its base.
      const session = await client.getSession();
      expect(session.data?.user.id).toBe(admin.user.id);
    });
  }

  it("answers 401 without a session and 403 with the contract's code for non-admins", async () => {
    const anon = authClient(new CookieJar());
    const res = await anon.client.admin.listUsers({ query: {} });
    expect(res.error?.status).toBe(401);
    const plain = await signUp();
    const { client } = authClient(plain.jar);
    const denied = await client.admin.listUsers({ query: {} });
    expect(denied.error?.status).toBe(403);
    expect(denied.error?.code).toBe("YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
    expect(denied.error?.message).toBe("You are not allowed to list users");
    const ban = await client.admin.banUser({ userId: plain.user.id });
    expect(ban.error?.status).toBe(403);
  });

  it("bans (ending every session), refuses sign-in, and lifts an expired ban at the next sign-in", async () => {
    const admin = await makeAdmin();
    const { client } = authClient(admin.jar);
    const victim = await signUp();
    const banned = await client.admin.banUser({
      userId: victim.user.id,
      banReason: "spam",
      banExpiresIn: 3600,
    });
    expect(banned.data?.user.banned).toBe(true);
    victim.jar.cookies.delete("better-auth.session_data");
    expect(await (await victim.jar.get("/api/auth/get-session")).text()).toBe("null");
    const again = await new CookieJar().post("/api/auth/sign-in/email", {
      email: victim.email,
      password: PASSWORD,
    });
    expect(again.status).toBe(403);
    expect(await again.json()).toEqual({
      code: "BANNED_USER",
      message:
        "You have been banned from this application. Please contact support if you believe this is an error.",
    });
    const start = Date.now();
    __setAuthClock(() => start + 2 * 3600_000);
    const later = await new CookieJar().post("/api/auth/sign-in/email", {
      email: victim.email,
      password: PASSWORD,
    });
    __setAuthClock(null);
    expect(later.status).toBe(200);
    const row = await testEnv.DB.prepare("SELECT banned FROM user WHERE id = ?")
      .bind(victim.user.id)
      .first<{ banned: number }>();
    expect(row?.banned).toBe(0);
    expect((await client.admin.banUser({ userId: admin.user.id })).error?.code).toBe(
      "YOU_CANNOT_BAN_YOURSELF",
    );
  });

  it("impersonates a user and stops, restoring the admin; never another admin", async () => {
    const admin = await makeAdmin();
    const { client, jar } = authClient(admin.jar, "/api/auth/admin");
    const target = await signUp();
    const started = await client.admin.impersonateUser({ userId: target.user.id });
    expect(started.error).toBeNull();
    expect(started.data?.user.id).toBe(target.user.id);
    expect((started.data?.session as { impersonatedBy?: string } | undefined)?.impersonatedBy).toBe(
      admin.user.id,
    );
    const expires = Date.parse(String(started.data?.session.expiresAt));
    expect(expires - Date.now()).toBeLessThanOrEqual(3600_000);
    const during = await client.getSession();
    expect(during.data?.user.id).toBe(target.user.id);
    // The impersonated user's own session list hides the impersonation session.
    const own = (await (await jar.get("/api/auth/list-sessions")).json()) as unknown[];
    expect(own.every((s) => !(s as { impersonatedBy?: string }).impersonatedBy)).toBe(true);
    const stopped = await client.admin.stopImpersonating();
    expect(stopped.data?.user.id).toBe(admin.user.id);
    expect((await client.getSession()).data?.user.id).toBe(admin.user.id);
    const notNow = await client.admin.stopImpersonating();
    expect(notNow.error?.status).toBe(400);

    const otherAdmin = await makeAdmin();
    const refused = await client.admin.impersonateUser({ userId: otherAdmin.user.id });
    expect(refused.error?.status).toBe(403);
    expect(refused.error?.code).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
  });

  it("lists and revokes a user's sessions, sets a password, removes a user", async () => {
    const admin = await makeAdmin();
    const { client } = authClient(admin.jar);
    const u = await signUp();
    const sessions = await client.admin.listUserSessions({ userId: u.user.id });
    expect(sessions.data?.sessions).toHaveLength(1);
    expect((await client.admin.revokeUserSessions({ userId: u.user.id })).data).toEqual({ success: true });
    expect((await client.admin.listUserSessions({ userId: u.user.id })).data?.sessions).toHaveLength(0);
    expect(
      (await client.admin.setUserPassword({ userId: u.user.id, newPassword: "set by admin 123" })).data,
    ).toEqual({ status: true });
    expect(
      (
        await new CookieJar().post("/api/auth/sign-in/email", {
          email: u.email,
          password: "set by admin 123",
        })
      ).status,
    ).toBe(200);
    expect((await client.admin.removeUser({ userId: u.user.id })).data).toEqual({ success: true });
    expect(await testEnv.DB.prepare("SELECT id FROM user WHERE id = ?").bind(u.user.id).first()).toBeNull();
  });

  it("checks permissions over HTTP", async () => {
    const admin = await makeAdmin();
    const { client } = authClient(admin.jar);
    const yes = await client.admin.hasPermission({ permissions: { user: ["ban"] } } as never);
    expect(yes.data).toEqual({ error: null, success: true });
    const plain = await signUp();
    const no = await authClient(plain.jar).client.admin.hasPermission({
      permissions: { user: ["ban"] },
    } as never);
    expect(no.data).toEqual({ error: null, success: false });
  });
});

describe("impersonation rules", () => {
  it("records the reason, refuses credential changes, and ends when the impersonator loses the admin role", async () => {
    const admin = await makeAdmin();
    const target = await signUp();
    const started = await admin.jar.post("/api/auth/admin/impersonate-user", {
      userId: target.user.id,
      reason: "support ticket 42",
    });
    expect(started.status).toBe(200);
    const row = await testEnv.DB.prepare(
      "SELECT reason FROM audit_event WHERE action = 'user.impersonate' AND entity_id = ?",
    )
      .bind(target.user.id)
      .first();
    expect(row).toEqual({ reason: "support ticket 42" });
    const change = await admin.jar.post("/api/auth/change-password", {
      currentPassword: PASSWORD,
      newPassword: "another password",
    });
    expect(change.status).toBe(403);
    await testEnv.DB.prepare("UPDATE user SET role = 'user' WHERE id = ?").bind(admin.user.id).run();
    admin.jar.cookies.delete("better-auth.session_data");
    const after = await admin.jar.get("/api/auth/get-session?disableCookieCache=true");
    expect(await after.text()).toBe("null");
  });
});
