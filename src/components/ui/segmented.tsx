import { ToggleGroup as ToggleGroupPrimitive } from "radix-ui";
import type * as React from "react";

import { cn } from "~/lib/utils";

/**
 * One choice among a few (a period: Today / 7 days / 30 days …), looking like a tab list. Tabs
 * would announce panels that do not exist (aria-controls pointing nowhere, an axe critical); a
 * single-select toggle group is what a screen reader should hear: pressed buttons in a group.
 * Always one value: clicking the pressed button keeps it.
 */
function Segmented({
  className,
  value,
  onValueChange,
  ...props
}: Omit<
  React.ComponentProps<typeof ToggleGroupPrimitive.Root>,
  "type" | "value" | "defaultValue" | "onValueChange"
> & {
  value: string;
  onValueChange: (value: string) => void;
}) {
  return (
    <ToggleGroupPrimitive.Root
      type="single"
      data-slot="segmented"
      value={value}
      onValueChange={(v) => v && onValueChange(v)}
      className={cn(
        "inline-flex h-auto w-fit max-w-full flex-wrap items-center rounded-lg bg-muted p-[3px] text-muted-foreground",
        className,
      )}
      {...props}
    />
  );
}

function SegmentedItem({ className, ...props }: React.ComponentProps<typeof ToggleGroupPrimitive.Item>) {
  return (
    <ToggleGroupPrimitive.Item
      data-slot="segmented-item"
      className={cn(
        "inline-flex h-8 items-center justify-center whitespace-nowrap rounded-md border border-transparent px-2.5 font-medium text-foreground text-sm outline-none transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 data-[state=on]:bg-background data-[state=on]:shadow-sm dark:text-muted-foreground dark:data-[state=on]:border-input dark:data-[state=on]:bg-input/30 dark:data-[state=on]:text-foreground",
        className,
      )}
      {...props}
    />
  );
}

export { Segmented, SegmentedItem };
