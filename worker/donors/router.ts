// donors.*; tags, notes and tiers are nested routers, so their paths stay donors.tags.* and so on.
import { donorInput, donorKinds, donorTypes } from "@core/donor";
import { calendarDay } from "@core/schemas";
import { z } from "zod";
import { listInput, pageSchema } from "../lib/list";
import { orgProcedure, router } from "../trpc/init";
import { exportDonorsPage } from "./export";
import { notesRouter } from "./notes/router";
import { DONOR_SORTS } from "./queries";
import {
  anonymizeDonor,
  createDonor,
  deleteDonorRecord,
  donorProfile,
  listDonorsPage,
  matchingDonorIds,
  mergeDonors,
  updateDonorProfile,
} from "./service";
import { tagsRouter } from "./tags/router";
import { tiersRouter } from "./tiers/router";

/** Shared by donors.list and donors.exportPage, so an export is the list. */
const donorFilters = {
  tierId: z.string().min(1).max(100).optional(),
  tagId: z.string().min(1).max(100).optional(),
  type: z.enum(donorKinds).optional(),
  donorType: z.enum(donorTypes).optional(),
  /** Days in the organization's time zone, both inclusive. */
  lastGiftFrom: z.optional(calendarDay),
  lastGiftTo: z.optional(calendarDay),
  minLifetimeMinor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  maxLifetimeMinor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  emailOptIn: z.boolean().optional(),
  phoneOptIn: z.boolean().optional(),
  mailOptIn: z.boolean().optional(),
  importId: z.string().min(1).max(64).optional(),
};

function rangeCheck(
  v: { lastGiftFrom?: string; lastGiftTo?: string; minLifetimeMinor?: number; maxLifetimeMinor?: number },
  ctx: z.RefinementCtx,
) {
  if (v.lastGiftFrom && v.lastGiftTo && v.lastGiftFrom > v.lastGiftTo)
    ctx.addIssue({ code: "custom", path: ["lastGiftTo"], message: "The end date is before the start date" });
  if (
    v.minLifetimeMinor !== undefined &&
    v.maxLifetimeMinor !== undefined &&
    v.minLifetimeMinor > v.maxLifetimeMinor
  )
    ctx.addIssue({ code: "custom", path: ["maxLifetimeMinor"], message: "The maximum is below the minimum" });
}

const donorListInput = listInput({
  sorts: DONOR_SORTS,
  defaultSort: "created",
  filters: donorFilters,
}).superRefine(rangeCheck);

const exportPageInput = z
  .object({
    ...donorFilters,
    q: pageSchema.q,
    after: z.string().max(100).optional(),
    limit: z.number().int().min(1).max(1000).default(500),
  })
  .strict()
  .superRefine(rangeCheck);

export type DonorListInput = z.infer<typeof donorListInput>;
export type DonorExportPageInput = z.infer<typeof exportPageInput>;
export type DonorFilterInput = { q?: string } & {
  [K in keyof typeof donorFilters]?: z.infer<(typeof donorFilters)[K]>;
};

const id = z.object({ id: z.string().min(1) });

export const donorsRouter = router({
  list: orgProcedure({ donor: ["view"] })
    .input(donorListInput)
    .query(({ ctx, input }) => listDonorsPage(ctx, input)),

  // "Select all N matching" for bulk tagging (decision 024): the list's own input, so the snapshot is the
  // list; page, page size and sort are accepted and ignored.
  matchingIds: orgProcedure({ tag: ["update"] })
    .input(donorListInput)
    .query(({ ctx, input }) => matchingDonorIds(ctx, input)),

  // A mutation: the first page writes the audit row. Export first, so a refusal names the export, the right
  // an impersonated session never holds (core/permissions.ts `refusal`).
  exportPage: orgProcedure({ export: ["create"], donor: ["view"] })
    .input(exportPageInput)
    .mutation(({ ctx, input }) => exportDonorsPage(ctx, input)),

  byId: orgProcedure({ donor: ["view"] })
    .input(id)
    .query(({ ctx, input }) => donorProfile(ctx, input.id)),

  create: orgProcedure({ donor: ["create"] })
    .input(z.object({ data: donorInput, force: z.boolean().default(false) }))
    .mutation(({ ctx, input }) => createDonor(ctx, input)),

  update: orgProcedure({ donor: ["update"] })
    .input(z.object({ id: z.string().min(1), data: donorInput }))
    .mutation(({ ctx, input }) => updateDonorProfile(ctx, input)),

  delete: orgProcedure({ donor: ["delete"] })
    .input(id)
    .mutation(({ ctx, input }) => deleteDonorRecord(ctx, input.id)),

  anonymize: orgProcedure({ donor: ["delete"] })
    .input(z.object({ id: z.string().min(1), confirm: z.string().max(320) }).strict())
    .mutation(({ ctx, input }) => anonymizeDonor(ctx, input)),

  merge: orgProcedure({ donor: ["update"] })
    .input(
      z
        .object({
          sourceId: z.string().min(1),
          targetId: z.string().min(1),
          dryRun: z.boolean().default(true),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => mergeDonors(ctx, input)),

  tags: tagsRouter,
  notes: notesRouter,
  tiers: tiersRouter,
});
