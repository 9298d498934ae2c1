/**
 * An organization always has an owner (issue 53, H2; decision 046): every way a last owner could
 * go — leaving, removal by an org admin or a platform admin, demotion, a platform admin's re-add
 * with another role, deleting the account or having it removed — is refused, also when two
 * requests race; and ownership is handed on by an offer the new owner accepts.
 */
import { describe, expect, it } from "vitest";
import { expireOffers } from "../../worker/organization/ownership/service";
import { CookieJar, lastMail, makeAdmin, PASSWORD } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";

const db = testEnv.DB;

const owners = async (org: string) =>
  (
    await db
      .prepare("SELECT count(*) AS n FROM membership WHERE organization_id = ? AND role = 'owner'")
      .bind(org)
      .first<{ n: number }>()
  )?.n;

const auditCount = async (org: string, action: string) =>
  (
    await db
      .prepare("SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = ?")
      .bind(org, action)
      .first<{ n: number }>()
  )?.n;

const membershipId = async (org: string, userId: string) =>
  (
    await db
      .prepare("SELECT id FROM membership WHERE organization_id = ? AND user_id = ?")
      .bind(org, userId)
      .first<{ id: string }>()
  )?.id ?? "";

const roleOf = async (org: string, userId: string) =>
  (
    await db
      .prepare("SELECT role FROM membership WHERE organization_id = ? AND user_id = ?")
      .bind(org, userId)
      .first<{ role: string }>()
  )?.role ?? null;

const userExists = async (id: string) =>
  !!(await db.prepare("SELECT 1 FROM user WHERE id = ?").bind(id).first());

async function platformAdmin() {
  const a = await makeAdmin();
  return { ...a, caller: await callerFor(a.jar) };
}

describe("the last owner", () => {
  it("cannot leave, be removed or be demoted by anyone, and no refused change leaves an audit row", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await member(org, "admin");
    const organizer = await member(org, "organizer");
    const viewer = await member(org, "viewer");
    const platform = await platformAdmin();
    const ownerM = await membershipId(org, owner.user.id);
    expect(await codeOf(owner.caller.organization.leave())).toBe("UNPROCESSABLE_CONTENT");
    expect(
      await codeOf(owner.caller.organization.setMemberRole({ membershipId: ownerM, role: "admin" })),
    ).toBe("UNPROCESSABLE_CONTENT");
    // An org admin may not touch an owner at all; organizers and viewers manage no one.
    expect(await codeOf(admin.caller.organization.removeOrgMember({ membershipId: ownerM }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(organizer.caller.organization.removeOrgMember({ membershipId: ownerM }))).toBe(
      "FORBIDDEN",
    );
    expect(
      await codeOf(viewer.caller.organization.setMemberRole({ membershipId: ownerM, role: "viewer" })),
    ).toBe("FORBIDDEN");
    // A platform admin holds every right, and still cannot leave the organization ownerless.
    expect(await codeOf(platform.caller.organization.removeOrgMember({ membershipId: ownerM }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(
      await codeOf(platform.caller.organization.setMemberRole({ membershipId: ownerM, role: "viewer" })),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(await codeOf(platform.caller.organization.removeMember({ membershipId: ownerM }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(
      await codeOf(
        platform.caller.organization.addMember({ userId: owner.user.id, organizationId: org, role: "admin" }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(await owners(org)).toBe(1);
    expect(await roleOf(org, owner.user.id)).toBe("owner");
    for (const action of ["member.leave", "member.remove", "member.set_role", "member.add"])
      expect(await auditCount(org, action), action).toBe(0);
    // With a second owner, each of those steps is allowed again.
    await platform.caller.organization.addMember({
      userId: admin.user.id,
      organizationId: org,
      role: "owner",
    });
    await platform.caller.organization.addMember({
      userId: owner.user.id,
      organizationId: org,
      role: "admin",
    });
    expect(await roleOf(org, owner.user.id)).toBe("admin");
    expect(await auditCount(org, "member.add")).toBe(2);
  });

  it("stays when two owners leave at once, or remove each other at once", async () => {
    for (const kind of ["leave", "remove", "platform remove"] as const) {
      const org = await makeOrg();
      const a = await member(org, "owner");
      const b = await member(org, "owner");
      const platform = kind === "platform remove" ? await platformAdmin() : null;
      const [ma, mb] = [await membershipId(org, a.user.id), await membershipId(org, b.user.id)];
      const results = await Promise.allSettled(
        kind === "leave"
          ? [a.caller.organization.leave(), b.caller.organization.leave()]
          : kind === "remove"
            ? [
                a.caller.organization.removeOrgMember({ membershipId: mb }),
                b.caller.organization.removeOrgMember({ membershipId: ma }),
              ]
            : [
                platform?.caller.organization.removeMember({ membershipId: ma }),
                platform?.caller.organization.removeMember({ membershipId: mb }),
              ],
      );
      expect(results.filter((r) => r.status === "fulfilled").length, kind).toBe(1);
      expect(await owners(org), kind).toBe(1);
      // One change landed, and one audit row says so.
      expect(
        ((await auditCount(org, "member.leave")) ?? 0) + ((await auditCount(org, "member.remove")) ?? 0),
        kind,
      ).toBe(1);
    }
  });

  it("keeps the account: deleting it is refused, naming the organizations, by every way in", async () => {
    const orgA = await makeOrg();
    const orgB = await makeOrg();
    const owner = await member(orgA, "owner");
    await db
      .prepare(
        "INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, 'owner', 0, 0)",
      )
      .bind(`mb-${owner.user.id}`, orgB, owner.user.id)
      .run();
    const names = (await owner.caller.organization.soleOwnerships()).map((o) => o.name).sort();
    expect(names).toEqual([`Org ${orgA.split("-").pop()}`, `Org ${orgB.split("-").pop()}`].sort());
    const refused = await owner.jar.post("/api/auth/delete-user", { password: PASSWORD });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { code: string; message: string };
    expect(body.code).toBe("SOLE_OWNER_OF_ORGANIZATION");
    for (const n of names) expect(body.message).toContain(n);
    expect(body.message).toMatch(/^You are the only owner of .+ and .+\. Make another member owner/);
    // Without a password (a fresh session) and through a mailed link: the same answer.
    expect((await owner.jar.post("/api/auth/delete-user", {})).status).toBe(409);
    expect((await owner.jar.get("/api/auth/delete-user/callback?token=whatever")).status).toBe(409);
    // A platform admin's removal of the user is refused as well.
    const platform = await makeAdmin();
    const removed = await platform.jar.post("/api/auth/admin/remove-user", { userId: owner.user.id });
    expect(removed.status).toBe(409);
    expect(((await removed.json()) as { message: string }).message).toContain(owner.email);
    expect(await userExists(owner.user.id)).toBe(true);
    // Someone else with no organization of their own is deleted as before.
    const viewer = await member(orgA, "viewer");
    expect((await viewer.caller.organization.soleOwnerships()).length).toBe(0);
    expect(await (await viewer.jar.post("/api/auth/delete-user", { password: PASSWORD })).json()).toEqual({
      success: true,
      message: "User deleted",
    });
    // A co-owner may go: the organization keeps its other owner.
    const second = await member(orgA, "owner");
    expect((await second.jar.post("/api/auth/delete-user", { password: PASSWORD })).status).toBe(200);
    expect(await owners(orgA)).toBe(1);
  });

  it("cannot delete the account while the other owner steps down at the same moment", async () => {
    for (let i = 0; i < 3; i++) {
      const org = await makeOrg();
      const a = await member(org, "owner");
      const b = await member(org, "owner");
      const results = await Promise.allSettled([
        a.jar.post("/api/auth/delete-user", { password: PASSWORD }).then((r) => {
          if (r.status !== 200) throw new Error(String(r.status));
        }),
        b.caller.organization.leave(),
      ]);
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
      expect(await owners(org)).toBe(1);
    }
  });
});

describe("offering ownership", () => {
  it("only an owner offers, to a member who is not one; one open offer at a time; audited", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await member(org, "admin");
    const organizer = await member(org, "organizer");
    const viewer = await member(org, "viewer");
    const platform = await platformAdmin();
    const target = await membershipId(org, viewer.user.id);
    for (const m of [admin, organizer, viewer])
      expect(
        await codeOf(m.caller.organization.offerOwnership({ membershipId: target, stepDown: false })),
      ).toBe("FORBIDDEN");
    // A platform admin is no owner to hand anything on (they set roles directly instead).
    expect(
      await codeOf(platform.caller.organization.offerOwnership({ membershipId: target, stepDown: false })),
    ).toBe("FORBIDDEN");
    expect(
      await codeOf(
        owner.caller.organization.offerOwnership({
          membershipId: await membershipId(org, owner.user.id),
          stepDown: false,
        }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    const offer = await owner.caller.organization.offerOwnership({ membershipId: target, stepDown: true });
    expect(offer.expiresAt).toBeGreaterThan(Date.now() + 6 * 86400_000);
    const mail = await lastMail(viewer.email);
    expect(mail?.subject).toMatch(/offers you the ownership of Org/);
    expect(mail?.url).toBe("http://localhost:3000/organization?section=members");
    expect(
      await codeOf(
        owner.caller.organization.offerOwnership({
          membershipId: await membershipId(org, admin.user.id),
          stepDown: false,
        }),
      ),
    ).toBe("CONFLICT");
    // The owners and the member named see it; other members do not.
    expect((await owner.caller.organization.ownershipOffer())?.to.userId).toBe(viewer.user.id);
    expect((await viewer.caller.organization.ownershipOffer())?.fromBecomes).toBe("admin");
    expect(await admin.caller.organization.ownershipOffer()).toBeNull();
    expect((await viewer.caller.organization.ownershipOffersToMe()).map((o) => o.id)).toEqual([offer.id]);
    expect(await admin.caller.organization.ownershipOffersToMe()).toEqual([]);
    // Nobody but the member named accepts or declines it.
    for (const m of [owner, admin, organizer])
      expect(await codeOf(m.caller.organization.acceptOwnership({ id: offer.id }))).toBe("NOT_FOUND");
    expect(await codeOf(platform.caller.organization.declineOwnership({ id: offer.id }))).toBe("NOT_FOUND");
    expect(await auditCount(org, "ownership.offer")).toBe(1);

    await viewer.caller.organization.acceptOwnership({ id: offer.id });
    expect(await roleOf(org, viewer.user.id)).toBe("owner");
    // The offering owner chose to step down to admin.
    expect(await roleOf(org, owner.user.id)).toBe("admin");
    expect((await lastMail(owner.email))?.subject).toMatch(/is now an owner of/);
    expect(await auditCount(org, "ownership.accept")).toBe(1);
    expect(await codeOf(viewer.caller.organization.acceptOwnership({ id: offer.id }))).toBe("CONFLICT");
    expect(await auditCount(org, "ownership.accept")).toBe(1);
    expect(await owner.caller.organization.ownershipOffer()).toBeNull();
  });

  it("is declined, withdrawn or expires, each audited, and changes no role", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await member(org, "admin");
    const target = await membershipId(org, admin.user.id);

    const first = await owner.caller.organization.offerOwnership({ membershipId: target, stepDown: false });
    await admin.caller.organization.declineOwnership({ id: first.id });
    expect((await lastMail(owner.email))?.subject).toMatch(/declined the ownership/);
    expect(await codeOf(admin.caller.organization.acceptOwnership({ id: first.id }))).toBe("CONFLICT");

    await owner.caller.organization.offerOwnership({ membershipId: target, stepDown: false });
    expect(await codeOf(admin.caller.organization.withdrawOwnershipOffer())).toBe("FORBIDDEN");
    await owner.caller.organization.withdrawOwnershipOffer();
    expect(await codeOf(owner.caller.organization.withdrawOwnershipOffer())).toBe("NOT_FOUND");

    const third = await owner.caller.organization.offerOwnership({ membershipId: target, stepDown: false });
    await db
      .prepare("UPDATE ownership_offer SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, third.id)
      .run();
    expect(await codeOf(admin.caller.organization.acceptOwnership({ id: third.id }))).toBe("CONFLICT");
    expect(await admin.caller.organization.ownershipOffersToMe()).toEqual([]);
    // A lapsed offer does not block a new one; its expiry is audited once, by whoever comes first.
    const fourth = await owner.caller.organization.offerOwnership({ membershipId: target, stepDown: false });
    expect(await expireOffers(testEnv, Date.now())).toBe(0);
    await db
      .prepare("UPDATE ownership_offer SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, fourth.id)
      .run();
    expect(await expireOffers(testEnv, Date.now())).toBe(1);
    expect(await expireOffers(testEnv, Date.now())).toBe(0);

    expect(await roleOf(org, admin.user.id)).toBe("admin");
    expect(await roleOf(org, owner.user.id)).toBe("owner");
    expect(await auditCount(org, "ownership.offer")).toBe(4);
    expect(await auditCount(org, "ownership.decline")).toBe(1);
    expect(await auditCount(org, "ownership.withdraw")).toBe(1);
    expect(await auditCount(org, "ownership.expire")).toBe(2);
    const statuses = await db
      .prepare("SELECT status FROM ownership_offer WHERE organization_id = ? ORDER BY created_at")
      .bind(org)
      .all<{ status: string }>();
    expect(statuses.results.map((r) => r.status)).toEqual(["declined", "withdrawn", "expired", "expired"]);
  });

  it("ends when the member it names leaves, and only one of two racing offers opens", async () => {
    const org = await makeOrg();
    const a = await member(org, "owner");
    const b = await member(org, "owner");
    const x = await member(org, "viewer");
    const y = await member(org, "viewer");
    const results = await Promise.allSettled([
      a.caller.organization.offerOwnership({
        membershipId: await membershipId(org, x.user.id),
        stepDown: false,
      }),
      b.caller.organization.offerOwnership({
        membershipId: await membershipId(org, y.user.id),
        stepDown: false,
      }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
    expect(await auditCount(org, "ownership.offer")).toBe(1);
    const open = await a.caller.organization.ownershipOffer();
    const named = open?.to.userId === x.user.id ? x : y;
    await named.caller.organization.leave();
    expect(await a.caller.organization.ownershipOffer()).toBeNull();
    expect(await codeOf(named.caller.organization.acceptOwnership({ id: open?.id ?? "" }))).toBe("CONFLICT");
  });

  it("is accepted by the member named only, not while impersonated, and keeps the owner as chosen", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const organizer = await member(org, "organizer");
    const offer = await owner.caller.organization.offerOwnership({
      membershipId: await membershipId(org, organizer.user.id),
      stepDown: false,
    });
    // An admin impersonating the member cannot accept for them.
    const platform = await makeAdmin();
    const imp = await platform.jar.post("/api/auth/admin/impersonate-user", { userId: organizer.user.id });
    expect(imp.status).toBe(200);
    platform.jar.cookies.delete("better-auth.session_data");
    const asThem = await callerFor(platform.jar);
    expect(await codeOf(asThem.organization.acceptOwnership({ id: offer.id }))).toBe("FORBIDDEN");
    await organizer.caller.organization.acceptOwnership({ id: offer.id });
    expect(await roleOf(org, organizer.user.id)).toBe("owner");
    expect(await roleOf(org, owner.user.id)).toBe("owner");
    expect(await owners(org)).toBe(2);
    // Now the first owner may delete their account: the organization keeps its new owner.
    const fresh = new CookieJar();
    await fresh.post("/api/auth/sign-in/email", { email: owner.email, password: PASSWORD });
    expect((await fresh.post("/api/auth/delete-user", { password: PASSWORD })).status).toBe(200);
    expect(await owners(org)).toBe(1);
  });
});
