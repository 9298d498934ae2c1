/** The currencies taken and a gift's bounds (DESIGN §4, decision 019); no imports, for the entry chunk. */
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
 * A gift's floor and the processors' cap, the same minor-unit count in every currency (decision 019).
 * Only here, not in app.config.ts: the browser validates with them and cannot see Worker vars.
 */
export const MIN_AMOUNT_MINOR = 100;
export const MAX_AMOUNT_MINOR = 99_999_999;
