/**
 * A list narrowed to one donor by a link (a donor's page, the dashboard's top donors):
 * /donations?donorId=… and /recurring?donorId=…, the donor named, the filter removable.
 */
import { useQuery } from "@tanstack/react-query";
import { FilterChip } from "~/components/filter-chip";
import { useTRPC } from "~/lib/trpc";

const WORDS = { gifts: "Donations of", plans: "Plans of" } as const;

export function DonorChip({
  donorId,
  what,
  onRemove,
}: {
  donorId: string;
  what: keyof typeof WORDS;
  onRemove: () => void;
}) {
  const trpc = useTRPC();
  const donor = useQuery({ ...trpc.donors.byId.queryOptions({ id: donorId }), retry: false });
  const label = `${WORDS[what]} ${donor.data ? donor.data.name : "one donor"}`;
  return <FilterChip label={label} onRemove={onRemove} data-testid="donor-chip" />;
}
