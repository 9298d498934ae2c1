/** New organizations (decision 045); the onboarding form validates with the procedure's own schema. */
import { z } from "zod/mini";
import { COUNTRY_CODES } from "./countries";
import { exponentOf } from "./money";
import { organizationInput } from "./organization";

/** What an organization cannot run without; the rest of the profile comes later, on /organization. */
export const newOrganizationInput = z.strictObject({
  name: organizationInput.shape.name,
  country: z.pipe(
    z.string().check(z.trim(), z.toUpperCase()),
    z.string().check(z.refine((c) => COUNTRY_CODES.includes(c), "Choose the organization's country")),
  ),
  defaultCurrency: organizationInput.shape.defaultCurrency,
  timeZone: organizationInput.shape.timeZone,
  fiscalYearStartMonth: organizationInput.shape.fiscalYearStartMonth,
});
export type NewOrganizationInput = z.infer<typeof newOrganizationInput>;

const organizationRequestStatuses = ["pending", "approved", "declined"] as const;
export type OrganizationRequestStatus = (typeof organizationRequestStatuses)[number];

/** A platform admin's decline says why: the person reads it in the mail and on /onboarding. */
export const declineOrganizationRequestInput = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  reason: z.string().check(z.trim(), z.minLength(3, "Say why, in a few words"), z.maxLength(1000)),
});

const EURO = "AD AT BE CY DE EE ES FI FR GR HR IE IT LT LU LV MC ME MT NL PT SI SK SM VA".split(" ");
const CURRENCY_OF: Record<string, string> = {
  ...Object.fromEntries(EURO.map((c) => [c, "EUR"])),
  US: "USD",
  CA: "CAD",
  GB: "GBP",
  GG: "GBP",
  JE: "GBP",
  IM: "GBP",
  AU: "AUD",
  NZ: "NZD",
  CH: "CHF",
  LI: "CHF",
  JP: "JPY",
  KW: "KWD",
  SE: "SEK",
  NO: "NOK",
  DK: "DKK",
  GL: "DKK",
  FO: "DKK",
  IN: "INR",
  BR: "BRL",
  MX: "MXN",
  ZA: "ZAR",
};

/** The currency most of a country's organizations keep books in; only a suggestion. */
export const currencySuggestedFor = (country: string): string | null => CURRENCY_OF[country] ?? null;

/** DESIGN §4's default tiers: General < 500 ≤ Mid < 5 000 ≤ Major, lifetime, in major units. */
export function defaultDonorTiers(currency: string) {
  const unit = 10 ** exponentOf(currency);
  return [
    { name: "General", minMinor: 0, maxMinor: 500 * unit, color: "#64748b" },
    { name: "Mid", minMinor: 500 * unit, maxMinor: 5_000 * unit, color: "#0f766e" },
    { name: "Major", minMinor: 5_000 * unit, maxMinor: null, color: "#b45309" },
  ];
}
