import * as React from "react";
import type { DonorChoice } from "~/components/donor-combobox";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";

// The donor search (cmdk, ~7 kB gzip) loads when a dialog is about to open, not with the page.
// Rendered only in an open dialog, in the browser: the server build leaves cmdk out (see
// src/components/date-range-picker.tsx's loadCalendar).
export const preloadDonorSearch = (): Promise<
  Pick<typeof import("~/components/donor-combobox"), "DonorCombobox">
> =>
  import.meta.env.SSR
    ? Promise.resolve({ DonorCombobox: (() => null) as never })
    : import("~/components/donor-combobox");
const DonorCombobox = React.lazy(() => preloadDonorSearch().then((m) => ({ default: m.DonorCombobox })));

/** A dialog's Donor field: until the search has loaded, a disabled button reading `emptyLabel`. */
export function DonorField({
  value,
  onChange,
  emptyLabel,
  error,
  required,
}: {
  value: DonorChoice | null;
  onChange: (donor: DonorChoice | null) => void;
  emptyLabel: string;
  error?: string;
  required?: boolean;
}) {
  return (
    <Field label="Donor" required={required} error={error}>
      {(control) => (
        <React.Suspense
          fallback={
            <Button {...control} variant="outline" disabled className="justify-start font-normal">
              {emptyLabel}
            </Button>
          }
        >
          <DonorCombobox {...control} value={value} onChange={onChange} emptyLabel={emptyLabel} />
        </React.Suspense>
      )}
    </Field>
  );
}
