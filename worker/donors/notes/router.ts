import { z } from "zod";
import { orgProcedure, router } from "../../trpc/init";
import { createNote, donorNotes, editNote, removeNote } from "./service";

const body = z.string().trim().min(1, "Write something").max(5000, "At most 5,000 characters");

export const notesRouter = router({
  list: orgProcedure({ note: ["view"] })
    .input(z.object({ donorId: z.string().min(1) }))
    .query(({ ctx, input }) => donorNotes(ctx, input.donorId)),
  create: orgProcedure({ note: ["create"] })
    .input(
      z.object({
        donorId: z.string().min(1),
        body,
        visibility: z.enum(["internal", "shared"]).default("internal"),
        pinned: z.boolean().default(false),
      }),
    )
    .mutation(({ ctx, input }) => createNote(ctx, input)),
  update: orgProcedure({ note: ["update"] })
    .input(
      z.object({
        id: z.string().min(1),
        body: body.optional(),
        visibility: z.enum(["internal", "shared"]).optional(),
        pinned: z.boolean().optional(),
      }),
    )
    .mutation(({ ctx, input }) => editNote(ctx, input)),
  delete: orgProcedure({ note: ["delete"] })
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => removeNote(ctx, input.id)),
});
