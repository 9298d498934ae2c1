import type * as React from "react";
import { LoaderCircle } from "~/components/ui/shell-icons";

import { cn } from "~/lib/utils";

type SpinnerProps = Omit<React.ComponentProps<"svg">, "children"> & {
  /** Accessible name. When omitted the spinner is decorative (aria-hidden) and a nearby text should describe the state. */
  label?: string;
};

function Spinner({ className, label, ...props }: SpinnerProps) {
  return (
    <LoaderCircle
      data-slot="spinner"
      role={label ? "status" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      className={cn("size-4 shrink-0 animate-spin", className)}
      {...props}
    />
  );
}

export { Spinner, type SpinnerProps };
