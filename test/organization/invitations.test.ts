import { describe, expect, it } from "vitest";
import { CookieJar, lastMail, signUp, verifyByMail } from "../auth/jar";
import { makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, testEnv } from "../helpers";

describe("invitations", () => {
  it("mails a link the invited user accepts once; others are refused; expired answers 410", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const email = `invitee-${Date.now().toString(36)}@example.test`;
    const { id: publicId } = await owner.caller.organization.invite({
      email: email.toUpperCase(),
      role: "organizer",
    });
    const mail = await lastMail(email);
    // The link carries the invitation's secret, not its public id (decision 017).
    const id = new URL(String(mail?.url)).searchParams.get("id");
    expect(mail?.url).toContain(`/accept-invitation?id=${id}`);
    expect(id).not.toBe(publicId);
    const stranger = await signUp(new CookieJar());
    // The link's secret is the capability (decision 044): its holder sees the invitation, and a
    // stranger that it is not theirs; accepting stays the invitee's.
    const strangerView = await appFetch(`/api/invitations/${id}`, {
      headers: { cookie: stranger.jar.header() },
    });
    expect(strangerView.status).toBe(200);
    expect(await strangerView.json()).toMatchObject({ state: "open", email, signedInAs: stranger.email });
    expect(
      (
        await appFetch(`/api/invitations/${id}/accept`, {
          method: "POST",
          headers: { cookie: stranger.jar.header(), origin: BASE_URL },
        })
      ).status,
    ).toBe(403);
    expect(await (await appFetch(`/api/invitations/${id}`)).json()).toMatchObject({
      state: "open",
      signedInAs: null,
      emailVerified: null,
      memberRole: null,
    });
    expect(
      (await appFetch(`/api/invitations/${id}/accept`, { method: "POST", headers: { origin: BASE_URL } }))
        .status,
    ).toBe(401);
    const invitee = await signUp(new CookieJar(), email);
    await verifyByMail(email);
    const cookie = { cookie: invitee.jar.header(), origin: BASE_URL };
    const view = await appFetch(`/api/invitations/${id}`, { headers: cookie });
    expect(await view.json()).toMatchObject({ role: "organizer", email });
    const results = await Promise.all(
      [0, 1].map(() => appFetch(`/api/invitations/${id}/accept`, { method: "POST", headers: cookie })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const m = await testEnv.DB.prepare(
      "SELECT role FROM membership WHERE organization_id = ? AND user_id = ?",
    )
      .bind(org, invitee.user.id)
      .first();
    expect(m).toEqual({ role: "organizer" });

    const late = `late-${Date.now().toString(36)}@example.test`;
    const old = await owner.caller.organization.invite({ email: late, role: "viewer" });
    await testEnv.DB.prepare("UPDATE invitation SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, old.id)
      .run();
    const lateLink = new URL(String((await lastMail(late))?.url)).searchParams.get("id");
    const lateUser = await signUp(new CookieJar(), late);
    const gone = await appFetch(`/api/invitations/${lateLink}/accept`, {
      method: "POST",
      headers: { cookie: lateUser.jar.header(), origin: BASE_URL },
    });
    expect(gone.status).toBe(410);
  });
});

describe("organization owners and declined invitations", () => {
  it("never removes or demotes the last owner, and a declined invitation cannot be accepted", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const { makeAdmin } = await import("../auth/jar");
    const admin = await makeAdmin();
    const { callerFor } = await import("../fixtures");
    const adminCaller = await callerFor(admin.jar);
    const m = await testEnv.DB.prepare("SELECT id FROM membership WHERE organization_id = ? AND user_id = ?")
      .bind(org, owner.user.id)
      .first<{ id: string }>();
    await expect(adminCaller.organization.removeMember({ membershipId: m?.id ?? "" })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
    });
    await expect(
      adminCaller.organization.addMember({ userId: owner.user.id, organizationId: org, role: "viewer" }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    const second = await member(org, "owner");
    await expect(adminCaller.organization.removeMember({ membershipId: m?.id ?? "" })).resolves.toEqual({
      ok: true,
    });
    expect(second.user.id).toBeTruthy();

    const email = `decliner-${Date.now().toString(36)}@example.test`;
    await second.caller.organization.invite({ email, role: "viewer" });
    const id = new URL(String((await lastMail(email))?.url)).searchParams.get("id");
    const invitee = await signUp(new CookieJar(), email);
    await verifyByMail(email);
    const headers = { cookie: invitee.jar.header(), origin: BASE_URL };
    expect((await appFetch(`/api/invitations/${id}/decline`, { method: "POST", headers })).status).toBe(200);
    expect((await appFetch(`/api/invitations/${id}/accept`, { method: "POST", headers })).status).toBe(404);
  });
});

describe("the invitation link says where the invitation stands, signed in or not", () => {
  async function invite(owner: Awaited<ReturnType<typeof member>>, role: "viewer" | "admin" = "viewer") {
    const email = `state-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.test`;
    const { id } = await owner.caller.organization.invite({ email, role });
    const secret = new URL(String((await lastMail(email))?.url)).searchParams.get("id") ?? "";
    return { id, email, secret };
  }
  const view = async (secret: string, cookie?: string) => {
    const res = await appFetch(`/api/invitations/${secret}`, { headers: cookie ? { cookie } : {} });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("open, accepted, declined, revoked and expired, to anyone holding the secret; an unknown link is 404", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const open = await invite(owner, "admin");
    expect(await view(open.secret)).toEqual({
      status: 200,
      body: {
        id: open.id,
        state: "open",
        organizationName: expect.any(String),
        role: "admin",
        email: open.email,
        invitedBy: "Test User",
        expiresAt: expect.any(Number),
        timeZone: "UTC",
        signedInAs: null,
        emailVerified: null,
        memberRole: null,
      },
    });

    const accepted = await invite(owner);
    const invitee = await signUp(new CookieJar(), accepted.email);
    await verifyByMail(accepted.email);
    const headers = { cookie: invitee.jar.header(), origin: BASE_URL };
    expect(
      (await appFetch(`/api/invitations/${accepted.secret}/accept`, { method: "POST", headers })).status,
    ).toBe(200);
    expect((await view(accepted.secret)).body.state).toBe("accepted");
    expect((await view(accepted.secret, invitee.jar.header())).body).toMatchObject({
      state: "accepted",
      memberRole: "viewer",
      signedInAs: accepted.email,
    });

    const declined = await invite(owner);
    const decliner = await signUp(new CookieJar(), declined.email);
    await verifyByMail(declined.email);
    expect(
      (
        await appFetch(`/api/invitations/${declined.secret}/decline`, {
          method: "POST",
          headers: { cookie: decliner.jar.header(), origin: BASE_URL },
        })
      ).status,
    ).toBe(200);
    expect((await view(declined.secret)).body.state).toBe("declined");
    const declineAudit = await testEnv.DB.prepare(
      "SELECT actor_id FROM audit_event WHERE action = 'member.decline_invitation' AND entity_id = ?",
    )
      .bind(declined.id)
      .all();
    expect(declineAudit.results).toEqual([{ actor_id: decliner.user.id }]);
    // A second decline changes nothing and writes no second row.
    await appFetch(`/api/invitations/${declined.secret}/decline`, {
      method: "POST",
      headers: { cookie: decliner.jar.header(), origin: BASE_URL },
    });
    expect(
      (
        await testEnv.DB.prepare(
          "SELECT count(*) AS n FROM audit_event WHERE action = 'member.decline_invitation' AND entity_id = ?",
        )
          .bind(declined.id)
          .first<{ n: number }>()
      )?.n,
    ).toBe(1);

    const revoked = await invite(owner);
    await owner.caller.organization.revokeInvitation({ id: revoked.id });
    expect((await view(revoked.secret)).body.state).toBe("revoked");

    const expired = await invite(owner);
    await testEnv.DB.prepare("UPDATE invitation SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, expired.id)
      .run();
    expect((await view(expired.secret)).body.state).toBe("expired");

    const unknown = await view("abcdefghijklmnopqrstuvwxyz012345");
    expect(unknown).toEqual({
      status: 404,
      body: { code: "NOT_FOUND", message: expect.stringContaining("replaced by a newer one") },
    });
  });

  it("opens the portal on the organization just joined, for a member of another one", async () => {
    const first = await makeOrg();
    const second = await makeOrg();
    const person = await member(first, "organizer");
    await verifyByMail(person.email);
    const owner = await member(second, "owner");
    await owner.caller.organization.invite({ email: person.email, role: "viewer" });
    const secret = new URL(String((await lastMail(person.email))?.url)).searchParams.get("id");
    const before = await person.caller.access.capabilities();
    expect(before.orgAdmin).toBe(false);
    const res = await appFetch(`/api/invitations/${secret}/accept`, {
      method: "POST",
      headers: { cookie: person.jar.header(), origin: BASE_URL },
    });
    expect(await res.json()).toEqual({ accepted: true, organizationId: second });
    const active = await testEnv.DB.prepare("SELECT active_organization_id AS a FROM user WHERE id = ?")
      .bind(person.user.id)
      .first<{ a: string }>();
    expect(active?.a).toBe(second);
    const { callerFor } = await import("../fixtures");
    expect((await (await callerFor(person.jar)).organization.current()).id).toBe(second);
    // The first membership is untouched.
    expect(
      await testEnv.DB.prepare("SELECT role FROM membership WHERE organization_id = ? AND user_id = ?")
        .bind(first, person.user.id)
        .first(),
    ).toEqual({ role: "organizer" });
  });
});
