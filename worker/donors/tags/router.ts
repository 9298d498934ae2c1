import { bulkIds } from "@core/bulk";
import { z } from "zod";
import { orgProcedure, router } from "../../trpc/init";
import { assignTags, bulkAssignTags, createTag, removeTag, renameTag, tagList } from "./service";

const tagInput = z.object({
  name: z.string().trim().min(1).max(40),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .default("#0f766e"),
});

const tagChange = {
  tagIds: z.array(z.string().min(1)).max(50),
  mode: z.enum(["add", "remove", "replace"]),
};

/** Replace with no tags clears a donor's tags; add or remove with none is a mistake. */
const tagsChosen = (v: { mode: string; tagIds: string[] }, ctx: z.RefinementCtx) => {
  if (v.mode !== "replace" && !v.tagIds.length)
    ctx.addIssue({ code: "custom", path: ["tagIds"], message: "Choose at least one tag" });
};

export const tagsRouter = router({
  list: orgProcedure({ tag: ["view"] }).query(({ ctx }) => tagList(ctx)),
  create: orgProcedure({ tag: ["create"] })
    .input(tagInput)
    .mutation(({ ctx, input }) => createTag(ctx, input)),
  update: orgProcedure({ tag: ["update"] })
    .input(
      z
        .object({ id: z.string().min(1) })
        .extend(tagInput.shape)
        .strict(),
    )
    .mutation(({ ctx, input }) => renameTag(ctx, input)),
  delete: orgProcedure({ tag: ["delete"] })
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => removeTag(ctx, input.id)),
  assign: orgProcedure({ tag: ["update"] })
    .input(
      z
        .object({ donorIds: z.array(z.string().min(1)).min(1).max(500), ...tagChange })
        .strict()
        .superRefine(tagsChosen),
    )
    .mutation(({ ctx, input }) => assignTags(ctx, input)),

  /** One batch of a bulk tag change (decision 024): each donor decided as assign would. */
  bulkAssign: orgProcedure({ tag: ["update"] })
    .input(
      z
        .object({ ids: bulkIds, ...tagChange })
        .strict()
        .superRefine(tagsChosen),
    )
    .mutation(({ ctx, input }) => bulkAssignTags(ctx, input)),
});
