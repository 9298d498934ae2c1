import * as React from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { errorInfo } from "~/lib/format";

const FIELD_SELECTOR =
  "input:not([type=hidden]):not(:disabled), textarea:not(:disabled), select:not(:disabled), [data-autofocus]";

/**
 * The app's one way to ask before acting, in place of the browser's prompt and confirm.
 *
 * - Controlled (`open`/`onOpenChange`) so a menu item, a button or a form can open it.
 * - Cancel, Escape and the overlay close it without calling `onConfirm`.
 * - Initial focus: the first field in `children` if there is one, otherwise Cancel (the safe
 *   choice for a destructive confirm). On close, focus returns to `returnFocusRef`, or else to the
 *   element that had focus when the dialog opened (if it is still in the page).
 * - While `onConfirm` runs the buttons are disabled and the dialog cannot be dismissed, so a slow
 *   request cannot be sent twice; if it throws, its message shows inside the dialog and the
 *   dialog stays open. It closes itself when `onConfirm` resolves.
 *
 * `children` are labelled fields (use `Field` from components/ui/form-field.tsx); their values are
 * the caller's state, and `canConfirm` says whether they are valid.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel = "Cancel",
  destructive = false,
  canConfirm = true,
  onConfirm,
  returnFocusRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  description: React.ReactNode;
  children?: React.ReactNode;
  /** A verb that names the act ("Ban user", "Delete note"), never "OK". */
  confirmLabel: string;
  /** The way out, when "Cancel" would read as the act itself ("Keep plan" next to "Cancel plan"). */
  cancelLabel?: string;
  destructive?: boolean;
  canConfirm?: boolean;
  onConfirm: () => Promise<unknown> | unknown;
  returnFocusRef?: React.RefObject<HTMLElement | null>;
}) {
  const [busy, setBusy] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  const contentRef = React.useRef<HTMLDivElement>(null);
  const opener = React.useRef<HTMLElement | null>(null);

  // Before the dialog moves focus inside (a layout effect runs before the focus scope's effect).
  React.useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    setError(null);
  }, [open]);

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) onOpenChange(next);
      }}
    >
      <AlertDialogContent
        ref={contentRef}
        onOpenAutoFocus={(e) => {
          const field = contentRef.current?.querySelector<HTMLElement>(FIELD_SELECTOR);
          if (field) {
            e.preventDefault();
            field.focus();
          }
        }}
        onCloseAutoFocus={(e) => {
          const back = returnFocusRef?.current ?? (opener.current?.isConnected ? opener.current : null);
          if (back) {
            e.preventDefault();
            back.focus();
          }
        }}
      >
        <form
          className="grid gap-4"
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            if (busy || !canConfirm) return;
            setBusy(true);
            setError(null);
            try {
              await onConfirm();
              onOpenChange(false);
            } catch (err) {
              setError(errorInfo(err).message);
            } finally {
              setBusy(false);
            }
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>{title}</AlertDialogTitle>
            <AlertDialogDescription>{description}</AlertDialogDescription>
          </AlertDialogHeader>
          {children ? <div className="grid gap-4">{children}</div> : null}
          {error ? (
            <p role="alert" className="text-destructive text-sm">
              {error}
            </p>
          ) : null}
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={busy}>
              {cancelLabel}
            </AlertDialogCancel>
            <Button
              type="submit"
              variant={destructive ? "destructive" : "default"}
              disabled={busy || !canConfirm}
              aria-busy={busy || undefined}
            >
              {busy ? <Spinner /> : null}
              {confirmLabel}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
