import * as React from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { toMajorString, toMinor } from "~/lib/format";
import { CURRENCIES } from "../../../worker/lib/money";

const selectClass = "h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs";

export interface CampaignFormValue {
  title: string;
  slug?: string;
  shortDescription?: string | null;
  description?: string | null;
  currency: string;
  goalType: "none" | "amount" | "donations" | "donors";
  goalAmountMinor?: number | null;
  goalCount?: number | null;
  startAt?: number | null;
  endAt?: number | null;
  suggestedAmounts: number[];
  minAmountMinor: number;
  maxAmountMinor: number;
  visibility: "public" | "unlisted" | "private";
}

const day = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString().slice(0, 10) : "");

/** One form for create and edit; amounts typed in major units with the currency's decimals. */
export function CampaignForm({
  initial,
  onSubmit,
  pending,
  errors,
  submitLabel,
  currencyLocked,
}: {
  initial?: Partial<CampaignFormValue>;
  onSubmit: (v: CampaignFormValue) => void;
  pending: boolean;
  errors: Record<string, string>;
  submitLabel: string;
  currencyLocked?: boolean;
}) {
  const [goalType, setGoalType] = React.useState(initial?.goalType ?? "amount");
  const [currency, setCurrency] = React.useState(initial?.currency ?? "USD");
  const [local, setLocal] = React.useState<Record<string, string>>({});
  const err = (k: string) => local[k] ?? errors[k];
  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const problems: Record<string, string> = {};
    const money = (name: string, key: string, fallback?: number) => {
      const raw = String(f.get(name) ?? "").trim();
      if (!raw) return fallback;
      try {
        return toMinor(raw, currency);
      } catch {
        problems[key] = `Enter an amount like ${toMajorString(2500, currency)}`;
        return undefined;
      }
    };
    const suggested = String(f.get("suggested") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => {
        try {
          return toMinor(s, currency);
        } catch {
          problems.suggestedAmounts = "Separate amounts with commas, e.g. 25, 50, 100";
          return 0;
        }
      });
    const value: CampaignFormValue = {
      title: String(f.get("title") ?? ""),
      slug: String(f.get("slug") ?? "") || undefined,
      shortDescription: String(f.get("shortDescription") ?? "") || null,
      description: String(f.get("description") ?? "") || null,
      currency,
      goalType,
      goalAmountMinor: goalType === "amount" ? (money("goal", "goalAmountMinor") ?? null) : null,
      goalCount:
        goalType === "donations" || goalType === "donors" ? Number(f.get("goalCount")) || null : null,
      startAt: f.get("startAt") ? Date.parse(String(f.get("startAt"))) : null,
      endAt: f.get("endAt") ? Date.parse(String(f.get("endAt"))) : null,
      suggestedAmounts: suggested,
      minAmountMinor: money("min", "minAmountMinor", 100) ?? 100,
      maxAmountMinor: money("max", "maxAmountMinor", 99_999_999) ?? 99_999_999,
      visibility: String(f.get("visibility")) as CampaignFormValue["visibility"],
    };
    // The same bounds as the API's schema, checked here first so a typo costs no round trip.
    if (value.title.trim().length < 3) problems.title = "At least 3 characters";
    if (value.title.trim().length > 128) problems.title = "At most 128 characters";
    if (goalType === "amount" && !value.goalAmountMinor && !problems.goalAmountMinor)
      problems.goalAmountMinor = "Enter the goal amount";
    setLocal(problems);
    if (!Object.keys(problems).length) onSubmit(value);
  }
  return (
    <form onSubmit={submit} noValidate className="grid max-w-3xl gap-4 sm:grid-cols-2">
      <Field label="Title" required error={err("title")} className="sm:col-span-2">
        <Input name="title" defaultValue={initial?.title} maxLength={128} />
      </Field>
      <Field
        label="Short description"
        description="Shown on cards, at most 120 characters."
        error={err("shortDescription")}
        className="sm:col-span-2"
      >
        <Input name="shortDescription" defaultValue={initial?.shortDescription ?? ""} maxLength={120} />
      </Field>
      <Field label="Story" error={err("description")} className="sm:col-span-2">
        <Textarea name="description" defaultValue={initial?.description ?? ""} rows={5} />
      </Field>
      <Field
        label="Web address (slug)"
        description="Lower-case letters, digits and dashes. Old addresses keep working."
        error={err("slug")}
      >
        <Input name="slug" defaultValue={initial?.slug ?? ""} placeholder="generated from the title" />
      </Field>
      <Field
        label="Currency"
        description={currencyLocked ? "Fixed: the campaign has donations." : undefined}
        error={err("currency")}
      >
        <select
          className={selectClass}
          value={currency}
          disabled={currencyLocked}
          onChange={(e) => setCurrency(e.target.value)}
          aria-label="Currency"
        >
          {CURRENCIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </Field>
      <Field label="Goal">
        <select
          className={selectClass}
          value={goalType}
          onChange={(e) => setGoalType(e.target.value as CampaignFormValue["goalType"])}
          aria-label="Goal type"
        >
          <option value="amount">Amount raised</option>
          <option value="donations">Number of donations</option>
          <option value="donors">Number of donors</option>
          <option value="none">No goal</option>
        </select>
      </Field>
      {goalType === "amount" ? (
        <Field label={`Goal amount (${currency})`} required error={err("goalAmountMinor")}>
          <Input
            name="goal"
            inputMode="decimal"
            defaultValue={initial?.goalAmountMinor ? toMajorString(initial.goalAmountMinor, currency) : ""}
          />
        </Field>
      ) : goalType === "none" ? (
        <div />
      ) : (
        <Field label="Goal count" required error={err("goalCount")}>
          <Input name="goalCount" type="number" min={1} defaultValue={initial?.goalCount ?? ""} />
        </Field>
      )}
      <Field label="Starts" error={err("startAt")}>
        <Input name="startAt" type="date" defaultValue={day(initial?.startAt)} />
      </Field>
      <Field label="Ends" error={err("endAt")}>
        <Input name="endAt" type="date" defaultValue={day(initial?.endAt)} />
      </Field>
      <Field
        label="Suggested amounts"
        description="Comma-separated, e.g. 25, 50, 100"
        error={err("suggestedAmounts")}
      >
        <Input
          name="suggested"
          defaultValue={(initial?.suggestedAmounts ?? []).map((a) => toMajorString(a, currency)).join(", ")}
        />
      </Field>
      <Field label="Visibility">
        <select name="visibility" className={selectClass} defaultValue={initial?.visibility ?? "public"}>
          <option value="public">Public</option>
          <option value="unlisted">Unlisted (link only)</option>
          <option value="private">Private</option>
        </select>
      </Field>
      <Field label={`Minimum gift (${currency})`} error={err("minAmountMinor")}>
        <Input
          name="min"
          inputMode="decimal"
          defaultValue={toMajorString(initial?.minAmountMinor ?? 100, currency)}
        />
      </Field>
      <Field label={`Maximum gift (${currency})`} error={err("maxAmountMinor")}>
        <Input
          name="max"
          inputMode="decimal"
          defaultValue={toMajorString(initial?.maxAmountMinor ?? 99_999_999, currency)}
        />
      </Field>
      {errors._ ? (
        <p role="alert" className="text-destructive text-sm sm:col-span-2">
          {errors._}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}
