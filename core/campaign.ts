/** Campaigns (DESIGN §4, §5.3): the schemas forms and tRPC share, and the derived phase. */
// zod/mini keeps zod's whole core out of the browser's entry chunk (decision 012).
import { z } from "zod/mini";
import { donationFrequencies } from "./donation";
import { MEDIA_PATH } from "./media";
import { formatMoney } from "./money";
import { amountMinor, currencyCode, instant, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "./schemas";
import type { CampaignPhase, CampaignStatus } from "./status";

export const MAX_SUGGESTED_AMOUNTS = 8;

function repeatedAmount(amounts: readonly number[]): number | null {
  const seen = new Set<number>();
  for (const a of amounts) {
    if (seen.has(a)) return a;
    seen.add(a);
  }
  return null;
}

export function repeatedAmountMessage(minor: number, currency: string): string {
  return `${formatMoney(minor, currency)} is already a suggested amount: each amount only once`;
}

const goalTypes = ["none", "amount", "donations", "donors"] as const;
export type GoalType = (typeof goalTypes)[number];

const campaignVisibilities = ["public", "unlisted", "private"] as const;

export const RECURRING_FREQUENCIES = donationFrequencies.filter(
  (f): f is Exclude<(typeof donationFrequencies)[number], "one_time"> => f !== "one_time",
);

/** An uploaded image or an https URL; never another scheme, so a stored value cannot smuggle script. */
const coverUrl = /* @__PURE__ */ (() =>
  z.union([z.string().check(z.regex(MEDIA_PATH, "Upload the image again")), z.url({ protocol: /^https$/ })], {
    error: "Upload an image or give an https address",
  }))();

export function slugWords(text: string) {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

/** The form and the CSV import both name campaigns so; the import matches campaign names by it. */
export function campaignSlug(title: string) {
  return slugWords(title) || "campaign";
}

/** `base`, or `base-2`, `-3`, … past `used`, which must include old slugs: they redirect. */
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
            message: "Each suggested amount must lie between the minimum and maximum donation",
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

export type CampaignInput = z.output<typeof campaignInput>;

const itemTitle = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(128));
const itemDescription = () => z.nullable(z.string().check(z.trim(), z.maxLength(2000)));
const itemQuantity = () => z.nullable(z.int().check(z.positive()));

export const campaignItemInput = /* @__PURE__ */ (() =>
  z.object({
    campaignId: z.string().check(z.minLength(1)),
    title: itemTitle(),
    description: z.optional(itemDescription()),
    unitAmountMinor: amountMinor,
    quantityNeeded: z.optional(itemQuantity()),
    allowOverfunding: z._default(z.boolean(), true),
  }))();

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

// Phases live in core/status.ts, so the list's URL schema loads without these forms (decision 012).
export { type CampaignPhase, campaignPhases } from "./status";

/** Only a running campaign has a phase to show beside its status ("Draft", never "Draft Live"). */
export function showsPhase(status: CampaignStatus): boolean {
  return status === "active" || status === "paused";
}

interface CampaignProgress {
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

export const CAMPAIGN_HAS_GIFTS_MESSAGE =
  "This campaign has donations and cannot be deleted. Archive it instead.";

/** DESIGN §5.3: deleted only while no gift of any kind, trashed or test, points at it; else archived. */
export function campaignDeletable(c: { hasGifts: boolean }): boolean {
  return !c.hasGifts;
}

/** Without overfunding an item takes no more than it still needs (`funded`: other gifts); or null. */
export function itemRoomProblem(
  item: { allowOverfunding: boolean; needed: number | null; funded: number },
  quantity: number,
): string | null {
  if (item.allowOverfunding || item.needed === null || item.funded + quantity <= item.needed) return null;
  return `Only ${Math.max(0, item.needed - item.funded)} more of this item are needed`;
}
