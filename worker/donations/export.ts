// The donations CSV (served by worker/http/donation-export.ts): the /donations filters, streamed in keyset
// pages (flat memory, never truncated) by core/csv.ts's rules. How it stays fast is decision 016.

import { CSV_BOM, csvRow, isoUtc, isoWithOffset } from "@core/csv";
import { exponentOf } from "@core/money";
import { type Database, orgDb } from "../db/databases";
import { type AuditActor, auditStatement } from "../lib/audit";
import { DONATION_COLUMNS, donationLine, RAW_COLUMNS, type RawRow } from "./export-columns";
import { DonorCells } from "./export-donors";
import { donorOf, fastPageSql, idOf, MAX_PAGE_ROWS, type PageRow, pageRows, plainRow } from "./export-page";
import { type DonationFilters, donationFilters } from "./filters";
import { donationWhere } from "./list-queries";

/** Rows per keyset page: at most two pages in memory at a time. */
const EXPORT_PAGE = 5000;

/** The export's filters from the query string: the list's own schema, so both select the same rows. */
export function parseDonationExportFilters(searchParams: URLSearchParams) {
  const params = Object.fromEntries(searchParams);
  const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
  return donationFilters.safeParse({
    ...params,
    status: params.status ? params.status.split(",") : undefined,
    minAmountMinor: num(params.minAmountMinor),
    maxAmountMinor: num(params.maxAmountMinor),
    trashed: params.trashed === "true",
  });
}

/** Tuning of `donationCsvStream` (tests use small values to cross every page and cache edge). */
type ExportOptions = { pageSize?: number; donorChars?: number; donorPrefetchPage?: number };

/** Newest first (ties by id), one keyset page per UTF-8 chunk. */
export function donationCsvStream(
  db: Database,
  org: { id: string; timeZone: string; defaultCurrency: string },
  filters: DonationFilters,
  { pageSize = EXPORT_PAGE, donorChars, donorPrefetchPage }: ExportOptions = {},
): ReadableStream<Uint8Array> {
  const w = donationWhere(org.id, org.timeZone, filters);
  const items =
    "LEFT JOIN campaign c ON c.id = d.campaign_id LEFT JOIN campaign_item i ON i.id = d.campaign_item_id";
  // A text search names its donors in a subquery (donationWhere): no donor join here.
  const from = `donation d ${items}`;
  // The keyset bound is a range on donated_at (<=) so SQLite seeks donation_org_date_idx to it; the
  // equivalent OR form walks the index from the newest gift on every page.
  const limit = Math.min(pageSize, MAX_PAGE_ROWS);
  const page = db.prepare(
    fastPageSql(exponentOf(org.defaultCurrency), from, `WHERE ${w.sql.join(" AND ")}`, limit),
  );
  const fetchAfter = (date: number, id: string) =>
    page
      .bind(org.defaultCurrency, ...w.params, date, date, id)
      .raw<[number, string | null]>()
      .then(([result]) => pageRows(result?.[1] ?? null));
  // The rows SQLite could not write, by rowid: its pages were just read, so they are still cached.
  const rawByRowid = db.prepare(
    `SELECT d.rowid, ${RAW_COLUMNS} FROM json_each(?2) j CROSS JOIN donation d ON d.rowid = j.value ${items}
      WHERE d.organization_id = ?1`,
  );
  const loadRaw = async (rows: PageRow[], plain: boolean[]) => {
    const rowids: number[] = [];
    for (let i = 0; i < rows.length; i++) if (!plain[i]) rowids.push((rows[i] as PageRow)[1]);
    const raw = new Map<number, RawRow>();
    if (rowids.length)
      for (const [rowid, ...r] of await rawByRowid
        .bind(org.id, JSON.stringify(rowids))
        .raw<[number, ...RawRow]>())
        raw.set(rowid, r as RawRow);
    return raw;
  };
  const donors = new DonorCells(db, org.id, donorChars, donorPrefetchPage);
  let pages = 0;
  const encoder = new TextEncoder();
  // The next page is asked for as soon as a page arrives (after its donors and re-read rows, so D1
  // answers those first): D1 reads it while this one is written; two pages in memory at most.
  let next: Promise<PageRow[]> | null = fetchAfter(Number.MAX_SAFE_INTEGER, "\uffff");
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRow(DONATION_COLUMNS)));
    },
    async pull(controller) {
      const results = next ? await next : [];
      if (!results.length) {
        next = null;
        controller.close();
        return;
      }
      const plain = results.map(([, , a, b, c]) => plainRow(a, b, c));
      let raw: Map<number, RawRow>;
      let cells: string[];
      try {
        // Past one page the export meets most donors: read them all in order once (a hash join).
        if (pages++ === 0 && results.length === limit) await donors.prefetch();
        const rawLoaded = loadRaw(results, plain);
        // Plain rows name their donor in b's last cell; the others in their RawRow.
        const donorIds = results.map(([, , , b], i) => (plain[i] ? donorOf(b) : null));
        const cellsLoaded = donors.cellsOf(donorIds);
        if (results.length === limit) {
          // The keyset is the last row whose id is known: a row deleted meanwhile has neither `a` nor a
          // re-read row.
          let at = results.length - 1;
          let id: string | undefined;
          for (; at >= 0; at--) {
            const [, rowid, a] = results[at] as PageRow;
            id = plain[at] ? idOf(a) : (await rawLoaded).get(rowid)?.[0];
            if (id !== undefined) break;
          }
          next = fetchAfter((results[Math.max(at, 0)] as PageRow)[0], id ?? "");
        } else next = null;
        [cells, raw] = await Promise.all([cellsLoaded, rawLoaded]);
        if (raw.size) {
          const rawDonors = results.map(([, rowid]) => raw.get(rowid)?.[20] ?? null);
          const rawCells = await donors.cellsOf(rawDonors);
          for (let i = 0; i < results.length; i++) if (!plain[i]) cells[i] = rawCells[i] as string;
        }
      } catch (e) {
        next?.catch(() => {});
        next = null;
        throw e;
      }
      // One rope per page, flattened once by TextEncoder: cheaper here than Array.join (decision 016).
      let chunk = "";
      for (let i = 0; i < results.length; i++) {
        const [donatedAt, rowid, a, b, c] = results[i] as PageRow;
        if (plain[i])
          chunk += `${a}${isoUtc(donatedAt)},${isoWithOffset(donatedAt, org.timeZone)},${b}${cells[i]}${c}`;
        else {
          // (A row deleted between the two reads is left out.)
          const r = raw.get(rowid);
          if (r) chunk += donationLine(r, cells[i] as string, org);
        }
      }
      controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      // The client went away: let a page in flight settle without an unhandled rejection.
      next?.catch(() => {});
      next = null;
    },
  });
}

/** Audited (who exported what, with the filters) before the first byte leaves. */
export async function exportDonations(
  actor: AuditActor & { org: { id: string; timeZone: string; defaultCurrency: string } },
  filters: DonationFilters,
) {
  await auditStatement(actor, {
    action: "donation.export",
    entityType: "donation",
    entityId: "export",
    after: filters,
  }).run();
  return donationCsvStream(orgDb(actor), actor.org, filters);
}
