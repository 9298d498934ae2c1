import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { Slot } from "~/components/ui/slot";
import { useHydrated } from "~/lib/use-hydrated";
import { cn } from "~/lib/utils";

const buttonVariants = cva(
  "inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium text-sm outline-none transition-all focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40 [&_svg:not([class*='size-'])]:size-4 [&_svg]:pointer-events-none [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90",
        destructive:
          // Hover darkens, never lightens: /90 let the page show through and white text fell below
          // 4.5:1 in both schemes (4.3 light, 3.9 dark). Now about 6:1 light, 8:1 dark.
          "bg-destructive text-white shadow-xs hover:bg-[color-mix(in_oklab,var(--color-destructive)_85%,black)] focus-visible:ring-destructive/20 dark:bg-destructive/60 dark:focus-visible:ring-destructive/40 dark:hover:bg-destructive/50",
        outline:
          "border bg-background shadow-xs hover:bg-accent hover:text-accent-foreground dark:border-input dark:bg-input/30 dark:hover:bg-input/50",
        secondary: "bg-secondary text-secondary-foreground shadow-xs hover:bg-secondary/80",
        ghost: "hover:bg-accent hover:text-accent-foreground dark:hover:bg-accent/50",
        link: "text-primary underline-offset-4 hover:underline",
      },
      size: {
        default: "h-9 px-4 py-2 has-[>svg]:px-3",
        sm: "h-8 gap-1.5 rounded-md px-3 has-[>svg]:px-2.5",
        lg: "h-10 rounded-md px-6 has-[>svg]:px-4",
        icon: "size-9",
        "icon-sm": "size-8",
        "icon-lg": "size-10",
      },
    },
    defaultVariants: {
      variant: "default",
      size: "default",
    },
  },
);

type ButtonProps = React.ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
    /** Render the single child element instead of a `<button>` (e.g. a router `<Link>`). */
    asChild?: boolean;
  };

/**
 * A button works only once React has hydrated the page (its onClick, a dialog it opens, a form's
 * submit handler): until then it is rendered disabled, so a tap on the server's HTML is not lost
 * in silence (issue 53, M10; docs/decisions/053). A link (`asChild`) works without JS and stays
 * as it is.
 */
function Button({ className, variant, size, asChild = false, type, disabled, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  const hydrated = useHydrated();
  const waiting = !asChild && !hydrated;

  return (
    <Comp
      data-slot="button"
      data-variant={variant ?? "default"}
      data-size={size ?? "default"}
      className={cn(buttonVariants({ variant, size, className }))}
      type={asChild ? type : (type ?? "button")}
      disabled={asChild ? disabled : disabled || waiting}
      aria-busy={waiting || undefined}
      data-hydrating={waiting || undefined}
      {...props}
    />
  );
}

export { Button, type ButtonProps, buttonVariants };
