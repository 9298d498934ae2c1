/**
 * The donors CSV's rows (docs/architecture.md: an area's export). The columns and the file are
 * core/exports/donors.ts; the browser assembles the file from these pages
 * (src/features/donors/export.ts). Who may export is the rung's (worker/donors/router.ts).
 */

import { orgDb } from "../db/databases";
import { auditStatement } from "../lib/audit";
import { presentExportRow } from "./present";
import { type DonorExportSource, exportStatements } from "./queries";
import type { DonorExportPageInput } from "./router";
import type { DonorCtx } from "./service";

/**
 * One page of the CSV export of the current filters (the browser assembles the file and shows
 * progress, like the organizers export). Keyset paging on id: never truncated, never skipping;
 * the first page counts the set and writes the audit row (exports are audited).
 */
export async function exportDonorsPage(ctx: DonorCtx, input: DonorExportPageInput) {
  const db = orgDb(ctx);
  const { after, limit, ...filters } = input;
  const q = exportStatements(db, ctx.org.id, ctx.org.timeZone, filters, after, limit);
  const stmts: D1PreparedStatement[] = [q.page];
  if (!after)
    stmts.push(
      q.count,
      auditStatement(ctx, {
        action: "donor.export",
        entityType: "donor",
        entityId: "export",
        after: filters,
      }),
    );
  const [page, count] = await db.batch(stmts);
  const rows = ((page?.results ?? []) as DonorExportSource[]).map((r) =>
    presentExportRow(r, ctx.org.defaultCurrency),
  );
  return {
    rows,
    total: after ? undefined : ((count?.results[0] as { total: number } | undefined)?.total ?? 0),
    next: rows.length === limit ? rows[rows.length - 1]?.donorId : undefined,
  };
}
