/**
 * A campaign's items (DESIGN §4). Editing them is editing the campaign (campaign:update); each change
 * is one batch with its audit row, filed under the campaign.
 */

import type { campaignItemInput, campaignItemUpdate } from "@core/campaign";
import type { z } from "zod/mini";
import { orgDb } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { fail } from "../../lib/fail";
import { previousWriteLanded } from "../../lib/guard";
import { generateId } from "../../lib/ids";
import type { OrgCtx } from "../../trpc/init";
import { loadCampaign } from "../service";
import { presentItem } from "./present";
import {
  deleteItem,
  insertItem,
  itemExists,
  itemHasDonations,
  itemRow,
  itemRows,
  itemUnused,
  setItemOrder,
  updateItem,
} from "./queries";

const HAS_DONATIONS = "This item has donations and cannot be deleted. Archive it instead.";

export async function listItems(ctx: OrgCtx, campaignId: string) {
  await loadCampaign(orgDb(ctx), ctx.org.id, campaignId);
  return (await itemRows(orgDb(ctx), ctx.org.id, campaignId)).map(presentItem);
}

export async function createItem(ctx: OrgCtx, input: z.output<typeof campaignItemInput>) {
  const db = orgDb(ctx);
  await loadCampaign(db, ctx.org.id, input.campaignId);
  const id = generateId();
  await db.batch([
    insertItem(db, {
      id,
      orgId: ctx.org.id,
      campaignId: input.campaignId,
      title: input.title,
      description: input.description ?? null,
      unitAmountMinor: input.unitAmountMinor,
      quantityNeeded: input.quantityNeeded ?? null,
      allowOverfunding: input.allowOverfunding,
      now: Date.now(),
    }),
    auditStatement(ctx, {
      action: "campaign_item.create",
      entityType: "campaign",
      entityId: input.campaignId,
      after: input,
    }),
  ]);
  return { id };
}

export async function editItem(ctx: OrgCtx, input: z.output<typeof campaignItemUpdate>) {
  const db = orgDb(ctx);
  const item = await itemRow(db, ctx.org.id, input.id);
  if (!item) fail("NOT_FOUND", "Item not found");
  await db.batch([
    updateItem(db, input, Date.now()),
    // An item deleted meanwhile changes nothing and leaves no row.
    auditStatement(
      ctx,
      {
        action: "campaign_item.update",
        entityType: "campaign",
        entityId: item.campaign_id,
        before: item,
        after: input,
      },
      previousWriteLanded,
    ),
  ]);
  return { id: input.id };
}

/** Only items nobody gave to can be deleted; the others are archived. */
export async function removeItem(ctx: OrgCtx, id: string) {
  const db = orgDb(ctx);
  const item = await itemRow(db, ctx.org.id, id);
  if (!item) fail("NOT_FOUND", "Item not found");
  if (await itemHasDonations(db, id)) fail("UNPROCESSABLE_CONTENT", HAS_DONATIONS, { allowed: ["archive"] });
  // The check again inside the write (decision 020), as for campaigns.
  const unused = itemUnused(id);
  const res = await db.batch([
    auditStatement(
      ctx,
      {
        action: "campaign_item.delete",
        entityType: "campaign",
        entityId: item.campaign_id,
        before: { id: item.id, campaign_id: item.campaign_id },
      },
      unused,
    ),
    deleteItem(db, id, unused),
  ]);
  if (!res[1]?.meta.changes) {
    if (!(await itemExists(db, id))) fail("NOT_FOUND", "Item not found");
    fail("UNPROCESSABLE_CONTENT", HAS_DONATIONS, { allowed: ["archive"] });
  }
  return { id };
}

/** The items in the given order (1, 2, …); ids of other campaigns change nothing. */
export async function reorderItems(ctx: OrgCtx, campaignId: string, ids: string[]) {
  const db = orgDb(ctx);
  await loadCampaign(db, ctx.org.id, campaignId);
  if (new Set(ids).size !== ids.length)
    fail("BAD_REQUEST", "Each item may appear only once", { field: "ids" });
  await db.batch([
    ...ids.map((id, i) =>
      setItemOrder(db, { id, campaignId, orgId: ctx.org.id, sortOrder: i + 1, now: Date.now() }),
    ),
    auditStatement(ctx, {
      action: "campaign_item.reorder",
      entityType: "campaign",
      entityId: campaignId,
      after: { ids },
    }),
  ]);
  return { ok: true };
}
