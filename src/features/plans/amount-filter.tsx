/**
 * The plan amount range of /recurring: a button naming the range in use, opening a small form
 * applied at once (typing into the URL at every key would ask the server at every key). The URL
 * keeps major units; the list reads them in `currency`.
 */
import { PlusCircle } from "lucide-react";
import * as React from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { formatMoney, toMajorString, toMinor } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";

export function AmountFilter({
  currency,
  min,
  max,
  onChange,
}: {
  currency: string;
  min: number | undefined;
  max: number | undefined;
  onChange: (min: number | undefined, max: number | undefined) => void;
}) {
  const [open, setOpen] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  const money = (v: number) => formatMoney(toMinor(v, currency), currency);
  const input = useMoneyInput();
  const range =
    min !== undefined && max !== undefined
      ? `${money(min)}–${money(max)}`
      : min !== undefined
        ? `≥ ${money(min)}`
        : max !== undefined
          ? `≤ ${money(max)}`
          : null;

  function apply(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // The form sits in the phone's filter sheet too: its submit must not reach another form.
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    // The URL keeps major units, as machines write them ("1250.5").
    const read = (k: string) => {
      const text = String(f.get(k) ?? "").trim();
      if (!text) return undefined;
      const r = input.read(text, currency);
      if (!r.ok) throw new Error(r.message);
      return Number(toMajorString(r.minor, currency));
    };
    let from: number | undefined;
    let to: number | undefined;
    try {
      from = read("from");
      to = read("to");
    } catch (e) {
      setError(`${(e as Error).message}.`);
      return;
    }
    if (from !== undefined && to !== undefined && from > to) {
      setError("The maximum is below the minimum.");
      return;
    }
    setError(null);
    onChange(from, to);
    setOpen(false);
  }

  return (
    <Popover
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setError(null);
      }}
    >
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" className="h-9 border-dashed">
          <PlusCircle className="size-4" aria-hidden />
          {/* Named apart from the table's Amount sort button. */}
          Amount<span className="sr-only"> filter</span>
          {range ? (
            <Badge variant="secondary" className="ml-1 rounded-sm px-1 font-normal">
              {range}
            </Badge>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" aria-label="Plan amount" className="w-[min(18rem,calc(100vw-2rem))]">
        <form noValidate onSubmit={apply} className="grid grid-cols-2 gap-3 text-sm">
          <Field label={`From (${currency})`}>
            <Input
              name="from"
              inputMode="decimal"
              placeholder="0.00"
              defaultValue={min === undefined ? "" : input.show(toMinor(min, currency), currency)}
              autoComplete="off"
            />
          </Field>
          <Field label={`Up to (${currency})`}>
            <Input
              name="to"
              inputMode="decimal"
              placeholder="Any"
              defaultValue={max === undefined ? "" : input.show(toMinor(max, currency), currency)}
              autoComplete="off"
            />
          </Field>
          <p className="col-span-2 text-muted-foreground text-xs">
            The amount of each donation, whatever the interval.
          </p>
          {error ? (
            <p role="alert" className="col-span-2 text-destructive">
              {error}
            </p>
          ) : null}
          <div className="col-span-2 flex justify-end gap-2">
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => {
                onChange(undefined, undefined);
                setOpen(false);
              }}
            >
              Clear
            </Button>
            <Button type="submit" size="sm">
              Apply
            </Button>
          </div>
        </form>
      </PopoverContent>
    </Popover>
  );
}
