import type * as React from "react";
import { HandHeart } from "~/components/ui/shell-icons";

import { cn } from "~/lib/utils";

/** The Almoner logo mark: a hand offering a heart on the primary colour. */
function LogoMark({ className, ...props }: React.ComponentProps<"span">) {
  return (
    <span
      data-slot="logo-mark"
      aria-hidden="true"
      className={cn(
        "flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-xs",
        className,
      )}
      {...props}
    >
      <HandHeart className="size-[18px]" strokeWidth={2.25} />
    </span>
  );
}

/** Logo mark followed by the product name. */
function Brand({ className, ...props }: React.ComponentProps<"span">) {
  return (
    <span data-slot="brand" className={cn("flex items-center gap-2.5", className)} {...props}>
      <LogoMark />
      <span className="font-semibold text-base tracking-tight">Almoner</span>
    </span>
  );
}

export { Brand, LogoMark };
