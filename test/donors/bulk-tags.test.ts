/**
 * Bulk tagging on "all N matching" (decision 024): donors.matchingIds snapshots exactly the donors
 * the list's filters (and search) match; donors.tags.bulkAssign decides each id as
 * donors.tags.assign would, in one D1 batch per call with an audit row per changed donor, and
 * answers per id — skipping, with the reason, what another organization owns, what was merged
 * away and what already is so.
 */
import { BULK_MAX_IDS, bulkSummary, MATCHING_MAX } from "@core/bulk";
import { describe, expect, it } from "vitest";
import { appRouter } from "../../worker/api-router";
import { createContext } from "../../worker/trpc/context";
import { createCallerFactory } from "../../worker/trpc/init";
import { CookieJar, signUp } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { BASE_URL, codeOf, testEnv, trpcError, trpcHttp } from "../helpers";
import { racingDb } from "../race";
import { type Caller, newDonor, refusal } from "./helpers";

const DAY = 86_400_000;
const createCaller = createCallerFactory(appRouter);

/**
 * A caller on the test D1, except that the batch writing a tag change first lets `meanwhile` run:
 * the change has read its donors and tags and is about to write, exactly the window of a race
 * (as test/campaigns/currency-race.test.ts does for a campaign's currency).
 */
async function racingCaller(jar: CookieJar, meanwhile: () => Promise<unknown>) {
  const racing = racingDb("WITH landed(donor_id)", meanwhile);
  const request = new Request(`${BASE_URL}/api/trpc`, { headers: { cookie: jar.header() } });
  return createCaller(
    await createContext({ request, env: { ...testEnv, DB: racing }, resHeaders: new Headers() }),
  );
}

/**
 * `n` donors written straight to the table (only the list's columns matter here): names for the
 * search, created and last gifts a day apart, lifetimes 50.00 apart, two tiers by lifetime, two tags
 * (Gala on every third, Board on every fourth), e-mail consent on every other; plus one donor
 * merged into the first, which no list shows.
 */
async function seed(caller: Caller, org: string, n: number) {
  const major = await caller.donors.tiers.create({ name: "Major", minMinor: 100_000, maxMinor: null });
  const friend = await caller.donors.tiers.create({ name: "Friend", minMinor: 0, maxMinor: 99_999 });
  const gala = await caller.donors.tags.create({ name: "Gala" });
  const board = await caller.donors.tags.create({ name: "Board" });
  const now = Date.now();
  const db = testEnv.DB;
  await db.batch([
    db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
         INSERT INTO donor (id, organization_id, type, first_name, last_name, email, email_opt_in, lifetime_minor,
           donation_count, last_gift_at, tier_id, created_at, updated_at)
         SELECT ?1 || '-' || printf('%03d', i), ?1, 'individual', CASE i % 4 WHEN 0 THEN 'Bo' WHEN 1 THEN 'Ada' ELSE 'Cy' END,
           'Giver' || i, 'd' || i || '-' || lower(?1) || '@example.test', i % 2, i * 5000, 1, ?2 - i * ?4,
           CASE WHEN i * 5000 >= 100000 THEN ?5 ELSE ?6 END, ?2 - i * 1000, ?2 - i * 1000 FROM n`,
      )
      .bind(org, now, n, DAY, major.id, friend.id),
    db
      .prepare(
        `INSERT INTO donor_tag_assignment (donor_id, tag_id, organization_id)
         SELECT id, ?2, ?1 FROM donor WHERE organization_id = ?1 AND CAST(substr(id, -3) AS INTEGER) % 3 = 0`,
      )
      .bind(org, gala.id),
    db
      .prepare(
        `INSERT INTO donor_tag_assignment (donor_id, tag_id, organization_id)
         SELECT id, ?2, ?1 FROM donor WHERE organization_id = ?1 AND CAST(substr(id, -3) AS INTEGER) % 4 = 0`,
      )
      .bind(org, board.id),
    db
      .prepare(
        `INSERT INTO donor (id, organization_id, type, first_name, last_name, merged_into_id, created_at, updated_at)
         VALUES (?1 || '-merged', ?1, 'individual', 'Bo', 'Merged', ?1 || '-001', ?2, ?2)`,
      )
      .bind(org, now),
  ]);
  const ids = Array.from({ length: n }, (_, i) => `${org}-${String(i + 1).padStart(3, "0")}`);
  return { major: major.id, friend: friend.id, gala: gala.id, board: board.id, ids, merged: `${org}-merged` };
}

/** The organization's tag assignments as sorted "donor:tag" pairs. */
async function assignmentsOf(org: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT donor_id || ':' || tag_id AS pair FROM donor_tag_assignment WHERE organization_id = ? ORDER BY pair",
  )
    .bind(org)
    .all<{ pair: string }>();
  return results.map((r) => r.pair);
}

async function tagIdsOf(donorId: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT tag_id FROM donor_tag_assignment WHERE donor_id = ? ORDER BY tag_id",
  )
    .bind(donorId)
    .all<{ tag_id: string }>();
  return results.map((r) => r.tag_id);
}

/** A calendar day `days` before today, in UTC (the test organizations' zone). */
const dayAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

describe("donors: select all matching", () => {
  it("snapshots exactly the donors the list's filters and search match, and ignores paging and sort", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const s = await seed(caller, org, 60);
    const filters = [
      {},
      { q: "bo" },
      { q: "GIVER1" },
      { tierId: s.major },
      { tagId: s.gala },
      { tagId: s.board, q: "bo" },
      { tagId: s.gala, tierId: s.friend },
      { lastGiftFrom: dayAgo(30), lastGiftTo: dayAgo(10) },
      { lastGiftFrom: dayAgo(45), tagId: s.board, emailOptIn: true },
      { minLifetimeMinor: 50_000, maxLifetimeMinor: 150_000 },
      { q: "nobody at all" },
    ];
    for (const f of filters) {
      const listed = await caller.donors.list({ ...f, pageSize: 100 });
      const got = await caller.donors.matchingIds(f);
      expect(new Set(got.ids), JSON.stringify(f)).toEqual(new Set(listed.rows.map((r) => r.id)));
      expect(got.ids, JSON.stringify(f)).toHaveLength(listed.total);
      expect(got.ids, JSON.stringify(f)).not.toContain(s.merged);
    }
    // Several filters narrow for real (the test would pass on an empty snapshot otherwise).
    expect((await caller.donors.matchingIds({})).ids).toHaveLength(60);
    expect((await caller.donors.matchingIds({ tagId: s.board, q: "bo" })).ids).toHaveLength(15);
    expect((await caller.donors.matchingIds({ tierId: s.major })).ids).toHaveLength(41);
    // The list's paging and sort are not filters: the list's own input gives every match.
    const paged = await caller.donors.matchingIds({
      tagId: s.gala,
      page: 2,
      pageSize: 10,
      sort: "name",
      desc: false,
    });
    expect(new Set(paged.ids)).toEqual(new Set((await caller.donors.matchingIds({ tagId: s.gala })).ids));
    expect(paged.ids).toHaveLength(20);
    // The list's input rules hold: an inverted range and an unknown key are 400s.
    expect(await codeOf(caller.donors.matchingIds({ lastGiftFrom: dayAgo(1), lastGiftTo: dayAgo(5) }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await codeOf(caller.donors.matchingIds({ organizationId: "x" } as unknown as { q?: string })),
    ).toBe("BAD_REQUEST");
  }, 60_000);

  it(`refuses more than ${MATCHING_MAX} matching donors with a 422 that names the cap`, async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    // Rows written straight to the table in one statement: only the count matters here.
    const now = Date.now();
    await testEnv.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO donor (id, organization_id, type, last_name, email_opt_in, created_at, updated_at)
       SELECT ?1 || '-' || i, ?1, 'individual', 'Many', i % 1000 = 0, ?3, ?3 FROM n`,
    )
      .bind(org, MATCHING_MAX + 1, now)
      .run();
    const e = await refusal(owner.caller.donors.matchingIds({}));
    expect(e.code).toBe("UNPROCESSABLE_CONTENT");
    expect(e.message).toBe("At most 10,000 donors can be selected at once; narrow the filters");
    expect((e.cause as { details?: unknown }).details).toEqual({ max: MATCHING_MAX });
    // Over HTTP, as the portal meets it: a 422.
    const res = await trpcHttp(owner.jar, "donors.matchingIds", {}, { method: "GET" });
    expect(res.status).toBe(422);
    expect(await trpcError(res)).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: "At most 10,000 donors can be selected at once; narrow the filters",
    });
    // A filter that narrows under the cap is taken; one fewer donor in all is taken whole.
    expect((await owner.caller.donors.matchingIds({ emailOptIn: true })).ids).toHaveLength(10);
    await testEnv.DB.prepare("DELETE FROM donor WHERE id = ?").bind(`${org}-1`).run();
    expect((await owner.caller.donors.matchingIds({})).ids).toHaveLength(MATCHING_MAX);
  }, 60_000);
});

describe("donors: bulk tagging", () => {
  it("adds, removes and replaces per donor, skips with the reason what is already so, and audits each change", async () => {
    const org = await makeOrg();
    const { caller, user } = await member(org, "owner");
    const s = await seed(caller, org, 12);
    const vip = await caller.donors.tags.create({ name: "VIP" });
    // Gala is on 3, 6, 9, 12; Board on 4, 8, 12.
    const galas = s.ids.filter((_, i) => (i + 1) % 3 === 0);
    const added = await caller.donors.tags.bulkAssign({ ids: s.ids, tagIds: [s.gala], mode: "add" });
    expect(added.map((o) => o.id)).toEqual(s.ids);
    expect(added.filter((o) => !o.changed)).toEqual(
      galas.map((id) => ({ id, changed: false, reason: "Already tagged" })),
    );
    expect(bulkSummary(added, "tagged").text).toBe("8 tagged, 4 skipped: already tagged");
    for (const id of s.ids) expect(await tagIdsOf(id), id).toContain(s.gala);

    // Remove from a few: one never had Board.
    const [d4, d5, d8] = [3, 4, 7].map((i) => s.ids[i] as string) as [string, string, string];
    expect(
      await caller.donors.tags.bulkAssign({ ids: [d4, d5, d8], tagIds: [s.board], mode: "remove" }),
    ).toEqual([
      { id: d4, changed: true },
      { id: d5, changed: false, reason: "Not tagged" },
      { id: d8, changed: true },
    ]);
    expect(await tagIdsOf(d4)).toEqual([s.gala]);

    // Replace: a donor whose tags are exactly these is skipped; the others end with only these.
    const d12 = s.ids[11] as string;
    await caller.donors.tags.assign({ donorIds: [d5], tagIds: [vip.id], mode: "replace" });
    expect(
      await caller.donors.tags.bulkAssign({ ids: [d5, d12], tagIds: [vip.id], mode: "replace" }),
    ).toEqual([
      { id: d5, changed: false, reason: "Already has exactly these tags" },
      { id: d12, changed: true },
    ]);
    expect(await tagIdsOf(d12)).toEqual([vip.id]);
    // Replace with no tags clears; a donor with none is skipped.
    expect(await caller.donors.tags.bulkAssign({ ids: [d12, d4], tagIds: [], mode: "replace" })).toEqual([
      { id: d12, changed: true },
      { id: d4, changed: true },
    ]);
    expect(await caller.donors.tags.bulkAssign({ ids: [d12], tagIds: [], mode: "replace" })).toEqual([
      { id: d12, changed: false, reason: "Has no tags" },
    ]);

    // One audit row per changed donor, with its tags before and the change; none for the skipped.
    const audits = await testEnv.DB.prepare(
      "SELECT action, entity_type, entity_id, actor_id, before, after FROM audit_event WHERE organization_id = ? AND action LIKE 'tag.%' AND action != 'tag.create' ORDER BY at, rowid",
    )
      .bind(org)
      .all<{
        action: string;
        entity_type: string;
        entity_id: string;
        actor_id: string;
        before: string;
        after: string;
      }>();
    const rows = audits.results;
    expect(
      rows
        .filter((r) => r.action === "tag.add")
        .map((r) => r.entity_id)
        .sort(),
    ).toEqual(s.ids.filter((id) => !galas.includes(id)).sort());
    expect(
      rows
        .filter((r) => r.action === "tag.remove")
        .map((r) => r.entity_id)
        .sort(),
    ).toEqual([d4, d8].sort());
    expect(rows.every((r) => r.entity_type === "donor" && r.actor_id === user.id)).toBe(true);
    const removed4 = rows.find((r) => r.action === "tag.remove" && r.entity_id === d4);
    expect(JSON.parse(removed4?.before ?? "null")).toEqual({ tagIds: [s.gala, s.board].sort() });
    expect(JSON.parse(removed4?.after ?? "null")).toEqual({ mode: "remove", tagIds: [s.board] });
    // d5's replace by assign, d12's replace, then the two clears.
    expect(rows.filter((r) => r.action === "tag.replace").map((r) => r.entity_id)).toEqual([
      d5,
      d12,
      d12,
      d4,
    ]);
  }, 60_000);

  it("skips another organization's ids and merged donors as the single change would, and leaves them untouched", async () => {
    const mine = await makeOrg();
    const theirs = await makeOrg();
    const me = await member(mine, "owner");
    const them = await member(theirs, "owner");
    const a = await seed(me.caller, mine, 3);
    const b = await seed(them.caller, theirs, 3);
    const beforeTheirs = await assignmentsOf(theirs);
    const out = await me.caller.donors.tags.bulkAssign({
      ids: [...a.ids, ...b.ids, a.merged, "no-such-donor"],
      tagIds: [a.board],
      mode: "replace",
    });
    expect(out).toEqual([
      ...a.ids.map((id) => ({ id, changed: true })),
      ...b.ids.map((id) => ({ id, changed: false, reason: "Not found" })),
      { id: a.merged, changed: false, reason: "Merged into another donor" },
      { id: "no-such-donor", changed: false, reason: "Not found" },
    ]);
    expect(await assignmentsOf(theirs)).toEqual(beforeTheirs);
    expect(await tagIdsOf(a.merged)).toEqual([]);
    // The single change refuses the same donors, all or nothing.
    expect(
      await codeOf(
        me.caller.donors.tags.assign({
          donorIds: [a.ids[0] as string, a.merged],
          tagIds: [a.gala],
          mode: "add",
        }),
      ),
    ).toBe("NOT_FOUND");
    expect(await tagIdsOf(a.ids[0] as string)).toEqual([a.board]);
    // Another organization's tag is an unknown tag: the whole call is refused, nothing written.
    const before = await assignmentsOf(mine);
    const e = await refusal(
      me.caller.donors.tags.bulkAssign({ ids: a.ids, tagIds: [a.gala, b.gala], mode: "add" }),
    );
    expect([e.code, e.message]).toEqual(["NOT_FOUND", "Tag not found"]);
    expect(
      await codeOf(me.caller.donors.tags.bulkAssign({ ids: a.ids, tagIds: ["nope"], mode: "remove" })),
    ).toBe("NOT_FOUND");
    expect(await assignmentsOf(mine)).toEqual(before);
    // matchingIds only ever sees the caller's organization, also when filtering by their tag.
    expect((await me.caller.donors.matchingIds({})).ids.some((id) => b.ids.includes(id))).toBe(false);
    expect((await me.caller.donors.matchingIds({ tagId: b.gala })).ids).toEqual([]);
  }, 60_000);

  it("runs a snapshot of all matching in batches and never touches a donor who starts matching later", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const s = await seed(caller, org, 250);
    const vip = await caller.donors.tags.create({ name: "VIP" });
    const snapshot = await caller.donors.matchingIds({ tagId: s.gala });
    expect(snapshot.ids).toHaveLength(83);
    // A donor tagged Gala after the snapshot matches the filter now, but was not chosen.
    const late = s.ids[0] as string;
    await caller.donors.tags.assign({ donorIds: [late], tagIds: [s.gala], mode: "add" });
    const out = [];
    for (let i = 0; i < snapshot.ids.length; i += BULK_MAX_IDS)
      out.push(
        ...(await caller.donors.tags.bulkAssign({
          ids: snapshot.ids.slice(i, i + BULK_MAX_IDS),
          tagIds: [vip.id],
          mode: "add",
        })),
      );
    expect(out.every((o) => o.changed)).toBe(true);
    expect((await caller.donors.list({ tagId: vip.id })).total).toBe(snapshot.ids.length);
    expect(new Set(await caller.donors.matchingIds({ tagId: vip.id }).then((r) => r.ids))).toEqual(
      new Set(snapshot.ids),
    );
    expect(await tagIdsOf(late)).not.toContain(vip.id);
  }, 60_000);

  it("a donor merged or a tag deleted between the read and the write: skipped with the reason, or refused whole by assign; never half-written, never a 500", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const { caller } = owner;
    const [src, tgt, other, src2, other2] = (await Promise.all(
      ["Src", "Tgt", "Other", "Src2", "Other2"].map((lastName) =>
        newDonor(caller, { firstName: "Race", lastName }),
      ),
    )) as [string, string, string, string, string];
    const tag = await caller.donors.tags.create({ name: "Race" });
    const doomed = await caller.donors.tags.create({ name: "Doomed" });
    const auditsFor = async (tagId: string) =>
      (
        await testEnv.DB.prepare(
          "SELECT entity_id FROM audit_event WHERE organization_id = ? AND action LIKE 'tag.%' AND after LIKE ? ORDER BY entity_id",
        )
          .bind(org, `%${tagId}%`)
          .all<{ entity_id: string }>()
      ).results.map((r) => r.entity_id);

    // A merge lands meanwhile: the merged donor is skipped, the other changes.
    const merging = await racingCaller(owner.jar, () =>
      caller.donors.merge({ sourceId: src, targetId: tgt, dryRun: false }),
    );
    expect(
      await merging.donors.tags.bulkAssign({ ids: [src, other], tagIds: [tag.id], mode: "add" }),
    ).toEqual([
      { id: src, changed: false, reason: "The donor changed meanwhile" },
      { id: other, changed: true },
    ]);
    expect([await tagIdsOf(src), await tagIdsOf(tgt), await tagIdsOf(other)]).toEqual([[], [], [tag.id]]);
    expect(await auditsFor(tag.id)).toEqual([other]);

    // The tag is deleted meanwhile: every donor is skipped, nothing refers to the tag.
    const deleting = await racingCaller(owner.jar, () => caller.donors.tags.delete({ id: doomed.id }));
    expect(
      await deleting.donors.tags.bulkAssign({ ids: [tgt, other], tagIds: [doomed.id], mode: "add" }),
    ).toEqual([
      { id: tgt, changed: false, reason: "The donor changed meanwhile" },
      { id: other, changed: false, reason: "The donor changed meanwhile" },
    ]);
    expect(await auditsFor(doomed.id)).toEqual([]);

    // The single change is all or nothing: a 409, and the other donor is untouched too.
    const merging2 = await racingCaller(owner.jar, () =>
      caller.donors.merge({ sourceId: src2, targetId: tgt, dryRun: false }),
    );
    const e = await refusal(
      merging2.donors.tags.assign({ donorIds: [other2, src2], tagIds: [tag.id], mode: "add" }),
    );
    expect([e.code, e.message]).toEqual(["CONFLICT", "The donors changed meanwhile; reload and try again"]);
    expect([await tagIdsOf(other2), await tagIdsOf(src2)]).toEqual([[], []]);
    expect(await auditsFor(tag.id)).toEqual([other]);
  }, 60_000);

  it("refuses bad input with a 400 and changes nothing", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const s = await seed(caller, org, 3);
    const before = await assignmentsOf(org);
    const many = Array.from({ length: BULK_MAX_IDS + 1 }, (_, i) => `id-${i}`);
    for (const [label, p] of [
      ["no ids", caller.donors.tags.bulkAssign({ ids: [], tagIds: [s.gala], mode: "add" })],
      ["too many ids", caller.donors.tags.bulkAssign({ ids: many, tagIds: [s.gala], mode: "add" })],
      ["add with no tags", caller.donors.tags.bulkAssign({ ids: s.ids, tagIds: [], mode: "add" })],
      ["remove with no tags", caller.donors.tags.bulkAssign({ ids: s.ids, tagIds: [], mode: "remove" })],
      [
        "too many tags",
        caller.donors.tags.bulkAssign({
          ids: s.ids,
          tagIds: Array.from({ length: 51 }, () => s.gala),
          mode: "add",
        }),
      ],
      [
        "unknown mode",
        caller.donors.tags.bulkAssign({ ids: s.ids, tagIds: [s.gala], mode: "toggle" as "add" }),
      ],
      ["an empty id", caller.donors.tags.bulkAssign({ ids: [""], tagIds: [s.gala], mode: "add" })],
      [
        "an unknown key",
        caller.donors.tags.bulkAssign({ ids: s.ids, tagIds: [s.gala], mode: "add", organizationId: org } as {
          ids: string[];
          tagIds: string[];
          mode: "add";
        }),
      ],
    ] as const)
      expect(await codeOf(p), label).toBe("BAD_REQUEST");
    expect(await assignmentsOf(org)).toEqual(before);
    // Exactly the cap is taken; duplicates count once.
    const hundred = [...s.ids, ...Array.from({ length: BULK_MAX_IDS - 3 }, (_, i) => `missing-${i}`)];
    expect(
      await caller.donors.tags.bulkAssign({ ids: hundred, tagIds: [s.board], mode: "add" }),
    ).toHaveLength(BULK_MAX_IDS);
    const d1 = s.ids[0] as string;
    expect(await caller.donors.tags.bulkAssign({ ids: [d1, d1], tagIds: [s.gala], mode: "add" })).toEqual([
      { id: d1, changed: true },
    ]);
  }, 60_000);

  it("is for those who may tag: owner, admin and organizer, not viewer or outsider", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const s = await seed(owner.caller, org, 4);
    const roles = [
      ["owner", owner.caller, s.ids[0]],
      ["admin", (await member(org, "admin")).caller, s.ids[1]],
      ["organizer", (await member(org, "organizer")).caller, s.ids[3]],
    ] as const;
    for (const [role, caller, id] of roles) {
      expect((await caller.donors.matchingIds({ tagId: s.board })).ids, role).toEqual([s.ids[3]]);
      expect(
        await caller.donors.tags.bulkAssign({ ids: [id as string], tagIds: [s.gala], mode: "add" }),
        role,
      ).toEqual([{ id, changed: true }]);
    }
    const before = await assignmentsOf(org);
    const viewer = await member(org, "viewer");
    const outsider = await callerFor((await signUp(new CookieJar())).jar);
    for (const [who, c] of [
      ["viewer", viewer.caller],
      ["outsider", outsider],
    ] as const) {
      expect(await codeOf(c.donors.matchingIds({})), who).toBe("FORBIDDEN");
      expect(
        await codeOf(c.donors.tags.bulkAssign({ ids: s.ids, tagIds: [s.gala], mode: "replace" })),
        who,
      ).toBe("FORBIDDEN");
    }
    // A viewer still reads the list the snapshot is taken from.
    expect(await codeOf(viewer.caller.donors.list({}))).toBe("OK");
    expect(await assignmentsOf(org)).toEqual(before);
  }, 60_000);
});
