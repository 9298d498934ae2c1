/** audit.*: the History panel of one record (worker/users/audit/service.ts holds the rules). */
import { z } from "zod";
import { orgProcedure, router } from "../../trpc/init";
import { auditEntityTypes, auditTrail } from "./service";

export type { AuditEntityType } from "./service";

export const auditRouter = router({
  list: orgProcedure({ organization: ["view"] })
    .input(
      z
        .object({
          entityType: z.enum(auditEntityTypes),
          entityId: z.string().min(1).max(100),
          /** "at:id" of the last row seen: the next page of a long history (tRPC's infinite-query key). */
          cursor: z
            .string()
            .regex(/^\d{1,16}:[A-Za-z0-9_-]{1,64}$/)
            .nullish(),
          /** Sent by tRPC's infinite queries; only older pages exist, so it changes nothing. */
          direction: z.enum(["forward", "backward"]).optional(),
          limit: z.number().int().min(1).max(100).default(50),
        })
        .strict(),
    )
    .query(({ ctx, input }) => auditTrail(ctx, input)),
});
