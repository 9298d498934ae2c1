import { organizationInput } from "@core/organization";
import { TRPCError } from "@trpc/server";
import { rawTimeZones } from "@vvo/tzdb";
import { describe, expect, it } from "vitest";
import { auditStatement } from "../../worker/lib/audit";
import { CookieJar, lastMail, makeAdmin, signUp, verifyByMail } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, codeOf, testEnv } from "../helpers";

async function fieldErrorsOf(p: Promise<unknown>) {
  const e = (await p.catch((x) => x)) as TRPCError;
  expect(e).toBeInstanceOf(TRPCError);
  // The formatter (worker/trpc/init.ts) turns zod issues into `data.fieldErrors`; the caller sees the cause.
  const issues = (e.cause as unknown as { issues?: { path: (string | number)[] }[] }).issues ?? [];
  return issues.map((i) => i.path.join("."));
}

const profile = {
  name: "Harbor Food Bank",
  type: "charity" as const,
  defaultCurrency: "EUR" as const,
  timeZone: "Europe/Lisbon",
  fiscalYearStartMonth: 4,
};

const auditCount = async (orgId: string, action: string) =>
  (
    await testEnv.DB.prepare("SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = ?")
      .bind(orgId, action)
      .first<{ n: number }>()
  )?.n;

describe("organization profile", () => {
  it("owners and admins edit; viewers and organizers are refused; every change is audited", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await member(org, "admin");
    const organizer = await member(org, "organizer");
    const viewer = await member(org, "viewer");
    await owner.caller.organization.update({
      ...profile,
      addressLine1: "1 Dock Road",
      postalCode: "1000-001",
      country: "pt",
      logoUrl: "https://example.test/logo.png",
      website: "",
    });
    const cur = await viewer.caller.organization.current();
    expect(cur).toMatchObject({
      name: "Harbor Food Bank",
      country: "PT",
      addressLine1: "1 Dock Road",
      logoUrl: "https://example.test/logo.png",
      website: null,
      canEdit: false,
    });
    expect((await admin.caller.organization.current()).canEdit).toBe(true);
    await admin.caller.organization.update({ ...profile, name: "Harbor Food Bank Lisbon" });
    expect(await codeOf(organizer.caller.organization.update(profile))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.caller.organization.update(profile))).toBe("FORBIDDEN");
    expect(await auditCount(org, "organization.update")).toBe(2);
    const history = await viewer.caller.audit.list({ entityType: "organization", entityId: org });
    expect(history.rows[0]?.changes).toContainEqual({
      field: "name",
      label: "Name",
      from: "Harbor Food Bank",
      to: "Harbor Food Bank Lisbon",
    });
    expect(history.rows[0]?.actor).toBe("Test User");
  });

  it("refuses invalid input field by field, and never takes the tenant from input", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const bad = await fieldErrorsOf(
      owner.caller.organization.update({
        ...profile,
        name: "x",
        country: "Portugal",
        timeZone: "Mars/Olympus",
        fiscalYearStartMonth: 13,
        logoUrl: "http://insecure.test/logo.png",
        contactEmail: "not-an-email",
      }),
    );
    expect(bad.sort()).toEqual(
      ["contactEmail", "country", "fiscalYearStartMonth", "logoUrl", "name", "timeZone"].sort(),
    );
    const other = await makeOrg();
    expect(
      await codeOf(owner.caller.organization.update({ ...profile, organizationId: other } as never)),
    ).toBe("BAD_REQUEST");
    expect((await owner.caller.organization.current()).name).not.toBe("Harbor Food Bank");
  });

  it("accepts every zone the time zone picker offers, under its current and its old names", () => {
    // The picker (src/components/time-zone-list.tsx) stores @vvo/tzdb's names; the Worker checks a
    // zone with its own Intl (core/organization.ts). A name workerd did not know would be offered,
    // then refused on save.
    const names = rawTimeZones.flatMap((z) => z.group);
    expect(names.length).toBeGreaterThan(300);
    const refused = names.filter(
      (timeZone) => !organizationInput.safeParse({ ...profile, timeZone }).success,
    );
    expect(refused).toEqual([]);
    expect(organizationInput.safeParse({ ...profile, timeZone: "Mars/Olympus" }).success).toBe(false);
  });
});

describe("organization switcher", () => {
  it("lists only the caller's memberships and remembers the chosen one", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const stranger = await makeOrg();
    const m = await member(a, "owner");
    await testEnv.DB.prepare(
      "INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, 'viewer', ?, ?)",
    )
      .bind(`m2-${m.user.id}`, b, m.user.id, Date.now() + 1, Date.now() + 1)
      .run();
    const mine = await m.caller.organization.mine();
    expect(mine.map((o) => o.id).sort()).toEqual([a, b].sort());
    expect((await m.caller.organization.current()).id).toBe(a);
    await m.caller.organization.setActive({ organizationId: b });
    const again = await callerFor(m.jar);
    expect(await again.organization.current()).toMatchObject({ id: b, role: "viewer", canEdit: false });
    expect(await codeOf(m.caller.organization.setActive({ organizationId: stranger }))).toBe("NOT_FOUND");
  });

  it("falls back to the first membership when the remembered one ends; admins act anywhere", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const m = await member(a, "owner");
    await testEnv.DB.prepare(
      "INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, 'viewer', ?, ?)",
    )
      .bind(`m2-${m.user.id}`, b, m.user.id, Date.now() + 1, Date.now() + 1)
      .run();
    await m.caller.organization.setActive({ organizationId: b });
    expect((await m.caller.organization.current()).id).toBe(b);
    await testEnv.DB.prepare("DELETE FROM membership WHERE id = ?").bind(`m2-${m.user.id}`).run();
    // The remembered organization is no longer theirs: the next request acts in the first one.
    expect(await (await callerFor(m.jar)).organization.current()).toMatchObject({ id: a, role: "owner" });
    await testEnv.DB.prepare("DELETE FROM membership WHERE user_id = ?").bind(m.user.id).run();
    expect(await codeOf((await callerFor(m.jar)).organization.current())).toBe("FORBIDDEN");

    const admin = await makeAdmin();
    const adminCaller = await callerFor(admin.jar);
    expect((await adminCaller.organization.current()).id).toBeTruthy();
    await adminCaller.organization.setActive({ organizationId: b });
    expect(await (await callerFor(admin.jar)).organization.current()).toMatchObject({ id: b, role: null });
  });
});

describe("members", () => {
  it("changes roles with the owner rules and keeps history when removing", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await member(org, "admin");
    const organizer = await member(org, "organizer");
    const list = await owner.caller.organization.members();
    const idOf = (userId: string) => list.find((x) => x.userId === userId)?.id ?? "";
    // Admins manage members but cannot hand out or take away the owner role.
    expect(
      await codeOf(
        admin.caller.organization.setMemberRole({ membershipId: idOf(organizer.user.id), role: "owner" }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      await codeOf(
        admin.caller.organization.setMemberRole({ membershipId: idOf(owner.user.id), role: "viewer" }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      await admin.caller.organization.setMemberRole({
        membershipId: idOf(organizer.user.id),
        role: "viewer",
      }),
    ).toEqual({ id: idOf(organizer.user.id), role: "viewer" });
    // The last owner can neither be demoted nor leave.
    expect(
      await codeOf(
        owner.caller.organization.setMemberRole({ membershipId: idOf(owner.user.id), role: "admin" }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(await codeOf(owner.caller.organization.leave())).toBe("UNPROCESSABLE_CONTENT");
    // Organizers (now viewer) cannot manage members.
    expect(
      await codeOf(organizer.caller.organization.removeOrgMember({ membershipId: idOf(admin.user.id) })),
    ).toBe("FORBIDDEN");
    // Removing keeps the audit trail of the removed member's actions.
    await admin.caller.organization.update(profile);
    await owner.caller.organization.removeOrgMember({ membershipId: idOf(admin.user.id), reason: "left" });
    expect(await codeOf(admin.caller.organization.current())).toBe("FORBIDDEN");
    const kept = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND actor_id = ?",
    )
      .bind(org, admin.user.id)
      .first<{ n: number }>();
    // The admin's role change and profile edit stay attributed to them.
    expect(kept?.n).toBe(2);
    expect(await auditCount(org, "member.remove")).toBe(1);
    expect(await auditCount(org, "member.set_role")).toBe(1);
    // Promote a second owner; then the first may step down.
    await owner.caller.organization.setMemberRole({ membershipId: idOf(organizer.user.id), role: "owner" });
    await owner.caller.organization.leave();
    expect((await organizer.caller.organization.members()).map((x) => x.role)).toEqual(["owner"]);
  });

  it("never leaves an organization without an owner when two owners step down at once", async () => {
    const org = await makeOrg();
    const a = await member(org, "owner");
    const b = await member(org, "owner");
    const list = await a.caller.organization.members();
    const idOf = (userId: string) => list.find((x) => x.userId === userId)?.id ?? "";
    const results = await Promise.allSettled([
      a.caller.organization.setMemberRole({ membershipId: idOf(b.user.id), role: "admin" }),
      b.caller.organization.setMemberRole({ membershipId: idOf(a.user.id), role: "admin" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
    const owners = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM membership WHERE organization_id = ? AND role = 'owner'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(owners?.n).toBeGreaterThanOrEqual(1);
  });
});

describe("invitations from the organization", () => {
  it("refuses existing members, resends with a fresh expiry, revokes with an audit row", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await member(org, "admin");
    expect(await codeOf(owner.caller.organization.invite({ email: admin.email, role: "viewer" }))).toBe(
      "CONFLICT",
    );
    expect(await codeOf(admin.caller.organization.invite({ email: "x@example.test", role: "owner" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(owner.caller.organization.invite({ email: "nope", role: "viewer" }))).toBe(
      "BAD_REQUEST",
    );
    const email = `resend-${Date.now().toString(36)}@example.test`;
    const inv = await owner.caller.organization.invite({ email, role: "organizer" });
    await testEnv.DB.prepare("UPDATE invitation SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, inv.id)
      .run();
    expect((await owner.caller.organization.invitations())[0]).toMatchObject({ id: inv.id, expired: true });
    const again = await owner.caller.organization.resendInvitation({ id: inv.id });
    expect(again.expiresAt).toBeGreaterThan(Date.now() + 6 * 86400_000);
    // A new link: its id is the invitation's (new) secret, never its public id (decision 017).
    const link = new URL(String((await lastMail(email))?.url));
    expect(link.pathname).toBe("/accept-invitation");
    expect(link.searchParams.get("id")).not.toBe(inv.id);
    await owner.caller.organization.revokeInvitation({ id: inv.id });
    expect(await owner.caller.organization.invitations()).toEqual([]);
    expect(await codeOf(owner.caller.organization.revokeInvitation({ id: inv.id }))).toBe("NOT_FOUND");
    expect(await auditCount(org, "member.invite")).toBe(1);
    expect(await auditCount(org, "member.resend_invitation")).toBe(1);
    expect(await auditCount(org, "member.revoke_invitation")).toBe(1);
  });
});

describe("audit", () => {
  it("writes nothing when any statement of the batch fails", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const before = (await owner.caller.organization.current()).name;
    const ctx = { env: testEnv, user: { id: owner.user.id }, org: { id: org } };
    await expect(
      testEnv.DB.batch([
        testEnv.DB.prepare("UPDATE organization SET name = 'Half written' WHERE id = ?").bind(org),
        // entity_id is NOT NULL: the audit row fails, so the change above must roll back with it.
        auditStatement(ctx, {
          action: "organization.update",
          entityType: "organization",
          entityId: null as never,
        }),
      ]),
    ).rejects.toThrow();
    expect((await owner.caller.organization.current()).name).toBe(before);
    expect(await auditCount(org, "organization.update")).toBe(0);
  });

  it("records the impersonator, hides IPs from members and pages old entries", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const viewer = await member(org, "viewer");
    const admin = await makeAdmin();
    const now = Date.now();
    const stmts = Array.from({ length: 60 }, (_, i) =>
      testEnv.DB.prepare(
        "INSERT INTO audit_event (id, organization_id, actor_id, impersonator_id, action, entity_type, entity_id, ip, at) VALUES (?, ?, ?, ?, 'organization.update', 'organization', ?, '203.0.113.9', ?)",
      ).bind(`ae-${org}-${i}`, org, owner.user.id, admin.user.id, org, now - Math.floor(i / 3) * 1000),
    );
    await testEnv.DB.batch(stmts);
    const first = await owner.caller.audit.list({ entityType: "organization", entityId: org });
    expect(first.rows).toHaveLength(50);
    // IP addresses are for platform admins only (decision 052): test/audit/sentences.test.ts.
    expect(first.rows[0]).toMatchObject({ impersonator: "Admin Person", ip: null });
    const second = await owner.caller.audit.list({
      entityType: "organization",
      entityId: org,
      cursor: first.nextCursor,
    });
    expect(second.rows).toHaveLength(10);
    expect(second.nextCursor).toBeUndefined();
    // Rows of one millisecond straddle the page boundary: none is skipped or repeated.
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(60);
    // tRPC's infinite queries add a direction; it must not be refused.
    const forward = await owner.caller.audit.list({
      entityType: "organization",
      entityId: org,
      direction: "forward",
      limit: 5,
    });
    expect(forward.rows).toHaveLength(5);
    expect(
      (await viewer.caller.audit.list({ entityType: "organization", entityId: org })).rows[0]?.ip,
    ).toBeNull();
    const other = await makeOrg();
    expect(await codeOf(viewer.caller.audit.list({ entityType: "organization", entityId: other }))).toBe(
      "NOT_FOUND",
    );
  });
});

describe("organizers (platform admin)", () => {
  it("invites an organizer who accepts, lists and filters them, and exports every row", async () => {
    const admin = await makeAdmin();
    const adminCaller = await callerFor(admin.jar);
    const org = await makeOrg();
    const other = await makeOrg();
    await member(org, "owner");
    const direct = await member(org, "organizer", "organizer");
    const email = `organizer-${Date.now().toString(36)}@example.test`;
    const inv = await adminCaller.organizers.invite({ email, organizationId: org });
    expect(await codeOf(adminCaller.organizers.invite({ email, organizationId: "missing" }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(adminCaller.organizers.invite({ email: direct.email, organizationId: org }))).toBe(
      "CONFLICT",
    );
    const pending = await adminCaller.organizers.list({ organizationId: org, status: ["invited"] });
    expect(pending.rows.map((r) => r.email)).toEqual([email]);
    expect(pending.rows[0]).toMatchObject({ invitedBy: "Admin Person", userId: null });

    const mail = await lastMail(email);
    const invitee = await signUp(new CookieJar(), email, "Ines Organizer");
    await verifyByMail(email);
    const id = new URL(String(mail?.url)).searchParams.get("id");
    expect(id).not.toBe((inv as { id: string }).id);
    const res = await appFetch(`/api/invitations/${id}/accept`, {
      method: "POST",
      headers: { cookie: invitee.jar.header(), origin: BASE_URL },
    });
    expect(res.status).toBe(200);

    const active = await adminCaller.organizers.list({
      organizationId: org,
      status: ["active"],
      sort: "name",
      desc: false,
    });
    expect(active.rows.map((r) => r.email).sort()).toEqual([direct.email, email].sort());
    expect(active.rows.find((r) => r.email === email)).toMatchObject({
      invitedBy: "Admin Person",
      role: "organizer",
    });
    expect((await adminCaller.organizers.list({ q: "INES" })).rows.map((r) => r.email)).toContain(email);
    expect((await adminCaller.organizers.list({ organizationId: other })).total).toBe(0);
    expect(await codeOf(adminCaller.organizers.list({ sort: "password" as never }))).toBe("BAD_REQUEST");
    expect(await codeOf(adminCaller.organizers.list({ pageSize: 30 }))).toBe("BAD_REQUEST");

    // Export pages with a keyset until done: never truncated, audited once.
    const rows: string[] = [];
    let after: string | undefined;
    let total: number | undefined;
    do {
      const page = await adminCaller.organizers.exportPage({ organizationId: org, after, limit: 1 });
      total ??= page.total;
      rows.push(...page.rows.map((r) => r.email));
      after = page.next;
    } while (after);
    expect(rows.sort()).toEqual([direct.email, email].sort());
    expect(total).toBe(2);
    expect(await auditCount(org, "organizer.export")).toBe(1);
    // The detail page's export: one organizer's rows only.
    const one = await adminCaller.organizers.exportPage({ userId: direct.user.id });
    expect(one.rows.map((r) => r.email)).toEqual([direct.email]);
    expect(one.total).toBe(1);

    // Organizers and org owners cannot use the admin list.
    expect(await codeOf(direct.caller.organizers.list({}))).toBe("FORBIDDEN");
  });
});

describe("badges", () => {
  it("grants manual badges with evidence and expiry, refuses automatic ones, revokes with a reason", async () => {
    const admin = await makeAdmin();
    const a = await callerFor(admin.jar);
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const { id } = await a.badges.grant({
      organizationId: org,
      badge: "registered_charity",
      reason: "Charity register no. 123",
      expiresAt: Date.now() + 86400_000,
    });
    expect(await codeOf(a.badges.grant({ organizationId: org, badge: "registered_charity" }))).toBe(
      "CONFLICT",
    );
    expect(await codeOf(a.badges.grant({ organizationId: org, badge: "top_fundraiser" as never }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await codeOf(a.badges.grant({ organizationId: org, badge: "transparent", expiresAt: Date.now() - 1 })),
    ).toBe("BAD_REQUEST");
    expect(await codeOf(a.badges.grant({ organizationId: "missing", badge: "transparent" }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(owner.caller.badges.grant({ organizationId: org, badge: "transparent" }))).toBe(
      "FORBIDDEN",
    );
    expect((await owner.caller.organization.badges()).map((b) => b.badge)).toEqual(["registered_charity"]);
    const defs = await a.badges.definitions();
    expect(defs.find((d) => d.key === "registered_charity")).toMatchObject({ kind: "manual" });
    expect(defs.find((d) => d.key === "goal_achiever")).toMatchObject({ kind: "automatic" });
    expect(await codeOf(a.badges.revoke({ id, reason: "" }))).toBe("BAD_REQUEST");
    await a.badges.revoke({ id, reason: "Registration lapsed" });
    expect(await owner.caller.organization.badges()).toEqual([]);
    expect(await auditCount(org, "badge.grant")).toBe(1);
    const revoked = await testEnv.DB.prepare(
      "SELECT reason FROM audit_event WHERE organization_id = ? AND action = 'badge.revoke'",
    )
      .bind(org)
      .first<{ reason: string }>();
    expect(revoked?.reason).toBe("Registration lapsed");
    // An expired grant no longer shows and may be granted again.
    await a.badges.grant({ organizationId: org, badge: "transparent", expiresAt: Date.now() + 60_000 });
    await testEnv.DB.prepare(
      "UPDATE organization_badge SET expires_at = ? WHERE organization_id = ? AND badge = 'transparent'",
    )
      .bind(Date.now() - 1, org)
      .run();
    expect(await owner.caller.organization.badges()).toEqual([]);
    await a.badges.grant({ organizationId: org, badge: "transparent" });
  });
});
