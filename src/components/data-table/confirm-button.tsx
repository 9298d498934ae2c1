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
  const reason = useConfirmReason(reasonLabel);
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
          reason.reset();
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
        canConfirm={reason.ok}
        onConfirm={() => onConfirm(reason.text)}
      >
        {reason.field}
      </ConfirmDialog>
    </>
  );
}

/**
 * The reason a confirm dialog asks for when `label` is given (required, 3–500 characters; it is
 * audited): its field for the dialog, the trimmed text, whether it may be confirmed, and a reset.
 */
export function useConfirmReason(label: string | undefined) {
  const [reason, setReason] = React.useState("");
  const text = reason.trim();
  return {
    text,
    ok: !label || text.length >= 3,
    reset: () => setReason(""),
    field: label ? (
      <Field label={label} required description="At least 3 characters; kept in the audit log.">
        <Textarea value={reason} maxLength={500} rows={3} onChange={(e) => setReason(e.target.value)} />
      </Field>
    ) : null,
  };
}
