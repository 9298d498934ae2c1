import { describe, expect, it } from "vitest";
import { CookieJar, lastMail, signUp, verifyByMail } from "../auth/jar";
import { appFetch, BASE_URL, testEnv } from "../helpers";
import { makeOrg, member } from "./fixtures";

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
    expect(
      (await appFetch(`/api/invitations/${id}`, { headers: { cookie: stranger.jar.header() } })).status,
    ).toBe(403);
    expect((await appFetch(`/api/invitations/${id}`)).status).toBe(401);
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
    const { callerFor } = await import("./fixtures");
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
