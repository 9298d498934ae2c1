// organizers.* (DESIGN §4); what counts as an organizer is in ./queries.ts.
import { bulkIds } from "@core/bulk";
import { organizerInviteInput, organizerStatuses } from "@core/organizers";
import { enumSet } from "@core/schemas";
import { z } from "zod";
import { listInput, pageSchema } from "../lib/list";
import { adminProcedure, router } from "../trpc/init";
import { ORGANIZER_SORTS } from "./queries";
import {
  bulkRevokeOrganizerInvitations,
  exportPage,
  inviteOrganizer,
  listOrganizers,
  matchingInvitationIds,
  organizerCampaigns,
  organizerMemberships,
  revokeOrganizerInvitation,
} from "./service";

const filters = {
  organizationId: z.string().min(1).max(100).optional(),
  status: z.optional(enumSet(organizerStatuses)),
};
const organizerListInput = listInput({ sorts: ORGANIZER_SORTS, defaultSort: "joined", filters });

export const organizersRouter = router({
  list: adminProcedure({ user: ["list"] })
    .input(organizerListInput)
    .query(({ ctx, input }) => listOrganizers(ctx, input)),

  /**
   * Access is every export's rule, core/permissions.ts `refusal`: signed in, `export:create`, and
   * never while impersonating (decision 017).
   */
  exportPage: adminProcedure({ user: ["list"], export: ["create"] })
    .input(
      z
        .object({
          q: z.string().trim().max(200).optional(),
          organizationId: filters.organizationId,
          status: filters.status,
          userId: z.string().min(1).max(100).optional(),
          after: z.string().max(100).optional(),
          limit: z.number().int().min(1).max(1000).default(500),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => exportPage(ctx, input)),

  invite: adminProcedure({ user: ["create"] })
    .input(organizerInviteInput)
    .mutation(({ ctx, input }) => inviteOrganizer(ctx, input)),

  memberships: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1).max(100) }).strict())
    .query(({ ctx, input }) => organizerMemberships(ctx, input.userId)),

  campaigns: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1).max(100) }).strict())
    .query(({ ctx, input }) => organizerCampaigns(ctx, input.userId)),

  /** "Select all N matching" (decision 024): only for those who may revoke the invitations. */
  matchingIds: adminProcedure({ user: ["update"] })
    .input(z.object({ q: pageSchema.q, ...filters }).strict())
    .query(({ ctx, input }) => matchingInvitationIds(ctx, input)),

  /** One batch of a bulk revoke (decision 024): each id decided as revokeInvitation would. */
  bulkRevokeInvitations: adminProcedure({ user: ["update"] })
    .input(z.object({ ids: bulkIds, reason: z.string().trim().max(500).optional() }).strict())
    .mutation(({ ctx, input }) => bulkRevokeOrganizerInvitations(ctx, input)),

  revokeInvitation: adminProcedure({ user: ["update"] })
    .input(
      z.object({ id: z.string().min(1).max(100), reason: z.string().trim().max(500).optional() }).strict(),
    )
    .mutation(({ ctx, input }) => revokeOrganizerInvitation(ctx, input)),
});
