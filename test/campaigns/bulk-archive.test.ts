/**
 * Archiving "all N matching" campaigns (decision 024): campaigns.matchingIds snapshots exactly the
 * rows the list's filters match (the list's own WHERE, paging aside); campaigns.bulkArchive decides
 * each id as setStatus "archive" does (worker/campaigns/service.ts `planTransition`), in one D1
 * batch per call with an audit row per archive, skipping with the reason what may not be archived,
 * what another write changed meanwhile and what another organization owns.
 */
import { BULK_MAX_IDS, type BulkOutcome, bulkSummary, MATCHING_MAX } from "@core/bulk";
import { campaignStatuses } from "@core/status";
import { describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { createContext } from "../../worker/trpc/context";
import { createCallerFactory } from "../../worker/trpc/init";
import { CookieJar, signUp } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { BASE_URL, codeOf, testEnv, trpcError, trpcHttp } from "../helpers";
import { racingDb } from "../race";

type Caller = Awaited<ReturnType<typeof member>>["caller"];
type Status = (typeof campaignStatuses)[number];

const DAY = 86_400_000;
/** The setStatus actions that lead from a new (draft) campaign to each status. */
const PATH: Record<Status, ("publish" | "pause" | "complete" | "archive")[]> = {
  draft: [],
  active: ["publish"],
  paused: ["publish", "pause"],
  completed: ["publish", "complete"],
  archived: ["archive"],
};

/**
 * `n` campaigns, "Roof repair i" and "School bus i" in turn, through every status in turn; every
 * sixth starts in ten days (scheduled); every fourth has a goal of one gift, and the first active
 * one of those gets its gift (goal reached).
 */
async function seed(caller: Caller, n: number) {
  const ids: string[] = [];
  const status = new Map<string, Status>();
  let reached: string | null = null;
  for (let i = 0; i < n; i++) {
    const goal = i % 4 === 0;
    const c = await caller.campaigns.create({
      title: `${i % 2 ? "School bus" : "Roof repair"} ${i}`,
      currency: "USD",
      goalType: goal ? "donations" : "none",
      goalCount: goal ? 1 : undefined,
      startAt: i % 6 === 5 ? Date.now() + 10 * DAY : undefined,
    });
    const s = campaignStatuses[i % campaignStatuses.length] as Status;
    for (const action of PATH[s]) await caller.campaigns.setStatus({ id: c.id, action });
    if (goal && s === "active" && !reached) {
      await caller.donations.create({
        donorId: null,
        campaignId: c.id,
        amountMinor: 2_500,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now() - 60_000,
      });
      reached = c.id;
    }
    ids.push(c.id);
    status.set(c.id, s);
  }
  return { ids, status, reached };
}

/** Every campaign of the organization as stored: what a bulk archive may and may not have changed. */
async function campaignsOf(org: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT id, status, archived_at, updated_at FROM campaign WHERE organization_id = ? ORDER BY id",
  )
    .bind(org)
    .all<{ id: string; status: Status; archived_at: number | null; updated_at: number }>();
  return results;
}

/** Runs a bulk archive over `ids` in batches, as the portal does. */
async function inBatches(caller: Caller, ids: string[], size = BULK_MAX_IDS) {
  const out: BulkOutcome[] = [];
  for (let i = 0; i < ids.length; i += size)
    out.push(...(await caller.campaigns.bulkArchive({ ids: ids.slice(i, i + size) })));
  return out;
}

describe("select all matching campaigns", () => {
  it("snapshots exactly the rows the list's filters match, paging aside, with the statuses all of them may take", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const s = await seed(caller, 30);
    const today = new Date().toISOString().slice(0, 10);
    const filters = [
      {},
      { status: ["draft" as const] },
      { status: ["draft" as const, "completed" as const] },
      { q: "roof" },
      { q: "SCHOOL", status: ["completed" as const, "archived" as const] },
      { q: "us 1" },
      { phase: ["scheduled" as const] },
      { goalReached: true },
      { goalReached: false, status: ["active" as const, "paused" as const] },
      { from: today, to: today },
    ];
    for (const f of filters) {
      const label = JSON.stringify(f);
      const listed = await caller.campaigns.list({ ...f, pageSize: 100 });
      const got = await caller.campaigns.matchingIds(f);
      expect(new Set(got.ids), label).toEqual(new Set(listed.rows.map((r) => r.id)));
      expect(got.ids.length, label).toBe(listed.total);
      const allowed = listed.rows
        .map((r) => r.allowedTransitions as string[])
        .reduce((a, b) => a.filter((t) => b.includes(t)));
      expect([...got.allowedTransitions].sort(), label).toEqual([...allowed].sort());
    }
    // Not vacuous: the filters narrow, and the narrow ones agree with the seed.
    expect((await caller.campaigns.matchingIds({})).ids).toHaveLength(30);
    expect(new Set((await caller.campaigns.matchingIds({ status: ["draft"] })).ids)).toEqual(
      new Set(s.ids.filter((id) => s.status.get(id) === "draft")),
    );
    expect((await caller.campaigns.matchingIds({ goalReached: true })).ids).toEqual([s.reached]);
    expect((await caller.campaigns.matchingIds({ phase: ["scheduled"] })).ids.length).toBeGreaterThan(0);
    expect((await caller.campaigns.matchingIds({ q: "roof" })).ids).toHaveLength(15);
    // Drafts and completed campaigns may all be archived; add an active one and none may.
    expect(
      (await caller.campaigns.matchingIds({ status: ["draft", "completed"] })).allowedTransitions,
    ).toEqual(["archived"]);
    expect(
      (await caller.campaigns.matchingIds({ status: ["draft", "completed", "active"] })).allowedTransitions,
    ).toEqual([]);

    // Paging and sort are not filters: the list's own input gives every page's ids, not one page's.
    const pages = [];
    for (let page = 1; page <= 3; page++)
      pages.push(
        ...(await caller.campaigns.list({ page, pageSize: 10, sort: "title" })).rows.map((r) => r.id),
      );
    const withPage = await caller.campaigns.matchingIds({
      page: 2,
      pageSize: 10,
      sort: "title",
    } as Parameters<typeof caller.campaigns.matchingIds>[0]);
    expect(withPage.ids).toHaveLength(30);
    expect(new Set(withPage.ids)).toEqual(new Set(pages));
    // A backwards range is the list's 400 too.
    expect(await codeOf(caller.campaigns.matchingIds({ from: today, to: "2000-01-01" }))).toBe("BAD_REQUEST");
  }, 120_000);

  it(`refuses more than ${MATCHING_MAX.toLocaleString("en-US")} matching campaigns with a 422 that names the cap`, async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    // Rows written straight to the table (one recursive INSERT per 2 000): only the count matters here.
    const now = Date.now();
    const stmts = [];
    for (let i = 0; i <= MATCHING_MAX; i += 2_000)
      stmts.push(
        testEnv.DB.prepare(
          `WITH RECURSIVE n(i) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
           INSERT INTO campaign (id, organization_id, title, slug, currency, status, created_at, updated_at)
           SELECT 'big-' || ?3 || '-' || i, ?3, 'Appeal ' || i, 'appeal-' || i, 'USD', 'draft', ?4, ?4 FROM n`,
        ).bind(i, Math.min(i + 1_999, MATCHING_MAX), org, now - 1_000),
      );
    await testEnv.DB.batch(stmts);
    expect((await owner.caller.campaigns.list({})).total).toBe(MATCHING_MAX + 1);
    const res = await trpcHttp(owner.jar, "campaigns.matchingIds", {}, { method: "GET" });
    expect(res.status).toBe(422);
    expect(await trpcError(res)).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: "At most 10,000 campaigns can be selected at once; narrow the filters",
      details: { max: MATCHING_MAX },
    });
    // A narrower filter is taken whole, and so is exactly the cap.
    expect((await owner.caller.campaigns.matchingIds({ q: "appeal 999" })).ids).toHaveLength(11);
    const gone = await testEnv.DB.prepare("DELETE FROM campaign WHERE id = ?").bind(`big-${org}-0`).run();
    expect(gone.meta.changes).toBe(1);
    expect((await owner.caller.campaigns.matchingIds({})).ids).toHaveLength(MATCHING_MAX);
  }, 120_000);
});

describe("bulk archive", () => {
  it("archives the snapshot in batches, skips with the reason what may not be archived, and audits each archive", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const { caller } = owner;
    const s = await seed(caller, 30);
    const snapshot = await caller.campaigns.matchingIds({ status: ["draft", "completed"] });
    expect(snapshot.ids).toHaveLength(12);
    expect(snapshot.allowedTransitions).toEqual(["archived"]);
    // After the snapshot: one of it is archived by hand, one is published, and a new draft starts
    // matching the filter — which no bulk call may touch.
    const [handArchived, published] = snapshot.ids.filter((id) => s.status.get(id) === "draft") as [
      string,
      string,
    ];
    await caller.campaigns.setStatus({ id: handArchived, action: "archive" });
    await caller.campaigns.setStatus({ id: published, action: "publish" });
    const late = await caller.campaigns.create({ title: "Late draft", currency: "USD", goalType: "none" });
    const before = new Map((await campaignsOf(org)).map((c) => [c.id, c]));
    const started = Date.now();

    const outcomes = await inBatches(caller, snapshot.ids, 5);
    expect(outcomes.map((o) => o.id)).toEqual(snapshot.ids);
    expect(outcomes.filter((o) => !o.changed)).toEqual([
      { id: handArchived, changed: false, reason: "Already archived" },
      { id: published, changed: false, reason: "An active campaign cannot become archived" },
    ]);
    expect(bulkSummary(outcomes, "archived").text).toBe(
      "10 archived, 2 skipped: already archived (1); an active campaign cannot become archived (1)",
    );
    const changed = outcomes.filter((o) => o.changed).map((o) => o.id);
    for (const c of await campaignsOf(org)) {
      if (changed.includes(c.id)) {
        expect(c.status, c.id).toBe("archived");
        expect(c.archived_at, c.id).toBeGreaterThanOrEqual(started);
      } else expect(c, c.id).toEqual(before.get(c.id));
    }
    expect(before.get(late.id)?.status).toBe("draft");
    expect(before.get(published)?.status).toBe("active");
    // One audit row per archive, as setStatus writes it; none for the skipped.
    const audits = await testEnv.DB.prepare(
      "SELECT entity_id, actor_id, before, after FROM audit_event WHERE organization_id = ? AND action = 'campaign.archive' AND at >= ?",
    )
      .bind(org, started)
      .all<{ entity_id: string; actor_id: string; before: string; after: string }>();
    expect(audits.results.map((a) => a.entity_id).sort()).toEqual([...changed].sort());
    for (const a of audits.results) {
      expect(a.actor_id).toBe(owner.user.id);
      expect(JSON.parse(a.after)).toEqual({ status: "archived" });
      expect(["draft", "completed"]).toContain(JSON.parse(a.before).status);
    }
    // Again: every one is now "Already archived" or refused; nothing changes, nothing is audited.
    const again = await caller.campaigns.bulkArchive({ ids: snapshot.ids });
    expect(again.every((o) => !o.changed)).toBe(true);
    const count = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'campaign.archive' AND at >= ?",
    )
      .bind(org, started)
      .first<{ n: number }>();
    expect(count?.n).toBe(changed.length);
  }, 120_000);

  it("skips a campaign another write changed between the read and the write, with no audit row for it", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const drafts = [];
    for (const title of ["Coats", "Boots", "Hats"])
      drafts.push((await owner.caller.campaigns.create({ title, currency: "USD", goalType: "none" })).id);
    const [a, raced, c] = drafts as [string, string, string];
    // A colleague publishes `raced` after the bulk call read it as a draft.
    const publishMeanwhile = () =>
      testEnv.DB.prepare("UPDATE campaign SET status = 'active', updated_at = ? WHERE id = ?")
        .bind(Date.now(), raced)
        .run();
    const racing = createCallerFactory(appRouter)(
      await createContext({
        request: new Request(`${BASE_URL}/api/trpc`, { headers: { cookie: owner.jar.header() } }),
        env: { ...testEnv, DB: racingDb("UPDATE campaign SET status", publishMeanwhile) },
        resHeaders: new Headers(),
      }),
    );
    const out = await racing.campaigns.bulkArchive({ ids: drafts });
    expect(out).toEqual([
      { id: a, changed: true },
      { id: raced, changed: false, reason: "The campaign changed meanwhile" },
      { id: c, changed: true },
    ]);
    const rows = new Map((await campaignsOf(org)).map((r) => [r.id, r.status]));
    expect([rows.get(a), rows.get(raced), rows.get(c)]).toEqual(["archived", "active", "archived"]);
    const audited = await testEnv.DB.prepare(
      "SELECT entity_id FROM audit_event WHERE organization_id = ? AND action = 'campaign.archive'",
    )
      .bind(org)
      .all<{ entity_id: string }>();
    expect(audited.results.map((r) => r.entity_id).sort()).toEqual([a, c].sort());
  });

  it("skips another organization's ids as not found and leaves them untouched", async () => {
    const mine = await makeOrg();
    const theirs = await makeOrg();
    const me = await member(mine, "owner");
    const them = await member(theirs, "owner");
    const a = await seed(me.caller, 5);
    const b = await seed(them.caller, 5);
    const beforeTheirs = await campaignsOf(theirs);
    const out = await me.caller.campaigns.bulkArchive({ ids: [...a.ids, ...b.ids] });
    expect(out.filter((o) => b.ids.includes(o.id))).toEqual(
      b.ids.map((id) => ({ id, changed: false, reason: "Not found" })),
    );
    // Of mine, the draft and the completed one are archived (seed: statuses in core's order).
    expect(out.filter((o) => a.ids.includes(o.id)).map((o) => (o.changed ? "changed" : o.reason))).toEqual([
      "changed",
      "An active campaign cannot become archived",
      "A paused campaign cannot become archived",
      "changed",
      "Already archived",
    ]);
    expect(await campaignsOf(theirs)).toEqual(beforeTheirs);
    const theirAudits = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND actor_id = ?",
    )
      .bind(theirs, me.user.id)
      .first<{ n: number }>();
    expect(theirAudits?.n).toBe(0);
    // matchingIds only ever sees the caller's organization.
    const snap = await me.caller.campaigns.matchingIds({});
    expect(new Set(snap.ids)).toEqual(new Set(a.ids));
  }, 60_000);

  it("refuses bad input with a 400 and changes nothing", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const s = await seed(owner.caller, 2);
    const before = await campaignsOf(org);
    const many = [...s.ids, ...Array.from({ length: BULK_MAX_IDS - 1 }, (_, i) => `id-${i}`)];
    expect(many).toHaveLength(BULK_MAX_IDS + 1);
    for (const [label, input] of [
      ["too many ids", { ids: many }],
      ["no ids", { ids: [] }],
      ["an empty id", { ids: [""] }],
      ["no ids at all", {}],
    ] as const) {
      expect(await codeOf(owner.caller.campaigns.bulkArchive(input as { ids: string[] })), label).toBe(
        "BAD_REQUEST",
      );
      const res = await trpcHttp(owner.jar, "campaigns.bulkArchive", input);
      expect(res.status, label).toBe(400);
    }
    expect(await campaignsOf(org)).toEqual(before);
    // Exactly the cap is taken; duplicates count once.
    const atCap = await owner.caller.campaigns.bulkArchive({ ids: many.slice(1) });
    expect(atCap).toHaveLength(BULK_MAX_IDS);
    expect(atCap[0]).toEqual({
      id: s.ids[1],
      changed: false,
      reason: "An active campaign cannot become archived",
    });
    expect(
      await owner.caller.campaigns.bulkArchive({ ids: [s.ids[0] as string, s.ids[0] as string] }),
    ).toEqual([{ id: s.ids[0], changed: true }]);
  }, 60_000);

  it("is for those who may archive: owner, admin and organizer, not viewer, outsider or anonymous", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const organizer = await member(org, "organizer");
    const admin = await member(org, "admin");
    const drafts = [];
    for (let i = 0; i < 6; i++)
      drafts.push(
        (await owner.caller.campaigns.create({ title: `Draft ${i}`, currency: "USD", goalType: "none" })).id,
      );
    for (const [i, [role, caller]] of (
      [
        ["owner", owner.caller],
        ["admin", admin.caller],
        ["organizer", organizer.caller],
      ] as const
    ).entries()) {
      expect(await codeOf(caller.campaigns.matchingIds({})), role).toBe("OK");
      const out = await caller.campaigns.bulkArchive({ ids: [drafts[i] as string] });
      expect(out, role).toEqual([{ id: drafts[i], changed: true }]);
    }
    const before = await campaignsOf(org);
    const viewer = await member(org, "viewer");
    const outsider = await callerFor((await signUp(new CookieJar())).jar);
    const anonymous = await callerFor(null);
    for (const [who, c, code] of [
      ["viewer", viewer.caller, "FORBIDDEN"],
      ["outsider", outsider, "FORBIDDEN"],
      ["anonymous", anonymous, "UNAUTHORIZED"],
    ] as const) {
      expect(await codeOf(c.campaigns.matchingIds({})), who).toBe(code);
      expect(await codeOf(c.campaigns.bulkArchive({ ids: drafts.slice(3) })), who).toBe(code);
    }
    expect(await campaignsOf(org)).toEqual(before);
  }, 60_000);
});
