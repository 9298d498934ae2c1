/**
 * Several campaigns of an organization, up to a maximum, found by typing: the campaigns compared
 * side by side (src/features/reports/campaigns-report.tsx). The search is ./campaign-combobox.tsx's;
 * in a module of its own so the pages with one campaign filter do not carry it.
 */
import { PlusCircle, X } from "lucide-react";
import * as React from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import {
  type CampaignChoice,
  type CampaignScope,
  CampaignSearch,
  preloadCampaignSearch,
  SearchFallback,
  UNKNOWN_CAMPAIGN,
  useCampaignNames,
} from "./campaign-combobox";

/**
 * Several campaigns, up to `max`, as the lists' faceted filters look: a dashed button naming up to
 * two of them. The list stays open while campaigns are added or taken away.
 */
export function CampaignPicker({
  title,
  value,
  onChange,
  max,
  scope = {},
  titles,
}: {
  title: string;
  value: readonly string[];
  onChange: (ids: string[] | undefined) => void;
  max: number;
  scope?: CampaignScope;
  /** Titles the caller already holds (a report's answer), asked for by id otherwise. */
  titles?: ReadonlyMap<string, string>;
}) {
  const [query, setQuery] = React.useState("");
  const [held, setHeld] = React.useState<ReadonlyMap<string, string>>(new Map());
  const titleOf = (id: string) => held.get(id) ?? titles?.get(id);
  const names = useCampaignNames(value.filter((id) => !titleOf(id)));
  const nameOf = (id: string) =>
    titleOf(id) ?? names.byId.get(id)?.title ?? (names.loading ? "…" : UNKNOWN_CAMPAIGN);
  const toggle = (c: CampaignChoice) => {
    setHeld((m) => new Map(m).set(c.id, c.title));
    const next = value.includes(c.id) ? value.filter((id) => id !== c.id) : [...value, c.id];
    onChange(next.length ? next : undefined);
  };
  return (
    <Popover modal onOpenChange={(o) => !o && setQuery("")}>
      <PopoverTrigger asChild>
        <Button
          variant="outline"
          size="sm"
          className="h-9 max-w-full justify-start overflow-hidden border-dashed"
          onPointerEnter={preloadCampaignSearch}
          onFocus={preloadCampaignSearch}
        >
          <PlusCircle className="size-4" aria-hidden />
          {title}
          {value.length > 0 ? (
            <Badge
              variant="secondary"
              className="ml-1 block min-w-0 shrink truncate rounded-sm px-1 font-normal"
            >
              {value.length > 2 ? `${value.length} selected` : value.map(nameOf).join(", ")}
            </Badge>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        align="start"
        aria-label={title}
        className="w-72 max-w-[calc(100vw-1rem)] p-0"
        collisionPadding={8}
      >
        <React.Suspense fallback={<SearchFallback />}>
          <CampaignSearch
            label={title}
            query={query}
            onQuery={setQuery}
            scope={scope}
            selected={value}
            onPick={toggle}
            full={value.length >= max}
            multiple
          />
        </React.Suspense>
        {value.length > 0 ? (
          <div className="border-t p-1">
            <Button variant="ghost" size="sm" className="w-full" onClick={() => onChange(undefined)}>
              <X className="size-4" aria-hidden /> Clear campaigns
            </Button>
          </div>
        ) : null}
      </PopoverContent>
    </Popover>
  );
}
