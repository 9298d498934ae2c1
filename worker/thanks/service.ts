/**
 * Thank-you templates (issue 25, decision 031): the organization's own message and one per
 * campaign, read by everyone in the organization, written by owners and admins as one batch with
 * its audit row. `thankYouTemplateFor` is what the receipt and thank-you mails send.
 */
import { DEFAULT_THANK_YOU, type ThankYouTemplateInput } from "@core/thanks";
import { generateId } from "../auth/crypto";
import { orgDb } from "../db/databases";
import { auditStatement } from "../lib/audit";
import { previousWriteLanded } from "../lib/guard";
import { fail, type OrgCtx } from "../trpc/init";
import {
  campaignTitle,
  deleteTemplate,
  effectiveTemplateRow,
  templateRow,
  templateRows,
  upsertTemplate,
} from "./queries";

type Ctx = Pick<OrgCtx, "env" | "org" | "user" | "impersonatorId" | "ip">;

/**
 * The organization's message (DEFAULT_THANK_YOU with `saved: false` until it saves its own) and
 * every campaign's, by the campaign's title.
 */
export async function thankYouTemplates(ctx: Pick<Ctx, "env" | "org">) {
  const rows = await templateRows(orgDb(ctx), ctx.org.id);
  const own = rows.find((r) => r.campaign_id === null);
  return {
    default: own
      ? { subject: own.subject, body: own.body, saved: true, updatedAt: own.updated_at as number | null }
      : { ...DEFAULT_THANK_YOU, saved: false, updatedAt: null as number | null },
    campaigns: rows.flatMap((r) =>
      r.campaign_id === null
        ? []
        : [
            {
              campaignId: r.campaign_id,
              campaignTitle: r.campaign_title ?? "",
              subject: r.subject,
              body: r.body,
              updatedAt: r.updated_at,
            },
          ],
    ),
  };
}

/**
 * What a gift of `campaignId` (null: no campaign) is thanked with: the campaign's own message,
 * else the organization's, else DEFAULT_THANK_YOU.
 */
export async function thankYouTemplateFor(
  ctx: { env: Env; org: { id: string } },
  campaignId: string | null,
): Promise<{ subject: string; body: string }> {
  const row = await effectiveTemplateRow(orgDb(ctx), ctx.org.id, campaignId);
  return row ? { subject: row.subject, body: row.body } : { ...DEFAULT_THANK_YOU };
}

/** The campaign, when it is this organization's; NOT_FOUND otherwise (another tenant's looks the same). */
async function ownCampaign(ctx: Pick<Ctx, "env" | "org">, campaignId: string) {
  const c = await campaignTitle(orgDb(ctx), ctx.org.id, campaignId);
  if (!c) fail("NOT_FOUND", "Campaign not found", { field: "campaignId" });
  return c;
}

/**
 * Saves the organization's message (campaignId null) or a campaign's. The audit row is the
 * organization's for its own message and the campaign's for a campaign's (its History panel).
 */
export async function saveThankYouTemplate(ctx: Ctx, input: ThankYouTemplateInput) {
  const db = orgDb(ctx);
  const [campaign, before] = await Promise.all([
    input.campaignId === null ? null : ownCampaign(ctx, input.campaignId),
    templateRow(db, ctx.org.id, input.campaignId),
  ]);
  const at = Date.now();
  await db.batch([
    upsertTemplate(db, {
      id: generateId(),
      orgId: ctx.org.id,
      campaignId: input.campaignId,
      subject: input.subject,
      body: input.body,
      by: ctx.user.id,
      at,
    }),
    auditStatement(ctx, {
      action: "thanks.template_save",
      ...(input.campaignId === null
        ? { entityType: "organization", entityId: ctx.org.id }
        : { entityType: "campaign", entityId: input.campaignId }),
      // The organization's message replaced the default when it was never saved.
      before: before
        ? { subject: before.subject, body: before.body }
        : input.campaignId === null
          ? { ...DEFAULT_THANK_YOU }
          : null,
      after: { subject: input.subject, body: input.body },
    }),
  ]);
  return {
    campaignId: input.campaignId,
    campaignTitle: campaign?.title ?? null,
    subject: input.subject,
    body: input.body,
    updatedAt: at,
  };
}

/** Removes a campaign's own message: its gifts are thanked with the organization's again. */
export async function removeThankYouTemplate(ctx: Ctx, campaignId: string) {
  const db = orgDb(ctx);
  const [, before] = await Promise.all([
    ownCampaign(ctx, campaignId),
    templateRow(db, ctx.org.id, campaignId),
  ]);
  if (!before)
    fail("NOT_FOUND", "This campaign has no thank-you message of its own", { field: "campaignId" });
  await db.batch([
    deleteTemplate(db, ctx.org.id, campaignId),
    // Two removals at once: only the one that deleted the row leaves history.
    auditStatement(
      ctx,
      {
        action: "thanks.template_delete",
        entityType: "campaign",
        entityId: campaignId,
        before: { subject: before.subject, body: before.body },
      },
      previousWriteLanded,
    ),
  ]);
  return { campaignId, removed: true as const };
}
