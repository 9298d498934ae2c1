/**
 * Issue 26, "Invitations can be taken over": anyone who signed up (unverified) with the invitee's
 * address and knew the invitation id joined with the invited role, and viewers could read those
 * ids from organization.invitations. Decision 017: the id is public (listed, used for resend and
 * revoke); a separate secret, stored as its SHA-256, travels only in the mailed link; accepting
 * (or declining) needs a verified e-mail equal to the invited one.
 */
import { describe, expect, it } from "vitest";
import { CookieJar, lastMail, makeAdmin, signUp, uniqueEmail, verifyByMail } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, testEnv } from "../helpers";

/** The `id` search parameter of the newest invitation link mailed to `email`. */
async function mailedSecret(email: string) {
  const mail = await lastMail(email);
  expect(mail?.subject).toMatch(/^You're invited to /);
  const url = new URL(String(mail?.url));
  expect(url.pathname).toBe("/accept-invitation");
  const secret = url.searchParams.get("id");
  if (!secret) throw new Error("the invitation link carries no id");
  return secret;
}

function post(path: string, jar: CookieJar) {
  return appFetch(path, { method: "POST", headers: { cookie: jar.header(), origin: BASE_URL } });
}

async function membershipOf(orgId: string, userId: string) {
  return testEnv.DB.prepare("SELECT role FROM membership WHERE organization_id = ? AND user_id = ?")
    .bind(orgId, userId)
    .first<{ role: string }>();
}

async function invited(role: "admin" | "viewer" = "admin") {
  const org = await makeOrg();
  const owner = await member(org, "owner");
  const email = uniqueEmail("invitee");
  const inv = await owner.caller.organization.invite({ email, role });
  if ("alreadyMember" in inv) throw new Error("unexpected");
  return { org, owner, email, id: inv.id, secret: await mailedSecret(email) };
}

describe("Invitations can be taken over", () => {
  it("refuses an unverified sign-up with the invitee's address, even holding the mailed secret: 403, no membership", async () => {
    const { org, email, secret } = await invited("admin");
    const squatter = await signUp(new CookieJar(), email);
    const res = await post(`/api/invitations/${secret}/accept`, squatter.jar);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: "EMAIL_NOT_VERIFIED",
      message: `Verify your e-mail address (${email}) before accepting this invitation: open the link we mailed you, or send a new one.`,
    });
    expect(await membershipOf(org, squatter.user.id)).toBeNull();
    // Declining needs the same proof: an unverified account cannot cancel someone's invitation.
    expect((await post(`/api/invitations/${secret}/decline`, squatter.jar)).status).toBe(403);
    // The page may still show what the invitation is, and that the address needs verifying first.
    const view = await appFetch(`/api/invitations/${secret}`, { headers: { cookie: squatter.jar.header() } });
    expect(await view.json()).toMatchObject({ role: "admin", email, emailVerified: false });
  });

  it("refuses a verified user with another address: 403, no membership", async () => {
    const { org, email, secret } = await invited();
    const other = await signUp(new CookieJar());
    await verifyByMail(other.email);
    const res = await post(`/api/invitations/${secret}/accept`, other.jar);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(email) });
    expect(await membershipOf(org, other.user.id)).toBeNull();
  });

  it("lists no secret to a viewer, and the listed public id does not accept", async () => {
    const { org, email, id, secret } = await invited("admin");
    const viewer = await member(org, "viewer");
    const listed = await viewer.caller.organization.invitations();
    expect(listed.map((i) => i.email)).toEqual([email]);
    expect(Object.keys(listed[0] ?? {}).sort()).toEqual(
      ["createdAt", "email", "expired", "expiresAt", "id", "invitedBy", "role"].sort(),
    );
    expect(listed[0]?.id).toBe(id);
    expect(JSON.stringify(listed)).not.toContain(secret);
    // Nothing stores the secret itself: only its SHA-256.
    const row = await testEnv.DB.prepare("SELECT * FROM invitation WHERE id = ?").bind(id).first();
    expect(JSON.stringify(row)).not.toContain(secret);

    const invitee = await signUp(new CookieJar(), email);
    await verifyByMail(email);
    for (const path of [`/api/invitations/${id}`, `/api/invitations/${id}/accept`]) {
      const res = await appFetch(path, {
        method: path.endsWith("accept") ? "POST" : "GET",
        headers: { cookie: invitee.jar.header(), origin: BASE_URL },
      });
      expect(res.status, path).toBe(404);
    }
    expect(await membershipOf(org, invitee.user.id)).toBeNull();
  });

  it("accepts the mailed secret for the verified invitee, once", async () => {
    const { org, email, secret } = await invited("admin");
    const invitee = await signUp(new CookieJar(), email);
    await verifyByMail(email);
    const view = await appFetch(`/api/invitations/${secret}`, { headers: { cookie: invitee.jar.header() } });
    expect(await view.json()).toMatchObject({ role: "admin", email, emailVerified: true });
    const res = await post(`/api/invitations/${secret}/accept`, invitee.jar);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: true, organizationId: org });
    expect(await membershipOf(org, invitee.user.id)).toEqual({ role: "admin" });
    expect((await post(`/api/invitations/${secret}/accept`, invitee.jar)).status).toBe(409);
  });

  it("rotates the secret on resend: the old link is dead, the new one accepts", async () => {
    const { org, owner, email, id, secret: first } = await invited("viewer");
    await owner.caller.organization.resendInvitation({ id });
    const second = await mailedSecret(email);
    expect(second).not.toBe(first);
    const invitee = await signUp(new CookieJar(), email);
    await verifyByMail(email);
    expect((await post(`/api/invitations/${first}/accept`, invitee.jar)).status).toBe(404);
    expect((await post(`/api/invitations/${second}/accept`, invitee.jar)).status).toBe(200);
    expect(await membershipOf(org, invitee.user.id)).toEqual({ role: "viewer" });
  });

  it("leaves an open invitation from before migration 0010 (no secret) unacceptable by its id until resent", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const email = uniqueEmail("legacy");
    const id = `legacy${Date.now().toString(36)}abcdefghijkl`;
    const now = Date.now();
    // The row as the code before 0010 wrote it: no secret column was set.
    await testEnv.DB.prepare(
      "INSERT INTO invitation (id, organization_id, email, role, invited_by, expires_at, created_at, updated_at) VALUES (?, ?, ?, 'admin', ?, ?, ?, ?)",
    )
      .bind(id, org, email, owner.user.id, now + 86_400_000, now, now)
      .run();
    const invitee = await signUp(new CookieJar(), email);
    await verifyByMail(email);
    expect((await post(`/api/invitations/${id}/accept`, invitee.jar)).status).toBe(404);
    expect(await membershipOf(org, invitee.user.id)).toBeNull();
    // Still listed as open, so an owner can resend it: that mails a working link.
    expect((await owner.caller.organization.invitations()).map((i) => i.id)).toEqual([id]);
    await owner.caller.organization.resendInvitation({ id });
    const secret = await mailedSecret(email);
    expect((await post(`/api/invitations/${secret}/accept`, invitee.jar)).status).toBe(200);
    expect(await membershipOf(org, invitee.user.id)).toEqual({ role: "admin" });
  });
});

/**
 * Adversarial finding 9: an old invitation overwrote the role a member holds now. Invited as viewer,
 * then made admin by a platform admin, the person accepted the old link and was a viewer again
 * (and an invitation for a higher role outlived a lower role given later). Accepting now leaves a
 * member's role as it is: 409, no change, no audit row.
 */
describe("An old invitation never changes a member's role", () => {
  async function auditRows(org: string, userId: string) {
    return (
      await testEnv.DB.prepare(
        "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND entity_id = ? AND action = 'member.accept_invitation'",
      )
        .bind(org, userId)
        .first<{ n: number }>()
    )?.n;
  }

  for (const [invitedAs, givenLater] of [
    ["viewer", "admin"],
    ["admin", "viewer"],
  ] as const) {
    it(`invited as ${invitedAs}, then made ${givenLater}: accepting the old link answers 409 and the role stays ${givenLater}`, async () => {
      const { org, email, secret } = await invited(invitedAs);
      const person = await signUp(new CookieJar(), email);
      await verifyByMail(email);
      const admin = await callerFor((await makeAdmin()).jar);
      await admin.organization.addMember({ userId: person.user.id, organizationId: org, role: givenLater });
      expect(await membershipOf(org, person.user.id)).toEqual({ role: givenLater });

      const view = await appFetch(`/api/invitations/${secret}`, { headers: { cookie: person.jar.header() } });
      expect(await view.json()).toMatchObject({ state: "open", memberRole: givenLater });
      const res = await post(`/api/invitations/${secret}/accept`, person.jar);
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: "ALREADY_MEMBER" });
      expect(await membershipOf(org, person.user.id)).toEqual({ role: givenLater });
      expect(await auditRows(org, person.user.id)).toBe(0);
      // The invitation is left open (the organization may revoke it); declining it closes it.
      expect((await post(`/api/invitations/${secret}/decline`, person.jar)).status).toBe(200);
      expect(await membershipOf(org, person.user.id)).toEqual({ role: givenLater });
    });
  }
});
