/**
 * /donations narrowed to one campaign item by an item card's "Gifts" link (?campaignItemId=…):
 * the item named, removable. The list has no control of its own for an item; the campaign picker
 * beside it keeps the campaign (changing it drops the item).
 */
import { useQuery } from "@tanstack/react-query";
import { FilterChip } from "~/components/filter-chip";
import { useTRPC } from "~/lib/trpc";

export function ItemChip({
  campaignId,
  itemId,
  onRemove,
}: {
  campaignId: string | undefined;
  itemId: string;
  onRemove: () => void;
}) {
  const trpc = useTRPC();
  // An item is read with its campaign's list (one small query, cached for the items page too);
  // a link without the campaign still filters, and names the item generically.
  const items = useQuery({
    ...trpc.campaigns.items.list.queryOptions({ campaignId: campaignId ?? "" }),
    enabled: !!campaignId,
    retry: false,
  });
  const item = items.data?.find((i) => i.id === itemId);
  const label = item ? `Donations for ${item.title}` : "Donations for one item";
  return <FilterChip label={label} onRemove={onRemove} data-testid="item-chip" />;
}
