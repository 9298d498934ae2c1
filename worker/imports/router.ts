/**
 * imports.* (docs/decisions/028-csv-import.md): input schema, rung and permissions, one
 * service call. Owners and organization admins hold `import` (core/permissions.ts); the rejected
 * rows are a donor export too, so their download also needs export:create (never while
 * impersonating).
 */
import { importRows } from "@core/import/batch";
import { importKinds, importMapping, importOptions } from "@core/import/fields";
import { z } from "zod";
import { orgProcedure, router } from "../trpc/init";
import { mappingsRouter } from "./mappings";
import { rollbackPreview, rollbackStep } from "./rollback";
import {
  checkRows,
  commitRows,
  finishImport,
  importDetail,
  importsList,
  rejections,
  resumable,
  startImport,
} from "./service";

const byId = z.object({ id: z.string().min(1).max(64) });
/** A file's SHA-256, hex: a resume proves the same file by it. */
const fileHash = z.string().regex(/^[0-9a-f]{64}$/, "A SHA-256 in hex");
const headers = z
  .array(z.string().max(500))
  .min(1, "The file has no header row")
  .max(200, "At most 200 columns");

export const importsRouter = router({
  list: orgProcedure({ import: ["view"] })
    .input(z.object({ kind: z.enum(importKinds).optional() }).strict())
    .query(({ ctx, input }) => importsList(ctx, input.kind ?? null)),

  byId: orgProcedure({ import: ["view"] })
    .input(byId)
    .query(({ ctx, input }) => importDetail(ctx, input.id)),

  /** An unfinished import of this very file, to resume. */
  resumable: orgProcedure({ import: ["create"] })
    .input(z.object({ kind: z.enum(importKinds), fileHash }).strict())
    .query(({ ctx, input }) => resumable(ctx, input.kind, input.fileHash)),

  /** The dry run of a batch of rows: what each would do, writing nothing. */
  check: orgProcedure({ import: ["create"] })
    .input(
      z
        .object({
          kind: z.enum(importKinds),
          fileHash,
          headers,
          mapping: importMapping,
          options: importOptions,
          rows: importRows,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => checkRows(ctx, input)),

  start: orgProcedure({ import: ["create"] })
    .input(
      z
        .object({
          kind: z.enum(importKinds),
          fileName: z.string().trim().min(1).max(255),
          fileHash,
          fileSize: z
            .number()
            .int()
            .min(1)
            .max(1024 ** 3),
          totalRows: z.number().int().min(1).max(10_000_000),
          headers,
          mapping: importMapping,
          options: importOptions,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => startImport(ctx, input)),

  /** The next batch of rows, from the import's `nextRow`. */
  commit: orgProcedure({ import: ["create"] })
    .input(z.object({ id: z.string().min(1).max(64), rows: importRows }).strict())
    .mutation(({ ctx, input }) => commitRows(ctx, input)),

  finish: orgProcedure({ import: ["create"] })
    .input(byId)
    .mutation(({ ctx, input }) => finishImport(ctx, input.id)),

  /** The refused rows with their reasons, a page at a time (the CSV to fix and import again). */
  rejections: orgProcedure({ import: ["view"], export: ["create"] })
    .input(
      z
        .object({
          id: z.string().min(1).max(64),
          after: z.number().int().min(0).default(0),
          limit: z.number().int().min(1).max(1000).default(1000),
        })
        .strict(),
    )
    .query(({ ctx, input }) => rejections(ctx, input)),

  /** What an undo would remove and what blocks it. */
  rollbackPreview: orgProcedure({ import: ["delete"] })
    .input(byId)
    .query(({ ctx, input }) => rollbackPreview(ctx, input.id)),

  /** One step of an undo; the page calls it until `done`. */
  rollback: orgProcedure({ import: ["delete"] })
    .input(byId)
    .mutation(({ ctx, input }) => rollbackStep(ctx, input.id)),

  mappings: mappingsRouter,
});
