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
  /**
   * Validation message(s). When present the control is marked `aria-invalid`. A message is about
   * the value it was given for: once the control is changed it is hidden until the form is
   * submitted again, unless the form keeps its errors up to date itself (`onEdit`, given by
   * `useFormErrors`).
   */
  error?: FieldErrorValue;
  /** Called when the control changes; the form then decides what the error says (useFormErrors). */
  onEdit?: () => void;
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
  onEdit,
  ...props
}: FieldProps) {
  const generatedId = React.useId();
  const id = idProp ?? `field-${generatedId}`;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const given = normalizeErrors(error);
  const stale = useStaleError(given, !onEdit);
  const errors = stale.hidden ? [] : given;
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
        ref={stale.ref}
        onInput={onEdit ?? stale.edited}
        onChange={onEdit ?? stale.edited}
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
      ref={stale.ref}
      onInput={onEdit ?? stale.edited}
      onChange={onEdit ?? stale.edited}
    >
      {labelNode}
      {control}
      {messages}
    </div>
  );
}

/**
 * An error the form set on submit and never revisits: hidden from the control's first change
 * until the form is submitted again (a fixed value must not stay marked wrong). Forms that
 * re-check as the user types (useFormErrors) manage their errors instead.
 */
function useStaleError(errors: readonly React.ReactNode[], enabled: boolean) {
  const ref = React.useRef<HTMLDivElement>(null);
  const text = errors.map((e) => (typeof e === "string" ? e : "\u0000")).join("\n");
  const [editedAt, setEditedAt] = React.useState<string | null>(null);
  React.useEffect(() => {
    if (!enabled) return;
    const form = ref.current?.closest("form");
    if (!form) return;
    const reset = () => setEditedAt(null);
    form.addEventListener("submit", reset);
    form.addEventListener("reset", reset);
    return () => {
      form.removeEventListener("submit", reset);
      form.removeEventListener("reset", reset);
    };
  }, [enabled]);
  return {
    ref,
    hidden: enabled && errors.length > 0 && editedAt === text,
    edited: enabled && errors.length > 0 ? () => setEditedAt(text) : undefined,
  };
}

/**
 * A form's field errors, kept true while the user fixes them: set on submit from the form's own
 * `check` (the same rules the API applies, read from the form as it is) and from the server's
 * answer; after that, every change re-runs `check`, so an error goes as soon as its field is
 * valid and a message follows the value (no new error appears before the next submit). A server
 * error (a slug taken) goes when its field is changed. Spread `form` on the <form> and
 * `field(key)` on each <Field>.
 */
function useFormErrors(check?: (form: HTMLFormElement) => Record<string, string>) {
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const server = React.useRef(new Set<string>());
  const formRef = React.useRef<HTMLFormElement>(null);
  const checkRef = React.useRef(check);
  checkRef.current = check;
  const recheck = React.useCallback(() => {
    const form = formRef.current;
    const run = checkRef.current;
    if (!form || !run) return;
    setErrors((prev) => {
      if (!Object.keys(prev).length) return prev;
      const now = run(form);
      const next: Record<string, string> = {};
      for (const [k, v] of Object.entries(prev)) {
        if (server.current.has(k)) next[k] = v;
        else if (now[k]) next[k] = now[k];
      }
      return sameErrors(prev, next) ? prev : next;
    });
  }, []);
  return {
    errors,
    /** The form's own problems, found on submit (replaces every error). */
    show: React.useCallback((problems: Record<string, string>) => {
      server.current = new Set();
      setErrors(problems);
    }, []),
    /** The server's refusal, by field (added to the form's own). */
    showServer: React.useCallback((fields: Record<string, string>) => {
      server.current = new Set([...server.current, ...Object.keys(fields)]);
      setErrors((prev) => ({ ...prev, ...fields }));
    }, []),
    clear: React.useCallback(() => {
      server.current = new Set();
      setErrors({});
    }, []),
    form: { ref: formRef, onChange: recheck },
    field: (key: string) => ({
      error: errors[key],
      onEdit: () => {
        if (!server.current.has(key)) return;
        server.current.delete(key);
        setErrors(({ [key]: _, ...rest }) => rest);
      },
    }),
  };
}

function sameErrors(a: Record<string, string>, b: Record<string, string>) {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
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

export {
  Field,
  type FieldControlProps,
  FieldDescription,
  FieldError,
  type FieldErrorValue,
  type FieldProps,
  useFormErrors,
};
