/**
 * The one list table (DESIGN §4 lists): TanStack Table with server-side sorting and pagination,
 * URL state owned by the route, debounced search (300 ms), faceted filters, column visibility,
 * optional row selection with a bulk-actions bar, and empty / loading (skeleton) / error states.
 * The server side is worker/lib/list.ts (`listInput` + `runList`). Usage in a route file:
 *
 *   const search = listSearchWith(["created", "name"], "created", { status: facetParam(statuses) });
 *   export const Route = createFileRoute("/_authed/things/")({ validateSearch: search, component: Page });
 *   function Page() {
 *     const [s, setS] = useListState(Route);            // URL state + navigate({ search })
 *     const q = useQuery({ ...trpc.things.list.queryOptions(s), placeholderData: keepPreviousData });
 *     return (
 *       <DataTable columns={columns} data={q.data?.rows} total={q.data?.total} state={s} onStateChange={setS}
 *         isLoading={q.isPending} error={q.error ? errorInfo(q.error).message : null}
 *         facets={[{ id: "status", title: "Status", options, value: s.status,
 *                    onChange: (status) => setS({ status, page: 1 }) }]}
 *         bulkActions={(rows, clear) => (
 *           <ConfirmButton title={`Archive ${rows.length}?`} description="…" onConfirm={async () => { ...; clear(); }}>
 *             Archive
 *           </ConfirmButton>)} />
 *     );
 *   }
 *
 * Columns: `{ header: "Name", meta: { sortKey: "name", align: "right" }, cell: ... }` — a `sortKey`
 * makes the header a sort button writing `sort`/`desc` to the URL; string headers appear in the
 * Columns menu (`defaultHidden` starts a column unticked there); `id`-less columns are fine (rows
 * are keyed by `row.id`).
 *
 * Phones (below `sm`, 640 px): rows become cards (`meta.card`, see data-table-cards.tsx) and the
 * facets and toolbar move into a "Filters (N)" sheet (filter-sheet.tsx; N is `filterCount`, or the
 * facets in use). Until the width is known (server rendering) both layouts are in the HTML and CSS
 * shows the right one; after hydration only that one is rendered.
 *
 * Clickable rows: a click on a row's empty space follows the link of its `card: "title"` cell (or
 * its first link), so that link stays the keyboard path and cmd/middle-click on it opens a tab.
 * Clicks on the row's own controls (checkbox, menus, other links) are theirs.
 */

import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type RowSelectionState,
  useReactTable,
  type VisibilityState,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Columns3, Search } from "lucide-react";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Skeleton } from "~/components/ui/skeleton";
import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { errorInfo, formatCount } from "~/lib/format";
import { SM_UP, useMediaQuery } from "~/lib/use-media-query";
import { cn } from "~/lib/utils";
import { BulkBar, type MatchingLabels } from "./bulk-bar";
import { type CardSlot, DataTableCards } from "./data-table-cards";
import { type Facet, FacetedFilter } from "./faceted-filter";
import { FilterSheet } from "./filter-sheet";
import type { ListState } from "./list-search";
import { BulkRunningContext } from "./use-bulk-run";

export { ConfirmButton } from "./confirm-button";
export { type Facet, FacetedFilter, type FacetOption } from "./faceted-filter";
export { FiguresTable, ScrollRegion } from "./figures-table";
export { FilterSheet } from "./filter-sheet";
export {
  facetParam,
  type ListState,
  listSearch,
  listSearchSchema,
  listSearchWith,
  useListState,
} from "./list-search";

declare module "@tanstack/react-table" {
  interface ColumnMeta<TData, TValue> {
    /** Server sort key for this column; the header becomes a sort button. */
    sortKey?: string;
    align?: "right";
    /** Where the column shows on a phone's card (data-table-cards.tsx); none = not on the card. */
    card?: CardSlot;
    /** A word before the value on the card ("Ends", "Gifts"). */
    cardLabel?: string;
    /** Starts unticked in the Columns menu (lower-value columns, so the table fits 1280 px). */
    defaultHidden?: boolean;
  }
}

/** The table's frame, left out (not just hidden) on a phone, where the cards replace it. */
function Frame({ show, ...props }: React.ComponentProps<"div"> & { show: boolean }) {
  return show ? <div data-slot="list-table" {...props} /> : null;
}

const INTERACTIVE = "a, button, input, select, textarea, label, [role=checkbox], [role=menuitem]";

/** A click on a row's empty space follows the row's link, as if the link itself was clicked. */
function followRowLink(e: React.MouseEvent<HTMLElement>) {
  const target = e.target as Element;
  // Portalled content (a row's menu or dialog) bubbles through React but is not in the row.
  if (!e.currentTarget.contains(target) || target.closest(INTERACTIVE)) return;
  if (window.getSelection()?.toString()) return; // selecting text, not opening
  // The title's link, or its button where the row opens a dialog rather than a page (an open
  // invitation on /organizers has no page of its own).
  const link =
    e.currentTarget.querySelector<HTMLElement>("[data-row-title] a[href], [data-row-title] button") ??
    e.currentTarget.querySelector<HTMLAnchorElement>("a[href]");
  if (!link) return;
  if (link instanceof HTMLAnchorElement && (e.metaKey || e.ctrlKey || e.shiftKey))
    window.open(link.href, "_blank", "noopener");
  else link.click();
}

export function DataTable<T extends { id: string }, M extends { ids: string[] } = { ids: string[] }>({
  columns,
  data,
  total,
  state,
  onStateChange,
  isLoading,
  error,
  emptyMessage = "Nothing here yet.",
  searchPlaceholder = "Search…",
  toolbar,
  facets,
  bulkActions,
  selectMatching,
  matchingLabels,
  footer,
  onRowClick,
  filterCount,
}: {
  columns: ColumnDef<T, unknown>[];
  data: T[] | undefined;
  total: number | undefined;
  state: ListState;
  onStateChange: (next: Partial<ListState>) => void;
  isLoading?: boolean;
  error?: string | null;
  /** What an empty page says; a node, so it can offer a way out ("Clear filters"). */
  emptyMessage?: React.ReactNode;
  searchPlaceholder?: string;
  toolbar?: React.ReactNode;
  /** Multi-select filters shown as popovers before the toolbar (values live in the URL). */
  facets?: Facet[];
  /**
   * The actions on the chosen rows; `matching` is set when the user chose "all N matching"
   * (then act on `matching.ids`, never on more).
   */
  bulkActions?: (selected: T[], clear: () => void, matching: M | null) => React.ReactNode;
  /**
   * The ids the current filter matches, snapshotted by the server (e.g. donations.matchingIds):
   * with it, the bar offers "Select all N matching" once the whole page is chosen (decision 024).
   */
  selectMatching?: () => Promise<M>;
  /** Where the snapshot holds only some of the matching rows (organizers: open invitations). */
  matchingLabels?: MatchingLabels;
  footer?: React.ReactNode;
  /** Replaces following the row's link on a click on the row. */
  onRowClick?: (row: T) => void;
  /** Active filters, for the phone's "Filters (N)" button (default: facets with a value). */
  filterCount?: number;
}) {
  const [selection, setSelection] = React.useState<RowSelectionState>({});
  // A bulk run of the actions is sending batches (useBulkRun says so through the context): the
  // selection is locked, for unchoosing every row would unmount the actions and their Cancel.
  const [running, setRunning] = React.useState(false);
  // "All N matching": a snapshot of ids for one filter; it lapses when the filter changes or a
  // row of the page is unchosen.
  const [matching, setMatching] = React.useState<{ key: string; snap: M } | null>(null);
  const [matchingState, setMatchingState] = React.useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });
  const { page: _p, pageSize: _s, sort: _o, desc: _d, ...filterState } = state;
  const filterKey = JSON.stringify(filterState);
  const [visibility, setVisibility] = React.useState<VisibilityState>(() =>
    Object.fromEntries(
      columns.filter((c) => c.meta?.defaultHidden).map((c) => [c.id ?? String(c.header), false] as const),
    ),
  );
  // undefined while server-rendering and hydrating: both layouts, CSS picks (no flash).
  const wide = useMediaQuery(SM_UP);
  const hasFilters = !!(facets?.length || toolbar);
  const activeFilters = filterCount ?? facets?.filter((f) => f.value?.length).length ?? 0;
  const [query, setQuery] = React.useState(state.q ?? "");
  const stateRef = React.useRef(onStateChange);
  stateRef.current = onStateChange;
  React.useEffect(() => {
    if ((state.q ?? "") === query) return;
    const t = setTimeout(() => stateRef.current({ q: query || undefined, page: 1 }), 300);
    return () => clearTimeout(t);
  }, [query, state.q]);

  const selectColumn: ColumnDef<T, unknown> = {
    id: "_select",
    header: ({ table }) => (
      <Checkbox
        aria-label="Select all rows on this page"
        checked={table.getIsAllPageRowsSelected() || (table.getIsSomePageRowsSelected() && "indeterminate")}
        disabled={running}
        onCheckedChange={(v) => table.toggleAllPageRowsSelected(!!v)}
      />
    ),
    cell: ({ row }) => (
      <Checkbox
        aria-label="Select row"
        checked={row.getIsSelected()}
        disabled={!row.getCanSelect()}
        onClick={(e) => e.stopPropagation()}
        onCheckedChange={(v) => row.toggleSelected(!!v)}
      />
    ),
  };
  const table = useReactTable({
    data: data ?? [],
    columns: bulkActions ? [selectColumn, ...columns] : columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.id,
    manualPagination: true,
    manualSorting: true,
    enableRowSelection: !!bulkActions && !running,
    state: { rowSelection: selection, columnVisibility: visibility },
    onRowSelectionChange: setSelection,
    onColumnVisibilityChange: setVisibility,
  });
  const selected = table.getSelectedRowModel().rows.map((r) => r.original);
  const allOnPage = table.getIsAllPageRowsSelected();
  const matchingSnap = matching && matching.key === filterKey && allOnPage ? matching.snap : null;
  // A lapsed snapshot is dropped, so choosing a page again never brings it back.
  React.useEffect(() => {
    if (matching && !matchingSnap) setMatching(null);
  }, [matching, matchingSnap]);
  const clearSelection = () => {
    setSelection({});
    setMatching(null);
    setMatchingState({ busy: false, error: null });
  };
  const chooseMatching = async () => {
    if (!selectMatching) return;
    setMatchingState({ busy: true, error: null });
    try {
      const snap = await selectMatching();
      setMatching({ key: filterKey, snap });
      setMatchingState({ busy: false, error: null });
    } catch (e) {
      setMatchingState({ busy: false, error: errorInfo(e).message });
    }
  };
  const pages = Math.max(1, Math.ceil((total ?? 0) / state.pageSize));
  const colCount = table.getVisibleLeafColumns().length;

  // The same controls in the toolbar (wide) or in the phone's filter sheet, never both at once.
  const filterControls = (
    <>
      {facets?.map((f) => (
        <FacetedFilter key={f.id} title={f.title} options={f.options} value={f.value} onChange={f.onChange} />
      ))}
      {toolbar}
    </>
  );

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative w-full sm:w-72">
          <Search
            className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground"
            aria-hidden
          />
          <Input
            aria-label="Search"
            placeholder={searchPlaceholder}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className="pl-8"
          />
        </div>
        {hasFilters && wide !== false ? (
          <div className={cn("contents", wide === undefined && "max-sm:hidden")}>{filterControls}</div>
        ) : null}
        {hasFilters && wide !== true ? (
          <FilterSheet count={activeFilters} className={cn(wide === undefined && "sm:hidden")}>
            {filterControls}
          </FilterSheet>
        ) : null}
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" className="ml-auto h-9 max-sm:hidden">
              <Columns3 className="size-4" /> Columns
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {table
              .getAllLeafColumns()
              .filter((c) => typeof c.columnDef.header === "string")
              .map((c) => (
                <DropdownMenuCheckboxItem
                  key={c.id}
                  checked={c.getIsVisible()}
                  onCheckedChange={(v) => c.toggleVisibility(!!v)}
                >
                  {String(c.columnDef.header)}
                </DropdownMenuCheckboxItem>
              ))}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {/* While a run goes on the bar stays, whatever the page shows: its Cancel is there. */}
      {bulkActions && (selected.length > 0 || running) ? (
        <BulkBar
          count={selected.length}
          total={total}
          offerMatching={!!selectMatching && allOnPage && (total ?? 0) > selected.length}
          matchingCount={matchingSnap ? matchingSnap.ids.length : null}
          selectingMatching={matchingState.busy}
          matchingError={matchingState.error}
          onSelectMatching={chooseMatching}
          onClear={clearSelection}
          running={running}
          matchingLabels={matchingLabels}
        >
          <BulkRunningContext.Provider value={setRunning}>
            {bulkActions(selected, clearSelection, matchingSnap)}
          </BulkRunningContext.Provider>
        </BulkBar>
      ) : null}
      {wide !== true ? (
        <DataTableCards
          table={table}
          selectable={!!bulkActions}
          isLoading={!!isLoading && !data}
          error={error}
          emptyMessage={emptyMessage}
          footer={footer}
          className={cn(wide === undefined && "sm:hidden")}
        />
      ) : null}
      <Frame
        show={wide !== false}
        className={cn("overflow-x-auto rounded-md border bg-card", wide === undefined && "max-sm:hidden")}
      >
        <Table>
          <TableHeader>
            {table.getHeaderGroups().map((hg) => (
              <TableRow key={hg.id}>
                {hg.headers.map((h) => {
                  const key = h.column.columnDef.meta?.sortKey;
                  const active = key && state.sort === key;
                  return (
                    <TableHead
                      key={h.id}
                      className={cn(h.column.columnDef.meta?.align === "right" && "text-right")}
                      aria-sort={active ? (state.desc ? "descending" : "ascending") : undefined}
                    >
                      {key ? (
                        <button
                          type="button"
                          className="-ml-1 inline-flex items-center gap-1 rounded px-1 hover:text-foreground"
                          onClick={() =>
                            onStateChange({ sort: key, desc: active ? !state.desc : true, page: 1 })
                          }
                        >
                          {flexRender(h.column.columnDef.header, h.getContext())}
                          {active ? (
                            state.desc ? (
                              <ArrowDown className="size-3.5" />
                            ) : (
                              <ArrowUp className="size-3.5" />
                            )
                          ) : (
                            <ArrowUpDown className="size-3.5 opacity-40" />
                          )}
                        </button>
                      ) : (
                        flexRender(h.column.columnDef.header, h.getContext())
                      )}
                    </TableHead>
                  );
                })}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>
            {error ? (
              <TableRow>
                <TableCell colSpan={colCount} className="py-10 text-center text-destructive" role="alert">
                  {error}
                </TableCell>
              </TableRow>
            ) : isLoading && !data ? (
              Array.from({ length: 5 }, (_, i) => (
                <TableRow key={`sk-${i}`}>
                  {Array.from({ length: colCount }, (_, j) => (
                    <TableCell key={`sk-${i}-${j}`}>
                      <Skeleton className="h-4 w-full max-w-32" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            ) : table.getRowModel().rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={colCount} className="py-10 text-center text-muted-foreground">
                  {emptyMessage}
                </TableCell>
              </TableRow>
            ) : (
              table.getRowModel().rows.map((row) => (
                <TableRow
                  key={row.id}
                  data-state={row.getIsSelected() ? "selected" : undefined}
                  className={cn(
                    onRowClick
                      ? "cursor-pointer"
                      : "has-[[data-row-title]_a[href]]:cursor-pointer has-[[data-row-title]_button]:cursor-pointer",
                  )}
                  onClick={onRowClick ? () => onRowClick(row.original) : followRowLink}
                >
                  {row.getVisibleCells().map((cell) => (
                    <TableCell
                      key={cell.id}
                      data-row-title={cell.column.columnDef.meta?.card === "title" || undefined}
                      className={cn(
                        cell.column.columnDef.meta?.align === "right" && "text-right tabular-nums",
                      )}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
          {footer ? (
            <TableFooter>
              <TableRow>
                <TableCell colSpan={colCount}>{footer}</TableCell>
              </TableRow>
            </TableFooter>
          ) : null}
        </Table>
      </Frame>
      <div className="flex flex-wrap items-center justify-between gap-2 text-muted-foreground text-sm">
        <span>{total === undefined ? "…" : `${formatCount(total)} ${total === 1 ? "row" : "rows"}`}</span>
        <div className="flex items-center gap-2">
          <span className="hidden sm:inline">Rows per page</span>
          {/* Native: radix Select cost every list page ~6 KB gzip for four numbers. */}
          <NativeSelect
            className="h-8 w-20 text-foreground"
            aria-label="Rows per page"
            value={String(state.pageSize)}
            onChange={(e) =>
              onStateChange({ pageSize: Number(e.target.value) as ListState["pageSize"], page: 1 })
            }
          >
            {[10, 25, 50, 100].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </NativeSelect>
          <span>
            Page {Math.min(state.page, pages)} of {pages}
          </span>
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label="Previous page"
            disabled={state.page <= 1}
            onClick={() => onStateChange({ page: state.page - 1 })}
          >
            <ChevronLeft className="size-4" />
          </Button>
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label="Next page"
            disabled={state.page >= pages}
            onClick={() => onStateChange({ page: state.page + 1 })}
          >
            <ChevronRight className="size-4" />
          </Button>
        </div>
      </div>
    </div>
  );
}
