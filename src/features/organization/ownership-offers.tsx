/**
 * Offers of ownership made to the signed-in member (decision 046), in any of their organizations:
 * the mail's link leads here, whichever organization is current. Accept or decline, each asked
 * first.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { formatDate } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

export function OwnershipOffersToMe() {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const offers = useQuery(trpc.organization.ownershipOffersToMe.queryOptions());
  const accept = useMutation(trpc.organization.acceptOwnership.mutationOptions());
  const decline = useMutation(trpc.organization.declineOwnership.mutationOptions());
  if (!offers.data?.length) return null;
  return (
    <section aria-label="Offers of ownership" className="flex flex-col gap-3">
      {offers.data.map((o) => (
        <Alert key={o.id} role="status" className="grid-cols-[0_minmax(0,1fr)]">
          <AlertTitle className="line-clamp-none">
            {o.from.name} offers you the ownership of {o.organizationName}
          </AlertTitle>
          <AlertDescription className="flex flex-col gap-3">
            <p>
              Owners manage members, can hand the organization on and can delete it.{" "}
              {o.fromBecomes === "admin"
                ? `${o.from.name} becomes an admin when you accept.`
                : `${o.from.name} stays an owner.`}{" "}
              Open until {formatDate(o.expiresAt, tz)}.
            </p>
            <span className="flex flex-wrap gap-2">
              <ConfirmButton
                variant="default"
                title={`Become an owner of ${o.organizationName}?`}
                description={`You take on the organization with ${o.fromBecomes === "admin" ? "the other owners" : `${o.from.name} and any other owners`}.`}
                confirmLabel="Accept ownership"
                onConfirm={async () => {
                  await accept.mutateAsync({ id: o.id });
                  toast.success(`You are now an owner of ${o.organizationName}`);
                  await qc.invalidateQueries();
                }}
              >
                Accept…
              </ConfirmButton>
              <ConfirmButton
                title="Decline the offer?"
                description={`${o.from.name} is told, and can offer it to someone else.`}
                confirmLabel="Decline offer"
                onConfirm={async () => {
                  await decline.mutateAsync({ id: o.id });
                  toast.success("Offer declined");
                  await qc.invalidateQueries({ queryKey: trpc.organization.pathKey() });
                }}
              >
                Decline
              </ConfirmButton>
            </span>
          </AlertDescription>
        </Alert>
      ))}
    </section>
  );
}
