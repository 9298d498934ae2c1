/**
 * A table of figures (TanStack Table over the shadcn table, as the lists): a whole answer at once,
 * no paging, sorting or search — the fundraising reports' tables (src/features/reports). On a
 * narrow screen it scrolls sideways in its own keyboard-reachable region. data-table.tsx
 * re-exports it: importing it from there keeps TanStack Table in the lists' one chunk (a second
 * importer of its own split that chunk in two, +0.8 KiB gzip on every list).
 */
import { type ColumnDef, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import type * as React from "react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { cn } from "~/lib/utils";

/** A region that scrolls sideways on a narrow screen, never the page, reachable by keyboard. */
export function ScrollRegion({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable).
    <div className="overflow-x-auto rounded-md border" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

export function FiguresTable<T>({
  label,
  columns,
  rows,
  rowKey,
}: {
  /** The region's accessible name ("Giving by year, table"). */
  label: string;
  columns: ColumnDef<T, unknown>[];
  rows: T[];
  rowKey: (row: T) => string;
}) {
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel(), getRowId: rowKey });
  return (
    <ScrollRegion label={label}>
      <Table>
        <TableHeader>
          {table.getHeaderGroups().map((hg) => (
            <TableRow key={hg.id}>
              {hg.headers.map((h) => (
                <TableHead
                  key={h.id}
                  className={cn(
                    "whitespace-nowrap",
                    h.column.columnDef.meta?.align === "right" && "text-right",
                  )}
                >
                  {flexRender(h.column.columnDef.header, h.getContext())}
                </TableHead>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {table.getRowModel().rows.map((row) => (
            <TableRow key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <TableCell
                  key={cell.id}
                  className={cn(
                    "whitespace-nowrap",
                    cell.column.columnDef.meta?.align === "right" && "text-right tabular-nums",
                  )}
                >
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
