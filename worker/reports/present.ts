/** Report rows → the API's shapes (docs/architecture.md: present). */
import { donorName } from "../donors/present";
import type { LapsedRow } from "./queries";

/** Shared by the list, its CSV and the donor's link; named as /donors names them. */
export function presentLapsedRow(r: LapsedRow, yearLabel: (year: number) => string) {
  const anonymized = !!r.anonymized;
  return {
    donorId: r.id,
    name: donorName({
      first_name: r.firstName,
      last_name: r.lastName,
      company: r.company,
      email: r.email,
      anonymized_at: anonymized ? 1 : null,
    }),
    email: anonymized ? null : r.email,
    lastYear: r.lastYear,
    lastYearLabel: yearLabel(r.lastYear),
    lastYearMinor: r.lastYearMinor,
    lastGiftAt: r.lastGiftAt,
    lifetimeMinor: r.lifetimeMinor,
    gifts: r.gifts,
    emailOptIn: !!r.emailOptIn,
    phoneOptIn: !!r.phoneOptIn,
    mailOptIn: !!r.mailOptIn,
  };
}
