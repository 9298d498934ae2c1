import { bucketFor, bucketSeries } from "@core/analytics";
import { MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "@core/money";
import { amountMinor, calendarDay, currencyCode, enumSet, instant } from "@core/schemas";
import { type CampaignStatus, COUNTED_SQL, campaignStatuses, campaignTransitions } from "@core/status";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { z } from "zod";
import { generateId } from "../../auth/crypto";
import { auditStatement } from "../../lib/audit";
import type { Guard } from "../../lib/guard";
import { add, likeEscape, likePattern, pageSchema, runList, where } from "../../lib/list";
import { assertOwnMedia, MEDIA_PATH } from "../../media";
import { fail, orgProcedure, publicProcedure, router } from "../init";

export interface CampaignRow {
  id: string;
  organization_id: string;
  title: string;
  slug: string;
  short_description: string | null;
  description: string | null;
  cover_url: string | null;
  currency: string;
  goal_type: "none" | "amount" | "donations" | "donors";
  goal_amount_minor: number | null;
  goal_count: number | null;
  start_at: number | null;
  end_at: number | null;
  accept_after_end: number;
  complete_on_goal: number;
  suggested_amounts: string;
  min_amount_minor: number;
  max_amount_minor: number;
  allow_recurring: number;
  visibility: string;
  status: CampaignStatus;
  created_at: number;
  updated_at: number;
  raised_minor?: number;
  donation_count?: number;
  donor_count?: number;
}

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "campaign";

/**
 * A cover is an image uploaded to /api/media (the usual case, checked to belong to the caller's
 * organization) or an https URL; never another scheme, so a stored value cannot smuggle script.
 */
const coverUrlSchema = z.union(
  [z.string().regex(MEDIA_PATH, "Upload the image again"), z.url({ protocol: /^https$/ })],
  { error: "Upload an image or give an https address" },
);

/** The one campaign schema shared by the form and the API (DESIGN §5.3). */
export const campaignInput = z
  .object({
    title: z.string().trim().min(3, "At least 3 characters").max(128, "At most 128 characters"),
    slug: z
      .string()
      .trim()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Lower-case letters, digits and dashes")
      .max(60)
      .optional(),
    shortDescription: z.string().trim().max(120, "At most 120 characters").optional().nullable(),
    description: z.string().trim().max(20_000).optional().nullable(),
    coverUrl: coverUrlSchema.optional().nullable(),
    currency: currencyCode,
    goalType: z.enum(["none", "amount", "donations", "donors"]).default("none"),
    goalAmountMinor: z.number().int().positive().max(99_999_999_999).optional().nullable(),
    goalCount: z.number().int().positive().max(10_000_000).optional().nullable(),
    startAt: z.optional(z.nullable(instant)),
    endAt: z.optional(z.nullable(instant)),
    acceptAfterEnd: z.boolean().default(false),
    completeOnGoal: z.boolean().default(false),
    suggestedAmounts: z.array(amountMinor).max(8, "At most 8 amounts").default([]),
    minAmountMinor: z._default(amountMinor, MIN_AMOUNT_MINOR),
    maxAmountMinor: z._default(amountMinor, MAX_AMOUNT_MINOR),
    allowRecurring: z.boolean().default(true),
    visibility: z.enum(["public", "unlisted", "private"]).default("public"),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.goalType === "amount" && !v.goalAmountMinor)
      ctx.addIssue({ code: "custom", path: ["goalAmountMinor"], message: "Enter the goal amount" });
    if ((v.goalType === "donations" || v.goalType === "donors") && !v.goalCount)
      ctx.addIssue({ code: "custom", path: ["goalCount"], message: "Enter the goal" });
    if (v.startAt && v.endAt && v.endAt <= v.startAt)
      ctx.addIssue({ code: "custom", path: ["endAt"], message: "End must be after start" });
    if (v.maxAmountMinor < v.minAmountMinor)
      ctx.addIssue({ code: "custom", path: ["maxAmountMinor"], message: "Below the minimum" });
    if (v.suggestedAmounts.some((a) => a < v.minAmountMinor || a > v.maxAmountMinor))
      ctx.addIssue({
        code: "custom",
        path: ["suggestedAmounts"],
        message: "Each suggested amount must lie between the minimum and maximum gift",
      });
    if (new Set(v.suggestedAmounts).size !== v.suggestedAmounts.length)
      ctx.addIssue({ code: "custom", path: ["suggestedAmounts"], message: "Each amount only once" });
  });

/** Recurring gifts a campaign that allows them offers: the donation frequencies other than one-time. */
export const RECURRING_FREQUENCIES = ["monthly", "quarterly", "annually"] as const;

/** Derived display phase (research/domain.md §2.1): computed at read time, never stored. */
export const campaignPhases = ["scheduled", "live", "goal_reached", "ended"] as const;

function phaseOf(c: CampaignRow, now = Date.now()) {
  if (c.start_at && c.start_at > now) return "scheduled";
  if (c.end_at && c.end_at <= now) return "ended";
  const progress = goalProgress(c);
  if (progress !== null && progress >= 1) return "goal_reached";
  return "live";
}

function goalProgress(c: CampaignRow): number | null {
  const raised = c.raised_minor ?? 0;
  if (c.goal_type === "amount" && c.goal_amount_minor) return raised / c.goal_amount_minor;
  if (c.goal_type === "donations" && c.goal_count) return (c.donation_count ?? 0) / c.goal_count;
  if (c.goal_type === "donors" && c.goal_count) return (c.donor_count ?? 0) / c.goal_count;
  return null;
}

export function presentCampaign(c: CampaignRow) {
  return {
    id: c.id,
    title: c.title,
    slug: c.slug,
    shortDescription: c.short_description,
    description: c.description,
    coverUrl: c.cover_url,
    currency: c.currency,
    goalType: c.goal_type,
    goalAmountMinor: c.goal_amount_minor,
    goalCount: c.goal_count,
    startAt: c.start_at,
    endAt: c.end_at,
    acceptAfterEnd: !!c.accept_after_end,
    completeOnGoal: !!c.complete_on_goal,
    suggestedAmounts: JSON.parse(c.suggested_amounts || "[]") as number[],
    minAmountMinor: c.min_amount_minor,
    maxAmountMinor: c.max_amount_minor,
    allowRecurring: !!c.allow_recurring,
    recurringFrequencies: c.allow_recurring ? [...RECURRING_FREQUENCIES] : [],
    visibility: c.visibility,
    status: c.status,
    phase: phaseOf(c),
    allowedTransitions: campaignTransitions[c.status],
    raisedMinor: c.raised_minor ?? 0,
    donationCount: c.donation_count ?? 0,
    donorCount: c.donor_count ?? 0,
    goalProgress: goalProgress(c),
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}

const SELECT = `c.*, COALESCE(s.raised_minor, 0) AS raised_minor, COALESCE(s.donation_count, 0) AS donation_count, COALESCE(s.donor_count, 0) AS donor_count`;
const FROM = "campaign c LEFT JOIN campaign_stats s ON s.campaign_id = c.id";

async function loadCampaign(db: D1Database, orgId: string, id: string) {
  const row = await db
    .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE c.organization_id = ? AND c.id = ?`)
    .bind(orgId, id)
    .first<CampaignRow>();
  if (!row) fail("NOT_FOUND", "Campaign not found");
  return row;
}

/** A title's slug, suffixed -2, -3, … past the ones this organization uses or used (old slugs redirect). */
async function freeSlug(db: D1Database, orgId: string, base: string) {
  const { results } = await db
    .prepare(
      `SELECT slug FROM campaign WHERE organization_id = ?1 AND (slug = ?2 OR slug LIKE ?3 ESCAPE '\\')
       UNION SELECT slug FROM campaign_slug WHERE organization_id = ?1 AND (slug = ?2 OR slug LIKE ?3 ESCAPE '\\')`,
    )
    .bind(orgId, base, likePattern(`${base}-`, "starts_with"))
    .all<{ slug: string }>();
  const used = new Set(results.map((r) => r.slug));
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base.slice(0, 54)}-${n}`;
  return slug;
}

/** Two requests racing for one slug: the unique index lets one win; the other gets a 409, not a 500. */
async function slugRace(db: D1Database, stmts: D1PreparedStatement[]) {
  try {
    await db.batch(stmts);
  } catch (e) {
    if (String(e).includes("UNIQUE constraint failed: campaign.organization_id, campaign.slug"))
      fail("CONFLICT", "This slug is already used by another campaign", { field: "slug" });
    throw e;
  }
}

/** SQL for the derived phase, mirroring phaseOf (s = campaign_stats, ?now bound by the caller). */
const REACHED_SQL = `((c.goal_type = 'amount' AND COALESCE(s.raised_minor,0) >= c.goal_amount_minor) OR (c.goal_type = 'donations' AND COALESCE(s.donation_count,0) >= c.goal_count) OR (c.goal_type = 'donors' AND COALESCE(s.donor_count,0) >= c.goal_count))`;
function phaseSql(phase: (typeof campaignPhases)[number]) {
  const scheduled = "(c.start_at IS NOT NULL AND c.start_at > ?)";
  const ended = "(c.end_at IS NOT NULL AND c.end_at <= ?)";
  switch (phase) {
    case "scheduled":
      return { sql: scheduled, n: 1 };
    case "ended":
      return { sql: `(NOT ${scheduled} AND ${ended})`, n: 2 };
    case "goal_reached":
      return { sql: `(NOT ${scheduled} AND NOT ${ended} AND ${REACHED_SQL})`, n: 2 };
    case "live":
      return { sql: `(NOT ${scheduled} AND NOT ${ended} AND NOT ${REACHED_SQL})`, n: 2 };
  }
}

const sorts = {
  created: "c.created_at",
  title: "c.title",
  raised: "raised_minor",
  donors: "donor_count",
  donations: "donation_count",
  endDate: "c.end_at",
} as const;

async function transition(
  ctx: Parameters<Parameters<ReturnType<typeof orgProcedure>["mutation"]>[0]>[0]["ctx"],
  id: string,
  to: CampaignStatus,
  action: string,
  /** Statuses the named action starts from (e.g. "resume" only from paused); default: any. */
  from?: readonly CampaignStatus[],
) {
  const c = await loadCampaign(ctx.env.DB, ctx.org.id, id);
  const allowed = campaignTransitions[c.status];
  if (!allowed.includes(to) || (from && !from.includes(c.status))) {
    fail("UNPROCESSABLE_CONTENT", `A ${c.status} campaign cannot become ${to}`, { from: c.status, allowed });
  }
  const now = Date.now();
  // Publishing a campaign that has already ended would only have the cron complete it again.
  if (c.status === "draft" && to === "active" && c.end_at !== null && c.end_at <= now && !c.accept_after_end)
    fail("UNPROCESSABLE_CONTENT", "The end date has passed; move it into the future before publishing", {
      field: "endAt",
      from: c.status,
      allowed: campaignTransitions[c.status],
    });
  const res = await ctx.env.DB.batch([
    ctx.env.DB.prepare(
      `UPDATE campaign SET status = ?, updated_at = ?, published_at = CASE WHEN ? = 'active' AND published_at IS NULL THEN ? ELSE published_at END,
           archived_at = CASE WHEN ? = 'archived' THEN ? WHEN ? = 'draft' THEN NULL ELSE archived_at END
         WHERE id = ? AND organization_id = ? AND status = ?`,
    ).bind(to, now, to, now, to, now, to, id, ctx.org.id, c.status),
    auditStatement(ctx, {
      action: `campaign.${action}`,
      entityType: "campaign",
      entityId: id,
      before: { status: c.status },
      after: { status: to },
    }),
  ]);
  // Guarded by the old status: a concurrent change makes this a no-op, not a silent overwrite.
  if (!res[0]?.meta.changes) fail("CONFLICT", "The campaign changed meanwhile; reload and try again");
  return presentCampaign(await loadCampaign(ctx.env.DB, ctx.org.id, id));
}

const idInput = z.object({ id: z.string().min(1) });

export const campaignsRouter = router({
  list: orgProcedure({ campaign: ["view"] })
    .input(
      z.object({
        ...pageSchema,
        sort: z.enum(Object.keys(sorts) as [keyof typeof sorts]).default("created"),
        status: z.optional(enumSet(campaignStatuses)),
        phase: z.optional(enumSet(campaignPhases)),
        goalReached: z.boolean().optional(),
        /** Campaigns running at some point between these local days (org time zone), inclusive. */
        from: z.optional(calendarDay),
        to: z.optional(calendarDay),
      }),
    )
    .query(async ({ ctx, input }) => {
      if (input.from && input.to && input.to < input.from)
        fail("BAD_REQUEST", "The end of the range is before its start", { field: "to" });
      const w = where();
      add(w, "c.organization_id = ?", ctx.org.id);
      const now = Date.now();
      if (input.phase?.length) {
        const parts = input.phase.map(phaseSql);
        add(
          w,
          `(${parts.map((p) => p.sql).join(" OR ")})`,
          ...parts.flatMap((p) => Array.from({ length: p.n }, () => now)),
        );
      }
      // A campaign runs from its start (or, without one, its creation) until its end (or forever).
      if (input.from)
        add(w, "(c.end_at IS NULL OR c.end_at > ?)", startOfLocalDay(input.from, ctx.org.timeZone));
      if (input.to)
        add(
          w,
          "COALESCE(c.start_at, c.created_at) < ?",
          startOfLocalDay(addDays(input.to, 1), ctx.org.timeZone),
        );
      if (input.status?.length)
        add(w, `c.status IN (${input.status.map(() => "?").join(",")})`, ...input.status);
      if (input.q)
        add(
          w,
          "(lower(c.title) LIKE ? ESCAPE '\\' OR c.slug LIKE ? ESCAPE '\\')",
          likeEscape(input.q),
          likeEscape(input.q),
        );
      // Only campaigns with a goal can have reached it or not.
      if (input.goalReached !== undefined)
        add(w, input.goalReached ? REACHED_SQL : `(c.goal_type != 'none' AND NOT ${REACHED_SQL})`);
      const res = await runList<CampaignRow>(ctx.env.DB, {
        select: SELECT,
        from: FROM,
        where: w,
        orderBy: sorts[input.sort],
        desc: input.desc,
        page: input.page,
        pageSize: input.pageSize,
        tiebreak: "c.id",
      });
      return { ...res, rows: res.rows.map(presentCampaign) };
    }),

  byId: orgProcedure({ campaign: ["view"] })
    .input(idInput)
    .query(async ({ ctx, input }) => presentCampaign(await loadCampaign(ctx.env.DB, ctx.org.id, input.id))),

  create: orgProcedure({ campaign: ["create"] })
    .input(campaignInput)
    .mutation(async ({ ctx, input }) => {
      const id = generateId();
      const slug = input.slug ?? (await freeSlug(ctx.env.DB, ctx.org.id, slugify(input.title)));
      const taken = await ctx.env.DB.batch([
        ctx.env.DB.prepare("SELECT 1 FROM campaign WHERE organization_id = ? AND slug = ?").bind(
          ctx.org.id,
          slug,
        ),
        ctx.env.DB.prepare("SELECT 1 FROM campaign_slug WHERE organization_id = ? AND slug = ?").bind(
          ctx.org.id,
          slug,
        ),
      ]);
      if (taken.some((r) => r.results.length))
        fail("CONFLICT", "This slug is already used by another campaign", { field: "slug" });
      await assertOwnMedia(ctx.env.DB, ctx.org.id, input.coverUrl, "coverUrl");
      const now = Date.now();
      await slugRace(ctx.env.DB, [
        ctx.env.DB.prepare(
          `INSERT INTO campaign (id, organization_id, title, slug, short_description, description, cover_url, currency, goal_type, goal_amount_minor, goal_count,
               start_at, end_at, accept_after_end, complete_on_goal, suggested_amounts, min_amount_minor, max_amount_minor, allow_recurring, visibility, status, created_by, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?)`,
        ).bind(
          id,
          ctx.org.id,
          input.title,
          slug,
          input.shortDescription ?? null,
          input.description ?? null,
          input.coverUrl ?? null,
          input.currency,
          input.goalType,
          input.goalType === "amount" ? input.goalAmountMinor : null,
          input.goalType === "donations" || input.goalType === "donors" ? input.goalCount : null,
          input.startAt ?? null,
          input.endAt ?? null,
          input.acceptAfterEnd ? 1 : 0,
          input.completeOnGoal ? 1 : 0,
          JSON.stringify(input.suggestedAmounts),
          input.minAmountMinor,
          input.maxAmountMinor,
          input.allowRecurring ? 1 : 0,
          input.visibility,
          ctx.user.id,
          now,
          now,
        ),
        auditStatement(ctx, {
          action: "campaign.create",
          entityType: "campaign",
          entityId: id,
          after: { ...input, slug },
        }),
      ]);
      return presentCampaign(await loadCampaign(ctx.env.DB, ctx.org.id, id));
    }),

  update: orgProcedure({ campaign: ["update"] })
    .input(z.object({ id: z.string().min(1), data: campaignInput }))
    .mutation(async ({ ctx, input }) => {
      const before = await loadCampaign(ctx.env.DB, ctx.org.id, input.id);
      const d = input.data;
      if (d.currency !== before.currency) {
        const any = await ctx.env.DB.prepare("SELECT 1 FROM donation WHERE campaign_id = ? LIMIT 1")
          .bind(input.id)
          .first();
        if (any)
          fail("UNPROCESSABLE_CONTENT", "The currency cannot change once the campaign has donations", {
            field: "currency",
          });
      }
      if (d.coverUrl !== before.cover_url)
        await assertOwnMedia(ctx.env.DB, ctx.org.id, d.coverUrl, "coverUrl");
      const slug = d.slug ?? before.slug;
      const stmts: D1PreparedStatement[] = [];
      if (slug !== before.slug) {
        const taken = await ctx.env.DB.prepare(
          "SELECT 1 FROM campaign WHERE organization_id = ?1 AND slug = ?2 AND id != ?3 UNION SELECT 1 FROM campaign_slug WHERE organization_id = ?1 AND slug = ?2 AND campaign_id != ?3",
        )
          .bind(ctx.org.id, slug, input.id)
          .first();
        if (taken) fail("CONFLICT", "This slug is already used by another campaign", { field: "slug" });
        stmts.push(
          ctx.env.DB.prepare(
            "INSERT OR REPLACE INTO campaign_slug (organization_id, slug, campaign_id, created_at) VALUES (?, ?, ?, ?)",
          ).bind(ctx.org.id, before.slug, input.id, Date.now()),
          ctx.env.DB.prepare("DELETE FROM campaign_slug WHERE organization_id = ? AND slug = ?").bind(
            ctx.org.id,
            slug,
          ),
        );
      }
      stmts.push(
        ctx.env.DB.prepare(
          `UPDATE campaign SET title = ?, slug = ?, short_description = ?, description = ?, cover_url = ?, currency = ?, goal_type = ?, goal_amount_minor = ?, goal_count = ?,
               start_at = ?, end_at = ?, accept_after_end = ?, complete_on_goal = ?, suggested_amounts = ?, min_amount_minor = ?, max_amount_minor = ?, allow_recurring = ?, visibility = ?, updated_at = ?
             WHERE id = ? AND organization_id = ?`,
        ).bind(
          d.title,
          slug,
          d.shortDescription ?? null,
          d.description ?? null,
          d.coverUrl ?? null,
          d.currency,
          d.goalType,
          d.goalType === "amount" ? d.goalAmountMinor : null,
          d.goalType === "donations" || d.goalType === "donors" ? d.goalCount : null,
          d.startAt ?? null,
          d.endAt ?? null,
          d.acceptAfterEnd ? 1 : 0,
          d.completeOnGoal ? 1 : 0,
          JSON.stringify(d.suggestedAmounts),
          d.minAmountMinor,
          d.maxAmountMinor,
          d.allowRecurring ? 1 : 0,
          d.visibility,
          Date.now(),
          input.id,
          ctx.org.id,
        ),
        auditStatement(ctx, {
          action: "campaign.update",
          entityType: "campaign",
          entityId: input.id,
          before: presentCampaign(before),
          after: d,
        }),
      );
      await slugRace(ctx.env.DB, stmts);
      return presentCampaign(await loadCampaign(ctx.env.DB, ctx.org.id, input.id));
    }),

  delete: orgProcedure({ campaign: ["delete"] })
    .input(idInput)
    .mutation(async ({ ctx, input }) => {
      const c = await loadCampaign(ctx.env.DB, ctx.org.id, input.id);
      const any = await ctx.env.DB.prepare("SELECT 1 FROM donation WHERE campaign_id = ? LIMIT 1")
        .bind(input.id)
        .first();
      if (any) {
        fail(
          "UNPROCESSABLE_CONTENT",
          "This campaign has donations and cannot be deleted. Archive it instead.",
          {
            allowed: ["archive"],
          },
        );
      }
      // The check again inside the write (decision 020): a gift recorded meanwhile would lose its
      // campaign (ON DELETE SET NULL) and leave the campaign's rollup rows behind.
      const unused: Guard = {
        sql: (p) =>
          `EXISTS (SELECT 1 FROM campaign WHERE id = ?${p}) AND NOT EXISTS (SELECT 1 FROM donation WHERE campaign_id = ?${p})`,
        args: [input.id],
      };
      const res = await ctx.env.DB.batch([
        auditStatement(
          ctx,
          {
            action: "campaign.delete",
            entityType: "campaign",
            entityId: input.id,
            before: presentCampaign(c),
          },
          unused,
        ),
        ctx.env.DB.prepare(
          `DELETE FROM campaign WHERE id = ?1 AND organization_id = ?2 AND ${unused.sql(3)}`,
        ).bind(input.id, ctx.org.id, ...unused.args),
      ]);
      if (!res[1]?.meta.changes) {
        await loadCampaign(ctx.env.DB, ctx.org.id, input.id);
        fail(
          "UNPROCESSABLE_CONTENT",
          "This campaign has donations and cannot be deleted. Archive it instead.",
          {
            allowed: ["archive"],
          },
        );
      }
      return { id: input.id };
    }),

  /** SPEC's toggleStatus: active ⇄ paused; any other state is refused with what it allows. */
  toggleStatus: orgProcedure({ campaign: ["update"] })
    .input(idInput)
    .mutation(async ({ ctx, input }) => {
      const c = await loadCampaign(ctx.env.DB, ctx.org.id, input.id);
      if (c.status !== "active" && c.status !== "paused") {
        fail(
          "UNPROCESSABLE_CONTENT",
          `Only active or paused campaigns can be toggled; this one is ${c.status}`,
          {
            from: c.status,
            allowed: campaignTransitions[c.status],
          },
        );
      }
      return transition(ctx, input.id, c.status === "active" ? "paused" : "active", "toggle");
    }),

  setStatus: orgProcedure({ campaign: ["update"] })
    .input(
      z.object({
        id: z.string().min(1),
        action: z.enum(["publish", "pause", "resume", "complete", "archive", "unarchive"]),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      // Each action names one edge of the machine: "publish" and "resume" both lead to active, but
      // only from draft and from paused respectively.
      const edges: Record<typeof input.action, [CampaignStatus, CampaignStatus[]]> = {
        publish: ["active", ["draft"]],
        pause: ["paused", ["active"]],
        resume: ["active", ["paused"]],
        complete: ["completed", ["active", "paused"]],
        archive: ["archived", ["draft", "completed"]],
        unarchive: ["draft", ["archived"]],
      };
      const [to, from] = edges[input.action];
      return transition(ctx, input.id, to, input.action, from);
    }),

  items: router({
    list: orgProcedure({ campaign: ["view"] })
      .input(z.object({ campaignId: z.string().min(1) }))
      .query(async ({ ctx, input }) => {
        await loadCampaign(ctx.env.DB, ctx.org.id, input.campaignId);
        const { results } = await ctx.env.DB.prepare(
          `SELECT i.*, COALESCE((SELECT SUM(d.item_quantity) FROM donation d WHERE d.campaign_item_id = i.id AND ${COUNTED_SQL("d")}), 0) AS funded
             FROM campaign_item i WHERE i.campaign_id = ? AND i.organization_id = ? ORDER BY i.archived_at IS NOT NULL, i.sort_order, i.created_at`,
        )
          .bind(input.campaignId, ctx.org.id)
          .all<Record<string, unknown> & { funded: number; quantity_needed: number | null }>();
        return results.map((i) => ({
          id: i.id as string,
          title: i.title as string,
          description: i.description as string | null,
          unitAmountMinor: i.unit_amount_minor as number,
          quantityNeeded: i.quantity_needed,
          quantityFunded: i.funded,
          fullyFunded: i.quantity_needed !== null && i.funded >= i.quantity_needed,
          allowOverfunding: !!i.allow_overfunding,
          active: !!i.active,
          archived: i.archived_at !== null,
          sortOrder: i.sort_order as number,
        }));
      }),
    create: orgProcedure({ campaign: ["update"] })
      .input(
        z.object({
          campaignId: z.string().min(1),
          title: z.string().trim().min(1).max(128),
          description: z.string().trim().max(2000).optional().nullable(),
          unitAmountMinor: amountMinor,
          quantityNeeded: z.number().int().positive().optional().nullable(),
          allowOverfunding: z.boolean().default(true),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        await loadCampaign(ctx.env.DB, ctx.org.id, input.campaignId);
        const id = generateId();
        const now = Date.now();
        await ctx.env.DB.batch([
          ctx.env.DB.prepare(
            `INSERT INTO campaign_item (id, organization_id, campaign_id, title, description, unit_amount_minor, quantity_needed, allow_overfunding, sort_order, active, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(sort_order), 0) + 1 FROM campaign_item WHERE campaign_id = ?), 1, ?, ?)`,
          ).bind(
            id,
            ctx.org.id,
            input.campaignId,
            input.title,
            input.description ?? null,
            input.unitAmountMinor,
            input.quantityNeeded ?? null,
            input.allowOverfunding ? 1 : 0,
            input.campaignId,
            now,
            now,
          ),
          auditStatement(ctx, {
            action: "campaign_item.create",
            entityType: "campaign",
            entityId: input.campaignId,
            after: input,
          }),
        ]);
        return { id };
      }),
    update: orgProcedure({ campaign: ["update"] })
      .input(
        z
          .object({
            id: z.string().min(1),
            title: z.string().trim().min(1).max(128).optional(),
            description: z.string().trim().max(2000).nullable().optional(),
            unitAmountMinor: z.optional(amountMinor),
            quantityNeeded: z.number().int().positive().nullable().optional(),
            allowOverfunding: z.boolean().optional(),
            active: z.boolean().optional(),
            archived: z.boolean().optional(),
          })
          .strict(),
      )
      .mutation(async ({ ctx, input }) => {
        const item = await ctx.env.DB.prepare(
          "SELECT * FROM campaign_item WHERE id = ? AND organization_id = ?",
        )
          .bind(input.id, ctx.org.id)
          .first<Record<string, unknown>>();
        if (!item) fail("NOT_FOUND", "Item not found");
        await ctx.env.DB.batch([
          ctx.env.DB.prepare(
            `UPDATE campaign_item SET title = COALESCE(?, title), unit_amount_minor = COALESCE(?, unit_amount_minor),
                 quantity_needed = CASE WHEN ? THEN ? ELSE quantity_needed END, active = COALESCE(?, active),
                 description = CASE WHEN ? THEN ? ELSE description END, allow_overfunding = COALESCE(?, allow_overfunding),
                 archived_at = CASE WHEN ? IS NULL THEN archived_at WHEN ? THEN ? ELSE NULL END, updated_at = ? WHERE id = ?`,
          ).bind(
            input.title ?? null,
            input.unitAmountMinor ?? null,
            input.quantityNeeded !== undefined ? 1 : 0,
            input.quantityNeeded ?? null,
            input.active === undefined ? null : input.active ? 1 : 0,
            input.description !== undefined ? 1 : 0,
            input.description ?? null,
            input.allowOverfunding === undefined ? null : input.allowOverfunding ? 1 : 0,
            input.archived === undefined ? null : 1,
            input.archived ? 1 : 0,
            Date.now(),
            Date.now(),
            input.id,
          ),
          auditStatement(ctx, {
            action: "campaign_item.update",
            entityType: "campaign",
            entityId: item.campaign_id as string,
            before: item,
            after: input,
          }),
        ]);
        return { id: input.id };
      }),
    /** Only items nobody gave to can be deleted; the others are archived. */
    delete: orgProcedure({ campaign: ["update"] })
      .input(z.object({ id: z.string().min(1) }))
      .mutation(async ({ ctx, input }) => {
        const item = await ctx.env.DB.prepare(
          "SELECT id, campaign_id FROM campaign_item WHERE id = ? AND organization_id = ?",
        )
          .bind(input.id, ctx.org.id)
          .first<{ id: string; campaign_id: string }>();
        if (!item) fail("NOT_FOUND", "Item not found");
        const used = await ctx.env.DB.prepare("SELECT 1 FROM donation WHERE campaign_item_id = ? LIMIT 1")
          .bind(input.id)
          .first();
        if (used)
          fail(
            "UNPROCESSABLE_CONTENT",
            "This item has donations and cannot be deleted. Archive it instead.",
            { allowed: ["archive"] },
          );
        // The check again inside the write (decision 020), as for campaigns.
        const unused: Guard = {
          sql: (p) =>
            `EXISTS (SELECT 1 FROM campaign_item WHERE id = ?${p}) AND NOT EXISTS (SELECT 1 FROM donation WHERE campaign_item_id = ?${p})`,
          args: [input.id],
        };
        const res = await ctx.env.DB.batch([
          auditStatement(
            ctx,
            {
              action: "campaign_item.delete",
              entityType: "campaign",
              entityId: item.campaign_id,
              before: item,
            },
            unused,
          ),
          ctx.env.DB.prepare(`DELETE FROM campaign_item WHERE id = ?1 AND ${unused.sql(2)}`).bind(
            input.id,
            ...unused.args,
          ),
        ]);
        if (!res[1]?.meta.changes) {
          const still = await ctx.env.DB.prepare("SELECT 1 FROM campaign_item WHERE id = ?")
            .bind(input.id)
            .first();
          if (!still) fail("NOT_FOUND", "Item not found");
          fail(
            "UNPROCESSABLE_CONTENT",
            "This item has donations and cannot be deleted. Archive it instead.",
            {
              allowed: ["archive"],
            },
          );
        }
        return { id: input.id };
      }),
    reorder: orgProcedure({ campaign: ["update"] })
      .input(z.object({ campaignId: z.string().min(1), ids: z.array(z.string().min(1)).min(1).max(500) }))
      .mutation(async ({ ctx, input }) => {
        await loadCampaign(ctx.env.DB, ctx.org.id, input.campaignId);
        if (new Set(input.ids).size !== input.ids.length)
          fail("BAD_REQUEST", "Each item may appear only once", { field: "ids" });
        await ctx.env.DB.batch([
          ...input.ids.map((id, i) =>
            ctx.env.DB.prepare(
              "UPDATE campaign_item SET sort_order = ?, updated_at = ? WHERE id = ? AND campaign_id = ? AND organization_id = ?",
            ).bind(i + 1, Date.now(), id, input.campaignId, ctx.org.id),
          ),
          auditStatement(ctx, {
            action: "campaign_item.reorder",
            entityType: "campaign",
            entityId: input.campaignId,
            after: { ids: input.ids },
          }),
        ]);
        return { ok: true };
      }),
  }),

  analytics: orgProcedure({ campaign: ["view"] })
    .input(z.object({ id: z.string().min(1), days: z.number().int().min(0).max(3650).default(30) }))
    .query(async ({ ctx, input }) => {
      const c = await loadCampaign(ctx.env.DB, ctx.org.id, input.id);
      return campaignAnalytics(ctx.env.DB, ctx.org, c, input.days);
    }),

  /** The public page: no sign-in, no personal data beyond display names; anonymous donors hidden. */
  public: publicProcedure
    .input(z.object({ organizationSlug: z.string().min(1), slug: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const org = await ctx.env.DB.prepare(
        "SELECT id, name, slug, logo_url FROM organization WHERE slug = ? AND status = 'active'",
      )
        .bind(input.organizationSlug)
        .first<{ id: string; name: string; slug: string; logo_url: string | null }>();
      if (!org) fail("NOT_FOUND", "Campaign not found");
      let row = await ctx.env.DB.prepare(
        `SELECT ${SELECT} FROM ${FROM} WHERE c.organization_id = ? AND c.slug = ?`,
      )
        .bind(org.id, input.slug)
        .first<CampaignRow>();
      if (!row) {
        const old = await ctx.env.DB.prepare(
          "SELECT campaign_id FROM campaign_slug WHERE organization_id = ? AND slug = ?",
        )
          .bind(org.id, input.slug)
          .first<{ campaign_id: string }>();
        if (old)
          row = await ctx.env.DB.prepare(`SELECT ${SELECT} FROM ${FROM} WHERE c.id = ?`)
            .bind(old.campaign_id)
            .first<CampaignRow>();
      }
      if (!row || row.visibility === "private" || row.status === "draft")
        fail("NOT_FOUND", "Campaign not found");
      const { results: recent } = await ctx.env.DB.prepare(
        `SELECT d.amount_minor AS amount, d.currency, d.donated_at AS at, d.message, d.anonymous,
                CASE WHEN d.anonymous = 1 THEN NULL ELSE COALESCE(dn.first_name, dn.company) END AS name
           FROM donation d LEFT JOIN donor dn ON dn.id = d.donor_id
          WHERE d.campaign_id = ? AND ${COUNTED_SQL("d")} ORDER BY d.donated_at DESC LIMIT 10`,
      )
        .bind(row.id)
        .all<{
          amount: number;
          currency: string;
          at: number;
          message: string | null;
          anonymous: number;
          name: string | null;
        }>();
      const { results: items } = await ctx.env.DB.prepare(
        `SELECT i.id, i.title, i.description, i.image_url, i.unit_amount_minor, i.quantity_needed,
                COALESCE((SELECT SUM(d.item_quantity) FROM donation d WHERE d.campaign_item_id = i.id AND ${COUNTED_SQL("d")}), 0) AS funded
           FROM campaign_item i WHERE i.campaign_id = ? AND i.active = 1 AND i.archived_at IS NULL
          ORDER BY i.sort_order, i.created_at`,
      )
        .bind(row.id)
        .all<{
          id: string;
          title: string;
          description: string | null;
          image_url: string | null;
          unit_amount_minor: number;
          quantity_needed: number | null;
          funded: number;
        }>();
      const { results: badges } = await ctx.env.DB.prepare(
        "SELECT badge FROM organization_badge WHERE organization_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
      )
        .bind(org.id, Date.now())
        .all<{ badge: string }>();
      const p = presentCampaign(row);
      return {
        organization: {
          name: org.name,
          slug: org.slug,
          logoUrl: org.logo_url,
          badges: badges.map((b) => b.badge),
        },
        campaign: {
          title: p.title,
          slug: row.slug,
          shortDescription: p.shortDescription,
          description: p.description,
          coverUrl: p.coverUrl,
          currency: p.currency,
          goalType: p.goalType,
          goalAmountMinor: p.goalAmountMinor,
          goalCount: p.goalCount,
          raisedMinor: p.raisedMinor,
          donationCount: p.donationCount,
          donorCount: p.donorCount,
          goalProgress: p.goalProgress,
          closed: row.status === "archived" || row.status === "completed",
          status: row.status,
          phase: p.phase,
          startAt: p.startAt,
          endAt: p.endAt,
          suggestedAmounts: p.suggestedAmounts,
          minAmountMinor: p.minAmountMinor,
          maxAmountMinor: p.maxAmountMinor,
          allowRecurring: p.allowRecurring,
          recurringFrequencies: p.recurringFrequencies,
        },
        items: items.map((i) => ({
          id: i.id,
          title: i.title,
          description: i.description,
          imageUrl: i.image_url,
          unitAmountMinor: i.unit_amount_minor,
          quantityNeeded: i.quantity_needed,
          quantityFunded: i.funded,
          fullyFunded: i.quantity_needed !== null && i.funded >= i.quantity_needed,
        })),
        recent: recent.map((r) => ({
          name: r.anonymous ? "Anonymous" : (r.name ?? "A friend"),
          amountMinor: r.amount,
          currency: r.currency,
          at: r.at,
          message: r.anonymous ? null : r.message,
        })),
      };
    }),
});

interface Agg {
  n: number;
  raised: number;
  donors: number;
  median: number | null;
}

/**
 * Campaign analytics on the counted-donations definition (DESIGN §4), in the campaign's currency.
 * The period is `days` local days ending today in the organization's time zone (0 = all time); the
 * previous period is the same length just before it. Series come from the org_daily rollup; the
 * aggregates (with the median) are computed in SQL so the Worker never receives the period's rows.
 * Refunds are the refunded amounts of live, non-trashed gifts made in the period (the donation row
 * keeps no refund date, so a refund is attributed to the day of its gift, as GiveWP's reports do).
 */
export async function campaignAnalytics(
  db: D1Database,
  org: { id: string; timeZone: string },
  c: CampaignRow,
  days: number,
  now = Date.now(),
) {
  const tz = org.timeZone;
  const today = localDay(now, tz);
  const from = days > 0 ? addDays(today, -(days - 1)) : null;
  const prevFrom = days > 0 ? addDays(today, -(2 * days - 1)) : null;
  const fromMs = from ? startOfLocalDay(from, tz) : 0;
  const prevMs = prevFrom ? startOfLocalDay(prevFrom, tz) : 0;
  const untilMs = startOfLocalDay(addDays(today, 1), tz);
  const aggSql = `WITH x AS (SELECT d.amount_minor - d.refunded_minor AS a, d.donor_id FROM donation d
                   WHERE d.campaign_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3 AND d.donated_at < ?4)
     SELECT (SELECT COUNT(*) FROM x) AS n, (SELECT COALESCE(SUM(a), 0) FROM x) AS raised,
            (SELECT COUNT(DISTINCT donor_id) FROM x) AS donors,
            (SELECT AVG(a) FROM (SELECT a FROM x ORDER BY a LIMIT 2 - (SELECT COUNT(*) FROM x) % 2 OFFSET (SELECT (COUNT(*) - 1) / 2 FROM x))) AS median`;
  const refundSql = `SELECT COUNT(*) AS count, COALESCE(SUM(d.refunded_minor), 0) AS amount FROM donation d
     WHERE d.campaign_id = ?1 AND d.currency = ?2 AND d.mode = 'live' AND d.trashed_at IS NULL AND d.refunded_minor > 0
       AND d.donated_at >= ?3 AND d.donated_at < ?4`;
  const [series, cur, prev, refunds, prevRefunds, top, recent, items] = await db.batch([
    db
      .prepare(
        `SELECT day, raised_minor AS raised, donation_count AS count FROM org_daily
          WHERE organization_id = ? AND campaign_id = ? AND currency = ? AND day >= ? ORDER BY day`,
      )
      .bind(org.id, c.id, c.currency, from ?? "0000-01-01"),
    db.prepare(aggSql).bind(c.id, c.currency, fromMs, untilMs),
    db.prepare(aggSql).bind(c.id, c.currency, prevMs, prevFrom ? fromMs : 0),
    db.prepare(refundSql).bind(c.id, c.currency, fromMs, untilMs),
    db.prepare(refundSql).bind(c.id, c.currency, prevMs, prevFrom ? fromMs : 0),
    db
      .prepare(
        `SELECT dn.id, COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name, dn.company, SUM(d.amount_minor - d.refunded_minor) AS total, COUNT(*) AS gifts
           FROM donation d JOIN donor dn ON dn.id = d.donor_id WHERE d.campaign_id = ? AND d.currency = ? AND ${COUNTED_SQL("d")} AND d.donated_at >= ? AND d.donated_at < ?
          GROUP BY dn.id ORDER BY total DESC, dn.id LIMIT 5`,
      )
      .bind(c.id, c.currency, fromMs, untilMs),
    db
      .prepare(
        `SELECT d.id, d.number, d.amount_minor AS amount, d.currency, d.status, d.mode, d.donated_at AS at, d.anonymous,
                COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name
           FROM donation d LEFT JOIN donor dn ON dn.id = d.donor_id WHERE d.campaign_id = ? AND d.trashed_at IS NULL ORDER BY d.donated_at DESC LIMIT 10`,
      )
      .bind(c.id),
    db
      .prepare(
        `SELECT i.id, i.title, i.unit_amount_minor AS unitAmountMinor, i.quantity_needed AS needed,
                COALESCE(SUM(CASE WHEN ${COUNTED_SQL("d")} THEN d.item_quantity END), 0) AS funded
           FROM campaign_item i LEFT JOIN donation d ON d.campaign_item_id = i.id
          WHERE i.campaign_id = ? AND i.archived_at IS NULL GROUP BY i.id ORDER BY i.sort_order, i.created_at`,
      )
      .bind(c.id),
  ]);
  const first = <T>(r: D1Result | undefined) => r?.results[0] as T;
  const a = first<Agg>(cur);
  const p = prevFrom ? first<Agg>(prev) : null;
  const r = first<{ count: number; amount: number }>(refunds);
  const pr = prevFrom ? first<{ count: number; amount: number }>(prevRefunds) : null;
  const average = a.n ? Math.round(a.raised / a.n) : 0;
  const change = (nowValue: number, before: number | undefined) =>
    before === undefined || before === 0 ? null : (nowValue - before) / before;

  // Zero-filled buckets from the start of the period (all time: the first gift or the creation
  // day, at least 7 days back) to today, in the organization's time zone.
  const rows = (series?.results ?? []) as { day: string; raised: number; count: number }[];
  const start =
    from ??
    [rows[0]?.day, localDay(c.created_at, tz), addDays(today, -6)]
      .filter((d): d is string => !!d)
      .sort()[0] ??
    today;
  const bucket = bucketFor(start, today);
  const filled = bucketSeries(rows, start, today, bucket).map(({ period, ...r }) => ({ day: period, ...r }));

  const itemRows = (items?.results ?? []) as {
    id: string;
    title: string;
    unitAmountMinor: number;
    needed: number | null;
    funded: number;
  }[];
  return {
    currency: c.currency,
    period: { days, from, to: today },
    raisedMinor: a.raised,
    donations: a.n,
    uniqueDonors: a.donors,
    averageMinor: average,
    medianMinor: Math.round(a.median ?? 0),
    refunds: { amountMinor: r.amount, count: r.count },
    change: p
      ? {
          raised: change(a.raised, p.raised),
          donations: change(a.n, p.n),
          donors: change(a.donors, p.donors),
          average: change(average, p.n ? Math.round(p.raised / p.n) : 0),
          refunds: change(r.amount, pr?.amount),
        }
      : null,
    goal: presentCampaign(c).goalProgress,
    goalType: c.goal_type,
    bucket,
    series: filled,
    items: itemRows.map((i) => ({ ...i, fullyFunded: i.needed !== null && i.funded >= i.needed })),
    topDonors: (top?.results ?? []) as {
      id: string;
      name: string;
      company: string | null;
      total: number;
      gifts: number;
    }[],
    recent: (
      (recent?.results ?? []) as {
        id: string;
        number: number;
        amount: number;
        currency: string;
        status: string;
        mode: string;
        at: number;
        anonymous: number;
        name: string;
      }[]
    ).map((row) => ({
      ...row,
      name: row.anonymous ? "Anonymous" : row.name || "Unknown donor",
    })),
  };
}
