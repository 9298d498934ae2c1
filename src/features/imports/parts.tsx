/** Small pieces the import page's steps share: the step frame, the step list, radios, selects. */
import * as React from "react";
import { Badge } from "~/components/ui/badge";
import { Progress } from "~/components/ui/progress";
import { formatCount } from "~/lib/format";
import { SM_UP, useMediaQuery } from "~/lib/use-media-query";
import { cn } from "~/lib/utils";

const STEPS = [
  { id: "file", label: "Choose a file" },
  { id: "map", label: "Map columns" },
  { id: "options", label: "Options" },
  { id: "preview", label: "Preview" },
  { id: "run", label: "Import" },
] as const;
export type StepId = (typeof STEPS)[number]["id"];

/** Where the user is: every step numbered, the current one named on a phone too. */
export function Stepper({ step }: { step: StepId }) {
  const at = STEPS.findIndex((s) => s.id === step);
  return (
    <nav aria-label="Import steps">
      <ol className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
        {STEPS.map((s, i) => {
          const current = i === at;
          return (
            <li
              key={s.id}
              aria-current={current ? "step" : undefined}
              className={cn(
                "flex items-center gap-2",
                current ? "font-medium text-foreground" : "text-muted-foreground",
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  "flex size-6 shrink-0 items-center justify-center rounded-full border text-xs tabular-nums",
                  current && "border-primary bg-primary text-primary-foreground",
                  i < at && "border-primary text-foreground",
                )}
              >
                {i + 1}
              </span>
              <span className={cn(!current && "max-sm:sr-only")}>
                <span className="sr-only">
                  Step {i + 1} of {STEPS.length}
                  {i < at ? " (done)" : ""}:{" "}
                </span>
                {s.label}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * One step: its heading (focused when the step opens, so a keyboard or screen reader lands on it),
 * what it asks, its content and its buttons.
 */
export function StepSection({
  title,
  description,
  children,
  footer,
  focusOnMount,
  headingId,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  footer?: React.ReactNode;
  focusOnMount: boolean;
  headingId?: string;
}) {
  const ref = React.useRef<HTMLHeadingElement>(null);
  const generated = React.useId();
  const id = headingId ?? generated;
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  React.useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, []);
  return (
    <section
      aria-labelledby={id}
      className="flex min-w-0 flex-col gap-5 rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-6"
    >
      <div className="space-y-1">
        <h2
          id={id}
          ref={ref}
          tabIndex={-1}
          className="rounded-sm font-semibold text-lg outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          {title}
        </h2>
        {description ? <div className="text-pretty text-muted-foreground text-sm">{description}</div> : null}
      </div>
      {children}
      {footer ? (
        <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-4">{footer}</div>
      ) : null}
    </section>
  );
}

/** Both layouts with CSS while the width is unknown (server render), then only the one that fits. */
export function ByWidth({ wide, narrow }: { wide: () => React.ReactNode; narrow: () => React.ReactNode }) {
  const smUp = useMediaQuery(SM_UP);
  if (smUp === undefined)
    return (
      <>
        <div className="max-sm:hidden">{wide()}</div>
        <div className="sm:hidden">{narrow()}</div>
      </>
    );
  return <>{smUp ? wide() : narrow()}</>;
}

export function RadioOption({
  name,
  value,
  checked,
  onChange,
  label,
  description,
  disabled,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: (value: string) => void;
  label: string;
  description?: React.ReactNode;
  disabled?: boolean;
}) {
  const id = React.useId();
  return (
    <div className="flex items-start gap-2">
      <input
        type="radio"
        id={id}
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => onChange(value)}
        aria-describedby={description ? `${id}-d` : undefined}
        className="mt-0.5 size-4 shrink-0 accent-primary"
      />
      <div className="grid min-w-0 gap-0.5">
        <label htmlFor={id} className="font-medium text-sm leading-snug">
          {label}
        </label>
        {description ? (
          <p id={`${id}-d`} className="text-muted-foreground text-sm">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** A batch run's bar: named, with the rows as its value so a screen reader hears "120 of 500 rows". */
export function RowsProgress({ label, done, total }: { label: string; done: number; total: number }) {
  return (
    <Progress
      aria-label={label}
      value={Math.min(done, total)}
      max={Math.max(total, 1)}
      getValueLabel={(v, max) => `${formatCount(v)} of ${formatCount(max)}`}
    />
  );
}

/** A count with its label, in a grid of them (a dry run's tally, an import's result). */
export function Counts({ items }: { items: readonly { label: string; value: number; testId?: string }[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
      {items.map((c) => (
        <div key={c.label} className="rounded-lg border bg-background p-3">
          <dt className="text-muted-foreground text-sm">{c.label}</dt>
          <dd className="font-semibold text-xl tabular-nums" data-testid={c.testId}>
            {formatCount(c.value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Badge tones that keep 4.5:1 in both schemes (the status badges' own: src/components/status-badge.tsx). */
const TONES = {
  success: "border-transparent bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200",
  warning: "border-transparent bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  danger: "border-transparent bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200",
  neutral: "border-transparent bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  outline: "",
} as const;
export type Tone = keyof typeof TONES;

export function ToneBadge({ tone, children }: { tone: Tone; children: React.ReactNode }) {
  return (
    <Badge variant={tone === "outline" ? "outline" : "secondary"} className={TONES[tone]}>
      {children}
    </Badge>
  );
}
