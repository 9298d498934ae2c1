import type * as React from "react";
import { cn } from "~/lib/utils";

/**
 * The platform's own select, in the kit's look: a phone's picker and a screen reader's list come
 * with it, which a custom listbox would have to rebuild. `className` adds to or overrides the look
 * (a width, a smaller height), merged by `cn`.
 */
function NativeSelect({ className, ...props }: React.ComponentProps<"select">) {
  return (
    <select
      data-slot="native-select"
      className={cn(
        "h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive dark:bg-input/30",
        className,
      )}
      {...props}
    />
  );
}

export { NativeSelect };
