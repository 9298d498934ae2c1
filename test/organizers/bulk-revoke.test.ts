/**
 * Revoking "all N matching" organizer invitations (decision 024): organizers.matchingIds snapshots
 * the open invitations (core/organizers.ts OPEN_INVITATION_STATUSES) among exactly the rows the
 * list's filters match, paging aside; organizers.bulkRevokeInvitations decides each id as
 * organizers.revokeInvitation does (worker/organization/invitations/service.ts `revokeRefusal`), in
 * one D1 batch per call with an audit row per revoke, skipping with the reason what is not open,
 * what another write changed meanwhile and ids that are not invitations.
 */
import { BULK_MAX_IDS, type BulkOutcome, bulkSummary, MATCHING_MAX } from "@core/bulk";
import { isOpenInvitation } from "@core/organizers";
import { describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { createContext } from "../../worker/trpc/context";
import { createCallerFactory } from "../../worker/trpc/init";
import { CookieJar, makeAdmin, signUp, uniqueEmail } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { BASE_URL, codeOf, testEnv, trpcError, trpcHttp } from "../helpers";
import { racingDb } from "../race";

type Caller = Awaited<ReturnType<typeof callerFor>>;

const DAY = 86_400_000;

/** A platform admin's caller and cookie jar. */
async function admin() {
  const a = await makeAdmin();
  return { ...a, caller: await callerFor(a.jar) };
}

/**
 * An organization with two organizer members and `n` organizer invitations ("zed-…" every third
 * address, "amy-…" the others), every fourth one past its expiry.
 */
async function seed(caller: Caller, n: number) {
  const org = await makeOrg();
  await member(org, "organizer", "organizer");
  await member(org, "organizer");
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const inv = await caller.organizers.invite({
      email: `${i % 3 ? "amy" : "zed"}-${i}-${org}@example.test`,
      organizationId: org,
    });
    ids.push(inv.id);
  }
  const expired = ids.filter((_, i) => i % 4 === 3);
  await testEnv.DB.prepare(
    "UPDATE invitation SET expires_at = ? WHERE id IN (SELECT value FROM json_each(?))",
  )
    .bind(Date.now() - DAY, JSON.stringify(expired))
    .run();
  return { org, ids, expired };
}

/** Every invitation of the organization as stored. */
async function invitationsOf(org: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT id, email, accepted_at, revoked_at, expires_at, updated_at FROM invitation WHERE organization_id = ? ORDER BY id",
  )
    .bind(org)
    .all<{ id: string; revoked_at: number | null; accepted_at: number | null }>();
  return results;
}

async function inBatches(caller: Caller, ids: string[], reason: string, size = BULK_MAX_IDS) {
  const out: BulkOutcome[] = [];
  for (let i = 0; i < ids.length; i += size)
    out.push(...(await caller.organizers.bulkRevokeInvitations({ ids: ids.slice(i, i + size), reason })));
  return out;
}

describe("select all matching invitations", () => {
  it("snapshots the open invitations among exactly the rows the list's filters match, paging aside", async () => {
    const { caller } = await admin();
    const s = await seed(caller, 24);
    const other = await seed(caller, 3);
    const token = s.org.slice(-6);
    for (const f of [
      { organizationId: s.org },
      { organizationId: s.org, status: ["invited" as const] },
      { organizationId: s.org, status: ["expired" as const] },
      { organizationId: s.org, status: ["active" as const, "expired" as const] },
      { organizationId: s.org, q: "ZED" },
      { q: `zed-3-${s.org}` },
      { q: token, status: ["invited" as const] },
    ]) {
      const label = JSON.stringify(f);
      const listed = await caller.organizers.list({ ...f, pageSize: 100 });
      const got = await caller.organizers.matchingIds(f);
      const open = listed.rows.filter((r) => isOpenInvitation(r.status));
      expect(new Set(got.ids), label).toEqual(new Set(open.map((r) => r.id)));
      expect(got.ids, label).toHaveLength(open.length);
    }
    // Not vacuous: members are listed but never in the snapshot; the filters narrow.
    const all = await caller.organizers.matchingIds({ organizationId: s.org });
    expect((await caller.organizers.list({ organizationId: s.org })).total).toBe(26);
    expect(new Set(all.ids)).toEqual(new Set(s.ids));
    expect(
      new Set((await caller.organizers.matchingIds({ organizationId: s.org, status: ["expired"] })).ids),
    ).toEqual(new Set(s.expired));
    expect((await caller.organizers.matchingIds({ organizationId: s.org, q: "zed" })).ids).toHaveLength(8);
    expect(
      await caller.organizers.matchingIds({ organizationId: s.org, status: ["active", "banned"] }),
    ).toEqual({
      ids: [],
    });
    expect((await caller.organizers.matchingIds({ organizationId: other.org })).ids).toHaveLength(3);

    // Paging: the snapshot is every page's open invitations, not one page's.
    const pages: string[] = [];
    for (let page = 1; page <= 3; page++)
      pages.push(
        ...(await caller.organizers.list({ organizationId: s.org, page, pageSize: 10, sort: "email" })).rows
          .filter((r) => isOpenInvitation(r.status))
          .map((r) => r.id),
      );
    expect(new Set(pages)).toEqual(new Set(all.ids));
    // The input is the list's filters only (strict, as the list's): a page or a sort is a 400.
    expect(
      await codeOf(
        caller.organizers.matchingIds({ organizationId: s.org, page: 2 } as Parameters<
          typeof caller.organizers.matchingIds
        >[0]),
      ),
    ).toBe("BAD_REQUEST");
  }, 120_000);

  it(`refuses more than ${MATCHING_MAX.toLocaleString("en-US")} matching invitations with a 422 that names the cap`, async () => {
    const a = await admin();
    const org = await makeOrg();
    // Rows written straight to the table (one recursive INSERT per 2 000): only the count matters here.
    const now = Date.now();
    const stmts = [];
    for (let i = 0; i <= MATCHING_MAX; i += 2_000)
      stmts.push(
        testEnv.DB.prepare(
          `WITH RECURSIVE n(i) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
           INSERT INTO invitation (id, organization_id, email, role, expires_at, created_at, updated_at)
           SELECT 'big-' || ?3 || '-' || i, ?3, 'big-' || i || '@example.test', 'organizer', ?4, ?5, ?5 FROM n`,
        ).bind(i, Math.min(i + 1_999, MATCHING_MAX), org, now + DAY, now - 1_000),
      );
    await testEnv.DB.batch(stmts);
    expect((await a.caller.organizers.list({ organizationId: org })).total).toBe(MATCHING_MAX + 1);
    const res = await trpcHttp(a.jar, "organizers.matchingIds", { organizationId: org }, { method: "GET" });
    expect(res.status).toBe(422);
    expect(await trpcError(res)).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: "At most 10,000 invitations can be selected at once; narrow the filters",
      details: { max: MATCHING_MAX },
    });
    // A narrower filter is taken whole, and so is exactly the cap.
    expect((await a.caller.organizers.matchingIds({ organizationId: org, q: "big-999@" })).ids).toHaveLength(
      1,
    );
    const gone = await testEnv.DB.prepare("DELETE FROM invitation WHERE id = ?").bind(`big-${org}-0`).run();
    expect(gone.meta.changes).toBe(1);
    expect((await a.caller.organizers.matchingIds({ organizationId: org })).ids).toHaveLength(MATCHING_MAX);
  }, 120_000);
});

describe("bulk revoke of invitations", () => {
  it("revokes the snapshot in batches with the reason, skips with the reason what is not open, and audits each revoke", async () => {
    const a = await admin();
    const s = await seed(a.caller, 24);
    const snapshot = await a.caller.organizers.matchingIds({ organizationId: s.org });
    expect(snapshot.ids).toHaveLength(24);
    // After the snapshot: one is revoked by hand, one is accepted, and a new one is sent — which no
    // bulk call may touch.
    const [byHand, accepted] = snapshot.ids as [string, string];
    await a.caller.organizers.revokeInvitation({ id: byHand, reason: "by hand" });
    await testEnv.DB.prepare("UPDATE invitation SET accepted_at = ? WHERE id = ?")
      .bind(Date.now(), accepted)
      .run();
    const late = await a.caller.organizers.invite({
      email: `late-${s.org}@example.test`,
      organizationId: s.org,
    });
    const before = new Map((await invitationsOf(s.org)).map((i) => [i.id, i]));
    const started = Date.now();

    const outcomes = await inBatches(a.caller, snapshot.ids, "Season over", 10);
    expect(outcomes.map((o) => o.id)).toEqual(snapshot.ids);
    expect(outcomes.filter((o) => !o.changed)).toEqual([
      { id: byHand, changed: false, reason: "Already revoked" },
      { id: accepted, changed: false, reason: "Not an open invitation" },
    ]);
    expect(bulkSummary(outcomes, "revoked").text).toBe(
      "22 revoked, 2 skipped: already revoked (1); not an open invitation (1)",
    );
    const changed = outcomes.filter((o) => o.changed).map((o) => o.id);
    for (const inv of await invitationsOf(s.org)) {
      if (changed.includes(inv.id)) expect(inv.revoked_at, inv.id).toBeGreaterThanOrEqual(started);
      else expect(inv, inv.id).toEqual(before.get(inv.id));
    }
    expect(before.get(late.id)?.revoked_at).toBeNull();
    // One audit row per revoke, as revokeInvitation writes it, with the reason; none for the skipped.
    const audits = await testEnv.DB.prepare(
      "SELECT entity_id, actor_id, reason, before FROM audit_event WHERE organization_id = ? AND action = 'member.revoke_invitation' AND at >= ?",
    )
      .bind(s.org, started)
      .all<{ entity_id: string; actor_id: string; reason: string; before: string }>();
    expect(audits.results.map((r) => r.entity_id).sort()).toEqual([...changed].sort());
    for (const r of audits.results) {
      expect(r.actor_id).toBe(a.user.id);
      expect(r.reason).toBe("Season over");
      expect(JSON.parse(r.before)).toMatchObject({
        id: r.entity_id,
        organization_id: s.org,
        role: "organizer",
      });
    }
    // Revoking sends no mail, in bulk as one at a time: the outbox holds only the invitations.
    const mails = await testEnv.DB.prepare(
      `SELECT count(*) AS n FROM mail_outbox WHERE "to" LIKE ? ESCAPE '\\'`,
    )
      .bind(`%-${s.org.replace(/[\\%_]/g, (c) => `\\${c}`)}@example.test`)
      .first<{ n: number }>();
    expect(mails?.n).toBe(25);
    // The list now shows the late invitation only, and a second snapshot is just that one.
    expect((await a.caller.organizers.matchingIds({ organizationId: s.org })).ids).toEqual([late.id]);
  }, 120_000);

  it("skips an invitation accepted between the read and the write, with no audit row for it", async () => {
    const a = await admin();
    const s = await seed(a.caller, 3);
    const [first, raced, last] = s.ids as [string, string, string];
    const acceptMeanwhile = () =>
      testEnv.DB.prepare("UPDATE invitation SET accepted_at = ? WHERE id = ?").bind(Date.now(), raced).run();
    const racing = createCallerFactory(appRouter)(
      await createContext({
        request: new Request(`${BASE_URL}/api/trpc`, { headers: { cookie: a.jar.header() } }),
        env: { ...testEnv, DB: racingDb("UPDATE invitation SET revoked_at", acceptMeanwhile) },
        resHeaders: new Headers(),
      }),
    );
    expect(await racing.organizers.bulkRevokeInvitations({ ids: s.ids })).toEqual([
      { id: first, changed: true },
      { id: raced, changed: false, reason: "The invitation changed meanwhile" },
      { id: last, changed: true },
    ]);
    const rows = new Map((await invitationsOf(s.org)).map((i) => [i.id, i]));
    expect(rows.get(raced)?.revoked_at).toBeNull();
    expect(rows.get(raced)?.accepted_at).not.toBeNull();
    const audited = await testEnv.DB.prepare(
      "SELECT entity_id FROM audit_event WHERE organization_id = ? AND action = 'member.revoke_invitation'",
    )
      .bind(s.org)
      .all<{ entity_id: string }>();
    expect(audited.results.map((r) => r.entity_id).sort()).toEqual([first, last].sort());
  });

  it("answers not found for ids that are no invitation (a member's row, a made-up id) and touches nothing", async () => {
    const a = await admin();
    const s = await seed(a.caller, 2);
    const memberRow = (await a.caller.organizers.list({ organizationId: s.org, status: ["active"] })).rows[0];
    expect(memberRow).toBeDefined();
    const before = await invitationsOf(s.org);
    const out = await a.caller.organizers.bulkRevokeInvitations({
      ids: [memberRow?.id as string, "no-such-id"],
    });
    expect(out).toEqual([
      { id: memberRow?.id, changed: false, reason: "Not found" },
      { id: "no-such-id", changed: false, reason: "Not found" },
    ]);
    expect(await invitationsOf(s.org)).toEqual(before);
    expect((await a.caller.organizers.list({ organizationId: s.org })).total).toBe(4);
  });

  it("refuses bad input with a 400 and changes nothing", async () => {
    const a = await admin();
    const s = await seed(a.caller, 2);
    const before = await invitationsOf(s.org);
    const many = [...s.ids, ...Array.from({ length: BULK_MAX_IDS - 1 }, (_, i) => `id-${i}`)];
    expect(many).toHaveLength(BULK_MAX_IDS + 1);
    for (const [label, input] of [
      ["too many ids", { ids: many }],
      ["no ids", { ids: [] }],
      ["an empty id", { ids: [""] }],
      ["a reason too long", { ids: s.ids, reason: "x".repeat(501) }],
      ["an unknown key", { ids: s.ids, organizationId: s.org }],
    ] as const) {
      expect(
        await codeOf(
          a.caller.organizers.bulkRevokeInvitations(
            input as Parameters<typeof a.caller.organizers.bulkRevokeInvitations>[0],
          ),
        ),
        label,
      ).toBe("BAD_REQUEST");
      const res = await trpcHttp(a.jar, "organizers.bulkRevokeInvitations", input);
      expect(res.status, label).toBe(400);
    }
    expect(await invitationsOf(s.org)).toEqual(before);
    // Exactly the cap is taken (the reason is optional, as for one revoke); duplicates count once.
    const atCap = await a.caller.organizers.bulkRevokeInvitations({ ids: many.slice(1) });
    expect(atCap).toHaveLength(BULK_MAX_IDS);
    expect(atCap[0]).toEqual({ id: s.ids[1], changed: true });
    expect(
      await a.caller.organizers.bulkRevokeInvitations({ ids: [s.ids[0] as string, s.ids[0] as string] }),
    ).toEqual([{ id: s.ids[0], changed: true }]);
  }, 60_000);

  it("is for platform admins only: org owners, organizers and other users are refused, anonymous callers too", async () => {
    const a = await admin();
    const s = await seed(a.caller, 3);
    expect(await codeOf(a.caller.organizers.matchingIds({ organizationId: s.org }))).toBe("OK");
    expect(await a.caller.organizers.bulkRevokeInvitations({ ids: [s.ids[0] as string] })).toEqual([
      { id: s.ids[0], changed: true },
    ]);
    const before = await invitationsOf(s.org);
    const owner = await member(s.org, "owner");
    const orgAdmin = await member(s.org, "admin");
    const platformOrganizer = await member(s.org, "organizer", "organizer");
    const plain = await callerFor((await signUp(new CookieJar(), uniqueEmail("plain"))).jar);
    const anonymous = await callerFor(null);
    for (const [who, c, code] of [
      ["org owner", owner.caller, "FORBIDDEN"],
      ["org admin", orgAdmin.caller, "FORBIDDEN"],
      ["platform organizer", platformOrganizer.caller, "FORBIDDEN"],
      ["plain user", plain, "FORBIDDEN"],
      ["anonymous", anonymous, "UNAUTHORIZED"],
    ] as const) {
      expect(await codeOf(c.organizers.matchingIds({ organizationId: s.org })), who).toBe(code);
      expect(await codeOf(c.organizers.bulkRevokeInvitations({ ids: s.ids.slice(1) })), who).toBe(code);
    }
    expect(await invitationsOf(s.org)).toEqual(before);
  }, 60_000);
});
