/**
 * A button whose dialog loads on demand: the dialog's module is fetched when the pointer or focus
 * reaches the button and mounted on the first click, so a list page does not carry a form it may
 * never open (docs/performance.md's client budgets). The dialog gets `open`, `onOpenChange` and
 * the button to give focus back to on close (its `onCloseAutoFocus`).
 */
import type { LucideIcon } from "lucide-react";
import * as React from "react";
import { Button } from "~/components/ui/button";

interface LazyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef: React.RefObject<HTMLButtonElement | null>;
}

/** A lazy dialog's `onCloseAutoFocus`: focus goes back to its button, which is no Radix trigger. */
export function returnFocusTo(ref: React.RefObject<HTMLButtonElement | null>) {
  return (e: Event) => {
    e.preventDefault();
    ref.current?.focus();
  };
}

export function lazyDialogButton<P extends object>(opts: {
  label: string;
  icon: LucideIcon;
  /** The dialog's module, and what to fetch ahead with it (a search it opens with). */
  load: () => Promise<React.ComponentType<P & LazyDialogProps>>;
  preload?: () => void;
}) {
  const Body = React.lazy(() => opts.load().then((c) => ({ default: c })));
  const preload = () => {
    void opts.load();
    opts.preload?.();
  };
  const Icon = opts.icon;
  return function LazyDialogButton(props: P) {
    const [open, setOpen] = React.useState(false);
    const [mounted, setMounted] = React.useState(false);
    const button = React.useRef<HTMLButtonElement>(null);
    const body = { ...props, open, onOpenChange: setOpen, returnFocusRef: button } as P & LazyDialogProps;
    return (
      <>
        <Button
          ref={button}
          aria-haspopup="dialog"
          aria-expanded={open}
          onPointerEnter={preload}
          onFocus={preload}
          onClick={() => {
            setMounted(true);
            setOpen(true);
          }}
        >
          <Icon className="size-4" aria-hidden /> {opts.label}
        </Button>
        {mounted ? (
          <React.Suspense fallback={null}>
            <Body {...body} />
          </React.Suspense>
        ) : null}
      </>
    );
  };
}
