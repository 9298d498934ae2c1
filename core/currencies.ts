/**
 * The currencies the platform takes and one gift's bounds (DESIGN §4; docs/decisions/019-shared-input-schemas.md).
 * Its own module without imports, for the reason core/calendar-day.ts gives; core/money.ts
 * re-exports it.
 */
export const CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "CAD",
  "AUD",
  "CHF",
  "JPY",
  "KWD",
  "NZD",
  "SEK",
  "NOK",
  "DKK",
  "INR",
  "BRL",
  "MXN",
  "ZAR",
] as const;

/**
 * The platform floor and the processor cap of one gift, in minor units, the same count in every
 * currency: processors cap an amount at eight digits of the currency's smallest unit (99 999 999 =
 * 999 999.99 USD, ¥99 999 999, 99 999.999 KWD), so the real values of the bounds stay within a factor
 * of about three across CURRENCIES, where the same major amount would differ 500-fold between JPY
 * and KWD (docs/decisions/019-shared-input-schemas.md). The only home of these bounds: app.config.ts
 * does not carry them, because the browser validates with them too and cannot see Worker vars.
 */
export const MIN_AMOUNT_MINOR = 100;
export const MAX_AMOUNT_MINOR = 99_999_999;
