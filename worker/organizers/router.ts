/**
 * organizers.* (DESIGN §4, admin only): organizers per organization — a membership with the
 * organizer role, a user with the platform role organizer, or a pending invitation as organizer.
 */
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
export const organizerListInput = listInput({ sorts: ORGANIZER_SORTS, defaultSort: "joined", filters });

export const organizersRouter = router({
  list: adminProcedure({ user: ["list"] })
    .input(organizerListInput)
    .query(({ ctx, input }) => listOrganizers(ctx, input)),

  /**
   * One keyset page of the CSV export (columns: core/exports/organizers.ts). Its access is every
   * export's rule, core/permissions.ts `refusal` (as worker/http/export-access.ts asks it): signed
   * in, `export:create`, and never while impersonating (403 "Exports are not available while
   * impersonating", decision 017), whoever is impersonated.
   */
  exportPage: adminProcedure({ user: ["list"], export: ["create"] })
    .input(
      z
        .object({
          q: z.string().trim().max(200).optional(),
          organizationId: filters.organizationId,
          status: filters.status,
          /** One organizer's rows (the export on /organizers/{id}). */
          userId: z.string().min(1).max(100).optional(),
          after: z.string().max(100).optional(),
          limit: z.number().int().min(1).max(1000).default(500),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => exportPage(ctx, input)),

  /** Invites an organizer into an organization by e-mail (7-day link, accepted at /accept-invitation). */
  invite: adminProcedure({ user: ["create"] })
    .input(organizerInviteInput)
    .mutation(({ ctx, input }) => inviteOrganizer(ctx, input)),

  /** Memberships and open invitations of one person, for the organizer detail page. */
  memberships: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1).max(100) }).strict())
    .query(({ ctx, input }) => organizerMemberships(ctx, input.userId)),

  /** Campaigns the person created, across organizations (newest first, at most 100). */
  campaigns: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1).max(100) }).strict())
    .query(({ ctx, input }) => organizerCampaigns(ctx, input.userId)),

  /**
   * "Select all N matching" (decision 024): the open invitations among the rows the list's filters
   * match now, at most MATCHING_MAX (more is a 422). Only for those who may revoke them.
   */
  matchingIds: adminProcedure({ user: ["update"] })
    .input(z.object({ q: pageSchema.q, ...filters }).strict())
    .query(({ ctx, input }) => matchingInvitationIds(ctx, input)),

  /**
   * One batch of a bulk revoke (decision 024): up to BULK_MAX_IDS invitation ids, each decided as
   * revokeInvitation would and skipped with the reason where it may not; one D1 batch per call.
   */
  bulkRevokeInvitations: adminProcedure({ user: ["update"] })
    .input(z.object({ ids: bulkIds, reason: z.string().trim().max(500).optional() }).strict())
    .mutation(({ ctx, input }) => bulkRevokeOrganizerInvitations(ctx, input)),

  /** Revokes an open organizer invitation (from the organizers list). */
  revokeInvitation: adminProcedure({ user: ["update"] })
    .input(
      z.object({ id: z.string().min(1).max(100), reason: z.string().trim().max(500).optional() }).strict(),
    )
    .mutation(({ ctx, input }) => revokeOrganizerInvitation(ctx, input)),
});
