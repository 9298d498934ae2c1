import { CURRENCIES } from "@core/money";
import { NativeSelect } from "~/components/ui/native-select";

type Currency = (typeof CURRENCIES)[number];

/** A list's Currency filter: one of CURRENCIES, or none ("All currencies"). */
export function CurrencyFilter({
  value,
  onChange,
}: {
  value: Currency | undefined;
  onChange: (currency: Currency | undefined) => void;
}) {
  return (
    <NativeSelect
      aria-label="Currency"
      value={value ?? ""}
      onChange={(e) => onChange((e.target.value || undefined) as Currency | undefined)}
    >
      <option value="">All currencies</option>
      {CURRENCIES.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </NativeSelect>
  );
}
