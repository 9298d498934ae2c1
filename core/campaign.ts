/**
 * Campaigns (DESIGN §4, §5.3): the form schemas the portal's forms and the tRPC inputs share (one
 * schema, not two), and the derived phase the server presents and the browser filters by.
 * Statuses and their transitions are core/status.ts.
 */
// zod/mini, as core/organization.ts: the campaign form loads it in the browser, where the classic
// API would add zod's whole core to the entry chunk (docs/decisions/012-client-js-budgets.md). The
// browser registers the English messages the Worker answers with (see the campaign form).
import { z } from "zod/mini";
import { donationFrequencies } from "./donation";
import { MEDIA_PATH } from "./media";
import { formatMoney } from "./money";
import { amountMinor, currencyCode, instant, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "./schemas";
import type { CampaignPhase, CampaignStatus } from "./status";

/** How many suggested amounts a campaign offers at most (the donate form's buttons). */
export const MAX_SUGGESTED_AMOUNTS = 8;

/** The first amount listed twice among a campaign's suggested amounts, or null. */
export function repeatedAmount(amounts: readonly number[]): number | null {
  const seen = new Set<number>();
  for (const a of amounts) {
    if (seen.has(a)) return a;
    seen.add(a);
  }
  return null;
}

/** The refusal of a suggested amount given twice, naming it: the schema's and the form's words. */
export function repeatedAmountMessage(minor: number, currency: string): string {
  return `${formatMoney(minor, currency)} is already a suggested amount: each amount only once`;
}

export const goalTypes = ["none", "amount", "donations", "donors"] as const;
export type GoalType = (typeof goalTypes)[number];

export const campaignVisibilities = ["public", "unlisted", "private"] as const;

/** Recurring gifts a campaign that allows them offers: the donation frequencies other than one-time. */
export const RECURRING_FREQUENCIES = donationFrequencies.filter(
  (f): f is Exclude<(typeof donationFrequencies)[number], "one_time"> => f !== "one_time",
);

/**
 * A cover is an image uploaded to /api/media (the server checks it belongs to the caller's
 * organization) or an https URL; never another scheme, so a stored value cannot smuggle script.
 */
const coverUrl = /* @__PURE__ */ (() =>
  z.union([z.string().check(z.regex(MEDIA_PATH, "Upload the image again")), z.url({ protocol: /^https$/ })], {
    error: "Upload an image or give an https address",
  }))();

/**
 * A campaign title's slug: lower-case ASCII words joined by dashes, at most 60 characters
 * (campaignInput's slug), "campaign" when the title leaves none. The campaign form's create and
 * the CSV import's new campaigns both name campaigns so, and the import matches a file's campaign
 * names to existing campaigns by it.
 */
export function campaignSlug(title: string) {
  return (
    title
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "campaign"
  );
}

/**
 * `base`, or `base` suffixed -2, -3, … past the slugs in `used` (the organization's, old ones
 * included: they redirect); the suffix keeps the slug within 60 characters.
 */
export function freeSlug(base: string, used: ReadonlySet<string>) {
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base.slice(0, 54)}-${n}`;
  return slug;
}

/** The campaign form: create takes it as is, update as `data` (DESIGN §5.3). */
export const campaignInput = /* @__PURE__ */ (() =>
  z
    .strictObject({
      title: z
        .string()
        .check(z.trim(), z.minLength(3, "At least 3 characters"), z.maxLength(128, "At most 128 characters")),
      slug: z.optional(
        z
          .string()
          .check(
            z.trim(),
            z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Lower-case letters, digits and dashes"),
            z.maxLength(60),
          ),
      ),
      shortDescription: z.optional(
        z.nullable(z.string().check(z.trim(), z.maxLength(120, "At most 120 characters"))),
      ),
      description: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(20_000)))),
      coverUrl: z.optional(z.nullable(coverUrl)),
      currency: currencyCode,
      goalType: z._default(z.enum(goalTypes), "none"),
      goalAmountMinor: z.optional(z.nullable(z.int().check(z.positive(), z.maximum(99_999_999_999)))),
      goalCount: z.optional(z.nullable(z.int().check(z.positive(), z.maximum(10_000_000)))),
      startAt: z.optional(z.nullable(instant)),
      endAt: z.optional(z.nullable(instant)),
      acceptAfterEnd: z._default(z.boolean(), false),
      completeOnGoal: z._default(z.boolean(), false),
      suggestedAmounts: z._default(
        z
          .array(amountMinor)
          .check(z.maxLength(MAX_SUGGESTED_AMOUNTS, `At most ${MAX_SUGGESTED_AMOUNTS} amounts`)),
        [],
      ),
      // One gift's bounds on this campaign, within the platform floor and cap (core/currencies.ts).
      minAmountMinor: z._default(amountMinor, MIN_AMOUNT_MINOR),
      maxAmountMinor: z._default(amountMinor, MAX_AMOUNT_MINOR),
      allowRecurring: z._default(z.boolean(), true),
      visibility: z._default(z.enum(campaignVisibilities), "public"),
    })
    .check(
      z.superRefine((v, ctx) => {
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
        const twice = repeatedAmount(v.suggestedAmounts);
        if (twice !== null)
          ctx.addIssue({
            code: "custom",
            path: ["suggestedAmounts"],
            message: repeatedAmountMessage(twice, v.currency),
          });
      }),
    ))();

/** What the form sends (defaults applied, text trimmed). */
export type CampaignInput = z.output<typeof campaignInput>;

const itemTitle = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(128));
const itemDescription = () => z.nullable(z.string().check(z.trim(), z.maxLength(2000)));
const itemQuantity = () => z.nullable(z.int().check(z.positive()));

/** A new item of a campaign (a coat, a meal): a unit price and, optionally, how many are needed. */
export const campaignItemInput = /* @__PURE__ */ (() =>
  z.object({
    campaignId: z.string().check(z.minLength(1)),
    title: itemTitle(),
    description: z.optional(itemDescription()),
    unitAmountMinor: amountMinor,
    quantityNeeded: z.optional(itemQuantity()),
    allowOverfunding: z._default(z.boolean(), true),
  }))();

/** An item's edit: only the given fields change; `archived` archives or restores it. */
export const campaignItemUpdate = /* @__PURE__ */ (() =>
  z.strictObject({
    id: z.string().check(z.minLength(1)),
    title: z.optional(itemTitle()),
    description: z.optional(itemDescription()),
    unitAmountMinor: z.optional(amountMinor),
    quantityNeeded: z.optional(itemQuantity()),
    allowOverfunding: z.optional(z.boolean()),
    active: z.optional(z.boolean()),
    archived: z.optional(z.boolean()),
  }))();

// The phases are listed with the statuses (core/status.ts), where the list's URL schema takes them
// without this module's form schemas (the portal's entry chunk: docs/decisions/012-client-js-budgets.md).
export { type CampaignPhase, campaignPhases } from "./status";

/**
 * Whether a campaign's phase is shown beside its status. The phase is where a running campaign
 * stands in its dates and goal, so only an active or paused one has one to show; a draft, completed
 * or archived campaign is what its status says ("Draft", never "Draft Live").
 */
export function showsPhase(status: CampaignStatus): boolean {
  return status === "active" || status === "paused";
}

/** A campaign's goal and what it has raised, in the API's shape. */
export interface CampaignProgress {
  goalType: GoalType;
  goalAmountMinor: number | null;
  goalCount: number | null;
  raisedMinor: number;
  donationCount: number;
  donorCount: number;
}

/** How far the goal is reached (1 = reached; may exceed 1), or null without a goal. */
export function goalProgress(c: CampaignProgress): number | null {
  if (c.goalType === "amount" && c.goalAmountMinor) return c.raisedMinor / c.goalAmountMinor;
  if (c.goalType === "donations" && c.goalCount) return c.donationCount / c.goalCount;
  if (c.goalType === "donors" && c.goalCount) return c.donorCount / c.goalCount;
  return null;
}

/** Scheduled before its start, ended from its end, else goal_reached once the goal is met, else live. */
export function campaignPhase(
  c: CampaignProgress & { startAt: number | null; endAt: number | null },
  now = Date.now(),
): CampaignPhase {
  if (c.startAt && c.startAt > now) return "scheduled";
  if (c.endAt && c.endAt <= now) return "ended";
  const progress = goalProgress(c);
  if (progress !== null && progress >= 1) return "goal_reached";
  return "live";
}

/** The refusal of deleting a campaign someone gave to: the server's words, shown as they are. */
export const CAMPAIGN_HAS_GIFTS_MESSAGE =
  "This campaign has donations and cannot be deleted. Archive it instead.";

/**
 * DESIGN §5.3: a campaign is deleted only while nobody gave to it — no gift of any status or mode,
 * trashed and test gifts included (each still points at it) — else it is archived. Its items and
 * rollup go with it. The server enforces it in the write; the portal offers the action only then.
 */
export function campaignDeletable(c: { hasGifts: boolean }): boolean {
  return !c.hasGifts;
}
