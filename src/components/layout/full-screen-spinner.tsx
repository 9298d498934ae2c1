import { Spinner } from "~/components/ui/spinner";
import { cn } from "~/lib/utils";

type FullScreenSpinnerProps = {
  /** Visible and announced text, e.g. "Initializing...". */
  label: string;
  className?: string;
};

/** Centers a spinner and a short status text in the whole viewport while the app or a screen loads. */
function FullScreenSpinner({ label, className }: FullScreenSpinnerProps) {
  return (
    <div
      data-slot="full-screen-spinner"
      role="status"
      aria-live="polite"
      className={cn(
        "flex min-h-dvh w-full flex-col items-center justify-center gap-3 bg-background p-6 text-center",
        className,
      )}
    >
      <Spinner className="size-8 text-primary" />
      <p className="font-medium text-muted-foreground text-sm">{label}</p>
    </div>
  );
}

export { FullScreenSpinner, type FullScreenSpinnerProps };
