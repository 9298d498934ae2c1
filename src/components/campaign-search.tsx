/**
 * The searchable list inside a campaign picker (./campaign-combobox.tsx), in a module of its own so
 * cmdk (~7 kB gzip) loads when a picker is first opened or hovered, not with every page that shows one.
 * Opened empty it lists the first campaigns by title; typing asks campaigns.list with `q` (title or
 * slug, the campaigns list's own match), so every campaign of the organization can be found, never
 * only a first page of them. The arrow keys, Enter and the ARIA come from cmdk.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Check } from "lucide-react";
import * as React from "react";
import { Command, CommandGroup, CommandInput, CommandItem, CommandList } from "~/components/ui/command";
import { Spinner } from "~/components/ui/spinner";
import { errorInfo, formatCount, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { useDebounced } from "~/lib/use-debounced";
import { cn } from "~/lib/utils";
import {
  type CampaignChoice,
  type CampaignScope,
  campaignSearchInput,
  type Unavailable,
} from "./campaign-combobox";

const DEBOUNCE_MS = 200;
const NONE_VALUE = "\u0000none";

export function CampaignSearch({
  label,
  query,
  onQuery,
  scope,
  selected,
  onPick,
  none,
  full = false,
  multiple = false,
  unavailable,
}: {
  /** The list's accessible name ("Find a campaign"). */
  label: string;
  query: string;
  onQuery: (q: string) => void;
  scope: CampaignScope;
  selected: readonly string[];
  onPick: (c: CampaignChoice) => void;
  /** The choice of no campaign ("All campaigns", "General fund"), listed first while nothing is typed. */
  none?: { label: string; onPick: () => void };
  /** A multiple choice at its maximum: the campaigns not chosen cannot be added. */
  full?: boolean;
  /** Each option says whether it is chosen (aria-checked): several can be. */
  multiple?: boolean;
  /** Campaigns listed but not to be chosen here, and why ("Has its own message"). */
  unavailable?: Unavailable;
}) {
  const trpc = useTRPC();
  const typed = query.trim();
  const debounced = useDebounced(typed, DEBOUNCE_MS);
  const results = useQuery({
    ...trpc.campaigns.list.queryOptions(campaignSearchInput(scope, debounced)),
    // The previous answer stays on screen while the next one loads, so the list does not jump.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const settled = debounced === typed && results.isSuccess && !results.isPlaceholderData;
  const rows = results.data?.rows ?? [];
  const chosen = new Set(selected);
  // The list loads after the popover opened and took the focus: the search box takes it now.
  const input = React.useRef<HTMLInputElement>(null);
  React.useEffect(() => input.current?.focus(), []);
  const status = results.isError
    ? errorInfo(results.error).message
    : !settled
      ? typed
        ? "Searching…"
        : "Loading campaigns…"
      : rows.length === 0
        ? typed
          ? "No campaign matches"
          : `No campaign${scope.currency ? ` in ${scope.currency}` : ""} yet`
        : full
          ? `${selected.length} chosen, the most: take one away to add another`
          : results.data.total > rows.length
            ? `Showing ${rows.length} of ${formatCount(results.data.total)}: type to narrow`
            : "";
  // The highlighted option, which Enter picks: the first one whenever the one highlighted is gone
  // from a new answer (cmdk would otherwise keep a value no option has, and Enter would do nothing),
  // and none while the answer to what was typed is on its way, so a quick Enter never picks a
  // campaign from the previous answer.
  const [active, setActive] = React.useState("");
  const values = [...(none && !typed ? [NONE_VALUE] : []), ...rows.map((c) => c.id)];
  const highlighted = !settled ? "" : values.includes(active) ? active : (values[0] ?? "");
  return (
    <Command shouldFilter={false} loop label={label} value={highlighted} onValueChange={setActive}>
      <CommandInput ref={input} placeholder="Search campaigns" value={query} onValueChange={onQuery} />
      <p
        role="status"
        className={cn(
          "flex items-center gap-2 px-3 text-muted-foreground text-sm",
          status ? "py-2.5" : "sr-only",
          rows.length > 0 && "pb-0 text-xs",
        )}
      >
        {status === "Searching…" || status === "Loading campaigns…" ? <Spinner /> : null}
        {status}
      </p>
      <CommandList aria-busy={!settled} className="max-h-[min(300px,40dvh)]">
        {none && !typed ? (
          <CommandGroup>
            <CommandItem value={NONE_VALUE} onSelect={none.onPick}>
              <Check
                aria-hidden="true"
                className={cn("size-4", selected.length === 0 ? "opacity-100" : "opacity-0")}
              />
              {none.label}
            </CommandItem>
          </CommandGroup>
        ) : null}
        {rows.length ? (
          <CommandGroup className={none && !typed ? "border-t" : undefined}>
            {rows.map((c) => {
              const on = chosen.has(c.id);
              return (
                <CommandItem
                  key={c.id}
                  value={c.id}
                  disabled={(full && !on) || !!unavailable?.ids.has(c.id)}
                  aria-checked={multiple ? on : undefined}
                  onSelect={() =>
                    onPick({ id: c.id, title: c.title, currency: c.currency, status: c.status })
                  }
                >
                  <Check aria-hidden="true" className={cn("size-4", on ? "opacity-100" : "opacity-0")} />
                  <span className="flex min-w-0 flex-col">
                    <span className="truncate font-medium">{c.title}</span>
                    <span className="truncate text-muted-foreground text-xs">
                      {titleCase(c.status)}
                      {scope.currency ? "" : ` · ${c.currency}`}
                      {unavailable?.ids.has(c.id) ? ` · ${unavailable.reason}` : ""}
                    </span>
                  </span>
                </CommandItem>
              );
            })}
          </CommandGroup>
        ) : null}
      </CommandList>
    </Command>
  );
}
