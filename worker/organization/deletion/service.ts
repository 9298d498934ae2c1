/**
 * Deleting an organization (decision 047): one directory batch hides it (status archived), ends every
 * membership, invitation and offer, and records and audits the deletion without the organization's id,
 * so both outlive the purge (purge.ts), which starts here and the cron finishes.
 */

import { directoryDatabase, organizationDatabase, placedApart } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { fail } from "../../lib/fail";
import { auditGuard, previousWriteLanded } from "../../lib/guard";
import { generateId } from "../../lib/ids";
import { logError } from "../../lib/request-log";
import { getMailer, renderMail } from "../../mail";
import type { OrgCtx } from "../../trpc/init";
import { organizationById } from "../queries";
import { purgeOrganization } from "./purge";
import {
  archiveApartStatement,
  archiveStatement,
  endAtOnceStatements,
  membersToTell,
  recordDeletionStatement,
} from "./queries";

/** How long the deletion's own request purges before leaving the rest to the cron. */
const PURGE_IN_REQUEST_MS = 2_000;

export async function deleteOrganization(ctx: OrgCtx, input: { confirmName: string }) {
  if (ctx.impersonatorId) fail("FORBIDDEN", "An organization cannot be deleted while impersonating");
  if (ctx.org.role !== "owner") fail("FORBIDDEN", "Only an owner of the organization can delete it");
  const db = directoryDatabase(ctx.env);
  const o = await organizationById(db, ctx.org.id);
  if (!o || o.status === "archived") fail("NOT_FOUND", "Organization not found");
  if (input.confirmName.trim() !== o.name)
    fail("UNPROCESSABLE_CONTENT", "Type the organization's name exactly as shown to delete it", {
      field: "confirmName",
    });
  const members = await membersToTell(db, o.id);
  const now = Date.now();
  const auditId = generateId();
  const guard = auditGuard(auditId);
  const [r] = await db.batch([
    archiveStatement(db, o.id, ctx.user.id, now),
    // No organization id on the row: the purge deletes the organization's history, not this.
    auditStatement(
      { ...ctx, org: null },
      {
        id: auditId,
        action: "organization.delete",
        entityType: "organization",
        entityId: o.id,
        before: { name: o.name, slug: o.slug, status: o.status, members: members.length },
      },
      previousWriteLanded,
    ),
    recordDeletionStatement(
      db,
      { organizationId: o.id, name: o.name, slug: o.slug, requestedBy: ctx.user.id, at: now },
      guard,
    ),
    ...endAtOnceStatements(db, o.id, guard),
  ]);
  if (!r?.meta.changes) fail("CONFLICT", "The organization changed meanwhile; reload and try again");
  if (placedApart(ctx.env, o.id))
    await archiveApartStatement(organizationDatabase(ctx.env, o.id), o.id, now).run();

  const by = ctx.user.name || ctx.user.email;
  for (const m of members) {
    if (m.id === ctx.user.id) continue;
    await getMailer(ctx.env)
      .send(
        renderMail({
          to: m.email,
          subject: `${o.name} was deleted`,
          intro: `Hello ${m.name}, ${by} deleted the organization ${o.name} on Almoner. You are no longer a member of it, and its campaigns, donors and donations are being removed.`,
        }),
      )
      .catch((e) => logError("deletion mail failed", e));
  }
  // A small organization is gone before the answer; a large one's purge goes on in the cron.
  const gone = await purgeOrganization(ctx.env, o.id, { deadline: Date.now() + PURGE_IN_REQUEST_MS }).catch(
    (e) => {
      logError("purge after deletion failed", e);
      return false;
    },
  );
  return { id: o.id, purged: gone };
}
