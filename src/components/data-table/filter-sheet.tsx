/**
 * A list's filters on a phone: one "Filters (N)" button, N the number of active filters, opening a
 * bottom sheet with the same controls the toolbar shows on wider screens (they write the URL as
 * they change, so the list behind the sheet follows). The search box stays outside, always visible.
 */
import { ListFilter } from "lucide-react";
import type * as React from "react";
import { Button } from "~/components/ui/button";
import {
  Sheet,
  SheetClose,
  SheetContent,
  SheetDescription,
  SheetFooter,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from "~/components/ui/sheet";
import { cn } from "~/lib/utils";

export function FilterSheet({
  count,
  children,
  className,
}: {
  /** Active filters (the search box is not one). */
  count: number;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <Sheet>
      <SheetTrigger asChild>
        <Button variant="outline" size="sm" className={cn("h-9", className)}>
          <ListFilter className="size-4" aria-hidden />
          Filters{count ? ` (${count})` : ""}
        </Button>
      </SheetTrigger>
      <SheetContent side="bottom" className="max-h-[85dvh] gap-0 rounded-t-xl">
        <SheetHeader className="pb-2">
          <SheetTitle>Filters{count ? ` (${count})` : ""}</SheetTitle>
          <SheetDescription>The list updates as you change them.</SheetDescription>
        </SheetHeader>
        <div className="flex flex-col items-stretch gap-3 overflow-y-auto px-4 py-2 [&>*]:w-full [&_select]:w-full">
          {children}
        </div>
        <SheetFooter>
          <SheetClose asChild>
            <Button>Show results</Button>
          </SheetClose>
        </SheetFooter>
      </SheetContent>
    </Sheet>
  );
}
