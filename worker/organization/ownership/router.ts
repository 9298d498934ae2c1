/** organization.* procedures about ownership (decision 046), spread into worker/organization/router.ts. */
import { z } from "zod";
import { authedProcedure, orgProcedure } from "../../trpc/init";
import {
  acceptOffer,
  currentOffer,
  declineOffer,
  offerOwnership,
  offersToMe,
  soleOwnerships,
  withdrawOffer,
} from "./service";

const offerId = z.object({ id: z.string().min(1).max(100) }).strict();

export const ownershipProcedures = {
  /** The current organization's open offer (its owners and the member it names see it). */
  ownershipOffer: orgProcedure({ organization: ["view"] }).query(({ ctx }) => currentOffer(ctx)),

  offerOwnership: orgProcedure({ organization: ["transfer"] })
    .input(z.object({ membershipId: z.string().min(1).max(100), stepDown: z.boolean() }).strict())
    .mutation(({ ctx, input }) => offerOwnership(ctx, input)),

  withdrawOwnershipOffer: orgProcedure({ organization: ["transfer"] }).mutation(({ ctx }) =>
    withdrawOffer(ctx),
  ),

  /** Offers made to the caller in any organization: answered by id, whichever is current. */
  ownershipOffersToMe: authedProcedure.query(({ ctx }) => offersToMe(ctx)),
  acceptOwnership: authedProcedure.input(offerId).mutation(({ ctx, input }) => acceptOffer(ctx, input.id)),
  declineOwnership: authedProcedure.input(offerId).mutation(({ ctx, input }) => declineOffer(ctx, input.id)),

  /** The organizations the caller alone owns: deleting their account waits for these (/settings). */
  soleOwnerships: authedProcedure.query(({ ctx }) => soleOwnerships(ctx)),
};
