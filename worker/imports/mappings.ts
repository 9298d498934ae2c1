/**
 * imports.mappings.* : saved column mappings (by header name, docs/decisions/028-csv-import.md),
 * reused for the next file of the same kind. The router and its small service together: three
 * one-statement procedures.
 */

import {
  dateOrders,
  decimalMarks,
  type ImportKind,
  importFieldsOf,
  importKinds,
  matchPolicies,
} from "@core/import/fields";
import { z } from "zod";
import { orgDb } from "../db/databases";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { previousWriteLanded } from "../lib/guard";
import { generateId } from "../lib/ids";
import { type OrgActor, orgProcedure, router } from "../trpc/init";
import { deleteMapping, listMappings, upsertMapping } from "./queries";

const kind = z.enum(importKinds);

async function savedMappings(ctx: OrgActor, k: ImportKind) {
  const rows = await listMappings(orgDb(ctx), ctx.org.id, k);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    fields: JSON.parse(r.fields) as Record<string, string>,
    options: JSON.parse(r.options) as Record<string, unknown>,
    updatedAt: r.updated_at,
  }));
}

async function saveMapping(
  ctx: OrgActor,
  input: { kind: ImportKind; name: string; fields: Record<string, string>; options: Record<string, unknown> },
) {
  const allowed = new Set<string>(importFieldsOf(input.kind));
  const stray = Object.values(input.fields).find((f) => !allowed.has(f));
  if (stray) fail("BAD_REQUEST", `A ${input.kind} import has no field "${stray}"`, { field: "fields" });
  const db = orgDb(ctx);
  const id = generateId();
  const now = Date.now();
  await db.batch([
    upsertMapping(db, {
      id,
      organization_id: ctx.org.id,
      kind: input.kind,
      name: input.name,
      fields: JSON.stringify(input.fields),
      options: JSON.stringify(input.options),
      created_by: ctx.user.id,
      created_at: now,
    }),
    auditStatement(ctx, {
      action: "import.mapping_save",
      entityType: "import_mapping",
      entityId: input.name,
      after: input,
    }),
  ]);
  return (await savedMappings(ctx, input.kind)).find(
    (m) => m.name.toLowerCase() === input.name.toLowerCase(),
  );
}

async function removeMapping(ctx: OrgActor, id: string) {
  const db = orgDb(ctx);
  const res = await db.batch([
    deleteMapping(db, ctx.org.id, id),
    // An unknown id (or another organization's) deletes nothing and leaves no history.
    auditStatement(
      ctx,
      { action: "import.mapping_delete", entityType: "import_mapping", entityId: id },
      previousWriteLanded,
    ),
  ]);
  if (!res[0]?.meta.changes) fail("NOT_FOUND", "Mapping not found");
  return { id };
}

/** Reading options a mapping keeps (not the currency or zone: those follow the organization). */
const savedOptions = z
  .object({
    dateOrder: z.enum(dateOrders),
    decimal: z.enum(decimalMarks),
    matchPolicy: z.enum(matchPolicies),
  })
  .strict();

export const mappingsRouter = router({
  list: orgProcedure({ import: ["view"] })
    .input(z.object({ kind }).strict())
    .query(({ ctx, input }) => savedMappings(ctx, input.kind)),

  save: orgProcedure({ import: ["create"] })
    .input(
      z
        .object({
          kind,
          name: z.string().trim().min(1, "Name the mapping").max(60, "At most 60 characters"),
          /** Normalized header (core/import/mapping.ts normalizeHeader) → field. */
          fields: z
            .record(z.string().max(500), z.string().max(40))
            .refine((f) => Object.keys(f).length <= 200, "At most 200 columns"),
          options: savedOptions,
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => saveMapping(ctx, input)),

  delete: orgProcedure({ import: ["create"] })
    .input(z.object({ id: z.string().min(1).max(64) }).strict())
    .mutation(({ ctx, input }) => removeMapping(ctx, input.id)),
});
