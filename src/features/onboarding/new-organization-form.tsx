import { COUNTRY_CODES } from "@core/countries";
import { CURRENCIES } from "@core/currencies";
import { currencySuggestedFor, type NewOrganizationInput, newOrganizationInput } from "@core/onboarding";
import * as React from "react";
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";
import { TimeZoneCombobox } from "~/components/time-zone-combobox";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Spinner } from "~/components/ui/spinner";

// The shared schema is zod/mini, which ships no messages: the form shows the English ones the
// Worker answers with (as src/features/organization/profile-form.tsx does).
config(en());

/** Countries by their English names (the server's and the browser's render agree on "en"). */
const COUNTRIES = (() => {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
    a.name.localeCompare(b.name, "en"),
  );
})();

const MONTHS = Array.from({ length: 12 }, (_, i) =>
  new Date(Date.UTC(2026, i, 1)).toLocaleString("en-US", { month: "long", timeZone: "UTC" }),
);

export const countryName = (code: string) => COUNTRIES.find((c) => c.code === code)?.name ?? code;
export const monthName = (month: number) => MONTHS[month - 1] ?? String(month);

function validZone(zone: string | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The five things a new organization starts with (core/onboarding.ts newOrganizationInput),
 * checked with the procedure's own schema before sending. The browser's zone and region are the
 * first guesses; a chosen country suggests its currency until the currency is picked by hand.
 */
export function NewOrganizationForm({
  submitLabel,
  pending,
  serverErrors,
  initial,
  onSubmit,
}: {
  submitLabel: string;
  pending: boolean;
  /** Field errors (and `_` for the form) the server answered. */
  serverErrors: Record<string, string>;
  initial?: Partial<NewOrganizationInput>;
  onSubmit: (input: NewOrganizationInput) => void;
}) {
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [country, setCountry] = React.useState(initial?.country ?? "");
  const [currency, setCurrency] = React.useState<string>(initial?.defaultCurrency ?? "USD");
  const [timeZone, setTimeZone] = React.useState(initial?.timeZone ?? "UTC");
  // What the person picked themselves is never replaced by a guess or a suggestion.
  const touched = React.useRef({
    zone: !!initial?.timeZone,
    country: !!initial?.country,
    currency: !!initial?.defaultCurrency,
  });
  const clear = (field: string) =>
    setErrors((all) => {
      if (!all[field]) return all;
      const { [field]: _gone, _: _form, ...rest } = all;
      return rest;
    });
  const pickCountry = React.useCallback((code: string) => {
    setCountry(code);
    const suggested = currencySuggestedFor(code);
    if (suggested && !touched.current.currency) setCurrency(suggested);
  }, []);
  React.useEffect(() => setErrors(serverErrors), [serverErrors]);
  // After hydration (the server cannot know): the browser's zone and region as first guesses.
  React.useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!touched.current.zone && validZone(zone)) setTimeZone(zone);
    let region: string | undefined;
    try {
      region = new Intl.Locale(navigator.language).maximize().region;
    } catch {}
    if (!touched.current.country && region && COUNTRY_CODES.includes(region)) pickCountry(region);
  }, [pickCountry]);
  return (
    <form
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      aria-busy={pending}
      // A field's error goes as soon as the field changes (the form is checked again on submit).
      onChange={(e) => clear((e.target as unknown as { name: string }).name)}
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const parsed = newOrganizationInput.safeParse({
          name: String(f.get("name") ?? ""),
          country,
          defaultCurrency: currency,
          timeZone,
          fiscalYearStartMonth: Number(f.get("fiscalYearStartMonth")),
        });
        if (!parsed.success) {
          const fields: Record<string, string> = {};
          for (const issue of parsed.error.issues) {
            const field = String(issue.path[0]);
            // The schema's own words, but for the name, which people leave empty rather than mistype.
            fields[field] ??=
              field === "name" ? "Enter the organization's name (2 to 120 characters)" : issue.message;
          }
          setErrors({ ...fields, _: "Check the highlighted fields" });
          return;
        }
        setErrors({});
        onSubmit(parsed.data);
      }}
    >
      <Field label="Name" required error={errors.name} className="sm:col-span-2">
        <Input name="name" autoComplete="organization" maxLength={120} defaultValue={initial?.name} />
      </Field>
      <Field label="Country" required error={errors.country}>
        <NativeSelect
          name="country"
          className="w-full px-3"
          value={country}
          onChange={(e) => {
            touched.current.country = true;
            pickCountry(e.target.value);
          }}
        >
          <option value="">Choose a country</option>
          {COUNTRIES.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Currency" required error={errors.defaultCurrency}>
        <NativeSelect
          name="defaultCurrency"
          className="w-full px-3"
          value={currency}
          onChange={(e) => {
            touched.current.currency = true;
            setCurrency(e.target.value);
          }}
        >
          {CURRENCIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </NativeSelect>
      </Field>
      <Field
        label="Time zone"
        required
        error={errors.timeZone}
        description="Dates, reports and date filters use it."
        className="sm:col-span-2"
      >
        <TimeZoneCombobox
          name="timeZone"
          value={timeZone}
          onChange={(zone) => {
            touched.current.zone = true;
            clear("timeZone");
            setTimeZone(zone);
          }}
        />
      </Field>
      <Field
        label="Fiscal year starts in"
        required
        error={errors.fiscalYearStartMonth}
        description="Year-end statements and yearly reports follow it."
        className="sm:col-span-2"
      >
        <NativeSelect
          name="fiscalYearStartMonth"
          className="w-full px-3"
          defaultValue={initial?.fiscalYearStartMonth ?? 1}
        >
          {MONTHS.map((m, i) => (
            <option key={m} value={i + 1}>
              {m}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {errors._ ? (
        <p role="alert" className="text-destructive text-sm sm:col-span-2">
          {errors._}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} className="sm:col-span-2">
        {pending ? <Spinner className="size-4" /> : null}
        {submitLabel}
      </Button>
    </form>
  );
}
