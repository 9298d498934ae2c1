/**
 * The choices of the gift filters /donations and /reports share (payment method, frequency,
 * source): the same values under the same words on both screens. Here, not in core/labels.ts, so
 * the entry chunk every page loads does not carry the words (docs/decisions/012).
 */
import {
  type DonationSource,
  donationSources,
  type FrequencyFilter,
  frequencyFilters,
  paymentMethodLabel,
  paymentMethods,
} from "@core/labels";
import { titleCase } from "~/lib/format";

const SOURCE_LABELS: Readonly<Record<DonationSource, string>> = {
  manual: "Recorded by hand",
  online: "Online",
  webhook: "Payment provider",
  import: "Imported",
};

/** A source filter's words ("Recorded by hand"). */
export const sourceLabel = (v: DonationSource) => SOURCE_LABELS[v];

/** A frequency filter's words: "Any recurring" for every frequency but one-time, else its own. */
export const frequencyFilterLabel = (f: FrequencyFilter) =>
  f === "recurring" ? "Any recurring" : titleCase(f);

/**
 * "All methods" and the known methods. A method the URL names outside them (a processor's own
 * code, which the filters accept) is offered too, so the select shows what is filtered.
 */
export function MethodOptions({ current }: { current?: string }) {
  const known = (paymentMethods as readonly string[]).includes(current ?? "");
  return (
    <>
      <option value="">All methods</option>
      {current && !known ? <option value={current}>{paymentMethodLabel(current)}</option> : null}
      {paymentMethods.map((m) => (
        <option key={m} value={m}>
          {paymentMethodLabel(m)}
        </option>
      ))}
    </>
  );
}

/** "Any frequency", each frequency, and "Any recurring" (every frequency but one-time). */
export function FrequencyOptions() {
  return (
    <>
      <option value="">Any frequency</option>
      {frequencyFilters.map((f) => (
        <option key={f} value={f}>
          {frequencyFilterLabel(f)}
        </option>
      ))}
    </>
  );
}

export function SourceOptions() {
  return (
    <>
      <option value="">All sources</option>
      {donationSources.map((v) => (
        <option key={v} value={v}>
          {sourceLabel(v)}
        </option>
      ))}
    </>
  );
}
