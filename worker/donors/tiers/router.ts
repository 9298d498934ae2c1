import { z } from "zod";
import { orgProcedure, router } from "../../trpc/init";
import { createTier, editTier, lockTier, removeTier, tierList } from "./service";

const tierInput = z
  .object({
    name: z.string().trim().min(1, "Enter a name").max(40),
    basis: z.enum(["lifetime", "rolling_12m"]).default("lifetime"),
    minMinor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    maxMinor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable(),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .default("#64748b"),
  })
  .strict()
  .refine((v) => v.maxMinor === null || v.maxMinor > v.minMinor, {
    path: ["maxMinor"],
    message: "The maximum must be above the minimum",
  });

export const tiersRouter = router({
  list: orgProcedure({ donor: ["view"] }).query(({ ctx }) => tierList(ctx)),
  create: orgProcedure({ organization: ["update"] })
    .input(tierInput)
    .mutation(({ ctx, input }) => createTier(ctx, input)),
  update: orgProcedure({ organization: ["update"] })
    .input(tierInput.extend({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => editTier(ctx, input)),
  delete: orgProcedure({ organization: ["update"] })
    .input(
      z
        .object({
          id: z.string().min(1),
          // What happens to the tier's donors (./service.ts removeTier).
          donors: z
            .discriminatedUnion("action", [
              z.object({ action: z.literal("reevaluate") }).strict(),
              z.object({ action: z.literal("move"), tierId: z.string().min(1) }).strict(),
            ])
            .default({ action: "reevaluate" }),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => removeTier(ctx, input.id, input.donors)),
  setLock: orgProcedure({ donor: ["update"] })
    .input(
      z
        .object({
          donorId: z.string().min(1),
          locked: z.boolean(),
          tierId: z.string().min(1).nullable().optional(),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => lockTier(ctx, input)),
});
