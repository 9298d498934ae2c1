import {
  type CampaignInput,
  campaignInput,
  type GoalType,
  MAX_SUGGESTED_AMOUNTS,
  repeatedAmountMessage,
} from "@core/campaign";
import { CURRENCIES, exponentOf, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "@core/money";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { X } from "lucide-react";
import * as React from "react";
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";
import { ImageUpload } from "~/components/image-upload";
import { Button } from "~/components/ui/button";
import { Field, useFormErrors } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { formatMoney } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";

/** What the form sends: core/campaign.ts's schema, the one the API parses (DESIGN §5.3). */
type CampaignFormValue = CampaignInput;

// The shared schema is zod/mini, which ships no messages: the form shows English ones, the same
// the Worker answers with (classic zod registers this locale there).
config(en());

/**
 * Dates are whole days in the organization's time zone: a campaign starts at local midnight of its
 * first day and ends at local midnight after its last day (so "ends 31 March" includes 31 March).
 */
const startDay = (ms: number | null | undefined, tz: string) => (ms ? localDay(ms, tz) : "");
const endDay = (ms: number | null | undefined, tz: string) => (ms ? localDay(ms - 1, tz) : "");

/** One form for create and edit; amounts typed in major units with the currency's decimals. */
export function CampaignForm({
  initial,
  onSubmit,
  pending,
  errors,
  submitLabel,
  currencyLocked,
  timeZone,
}: {
  /** The campaign being edited (the API's shape), or a new one's defaults. */
  initial?: Partial<Omit<CampaignFormValue, "currency">> & { currency?: string };
  onSubmit: (v: CampaignFormValue) => void;
  pending: boolean;
  errors: Record<string, string>;
  submitLabel: string;
  currencyLocked?: boolean;
  /** The organization's IANA time zone; the dates are its days. */
  timeZone: string;
}) {
  const [goalType, setGoalType] = React.useState<GoalType>(initial?.goalType ?? "amount");
  const [currency, setCurrency] = React.useState<string>(initial?.currency ?? "USD");
  const [cover, setCover] = React.useState<string | null>(initial?.coverUrl ?? null);
  // A campaign saved before repeats were refused may hold one twice: the form keeps it once, so
  // saving it again is not refused for an amount the user never typed twice.
  const [suggested, setSuggested] = React.useState<number[]>(() => [
    ...new Set(initial?.suggestedAmounts ?? []),
  ]);
  const [draftAmount, setDraftAmount] = React.useState("");
  const [suggestedError, setSuggestedError] = React.useState<string | null>(null);
  const money = useMoneyInput();
  const exampleAmount = money.show(2500 * 10 ** (exponentOf(currency) - 2), currency);
  function addSuggested() {
    const raw = draftAmount.trim();
    if (!raw) return;
    const read = money.read(raw, currency);
    if (!read.ok) {
      setSuggestedError(read.message);
      return;
    }
    const minor = read.minor;
    if (minor <= 0 || suggested.includes(minor)) {
      setSuggestedError(minor <= 0 ? "Above zero" : repeatedAmountMessage(minor, currency));
      return;
    }
    if (suggested.length >= MAX_SUGGESTED_AMOUNTS) {
      setSuggestedError(`At most ${MAX_SUGGESTED_AMOUNTS} amounts`);
      return;
    }
    setSuggested([...suggested, minor].sort((a, b) => a - b));
    setDraftAmount("");
    setSuggestedError(null);
  }
  /** The form as the API would take it, and what is wrong with it: run on submit and as the user fixes it. */
  function read(form: HTMLFormElement) {
    const f = new FormData(form);
    const problems: Record<string, string> = {};
    const amount = (name: string, key: string, fallback?: number) => {
      const raw = String(f.get(name) ?? "").trim();
      if (!raw) return fallback;
      const r = money.read(raw, currency);
      if (r.ok) return r.minor;
      problems[key] = r.message;
      return undefined;
    };
    const value = {
      title: String(f.get("title") ?? ""),
      slug: String(f.get("slug") ?? "") || undefined,
      shortDescription: String(f.get("shortDescription") ?? "") || null,
      description: String(f.get("description") ?? "") || null,
      coverUrl: cover,
      currency,
      goalType,
      goalAmountMinor: goalType === "amount" ? (amount("goal", "goalAmountMinor") ?? null) : null,
      goalCount:
        goalType === "donations" || goalType === "donors" ? Number(f.get("goalCount")) || null : null,
      startAt: f.get("startAt") ? startOfLocalDay(String(f.get("startAt")), timeZone) : null,
      endAt: f.get("endAt") ? startOfLocalDay(addDays(String(f.get("endAt")), 1), timeZone) : null,
      suggestedAmounts: suggested,
      minAmountMinor: amount("min", "minAmountMinor", MIN_AMOUNT_MINOR) ?? MIN_AMOUNT_MINOR,
      maxAmountMinor: amount("max", "maxAmountMinor", MAX_AMOUNT_MINOR) ?? MAX_AMOUNT_MINOR,
      allowRecurring: f.get("allowRecurring") === "on",
      acceptAfterEnd: f.get("acceptAfterEnd") === "on",
      completeOnGoal: f.get("completeOnGoal") === "on",
      visibility: String(f.get("visibility")),
    };
    // The API's own schema, checked here first so a typo costs no round trip; an amount that did
    // not parse keeps its own message.
    const parsed = campaignInput.safeParse(value);
    if (!parsed.success)
      for (const issue of parsed.error.issues) problems[String(issue.path[0])] ??= issue.message;
    return { problems, data: parsed.success ? parsed.data : null };
  }
  const form = useFormErrors((el) => read(el).problems);
  // The server's refusal (a slug taken), by field, beside the form's own.
  React.useEffect(() => {
    const { _: _general, ...fields } = errors;
    if (Object.keys(fields).length) form.showServer(fields);
  }, [errors, form.showServer]);
  const err = (k: string) => form.field(k);
  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const { problems, data } = read(e.currentTarget);
    form.show(problems);
    if (data && !Object.keys(problems).length) onSubmit(data);
  }
  return (
    <form {...form.form} onSubmit={submit} noValidate className="grid max-w-3xl gap-4 sm:grid-cols-2">
      <Field label="Title" required {...err("title")} className="sm:col-span-2">
        <Input name="title" defaultValue={initial?.title} maxLength={128} />
      </Field>
      <Field
        label="Short description"
        description="Shown on cards, at most 120 characters."
        {...err("shortDescription")}
        className="sm:col-span-2"
      >
        <Input name="shortDescription" defaultValue={initial?.shortDescription ?? ""} maxLength={120} />
      </Field>
      <Field label="Story" {...err("description")} className="sm:col-span-2">
        <Textarea name="description" defaultValue={initial?.description ?? ""} rows={5} />
      </Field>
      <ImageUpload
        label="Cover image"
        description="PNG, JPEG or WebP up to 1 MB; shown on the public page."
        value={cover}
        onChange={setCover}
        error={form.errors.coverUrl}
        className="sm:col-span-2"
      />
      <Field
        label="Web address (slug)"
        description="Lower-case letters, digits and dashes. Old addresses keep working."
        {...err("slug")}
      >
        <Input name="slug" defaultValue={initial?.slug ?? ""} placeholder="generated from the title" />
      </Field>
      <Field
        label="Currency"
        description={currencyLocked ? "Fixed: the campaign has donations." : undefined}
        {...err("currency")}
      >
        <NativeSelect
          className="w-full px-3"
          value={currency}
          disabled={currencyLocked}
          onChange={(e) => {
            // Keep the suggested amounts' face value (25.00 USD → 25.00 EUR, 2500 JPY → 25.00 USD).
            const shift = exponentOf(e.target.value) - exponentOf(currency);
            setSuggested((list) => list.map((a) => Math.max(1, Math.round(a * 10 ** shift))));
            setCurrency(e.target.value);
          }}
          aria-label="Currency"
        >
          {CURRENCIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Goal">
        <NativeSelect
          className="w-full px-3"
          value={goalType}
          onChange={(e) => setGoalType(e.target.value as GoalType)}
          aria-label="Goal type"
        >
          <option value="amount">Amount raised</option>
          <option value="donations">Number of donations</option>
          <option value="donors">Number of donors</option>
          <option value="none">No goal</option>
        </NativeSelect>
      </Field>
      {goalType === "amount" ? (
        <Field label={`Goal amount (${currency})`} required {...err("goalAmountMinor")}>
          <Input
            name="goal"
            inputMode="decimal"
            defaultValue={initial?.goalAmountMinor ? money.show(initial.goalAmountMinor, currency) : ""}
          />
        </Field>
      ) : goalType === "none" ? (
        <div />
      ) : (
        <Field label="Goal count" required {...err("goalCount")}>
          <Input name="goalCount" type="number" min={1} defaultValue={initial?.goalCount ?? ""} />
        </Field>
      )}
      <Field label="Starts" description={`First day, ${timeZone} time.`} {...err("startAt")}>
        <Input name="startAt" type="date" defaultValue={startDay(initial?.startAt, timeZone)} />
      </Field>
      <Field label="Ends" description="Last day included; leave empty for no end." {...err("endAt")}>
        <Input name="endAt" type="date" defaultValue={endDay(initial?.endAt, timeZone)} />
      </Field>
      <Field
        label={`Suggested amounts (${currency})`}
        description="Up to 8 amounts donors can pick with one tap."
        error={suggestedError ?? form.errors.suggestedAmounts}
        className="sm:col-span-2"
      >
        {(control) => (
          <div className="flex flex-col gap-2">
            <div className="flex gap-2">
              <Input
                {...control}
                inputMode="decimal"
                placeholder={exampleAmount}
                value={draftAmount}
                onChange={(e) => setDraftAmount(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    addSuggested();
                  }
                }}
                className="max-w-40"
              />
              <Button type="button" variant="outline" onClick={addSuggested}>
                Add amount
              </Button>
            </div>
            {suggested.length ? (
              <ul className="flex flex-wrap gap-2" aria-label="Suggested amounts">
                {suggested.map((a) => (
                  <li
                    key={a}
                    className="flex items-center gap-1 rounded-full border bg-muted py-0.5 pr-1 pl-3 text-sm tabular-nums"
                  >
                    {formatMoney(a, currency)}
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-6 rounded-full"
                      aria-label={`Remove ${formatMoney(a, currency)}`}
                      onClick={() => setSuggested(suggested.filter((x) => x !== a))}
                    >
                      <X className="size-3.5" />
                    </Button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-muted-foreground text-sm">No suggested amounts: donors type their own.</p>
            )}
          </div>
        )}
      </Field>
      <Field label="Visibility">
        <NativeSelect
          name="visibility"
          className="w-full px-3"
          defaultValue={initial?.visibility ?? "public"}
        >
          <option value="public">Public</option>
          <option value="unlisted">Unlisted (link only)</option>
          <option value="private">Private</option>
        </NativeSelect>
      </Field>
      <Field label={`Minimum donation (${currency})`} {...err("minAmountMinor")}>
        <Input
          name="min"
          inputMode="decimal"
          defaultValue={money.show(initial?.minAmountMinor ?? MIN_AMOUNT_MINOR, currency)}
        />
      </Field>
      <Field label={`Maximum donation (${currency})`} {...err("maxAmountMinor")}>
        <Input
          name="max"
          inputMode="decimal"
          defaultValue={money.show(initial?.maxAmountMinor ?? MAX_AMOUNT_MINOR, currency)}
        />
      </Field>
      <fieldset className="flex flex-col gap-2 sm:col-span-2">
        <legend className="mb-1 font-medium text-sm">Options</legend>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="allowRecurring"
            defaultChecked={initial?.allowRecurring ?? true}
            className="mt-0.5 size-4"
          />
          <span>
            Allow recurring donations
            <span className="block text-muted-foreground">Monthly, quarterly or annually.</span>
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="acceptAfterEnd"
            defaultChecked={initial?.acceptAfterEnd ?? false}
            className="mt-0.5 size-4"
          />
          <span>
            Keep accepting donations after the end date
            <span className="block text-muted-foreground">
              Otherwise the campaign completes when it ends.
            </span>
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="completeOnGoal"
            defaultChecked={initial?.completeOnGoal ?? false}
            className="mt-0.5 size-4"
          />
          <span>Complete the campaign when its goal is reached</span>
        </label>
      </fieldset>
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
