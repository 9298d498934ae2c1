/**
 * Fields of a donation recorded by hand (donations.create with core/donation.ts's
 * manualDonationInput): the record-donation dialog's and a plan's "Record a donation".
 */
import { manualPaymentMethods } from "@core/donation";
import { PAYMENT_METHOD_LABELS } from "@core/labels";
import { localDay, startOfLocalDay } from "@core/time";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { useToday } from "~/lib/time-zone";

/** The amount, read by the form as `amount` in `currency` (useMoneyInput's read). */
export function AmountField({
  currency,
  error,
  placeholder,
  defaultValue,
}: {
  currency: string;
  error?: string;
  placeholder?: string;
  defaultValue?: string;
}) {
  return (
    <Field label={`Amount (${currency})`} required error={error}>
      <Input name="amount" inputMode="decimal" placeholder={placeholder} defaultValue={defaultValue} />
    </Field>
  );
}

/** `paymentMethod`: the methods a hand-recorded gift may carry. */
export function PaymentMethodField({ defaultValue, error }: { defaultValue: string; error?: string }) {
  return (
    <Field label="Payment method" error={error}>
      <NativeSelect name="paymentMethod" className="w-full px-3" defaultValue={defaultValue}>
        {manualPaymentMethods.map((m) => (
          <option key={m} value={m}>
            {PAYMENT_METHOD_LABELS[m]}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}

/** `donatedAt`: a day in the organization's zone, today at the latest; read with receivedAt. */
export function DateReceivedField({ error }: { error?: string }) {
  const today = useToday();
  return (
    <Field label="Date received" error={error}>
      <Input name="donatedAt" type="date" defaultValue={today} max={today} />
    </Field>
  );
}

/**
 * Today means now; an earlier day means its noon in the organization's zone, so the gift lands on
 * the day typed whatever the browser's zone.
 */
export function receivedAt(day: string, timeZone: string): number {
  if (!day || day === localDay(Date.now(), timeZone)) return Date.now();
  return Math.min(startOfLocalDay(day, timeZone) + 12 * 3_600_000, Date.now());
}
