/**
 * The phone layout of the list table (below Tailwind's `sm`, 640 px): one card per row, built from
 * the same column definitions. A column's `meta.card` names its place on the card:
 *
 *   title   the row's name, with its detail link; the link is stretched over the whole card
 *   amount  right of the title (tabular figures)
 *   status  the badge line (status, tier, test badge…)
 *   date    on the badge line, muted; `meta.cardLabel` prefixes it ("Ends Mar 3, 2026")
 *   meta    the secondary line, joined by " · " (also takes `cardLabel`)
 *   actions a row menu, right of the card, above the stretched link
 *
 * Columns without `card` (and hidden ones) stay off the card. The card's one focus target is the
 * title link (a card is an <li>, not a button): Enter opens it, and cmd/middle-click opens a tab.
 */
import { type Cell, flexRender, type Row, type Table } from "@tanstack/react-table";
import * as React from "react";
import { Checkbox } from "~/components/ui/checkbox";
import { Skeleton } from "~/components/ui/skeleton";
import { cn } from "~/lib/utils";

export type CardSlot = "title" | "amount" | "status" | "date" | "meta" | "actions";

function slot<T>(row: Row<T>, name: CardSlot) {
  return row.getVisibleCells().filter((c) => c.column.columnDef.meta?.card === name);
}

function render<T>(cell: Cell<T, unknown>) {
  const label = cell.column.columnDef.meta?.cardLabel;
  const value = flexRender(cell.column.columnDef.cell, cell.getContext());
  return label ? (
    <>
      <span className="text-muted-foreground">{label}</span> {value}
    </>
  ) : (
    value
  );
}

export function DataTableCards<T>({
  table,
  selectable,
  isLoading,
  error,
  emptyMessage,
  footer,
  className,
}: {
  table: Table<T>;
  selectable: boolean;
  isLoading: boolean;
  error?: string | null;
  emptyMessage: React.ReactNode;
  footer?: React.ReactNode;
  className?: string;
}) {
  const rows = table.getRowModel().rows;
  let body: React.ReactNode;
  if (error)
    body = (
      <p className="rounded-md border bg-card py-10 text-center text-destructive" role="alert">
        {error}
      </p>
    );
  else if (isLoading)
    body = (
      <ul className="flex flex-col gap-2" aria-busy="true" aria-label="Loading">
        {Array.from({ length: 4 }, (_, i) => (
          <li key={`sk-${i}`} className="flex flex-col gap-2 rounded-md border bg-card p-3">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/3" />
          </li>
        ))}
      </ul>
    );
  else if (rows.length === 0)
    body = (
      <p className="rounded-md border bg-card py-10 text-center text-muted-foreground">{emptyMessage}</p>
    );
  else
    body = (
      <>
        {selectable ? (
          // The table's header checkbox, for the card layout (same name, same action).
          <label className="flex items-center gap-2 px-3 text-muted-foreground text-sm">
            <Checkbox
              aria-label="Select all rows on this page"
              checked={
                table.getIsAllPageRowsSelected() || (table.getIsSomePageRowsSelected() && "indeterminate")
              }
              // Locked while a bulk run sends batches (data-table.tsx `running`).
              disabled={!table.options.enableRowSelection}
              onCheckedChange={(v) => table.toggleAllPageRowsSelected(!!v)}
            />
            Select all on this page
          </label>
        ) : null}
        <ul className="flex flex-col gap-2">
          {rows.map((row) => (
            <ListCard key={row.id} row={row} selectable={selectable} />
          ))}
        </ul>
      </>
    );
  return (
    <div className={cn("flex flex-col gap-2", className)} data-slot="list-cards">
      {body}
      {footer && !error ? (
        <div className="rounded-md border bg-muted/50 p-3 font-medium">{footer}</div>
      ) : null}
    </div>
  );
}

function ListCard<T>({ row, selectable }: { row: Row<T>; selectable: boolean }) {
  const title = slot(row, "title");
  const amount = slot(row, "amount");
  const badges = slot(row, "status");
  const dates = slot(row, "date");
  const meta = slot(row, "meta");
  const actions = slot(row, "actions");
  return (
    <li
      data-slot="list-card"
      data-state={row.getIsSelected() ? "selected" : undefined}
      className={cn(
        "relative flex items-start gap-3 rounded-md border bg-card p-3 text-sm transition-colors",
        "hover:bg-muted/50 data-[state=selected]:bg-muted",
        // The title link covers the card (its ::after), so a tap anywhere opens the row; the
        // card shows the link's keyboard focus.
        "has-[[data-card-title]_:is(a,button):focus-visible]:ring-[3px] has-[[data-card-title]_:is(a,button):focus-visible]:ring-ring/50",
      )}
    >
      {selectable ? (
        <Checkbox
          className="relative z-10 mt-0.5"
          aria-label="Select row"
          checked={row.getIsSelected()}
          disabled={!row.getCanSelect()}
          onCheckedChange={(v) => row.toggleSelected(!!v)}
        />
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex items-start justify-between gap-3">
          <div
            data-card-title
            className="min-w-0 break-words font-medium [&_:is(a,button)]:outline-none [&_:is(a,button)]:after:absolute [&_:is(a,button)]:after:inset-0 [&_:is(a,button)]:after:rounded-md"
          >
            {title.map((c) => (
              <span key={c.id}>{render(c)}</span>
            ))}
          </div>
          {amount.length ? (
            <div className="flex shrink-0 flex-col items-end text-right font-semibold tabular-nums">
              {amount.map((c) => (
                <span key={c.id}>{render(c)}</span>
              ))}
            </div>
          ) : null}
        </div>
        {badges.length || dates.length ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            {badges.map((c) => (
              <span key={c.id} className="flex flex-wrap items-center gap-1">
                {render(c)}
              </span>
            ))}
            {dates.map((c) => (
              <span key={c.id} className="text-muted-foreground tabular-nums">
                {render(c)}
              </span>
            ))}
          </div>
        ) : null}
        {meta.length ? (
          // Running text, so a long value (an e-mail) wraps like words instead of leaving a stray "·".
          <div className="text-muted-foreground [overflow-wrap:anywhere]">
            {meta.map((c, i) => (
              <React.Fragment key={c.id}>
                {i > 0 ? <span aria-hidden> · </span> : null}
                <span>{render(c)}</span>
              </React.Fragment>
            ))}
          </div>
        ) : null}
      </div>
      {actions.length ? (
        <div className="relative z-10 shrink-0">
          {actions.map((c) => (
            <span key={c.id}>{render(c)}</span>
          ))}
        </div>
      ) : null}
    </li>
  );
}
