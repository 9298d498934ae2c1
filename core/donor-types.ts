/** Apart from core/donor.ts: the list's URL schema loads these without the form (decision 012). */

/** GiveWP's donor type (docs/steering/research/domain.md §2.3), derived from the counted gifts. */
export const donorTypes = ["new", "one_time", "repeat", "recurring"] as const;
export type DonorType = (typeof donorTypes)[number];

/** The `donor.type` column. */
export const donorKinds = ["individual", "organization"] as const;
