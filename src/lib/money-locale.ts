/**
 * How the portal reads typed amounts: in the current organization's locale (its country, core/money.ts
 * moneyLocale), which rides with the session like its time zone (src/lib/time-zone.ts), so the
 * server's render and the browser's write a field's amount alike. en-US without an organization.
 */
import { moneyLocale, parseMoney, toMajorInput } from "@core/money";
import { useQuery } from "@tanstack/react-query";
import * as React from "react";
import { sessionQueryOptions } from "./auth/session";

export function useMoneyLocale(): string {
  return moneyLocale(useQuery(sessionQueryOptions()).data?.capabilities?.country);
}

/**
 * A money field's reader and writer in the organization's locale: `read` gives minor units or
 * the message to show, `show` the text a field starts with ("1250,50" in fr-FR).
 */
export function useMoneyInput() {
  const locale = useMoneyLocale();
  // The same functions while the locale stays: an effect may depend on them.
  return React.useMemo(
    () => ({
      locale,
      read: (text: string, currency: string) => parseMoney(text, currency, locale),
      show: (minor: number, currency: string) => toMajorInput(minor, currency, locale),
    }),
    [locale],
  );
}
