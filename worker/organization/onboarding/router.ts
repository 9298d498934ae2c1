/**
 * onboarding.* (decision 045): the policy is public; the caller's own status, creation and request
 * are on the authed rung (they have no organization yet); the admins' queue on the admin rung.
 */
import { declineOrganizationRequestInput, newOrganizationInput } from "@core/onboarding";
import { z } from "zod";
import { adminProcedure, authedProcedure, publicProcedure, router } from "../../trpc/init";
import {
  approveRequest,
  createOrganization,
  declineRequest,
  listRequests,
  onboardingPolicy,
  onboardingStatus,
  requestOrganization,
} from "./service";

const requestId = z.object({ id: z.string().min(1).max(100) }).strict();

export const onboardingRouter = router({
  /** organizations.creation and whom to write to: said before anyone signs up or in. */
  policy: publicProcedure.query(({ ctx }) => onboardingPolicy(ctx)),

  /** What /onboarding shows: what the caller may do, their address's state, their latest request. */
  status: authedProcedure.query(({ ctx }) => onboardingStatus(ctx)),

  /** A new organization, the caller its owner ("open", or a platform admin). */
  create: authedProcedure
    .input(newOrganizationInput)
    .mutation(({ ctx, input }) => createOrganization(ctx, input)),

  /** A request for one ("approval"). */
  request: authedProcedure
    .input(newOrganizationInput)
    .mutation(({ ctx, input }) => requestOrganization(ctx, input)),

  /** The platform admins' queue: pending requests, then the latest decided. */
  requests: adminProcedure({ organization: ["create"] }).query(({ ctx }) => listRequests(ctx)),

  approve: adminProcedure({ organization: ["create"] })
    .input(requestId)
    .mutation(({ ctx, input }) => approveRequest(ctx, input.id)),

  decline: adminProcedure({ organization: ["create"] })
    .input(declineOrganizationRequestInput)
    .mutation(({ ctx, input }) => declineRequest(ctx, input)),
});
