/** Donor rows → the API's shapes (docs/architecture.md: present). */
import type { DonorCsvRow } from "@core/exports/donors";
import type { Row } from "../db/rows";
import type { donor } from "../db/schema";
import type { DonorExportSource, DonorRow } from "./queries";

export function donorName(
  d: Pick<Row<typeof donor>, "first_name" | "last_name" | "company" | "email" | "anonymized_at">,
) {
  if (d.anonymized_at) return "Anonymized";
  const person = [d.first_name, d.last_name].filter(Boolean).join(" ");
  return person || d.company || d.email || "Unnamed donor";
}

// The record's creation, or the first gift when older (imported or entered late); an import writes the old
// system's "date added" as the creation (worker/imports/plan.ts).
export const donorSince = (d: Pick<DonorRow, "created_at" | "first_gift_at">) =>
  d.first_gift_at !== null && d.first_gift_at < d.created_at ? d.first_gift_at : d.created_at;

export function presentDonor(d: DonorRow) {
  return {
    id: d.id,
    name: donorName(d),
    type: d.type,
    firstName: d.first_name,
    lastName: d.last_name,
    company: d.company,
    email: d.email,
    phone: d.phone,
    addressLine1: d.address_line1,
    city: d.city,
    region: d.region,
    postalCode: d.postal_code,
    country: d.country,
    emailOptIn: !!d.email_opt_in,
    phoneOptIn: !!d.phone_opt_in,
    mailOptIn: !!d.mail_opt_in,
    externalId: d.external_id,
    anonymized: d.anonymized_at !== null,
    mergedIntoId: d.merged_into_id,
    tier: d.tier_id ? { id: d.tier_id, name: d.tier_name ?? "", color: d.tier_color ?? "#64748b" } : null,
    previousTierId: d.previous_tier_id,
    previousTier: d.previous_tier_id
      ? { id: d.previous_tier_id, name: d.previous_tier_name ?? "Deleted tier" }
      : null,
    donorType: d.donor_type,
    tierLocked: !!d.tier_locked,
    lifetimeMinor: d.lifetime_minor,
    donationCount: d.donation_count,
    largestGiftMinor: d.largest_gift_minor,
    averageGiftMinor: d.donation_count ? Math.round(d.lifetime_minor / d.donation_count) : 0,
    firstGiftAt: d.first_gift_at,
    lastGiftAt: d.last_gift_at,
    createdAt: d.created_at,
    donorSince: donorSince(d),
    tags: d.tags ? (JSON.parse(d.tags) as { id: string; name: string; color: string }[]) : [],
  };
}

/** Totals in the organization's currency; core/exports/donors.ts turns the row into a CSV line. */
export function presentExportRow(r: DonorExportSource, currency: string) {
  const anon = r.anonymized_at !== null;
  const row = {
    donorId: r.id,
    name: donorName(r),
    type: r.type,
    firstName: anon ? "Anonymized" : r.first_name,
    lastName: r.last_name,
    company: r.company,
    email: r.email,
    phone: r.phone,
    addressLine1: r.address_line1,
    city: r.city,
    region: r.region,
    postalCode: r.postal_code,
    country: r.country,
    createdAt: r.created_at,
    firstGiftAt: r.first_gift_at,
    lastGiftAt: r.last_gift_at,
    donationCount: r.donation_count,
    lifetimeMinor: r.lifetime_minor,
    currency,
    largestGiftMinor: r.largest_gift_minor,
    averageGiftMinor: r.donation_count ? Math.round(r.lifetime_minor / r.donation_count) : 0,
    donorType: r.donor_type,
    tier: r.tier_name ?? null,
    tags: r.tag_names ?? "",
    emailOptIn: !!r.email_opt_in,
    phoneOptIn: !!r.phone_opt_in,
    mailOptIn: !!r.mail_opt_in,
    anonymized: anon,
  };
  // The CSV's columns read this very shape (core/exports/donors.ts); `anonymized` is for the API.
  return row satisfies DonorCsvRow;
}
