/** Item rows → the API's shapes. */
import type { ItemRow } from "./queries";

export function presentItem(i: ItemRow) {
  return {
    id: i.id,
    title: i.title,
    description: i.description,
    unitAmountMinor: i.unit_amount_minor,
    quantityNeeded: i.quantity_needed,
    quantityFunded: i.funded,
    fullyFunded: i.quantity_needed !== null && i.funded >= i.quantity_needed,
    allowOverfunding: !!i.allow_overfunding,
    active: !!i.active,
    archived: i.archived_at !== null,
    sortOrder: i.sort_order,
  };
}
