/**
 * Step 3: how the rows are read. The currency and the zone of values that name none (the
 * organization's unless changed); the day order and the decimal mark only when the file's own values
 * do not tell (./logic.ts dateQuestion, decimalQuestion); what a row does to a donor it matches.
 */

import { type ImportKind, type ImportOptions, MATCH_POLICY_LABELS, matchPolicies } from "@core/import/fields";
import { CURRENCIES } from "@core/money";
import { TriangleAlert } from "lucide-react";
import { TimeZoneCombobox } from "~/components/time-zone-combobox";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Field } from "~/components/ui/form-field";
import { NativeSelect } from "~/components/ui/native-select";
import { DATE_ORDER_CHOICES, type DateQuestion, DECIMAL_CHOICES, type DecimalQuestion } from "./logic";
import { RadioOption } from "./parts";

export interface Questions {
  date: DateQuestion;
  decimal: DecimalQuestion;
}

/** Whether every question the file raises has its answer. */
export function optionsProblem(q: Questions, o: ImportOptions): string | null {
  if (q.date.ask && o.dateOrder !== "dmy" && o.dateOrder !== "mdy")
    return "Choose whether the day or the month comes first in the file's dates.";
  if (q.decimal.ask && o.decimal === "auto") return "Choose the decimal mark of the file's amounts.";
  return null;
}

const POLICY_HELP: Record<ImportKind, Record<(typeof matchPolicies)[number], string>> = {
  donations: {
    fill: "The donation goes to the donor; the donor's empty fields take the file's values, nothing already there changes.",
    overwrite: "The donation goes to the donor, and the file's values replace the donor's.",
    skip: "The donation goes to the donor; the donor's details stay as they are.",
  },
  donors: {
    fill: "The donor's empty fields take the file's values; nothing already there changes.",
    overwrite: "The file's values replace the donor's.",
    skip: "The row is skipped; the donor stays as it is.",
  },
};

export function OptionsStep({
  kind,
  options,
  onOptions,
  questions,
  orgCurrency,
  orgTimeZone,
}: {
  kind: ImportKind;
  options: ImportOptions;
  onOptions: (o: ImportOptions) => void;
  questions: Questions;
  orgCurrency: string;
  orgTimeZone: string;
}) {
  const set = (patch: Partial<ImportOptions>) => onOptions({ ...options, ...patch });
  const q = questions;
  return (
    <div className="flex flex-col gap-6">
      {kind === "donations" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Currency of amounts that name none"
            description={`Amounts like "$25" or "25.00" are read in it; "€25" or "25 EUR" keep their own. Your organization's is ${orgCurrency}.`}
          >
            <NativeSelect
              className="w-full min-w-0 max-w-full"
              value={options.currency}
              onChange={(e) => set({ currency: e.target.value as ImportOptions["currency"] })}
            >
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                  {c === orgCurrency ? " (your organization's)" : ""}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            label="Time zone of dates that name none"
            description={`A date without a time is kept on that day. Your organization's zone is ${orgTimeZone}.`}
          >
            <TimeZoneCombobox
              value={options.timeZone}
              onChange={(timeZone) => set({ timeZone })}
              label="Time zone of dates that name none"
              note={(names) => (names.includes(orgTimeZone) ? "(your organization's)" : null)}
            />
          </Field>
        </div>
      ) : null}

      {q.date.ask ? (
        <fieldset className="grid gap-3" aria-describedby="date-order-why">
          <legend className="mb-1 font-medium text-sm">
            In the file's dates, which comes first?
            <span aria-hidden="true" className="text-destructive">
              *
            </span>
          </legend>
          <p id="date-order-why" className="text-muted-foreground text-sm">
            {q.date.why === "ambiguous"
              ? "The file's dates do not tell: none has a day above 12 (like 03/04/2025, the 3rd of April or March 4th)."
              : "The file's dates disagree: some read only day first, others only month first. Rows that do not fit your choice are refused with their reason."}
          </p>
          {DATE_ORDER_CHOICES.map((c) => (
            <RadioOption
              key={c.value}
              name="date-order"
              value={c.value}
              checked={options.dateOrder === c.value}
              onChange={() => set({ dateOrder: c.value })}
              label={c.label}
            />
          ))}
        </fieldset>
      ) : q.date.order !== "auto" ? (
        <p className="text-sm">
          <span className="font-medium">Dates:</span>{" "}
          {q.date.order === "dmy" ? "day first (31/12/2024)" : "month first (12/31/2024)"}, as the file's
          dates show.
        </p>
      ) : null}

      {q.decimal.ask ? (
        <fieldset className="grid gap-3" aria-describedby="decimal-why">
          <legend className="mb-1 font-medium text-sm">
            What separates the decimals in the file's amounts?
            <span aria-hidden="true" className="text-destructive">
              *
            </span>
          </legend>
          <p id="decimal-why" className="text-muted-foreground text-sm">
            The amounts do not tell: "1,250" could be one thousand two hundred fifty or one point two five.
          </p>
          {DECIMAL_CHOICES.map((c) => (
            <RadioOption
              key={c.value}
              name="decimal-mark"
              value={c.value}
              checked={options.decimal === c.value}
              onChange={() => set({ decimal: c.value })}
              label={c.label}
            />
          ))}
        </fieldset>
      ) : q.decimal.decimal !== "auto" ? (
        <p className="text-sm">
          <span className="font-medium">Amounts:</span> decimals after a{" "}
          {q.decimal.decimal === "," ? "comma (1.234,56)" : "point (1,234.56)"}, as the file's amounts show.
        </p>
      ) : null}

      <fieldset className="grid gap-3" aria-describedby="match-policy-help">
        <legend className="mb-1 font-medium text-sm">When a row matches an existing donor</legend>
        <p id="match-policy-help" className="text-muted-foreground text-sm">
          Donors are matched by e-mail, then by first and last name with the postal code, then by their ID in
          the old system.
        </p>
        {matchPolicies.map((p) => (
          <RadioOption
            key={p}
            name="match-policy"
            value={p}
            checked={options.matchPolicy === p}
            onChange={() => set({ matchPolicy: p })}
            label={MATCH_POLICY_LABELS[p]}
            description={POLICY_HELP[kind][p]}
          />
        ))}
      </fieldset>
      {options.matchPolicy === "overwrite" ? (
        <Alert variant="warning" role="note">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle className="line-clamp-none">Overwriting cannot be undone</AlertTitle>
          <AlertDescription>
            Undo removes the donations, donors and campaigns an import created; it cannot bring back the
            values it replaced on donors you already had.
          </AlertDescription>
        </Alert>
      ) : null}
    </div>
  );
}
