// Thank-you templates (decision 031), each written in one batch with its audit row.
// `thankYouTemplateFor` is what the receipt and thank-you mails send.
import { DEFAULT_THANK_YOU, type ThankYouTemplateInput } from "@core/thanks";
import { orgDb } from "../db/databases";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { previousWriteLanded } from "../lib/guard";
import { generateId } from "../lib/ids";
import type { OrgActor } from "../trpc/init";
import {
  campaignTitle,
  deleteTemplate,
  effectiveTemplateRow,
  templateRow,
  templateRows,
  upsertTemplate,
} from "./queries";

/** The organization's message is DEFAULT_THANK_YOU with `saved: false` until it saves its own. */
export async function thankYouTemplates(ctx: Pick<OrgActor, "env" | "org">) {
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

/** A gift's message: its campaign's own, else the organization's, else DEFAULT_THANK_YOU. */
export async function thankYouTemplateFor(
  ctx: { env: Env; org: { id: string } },
  campaignId: string | null,
): Promise<{ subject: string; body: string }> {
  const row = await effectiveTemplateRow(orgDb(ctx), ctx.org.id, campaignId);
  return row ? { subject: row.subject, body: row.body } : { ...DEFAULT_THANK_YOU };
}

/** The campaign, when it is this organization's; NOT_FOUND otherwise (another tenant's looks the same). */
async function ownCampaign(ctx: Pick<OrgActor, "env" | "org">, campaignId: string) {
  const c = await campaignTitle(orgDb(ctx), ctx.org.id, campaignId);
  if (!c) fail("NOT_FOUND", "Campaign not found", { field: "campaignId" });
  return c;
}

/** The audit row is the campaign's for a campaign's message (its History panel), else the organization's. */
export async function saveThankYouTemplate(ctx: OrgActor, input: ThankYouTemplateInput) {
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

export async function removeThankYouTemplate(ctx: OrgActor, campaignId: string) {
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
