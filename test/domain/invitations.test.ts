import { describe, expect, it } from "vitest";
import { CookieJar, lastMail, signUp } from "../auth/jar";
import { appFetch, testEnv } from "../helpers";
import { makeOrg, member } from "./fixtures";

describe("invitations", () => {
  it("mails a link the invited user accepts once; others are refused; expired answers 410", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const email = `invitee-${Date.now().toString(36)}@example.test`;
    const { id } = await owner.caller.organization.invite({ email: email.toUpperCase(), role: "organizer" });
    const mail = await lastMail(email);
    expect(mail?.url).toContain(`/accept-invitation?id=${id}`);
    const stranger = await signUp(new CookieJar());
    expect(
      (await appFetch(`/api/invitations/${id}`, { headers: { cookie: stranger.jar.header() } })).status,
    ).toBe(403);
    expect((await appFetch(`/api/invitations/${id}`)).status).toBe(401);
    const invitee = await signUp(new CookieJar(), email);
    const cookie = { cookie: invitee.jar.header() };
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
    const lateUser = await signUp(new CookieJar(), late);
    const gone = await appFetch(`/api/invitations/${old.id}/accept`, {
      method: "POST",
      headers: { cookie: lateUser.jar.header() },
    });
    expect(gone.status).toBe(410);
  });
});
