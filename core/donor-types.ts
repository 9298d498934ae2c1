/**
 * The donor vocabularies both sides filter by (docs/decisions/022-one-shared-core.md), apart from
 * core/donor.ts's form schema: the donors list's URL schema is in the portal's entry chunk, and
 * importing them from there pulled the whole donor schema into every page's first load.
 */

/** GiveWP's donor type (docs/steering/research/domain.md §2.3), derived on the server from the counted gifts. */
export const donorTypes = ["new", "one_time", "repeat", "recurring"] as const;
export type DonorType = (typeof donorTypes)[number];

/** What a donor record is: a person or an organization (the `donor.type` column). */
export const donorKinds = ["individual", "organization"] as const;
