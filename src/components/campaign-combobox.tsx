/**
 * Pick campaigns by typing (issue 27's read-through: every picker had offered the first 100
 * campaigns, so an organization with more could not choose the rest). The search is the server's
 * (./campaign-search.tsx, campaigns.list with `q`, narrowed to a currency and statuses), the chosen
 * ones are named by id (campaigns.list with `ids`), and nothing preloads a page of campaigns.
 * - `CampaignCombobox`: one campaign or none, for forms (a hidden input carries the id) and filters.
 * - `CampaignPicker` (./campaign-picker.tsx): several, for the campaigns compared side by side.
 * This module is the trigger only; the list and cmdk load on hover, focus or first open.
 */
import type { CURRENCIES } from "@core/currencies";
import type { CampaignStatus } from "@core/status";
import { useQuery } from "@tanstack/react-query";
import { ChevronsUpDown } from "lucide-react";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { Spinner } from "~/components/ui/spinner";
import { useTRPC } from "~/lib/trpc";
import { cn } from "~/lib/utils";

export interface CampaignChoice {
  id: string;
  title: string;
  currency: string;
  status: CampaignStatus;
}

/** Which campaigns a picker offers: the server narrows its search to these. */
export interface CampaignScope {
  currency?: string;
  status?: CampaignStatus[];
}

type Currency = (typeof CURRENCIES)[number];

/**
 * campaigns.list's input for a picker's list: the first 50 by title in its scope, or those matching
 * `q`. A page that counts the campaigns in a scope asks the same, so opening its picker is answered
 * from the cache.
 */
export function campaignSearchInput(scope: CampaignScope, q?: string) {
  return {
    q: q || undefined,
    // The server checks the code (a 400 shows as the list's message); callers hold plain strings.
    currency: scope.currency as Currency | undefined,
    status: scope.status,
    // One of the list sizes every list accepts (worker/lib/list.ts pageSchema).
    pageSize: 50 as const,
    sort: "title" as const,
    desc: false,
  };
}

/** Campaigns a picker lists but will not take, and the reason each option says. */
export interface Unavailable {
  ids: ReadonlySet<string>;
  reason: string;
}

/** What a chosen campaign reads as when no campaign of the organization has its id. */
export const UNKNOWN_CAMPAIGN = "Unknown campaign";

// Rendered only in the browser: the server build leaves cmdk out (as the donor search does,
// src/features/donations/record-donation-dialog.tsx).
const loadSearch = (): Promise<Pick<typeof import("./campaign-search"), "CampaignSearch">> =>
  import.meta.env.SSR
    ? Promise.resolve({ CampaignSearch: (() => null) as never })
    : import("./campaign-search");
export const CampaignSearch = React.lazy(() => loadSearch().then((m) => ({ default: m.CampaignSearch })));
export const preloadCampaignSearch = () => void loadSearch();

/**
 * The campaigns of these ids, by id, for naming what a URL or a record holds. `loading` while the
 * answer is on its way; an id missing from `byId` afterwards names no campaign of the organization.
 */
export function useCampaignNames(ids: readonly (string | null | undefined)[]) {
  const trpc = useTRPC();
  // At most 50 ids, one list page: worker/campaigns/filters.ts CAMPAIGN_IDS_MAX.
  const want = [...new Set(ids.filter((id): id is string => !!id))].sort().slice(0, 50);
  const q = useQuery({
    ...trpc.campaigns.list.queryOptions({ ids: want, pageSize: 50, sort: "title", desc: false }),
    enabled: want.length > 0,
    staleTime: 60_000,
  });
  const byId = new Map<string, CampaignChoice>(
    (q.data?.rows ?? []).map((c) => [
      c.id,
      { id: c.id, title: c.title, currency: c.currency, status: c.status },
    ]),
  );
  return { byId, loading: want.length > 0 && q.isPending };
}

type ControlProps = {
  id?: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  "aria-required"?: true;
};

export function SearchFallback() {
  return (
    <p className="flex items-center gap-2 p-3 text-muted-foreground text-sm">
      <Spinner /> Loading campaigns…
    </p>
  );
}

export function CampaignCombobox({
  value,
  onChange,
  scope = {},
  none,
  placeholder = "Choose a campaign",
  label,
  name,
  unavailable,
  initial = null,
  className,
  ...control
}: ControlProps & {
  value: string | null | undefined;
  onChange: (campaign: CampaignChoice | null) => void;
  scope?: CampaignScope;
  /** The choice of no campaign, as the trigger and the list's first option read it ("All campaigns"). */
  none?: string;
  /** What the trigger reads with nothing chosen when there is no `none` choice. */
  placeholder?: string;
  /** Without a label element of its own: the trigger's name, with what is chosen ("Campaign: Coats"). */
  label?: string;
  /** When given, a hidden input of this name carries the chosen id (empty for none) in a form. */
  name?: string;
  unavailable?: Unavailable;
  /** The campaign a record already names with its title (a gift's), so the trigger needs no request. */
  initial?: { id: string; title: string } | null;
  className?: string;
}) {
  const [open, setOpen] = React.useState(false);
  const [query, setQuery] = React.useState("");
  // The one chosen here (or handed in) is named at once; one from a URL is asked for by id.
  const [held, setHeld] = React.useState<{ id: string; title: string } | null>(initial);
  const known = value && held?.id === value ? held : null;
  const names = useCampaignNames([value && !known ? value : null]);
  const chosen = known ?? (value ? names.byId.get(value) : undefined);
  const shown = !value
    ? (none ?? placeholder)
    : chosen
      ? chosen.title
      : names.loading
        ? "…"
        : UNKNOWN_CAMPAIGN;
  return (
    <>
      {name ? <input type="hidden" name={name} value={value ?? ""} /> : null}
      <Popover
        // Modal: inside a dialog, the list scrolls with the wheel and the rest of the page is inert.
        modal
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) setQuery("");
        }}
      >
        <PopoverTrigger asChild>
          <Button
            variant="outline"
            role="combobox"
            aria-expanded={open}
            aria-haspopup="listbox"
            aria-label={label ? `${label}: ${shown}` : undefined}
            title={chosen?.title}
            className={cn("h-9 w-full min-w-0 justify-between px-3 font-normal", className)}
            onPointerEnter={preloadCampaignSearch}
            onFocus={preloadCampaignSearch}
            {...control}
          >
            <span className={cn("truncate", !value && !none && "text-muted-foreground")}>{shown}</span>
            <ChevronsUpDown aria-hidden="true" className="size-4 opacity-50" />
          </Button>
        </PopoverTrigger>
        <PopoverContent
          align="start"
          // Radix gives the popover role="dialog": it needs a name of its own.
          aria-label="Find a campaign"
          className="w-(--radix-popover-trigger-width) min-w-64 p-0"
          collisionPadding={8}
        >
          <React.Suspense fallback={<SearchFallback />}>
            <CampaignSearch
              label="Find a campaign"
              query={query}
              onQuery={setQuery}
              scope={scope}
              selected={value ? [value] : []}
              unavailable={unavailable}
              onPick={(c) => {
                setHeld(c);
                onChange(c);
                setOpen(false);
              }}
              none={
                none
                  ? {
                      label: none,
                      onPick: () => {
                        onChange(null);
                        setOpen(false);
                      },
                    }
                  : undefined
              }
            />
          </React.Suspense>
        </PopoverContent>
      </Popover>
    </>
  );
}
