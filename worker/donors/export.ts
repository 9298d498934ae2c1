// The donors CSV's rows; core/exports/donors.ts has the columns and the browser assembles the file.

import { orgDb } from "../db/databases";
import { auditStatement } from "../lib/audit";
import type { OrgActor } from "../trpc/init";
import { presentExportRow } from "./present";
import { type DonorExportSource, exportStatements } from "./queries";
import type { DonorExportPageInput } from "./router";

/** Keyset paging on id, never truncated or skipping; the first page counts the set and audits. */
export async function exportDonorsPage(ctx: OrgActor, input: DonorExportPageInput) {
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
