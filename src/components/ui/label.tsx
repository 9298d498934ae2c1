import type * as React from "react";

import { cn } from "~/lib/utils";

/** A native label (radix Label only added a guard against selecting text on double click). */
function Label({ className, onMouseDown, ...props }: React.ComponentProps<"label">) {
  return (
    <label
      data-slot="label"
      className={cn(
        "flex select-none items-center gap-2 font-medium text-sm leading-none group-data-[disabled=true]:pointer-events-none group-data-[disabled=true]:opacity-50 peer-disabled:cursor-not-allowed peer-disabled:opacity-50",
        className,
      )}
      onMouseDown={(event) => {
        onMouseDown?.(event);
        // Same as radix Label: no text selection on double click (unless on a control inside).
        if (
          !event.defaultPrevented &&
          event.detail > 1 &&
          !(event.target as Element).closest("button, input, select, textarea")
        )
          event.preventDefault();
      }}
      {...props}
    />
  );
}

export { Label };
