/**
 * Everything the organization holds (the tables of queries.ts) as one streamed ZIP of CSV files and
 * its images. Nothing is held whole: the next page is read only when the client took the last one.
 * Cells are core/csv.ts's, values as stored; each page is as the database had it when read (README.txt).
 */
import { CSV_BOM, csvCell, csvRow, isoUtc } from "@core/csv";
import type { MediaType } from "@core/media";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { type Database, directoryDatabase, organizationDatabase } from "../../db/databases";
import { auditInsert } from "../../lib/audit";
import { logError } from "../../lib/request-log";
import {
  ARCHIVE_TABLES,
  type ArchiveTable,
  isInstantColumn,
  mediaBytes,
  OMITTED,
  tablePage,
} from "./queries";

/** Rows per page: the most of any table in memory at once. */
const PAGE = 1000;

/** Where each image's bytes go: `media/<id>.<ext>`. */
const EXTENSIONS: Record<MediaType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
};

interface ArchiveOrganization {
  id: string;
  name: string;
  slug: string;
}

/** Tuning (tests use small pages to cross every page boundary). */
interface ArchiveOptions {
  pageSize?: number;
  /** The archive's time: the files' modification time and README's date. */
  at?: number;
}

const encoder = new TextEncoder();

/** The line of a row read by `tablePage`: its cells after the keyset's values. */
function lineWriter(table: ArchiveTable) {
  const skip = table.keyset.length;
  const instant = table.columns.map(isInstantColumn);
  return (row: unknown[]) => {
    let line = "";
    for (let i = 0; i < instant.length; i++) {
      const v = row[skip + i];
      if (i > 0) line += ",";
      line += instant[i] && typeof v === "number" ? isoUtc(v) : csvCell(v);
    }
    return `${line}\r\n`;
  };
}

/** `table`'s pages in keyset order; the next is read while this one is deflated: two in memory at most. */
async function* pages(db: Database, table: ArchiveTable, organizationId: string, pageSize: number) {
  let next: Promise<unknown[][]> | null = tablePage(db, table, organizationId, null, pageSize);
  try {
    while (next) {
      const rows: unknown[][] = await next;
      const last = rows[rows.length - 1];
      next =
        rows.length < pageSize || !last
          ? null
          : tablePage(db, table, organizationId, last.slice(0, table.keyset.length), pageSize);
      if (rows.length) yield rows;
    }
  } finally {
    // The client went away mid-table: let a page in flight settle without an unhandled rejection.
    next?.catch(() => {});
  }
}

function readme(org: ArchiveOrganization, at: number) {
  const files = ARCHIVE_TABLES.map((t) => `  ${t.file.padEnd(28)}${t.about}`).join("\r\n");
  const omitted = Object.entries(OMITTED)
    .flatMap(([table, columns]) =>
      Object.entries(columns).map(([c, why]) => `  ${table === "*" ? c : `${table}.${c}`}: ${why}`),
    )
    .join("\r\n");
  return [
    `All data of ${org.name} (${org.slug}), exported ${isoUtc(at)} from Almoner.`,
    "",
    "Files (manifest.csv gives each file's number of rows):",
    files,
    "  media/                      Each uploaded image as <id>.png, .jpg or .webp (its row is in media.csv)",
    "",
    "Every CSV is UTF-8 with a byte-order mark, comma-separated, quoted as RFC 4180 says. A text",
    "cell that a spreadsheet would run as a formula (starting with = + - @ or a tab) is written",
    "with a ' in front. Columns have the database's names. Instants (`at` and every column ending",
    "in _at) are ISO 8601 in UTC; money is in minor units (cents) of the row's currency, in the",
    "columns ending in _minor; yes/no columns are 1 or 0; ids link the files (donations.donor_id",
    "is a donors.id, and so on).",
    "",
    "Left out:",
    omitted,
    "  Sessions, passwords, sign-in accounts and tokens: never exported.",
    "  Totals the portal keeps for speed (campaign, daily and list totals): recomputed from donations.",
    "",
    "The tables were read one after the other while the organization kept working: a change made",
    "during the export may be in one file and not yet in another.",
    "",
  ].join("\r\n");
}

/** The archive's entries, written into `zip`; at each `yield` the stream may wait for the client. */
async function* writeArchive(
  env: Env,
  org: ArchiveOrganization,
  zip: Zip,
  { pageSize = PAGE, at = Date.now() }: ArchiveOptions,
) {
  const mtime = new Date(at);
  const deflated = (name: string) => {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = mtime;
    zip.add(file);
    return file;
  };
  const db = (table: ArchiveTable) =>
    table.source === "directory" ? directoryDatabase(env) : organizationDatabase(env, org.id);

  deflated("README.txt").push(encoder.encode(readme(org, at)), true);
  const manifest: [file: string, rows: number, about: string][] = [];
  for (const table of ARCHIVE_TABLES) {
    const file = deflated(table.file);
    file.push(encoder.encode(CSV_BOM + csvRow(table.columns)));
    const line = lineWriter(table);
    let rows = 0;
    for await (const page of pages(db(table), table, org.id, pageSize)) {
      let chunk = "";
      for (const row of page) chunk += line(row);
      rows += page.length;
      file.push(encoder.encode(chunk));
      yield;
    }
    file.push(new Uint8Array(0), true);
    manifest.push([table.file, rows, table.about]);
    if (table.table === "media") {
      const images = yield* writeMedia(db(table), org.id, table, pageSize, mtime, zip);
      manifest.push(["media/", images, "Uploaded images, one file each"]);
    }
  }
  const list = manifest.map((m) => csvRow(m)).join("");
  deflated("manifest.csv").push(encoder.encode(CSV_BOM + csvRow(["file", "rows", "about"]) + list), true);
  zip.end();
}

/** Each image as a file of its own, stored (PNG, JPEG and WebP are compressed already). */
async function* writeMedia(
  db: Database,
  organizationId: string,
  table: ArchiveTable,
  pageSize: number,
  mtime: Date,
  zip: Zip,
) {
  const ids: ArchiveTable = { ...table, columns: ["id", "content_type"] };
  let count = 0;
  for await (const page of pages(db, ids, organizationId, pageSize)) {
    for (const row of page) {
      const [id, type] = row.slice(ids.keyset.length) as [string, MediaType];
      // One image in memory at a time (at most 1 MiB, core/media.ts).
      const found = await mediaBytes(db, organizationId, id);
      if (!found) continue;
      const file = new ZipPassThrough(`media/${id}.${EXTENSIONS[type] ?? "bin"}`);
      file.mtime = mtime;
      zip.add(file);
      file.push(new Uint8Array(found.bytes), true);
      count++;
      yield;
    }
  }
  return count;
}

/** The archive as a byte stream: one step of `writeArchive` each time the client wants more. */
export function organizationArchive(
  env: Env,
  org: ArchiveOrganization,
  options: ArchiveOptions = {},
): ReadableStream<Uint8Array> {
  let out: ReadableStreamDefaultController<Uint8Array> | null = null;
  let sent = 0;
  const zip = new Zip((error, data, final) => {
    if (!out) return;
    if (error) return out.error(error);
    if (data.length) {
      out.enqueue(data);
      sent++;
    }
    if (final) out.close();
  });
  const steps = writeArchive(env, org, zip, options);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      out = controller;
    },
    async pull() {
      try {
        // A pull that enqueues nothing is never followed by another, and the deflater keeps its
        // input until it has 64 KiB: take steps until something comes out or the archive ends.
        const before = sent;
        while (sent === before && !(await steps.next()).done);
      } catch (error) {
        // Past the headers nothing can be refused: the download ends broken, and the log says why.
        logError("organization archive", error);
        throw error;
      }
    },
    async cancel() {
      out = null;
      await steps.return(undefined);
      zip.terminate();
    },
  });
}

/** The owner's download, audited (who took the data, from where) before the first byte leaves. */
export async function exportOrganization(
  actor: { env: Env; user: { id: string }; org: ArchiveOrganization; ip?: string | null },
  options: ArchiveOptions = {},
) {
  const at = options.at ?? Date.now();
  await auditInsert(organizationDatabase(actor.env, actor.org.id), {
    organizationId: actor.org.id,
    actorId: actor.user.id,
    action: "organization.export",
    entityType: "organization",
    entityId: actor.org.id,
    after: { files: ARCHIVE_TABLES.map((t) => t.file) },
    ip: actor.ip ?? null,
    at,
  }).run();
  return organizationArchive(actor.env, actor.org, { ...options, at });
}
