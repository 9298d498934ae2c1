import { PlusCircle, X } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { formatCount } from "~/lib/format";

export interface FacetOption {
  value: string;
  label: string;
  /** Optional count shown next to the option (e.g. from a server-side facet query). */
  count?: number;
}

export interface Facet {
  /** The URL search key the values are written to (e.g. "status"). */
  id: string;
  title: string;
  options: FacetOption[];
  /** Selected values; an empty list or undefined means "no filter". */
  value: string[] | undefined;
  onChange: (values: string[] | undefined) => void;
}

/**
 * A multi-select filter in a popover with checkboxes (the "faceted filter" of the shadcn tables).
 * Controlled: the list route keeps the values in its URL search, so a filtered list is a link.
 */
export function FacetedFilter({ title, options, value, onChange }: Omit<Facet, "id">) {
  const selected = new Set(value ?? []);
  const toggle = (v: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(v);
    else next.delete(v);
    onChange(next.size ? [...next] : undefined);
  };
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" className="h-9 border-dashed">
          <PlusCircle className="size-4" aria-hidden />
          {title}
          {selected.size > 0 ? (
            <Badge variant="secondary" className="ml-1 rounded-sm px-1 font-normal">
              {selected.size > 2
                ? `${selected.size} selected`
                : [...selected].map((v) => labelOf(options, v)).join(", ")}
            </Badge>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-60 p-1" align="start">
        <fieldset className="flex max-h-72 flex-col overflow-y-auto">
          <legend className="sr-only">{title}</legend>
          {options.map((o) => {
            const id = `facet-${title}-${o.value}`.replace(/\s+/g, "-");
            return (
              <label
                key={o.value}
                htmlFor={id}
                className="flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent"
              >
                <Checkbox
                  id={id}
                  checked={selected.has(o.value)}
                  onCheckedChange={(v) => toggle(o.value, !!v)}
                />
                <span className="flex-1">{o.label}</span>
                {o.count !== undefined ? (
                  <span className="text-muted-foreground text-xs tabular-nums">{formatCount(o.count)}</span>
                ) : null}
              </label>
            );
          })}
        </fieldset>
        {selected.size > 0 ? (
          <Button variant="ghost" size="sm" className="mt-1 w-full" onClick={() => onChange(undefined)}>
            <X className="size-4" aria-hidden /> Clear filter
          </Button>
        ) : null}
      </PopoverContent>
    </Popover>
  );
}

function labelOf(options: FacetOption[], v: string) {
  return options.find((o) => o.value === v)?.label ?? v;
}
