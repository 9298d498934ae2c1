/**
 * Campaigns (DESIGN §4, §5.3): slug, currency and status machine (core/status.ts); each change ONE
 * D1 batch with its audit row (docs/architecture.md).
 */

import { type BulkOutcome, MATCHING_MAX } from "@core/bulk";
import {
  CAMPAIGN_HAS_GIFTS_MESSAGE,
  type CampaignInput,
  campaignDeletable,
  campaignSlug,
  freeSlug,
} from "@core/campaign";
import { formatCount } from "@core/labels";
import { type CampaignStatus, campaignTransitions } from "@core/status";
import { addDays, startOfLocalDay } from "@core/time";
import { type Database, orgDb } from "../db/databases";
import { auditStatement } from "../lib/audit";
import { constraintRule, fail, Refusal } from "../lib/fail";
import { previousWriteLanded } from "../lib/guard";
import { generateId } from "../lib/ids";
import { assertOwnMedia } from "../media/service";
import type { OrgCtx, OrgReader } from "../trpc/init";
import type { CampaignFilters, CampaignListInput } from "./filters";
import { type CampaignRow, presentCampaign } from "./present";
import {
  type CampaignFilter,
  campaignPage,
  campaignRow,
  campaignsByIds,
  campaignUnused,
  currencyMayBecome,
  deleteCampaign,
  hasDonations,
  insertCampaign,
  matchingCampaigns,
  moveSlugStatements,
  setStatus,
  slugsTaken,
  slugTaken,
  updateCampaign,
} from "./queries";

const SLUG_TAKEN = "This slug is already used by another campaign";
const CURRENCY_FIXED = "The currency cannot change once the campaign has donations";
const HAS_DONATIONS = CAMPAIGN_HAS_GIFTS_MESSAGE;

/** The organization's campaign, or NOT_FOUND. */
export async function loadCampaign(db: Database, orgId: string, id: string): Promise<CampaignRow> {
  const row = await campaignRow(db, orgId, id);
  if (!row) fail("NOT_FOUND", "Campaign not found");
  return row;
}

/** A title's slug, suffixed -2, -3, … past the ones this organization uses or used (old slugs redirect). */
async function slugFor(db: Database, orgId: string, title: string) {
  const base = campaignSlug(title);
  return freeSlug(base, await slugsTaken(db, orgId, [base]));
}

/** Of two requests racing for a slug the unique index lets one win; the other gets a 409, not a 500. */
async function slugRace(db: Database, stmts: D1PreparedStatement[]) {
  try {
    return await db.batch(stmts);
  } catch (e) {
    const rule = constraintRule(e);
    if (rule === "campaign.organization_id, campaign.slug") fail("CONFLICT", SLUG_TAKEN, { field: "slug" });
    throw e;
  }
}

/** The list's filters in the organization's days; matchingIds reads them too, so "all N" are the list's. */
function campaignFilter(ctx: Pick<OrgCtx, "org">, input: CampaignFilters): CampaignFilter {
  if (input.from && input.to && input.to < input.from)
    fail("BAD_REQUEST", "The end of the range is before its start", { field: "to" });
  const tz = ctx.org.timeZone;
  return {
    orgId: ctx.org.id,
    now: Date.now(),
    phase: input.phase,
    status: input.status,
    q: input.q,
    currency: input.currency,
    ids: input.ids,
    goalReached: input.goalReached,
    runningFrom: input.from ? startOfLocalDay(input.from, tz) : undefined,
    runningBefore: input.to ? startOfLocalDay(addDays(input.to, 1), tz) : undefined,
  };
}

export async function listCampaigns(ctx: OrgCtx, input: CampaignListInput) {
  const res = await campaignPage(orgDb(ctx), campaignFilter(ctx, input), input);
  return { ...res, rows: res.rows.map((r) => presentCampaign(r)) };
}

/**
 * The ids the list's filters match now, for "all N matching" (decision 024): a snapshot, capped at
 * MATCHING_MAX, with the statuses every matching campaign may move to.
 */
export async function matchingCampaignIds(ctx: OrgReader, input: CampaignFilters) {
  const { results } = await matchingCampaigns(orgDb(ctx), campaignFilter(ctx, input), MATCHING_MAX + 1);
  if (results.length > MATCHING_MAX)
    fail(
      "UNPROCESSABLE_CONTENT",
      `At most ${formatCount(MATCHING_MAX)} campaigns can be selected at once; narrow the filters`,
      { max: MATCHING_MAX },
    );
  let allowed: CampaignStatus[] | null = null;
  for (const status of new Set(results.map((r) => r.status))) {
    const mine = campaignTransitions[status];
    allowed = allowed ? allowed.filter((s) => mine.includes(s)) : [...mine];
  }
  return { ids: results.map((r) => r.id), allowedTransitions: allowed ?? [] };
}

/** One campaign, with whether it may be deleted now (core's rule), so the portal offers it only then. */
export async function campaignById(ctx: OrgCtx, id: string) {
  const db = orgDb(ctx);
  const [row, hasGifts] = await Promise.all([loadCampaign(db, ctx.org.id, id), hasDonations(db, id)]);
  return { ...presentCampaign(row), deletable: campaignDeletable({ hasGifts }) };
}

export async function createCampaign(ctx: OrgCtx, input: CampaignInput) {
  const db = orgDb(ctx);
  const id = generateId();
  const slug = input.slug ?? (await slugFor(db, ctx.org.id, input.title));
  if (await slugTaken(db, ctx.org.id, slug)) fail("CONFLICT", SLUG_TAKEN, { field: "slug" });
  await assertOwnMedia(ctx.env, ctx.org.id, input.coverUrl, "coverUrl");
  const now = Date.now();
  await slugRace(db, [
    insertCampaign(db, { id, orgId: ctx.org.id, slug, createdBy: ctx.user.id, now }, input),
    auditStatement(ctx, {
      action: "campaign.create",
      entityType: "campaign",
      entityId: id,
      after: { ...input, slug },
    }),
  ]);
  return campaignById(ctx, id);
}

/** The form's save. A currency fixed by a gift is refused first (422), and in the batch (decision 020). */
export async function saveCampaign(ctx: OrgCtx, id: string, d: CampaignInput) {
  const db = orgDb(ctx);
  const before = await loadCampaign(db, ctx.org.id, id);
  if (d.currency !== before.currency && (await hasDonations(db, id)))
    fail("UNPROCESSABLE_CONTENT", CURRENCY_FIXED, { field: "currency" });
  if (d.coverUrl !== before.cover_url) await assertOwnMedia(ctx.env, ctx.org.id, d.coverUrl, "coverUrl");
  const slug = d.slug ?? before.slug;
  const now = Date.now();
  const guard = currencyMayBecome(id, d.currency);
  const stmts: D1PreparedStatement[] = [];
  if (slug !== before.slug) {
    if (await slugTaken(db, ctx.org.id, slug, id)) fail("CONFLICT", SLUG_TAKEN, { field: "slug" });
    stmts.push(...moveSlugStatements(db, { id, orgId: ctx.org.id, from: before.slug, to: slug, now }, guard));
  }
  const write = stmts.length;
  stmts.push(
    updateCampaign(db, { id, orgId: ctx.org.id, slug, now }, d, guard),
    auditStatement(
      ctx,
      {
        action: "campaign.update",
        entityType: "campaign",
        entityId: id,
        before: presentCampaign(before),
        after: d,
      },
      guard,
    ),
  );
  const res = await slugRace(db, stmts);
  if (!res[write]?.meta.changes) {
    await loadCampaign(db, ctx.org.id, id);
    fail("CONFLICT", CURRENCY_FIXED, { field: "currency" });
  }
  return campaignById(ctx, id);
}

/** Only a campaign nobody gave to can be deleted; the others are archived. */
export async function removeCampaign(ctx: OrgCtx, id: string) {
  const db = orgDb(ctx);
  const c = await loadCampaign(db, ctx.org.id, id);
  if (!campaignDeletable({ hasGifts: await hasDonations(db, id) }))
    fail("UNPROCESSABLE_CONTENT", HAS_DONATIONS, { allowed: ["archive"] });
  // The check again inside the write (decision 020): a gift recorded meanwhile would lose its
  // campaign (ON DELETE SET NULL) and leave the campaign's rollup rows behind.
  const unused = campaignUnused(id);
  const res = await db.batch([
    auditStatement(
      ctx,
      { action: "campaign.delete", entityType: "campaign", entityId: id, before: presentCampaign(c) },
      unused,
    ),
    deleteCampaign(db, ctx.org.id, id, unused),
  ]);
  if (!res[1]?.meta.changes) {
    await loadCampaign(db, ctx.org.id, id);
    fail("UNPROCESSABLE_CONTENT", HAS_DONATIONS, { allowed: ["archive"] });
  }
  return { id };
}

/** "a draft", "an active": the refusals name the status they start from. */
const aStatus = (status: CampaignStatus) => `${/^[aeiou]/.test(status) ? "An" : "A"} ${status}`;

/** DESIGN §4's status machine for one campaign as read; a refusal (422) names the allowed targets. */
function planTransition(c: CampaignRow, to: CampaignStatus, now: number, from?: readonly CampaignStatus[]) {
  const allowed = campaignTransitions[c.status];
  if (!allowed.includes(to) || (from && !from.includes(c.status))) {
    fail("UNPROCESSABLE_CONTENT", `${aStatus(c.status)} campaign cannot become ${to}`, {
      from: c.status,
      allowed,
    });
  }
  // Publishing a campaign that has already ended would only have the cron complete it again.
  if (c.status === "draft" && to === "active" && c.end_at !== null && c.end_at <= now && !c.accept_after_end)
    fail("UNPROCESSABLE_CONTENT", "The end date has passed; move it into the future before publishing", {
      field: "endAt",
      from: c.status,
      allowed: campaignTransitions[c.status],
    });
}

/** The status write, guarded by the status read, and its audit row only if it landed (decision 020). */
function transitionStatements(
  ctx: OrgCtx,
  c: CampaignRow,
  to: CampaignStatus,
  action: CampaignAction | "toggle",
  now: number,
) {
  return [
    setStatus(orgDb(ctx), { id: c.id, orgId: ctx.org.id, from: c.status, to, now }),
    auditStatement(
      ctx,
      {
        action: `campaign.${action}`,
        entityType: "campaign",
        entityId: c.id,
        before: { status: c.status },
        after: { status: to },
      },
      previousWriteLanded,
    ),
  ];
}

async function transition(
  ctx: OrgCtx,
  id: string,
  to: CampaignStatus,
  action: CampaignAction | "toggle",
  /** Statuses the named action starts from (e.g. "resume" only from paused); default: any. */
  from?: readonly CampaignStatus[],
) {
  const db = orgDb(ctx);
  const c = await loadCampaign(db, ctx.org.id, id);
  const now = Date.now();
  planTransition(c, to, now, from);
  const res = await db.batch(transitionStatements(ctx, c, to, action, now));
  if (!res[0]?.meta.changes) fail("CONFLICT", "The campaign changed meanwhile; reload and try again");
  return campaignById(ctx, id);
}

/** SPEC's toggleStatus: active ⇄ paused; any other state is refused with what it allows. */
export async function toggleCampaign(ctx: OrgCtx, id: string) {
  const c = await loadCampaign(orgDb(ctx), ctx.org.id, id);
  if (c.status !== "active" && c.status !== "paused") {
    fail("UNPROCESSABLE_CONTENT", `Only active or paused campaigns can be toggled; this one is ${c.status}`, {
      from: c.status,
      allowed: campaignTransitions[c.status],
    });
  }
  return transition(ctx, id, c.status === "active" ? "paused" : "active", "toggle");
}

export const campaignActions = ["publish", "pause", "resume", "complete", "archive", "unarchive"] as const;
type CampaignAction = (typeof campaignActions)[number];

/** Each action is one edge: "publish" and "resume" both lead to active, from draft and from paused. */
const edges: Record<CampaignAction, [CampaignStatus, CampaignStatus[]]> = {
  publish: ["active", ["draft"]],
  pause: ["paused", ["active"]],
  resume: ["active", ["paused"]],
  complete: ["completed", ["active", "paused"]],
  archive: ["archived", ["draft", "completed"]],
  unarchive: ["draft", ["archived"]],
};

export function setCampaignStatus(ctx: OrgCtx, id: string, action: CampaignAction) {
  const [to, from] = edges[action];
  return transition(ctx, id, to, action, from);
}

/** A bulk archive (decision 024): each id decided as a single archive is, those that pass in ONE batch. */
export async function bulkArchiveCampaigns(ctx: OrgCtx, ids: string[]): Promise<BulkOutcome[]> {
  const [to, from] = edges.archive;
  const rows = new Map((await campaignsByIds(orgDb(ctx), ctx.org.id, ids)).map((r) => [r.id, r]));
  const outcomes = new Map<string, BulkOutcome>();
  const planned: CampaignRow[] = [];
  const now = Date.now();
  for (const id of ids) {
    const c = rows.get(id);
    if (!c) outcomes.set(id, { id, changed: false, reason: "Not found" });
    else if (c.status === to) outcomes.set(id, { id, changed: false, reason: "Already archived" });
    else
      try {
        planTransition(c, to, now, from);
        planned.push(c);
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        outcomes.set(id, { id, changed: false, reason: e.message });
      }
  }
  const res = planned.length
    ? await orgDb(ctx).batch(planned.flatMap((c) => transitionStatements(ctx, c, to, "archive", now)))
    : [];
  planned.forEach((c, i) => {
    outcomes.set(
      c.id,
      res[2 * i]?.meta.changes
        ? { id: c.id, changed: true }
        : { id: c.id, changed: false, reason: "The campaign changed meanwhile" },
    );
  });
  return ids.map((id) => outcomes.get(id) as BulkOutcome);
}
