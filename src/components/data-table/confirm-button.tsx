import * as React from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Textarea } from "~/components/ui/textarea";

/**
 * A button that asks before it acts (bulk actions, deletes, revokes): the button and a
 * `ConfirmDialog` (src/components/confirm-dialog.tsx). The dialog stays open while `onConfirm`
 * runs so a slow request cannot be confirmed twice; an error `onConfirm` throws shows inside it.
 */
export function ConfirmButton({
  children,
  title,
  description,
  confirmLabel = "Confirm",
  destructive,
  disabled,
  size = "sm",
  variant = "outline",
  className,
  hint,
  reasonLabel,
  onConfirm,
}: {
  children: React.ReactNode;
  title: string;
  description: React.ReactNode;
  confirmLabel?: string;
  destructive?: boolean;
  disabled?: boolean;
  size?: "sm" | "default";
  variant?: "outline" | "default" | "destructive" | "ghost" | "secondary" | "link";
  className?: string;
  /** The trigger's tooltip (e.g. why it is disabled). */
  hint?: string;
  /** Asks for a reason (required, 3–500 characters) and passes it to `onConfirm`; it is audited. */
  reasonLabel?: string;
  onConfirm: (reason: string) => Promise<unknown> | unknown;
}) {
  const [open, setOpen] = React.useState(false);
  const [reason, setReason] = React.useState("");
  const trigger = React.useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={trigger}
        type="button"
        size={size}
        variant={variant}
        className={className}
        disabled={disabled}
        title={hint}
        aria-haspopup="dialog"
        onClick={() => {
          setReason("");
          setOpen(true);
        }}
      >
        {children}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        confirmLabel={confirmLabel}
        destructive={destructive}
        returnFocusRef={trigger}
        canConfirm={!reasonLabel || reason.trim().length >= 3}
        onConfirm={() => onConfirm(reason.trim())}
      >
        {reasonLabel ? (
          <Field label={reasonLabel} required description="At least 3 characters; kept in the audit log.">
            <Textarea value={reason} maxLength={500} rows={3} onChange={(e) => setReason(e.target.value)} />
          </Field>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
