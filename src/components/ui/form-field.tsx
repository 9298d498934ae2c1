import * as React from "react";

import { Label } from "~/components/ui/label";
import { Slot } from "~/components/ui/slot";
import { cn } from "~/lib/utils";

/** Props a form control receives from `<Field>` so that it is labelled and described correctly. */
type FieldControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  "aria-required": true | undefined;
};

/** A single message, a list of messages (e.g. from a schema validator), or nothing. */
type FieldErrorValue = React.ReactNode | readonly React.ReactNode[];

type FieldProps = Omit<React.ComponentProps<"div">, "children"> & {
  /** Visible label text, linked to the control through `htmlFor`/`id`. */
  label: React.ReactNode;
  /**
   * The control. Either a single element (it receives `id`, `aria-invalid`, `aria-describedby` and
   * `aria-required`), or a render function receiving those props, for composite controls such as
   * `Select` where they belong on an inner element (`<SelectTrigger {...props}>`).
   */
  children: React.ReactElement | ((controlProps: FieldControlProps) => React.ReactNode);
  /** Help text shown under the control. */
  description?: React.ReactNode;
  /** Validation message(s). When present the control is marked `aria-invalid`. */
  error?: FieldErrorValue;
  /** Adds a required marker to the label and `aria-required` to the control. */
  required?: boolean;
  /** Control id; generated when omitted. */
  id?: string;
  /**
   * `vertical` stacks label, control and messages (text inputs). `horizontal` puts the control
   * before the label on one line (checkboxes, switches).
   */
  orientation?: "vertical" | "horizontal";
  /** Renders the label for screen readers only. */
  hideLabel?: boolean;
  labelClassName?: string;
};

function normalizeErrors(error: FieldErrorValue): React.ReactNode[] {
  const list: readonly React.ReactNode[] = Array.isArray(error) ? error : [error];
  const seen = new Set<string>();
  const result: React.ReactNode[] = [];
  for (const item of list) {
    if (item === null || item === undefined || item === false || item === true || item === "") continue;
    if (typeof item === "string") {
      if (seen.has(item)) continue;
      seen.add(item);
    }
    result.push(item);
  }
  return result;
}

function Field({
  label,
  children,
  description,
  error,
  required = false,
  id: idProp,
  orientation = "vertical",
  hideLabel = false,
  className,
  labelClassName,
  ...props
}: FieldProps) {
  const generatedId = React.useId();
  const id = idProp ?? `field-${generatedId}`;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const errors = normalizeErrors(error);
  const invalid = errors.length > 0;

  const describedBy = [description ? descriptionId : null, invalid ? errorId : null]
    .filter(Boolean)
    .join(" ");

  const controlProps: FieldControlProps = {
    id,
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": describedBy || undefined,
    "aria-required": required ? true : undefined,
  };

  const control =
    typeof children === "function" ? children(controlProps) : <Slot {...controlProps}>{children}</Slot>;

  const labelNode = (
    <Label htmlFor={id} className={cn(hideLabel && "sr-only", labelClassName)}>
      {label}
      {required && (
        <span aria-hidden="true" className="text-destructive">
          *
        </span>
      )}
    </Label>
  );

  const messages = (
    <>
      {description ? <FieldDescription id={descriptionId}>{description}</FieldDescription> : null}
      {invalid ? <FieldError id={errorId} errors={errors} /> : null}
    </>
  );

  if (orientation === "horizontal") {
    return (
      <div
        data-slot="field"
        data-orientation="horizontal"
        data-invalid={invalid || undefined}
        className={cn("group/field flex items-start gap-3", className)}
        {...props}
      >
        <div className="flex min-h-5 items-center">{control}</div>
        <div className="grid min-w-0 gap-1.5">
          <div className="flex min-h-5 items-center">{labelNode}</div>
          {messages}
        </div>
      </div>
    );
  }

  return (
    <div
      data-slot="field"
      data-orientation="vertical"
      data-invalid={invalid || undefined}
      // content-start: beside a taller field in a form's grid row, label and control stay together.
      className={cn("group/field grid content-start gap-2", className)}
      {...props}
    >
      {labelNode}
      {control}
      {messages}
    </div>
  );
}

function FieldDescription({ className, ...props }: React.ComponentProps<"p">) {
  return (
    <p data-slot="field-description" className={cn("text-muted-foreground text-sm", className)} {...props} />
  );
}

function FieldError({
  className,
  errors,
  children,
  ...props
}: React.ComponentProps<"div"> & { errors?: readonly React.ReactNode[] }) {
  const items = children ? [children] : (errors ?? []);
  if (items.length === 0) return null;

  return (
    <div
      data-slot="field-error"
      role="alert"
      className={cn("grid gap-0.5 font-medium text-destructive text-sm", className)}
      {...props}
    >
      {items.map((item, index) => (
        <p key={index}>{item}</p>
      ))}
    </div>
  );
}

export { Field, type FieldControlProps, FieldDescription, FieldError, type FieldErrorValue, type FieldProps };
