/**
 * "New plan" (issue 24, plans.create, donation:create): a plan entered by hand — a standing order,
 * a pledge paid by check. The server decides (worker/plans/service.ts createPlan); the form only
 * refuses what it cannot send (no donor, an amount that is not one) and shows the server's field
 * errors under their fields. Its button is ./new-plan-button.tsx: this module loads on the first
 * click (or hover), not with the list.
 */

import { PAYMENT_METHOD_LABELS, paymentMethods } from "@core/labels";
import { CURRENCIES } from "@core/money";
import { PLAN_INTERVAL_LABELS, planIntervals } from "@core/plans";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { type CampaignChoice, CampaignCombobox, type CampaignScope } from "~/components/campaign-combobox";
import type { DonorChoice } from "~/components/donor-combobox";
import { DonorField } from "~/components/donor-field";
import { FormDialogFooter } from "~/components/form-dialog-footer";
import { returnFocusTo } from "~/components/lazy-dialog-button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { errorInfo } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";
import { useToday } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

export { preloadDonorSearch } from "~/components/donor-field";

// A new plan gives to a campaign that takes gifts now or after a pause: the picker offers those
// (the server takes any campaign of the plan's currency, as the list offered before).
const PLAN_CAMPAIGNS: CampaignScope = { status: ["active", "paused"] };

/** plans.create's fields that have a place in the form (their errors show under them). */
const FORM_FIELDS = [
  "donorId",
  "campaignId",
  "amountMinor",
  "currency",
  "interval",
  "startDay",
  "dayOfMonth",
  "paymentMethod",
];

export function NewPlanDialogBody({
  donorId,
  open,
  onOpenChange,
  returnFocusRef,
}: {
  donorId?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes back on close (the dialog has no Radix trigger: the button is outside it). */
  returnFocusRef: React.RefObject<HTMLButtonElement | null>;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  // The organization's today: the day the server reads startDay in.
  const today = useToday();
  const [fields, setFields] = React.useState<Record<string, string>>({});
  const money = useMoneyInput();
  const [donor, setDonor] = React.useState<DonorChoice | null>(null);
  const [campaign, setCampaign] = React.useState<CampaignChoice | null>(null);
  const [currency, setCurrency] = React.useState<string | null>(null);
  const org = useQuery({ ...trpc.organization.current.queryOptions(), enabled: open });
  // A campaign collects one currency (the server refuses another); otherwise the organization's
  // default until the user picks one.
  const cur = campaign?.currency ?? currency ?? org.data?.defaultCurrency ?? "USD";
  const create = useMutation(
    trpc.plans.create.mutationOptions({
      onSuccess: async (p) => {
        toast.success(`Plan for ${p.donorName ?? "the donor"} created`);
        onOpenChange(false);
        await qc.invalidateQueries({ queryKey: trpc.plans.pathKey() });
        await navigate({ to: "/recurring/$planId", params: { planId: p.id } });
      },
      onError: (e) => setFields(errorInfo(e).fields),
    }),
  );

  function reset(o: boolean) {
    onOpenChange(o);
    setFields({});
    create.reset();
    if (!o) {
      setDonor(null);
      setCampaign(null);
      setCurrency(null);
    }
  }

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    const errors: Record<string, string> = {};
    const who = donorId ?? donor?.id;
    if (!who) errors.donorId = "Choose the donor who gives.";
    let amountMinor = 0;
    const amount = money.read(text("amount"), cur);
    if (!amount.ok) errors.amountMinor = amount.message;
    else if (amount.minor <= 0) errors.amountMinor = "Enter an amount above zero.";
    else amountMinor = amount.minor;
    const startDay = text("startDay");
    if (!startDay) errors.startDay = "Choose the day of the first donation.";
    const day = text("dayOfMonth");
    const dayOfMonth = day ? Number(day) : undefined;
    if (dayOfMonth !== undefined && !(Number.isInteger(dayOfMonth) && dayOfMonth >= 1 && dayOfMonth <= 31))
      errors.dayOfMonth = "A day from 1 to 31, or leave it empty.";
    if (Object.keys(errors).length || !who) {
      setFields(errors);
      return;
    }
    setFields({});
    create.mutate({
      donorId: who,
      campaignId: campaign?.id ?? null,
      amountMinor,
      currency: cur,
      interval: text("interval") as (typeof planIntervals)[number],
      startDay,
      dayOfMonth,
      paymentMethod: text("paymentMethod") || undefined,
    });
  }

  // A server error without a field shown here (or about the donor given by the page) reads above the buttons.
  const shown = Object.keys(fields).some((k) => FORM_FIELDS.includes(k) && !(k === "donorId" && donorId));
  const otherError = create.error && !shown ? errorInfo(create.error).message : null;
  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogContent onCloseAutoFocus={returnFocusTo(returnFocusRef)}>
        <DialogHeader>
          <DialogTitle>New recurring plan</DialogTitle>
          <DialogDescription>
            A plan entered by hand: a standing order or a pledge. Plans from a payment processor arrive on
            their own.
          </DialogDescription>
        </DialogHeader>
        <form id="new-plan" onSubmit={submit} className="flex flex-col gap-3" noValidate>
          {!donorId ? (
            <DonorField
              value={donor}
              onChange={setDonor}
              emptyLabel="Choose a donor"
              error={fields.donorId}
              required
            />
          ) : null}
          <Field label="Campaign" error={fields.campaignId}>
            {(control) => (
              <CampaignCombobox
                {...control}
                value={campaign?.id}
                onChange={setCampaign}
                scope={PLAN_CAMPAIGNS}
                none="No campaign (general fund)"
              />
            )}
          </Field>
          <div className="grid grid-cols-[1fr_7rem] items-start gap-3">
            <Field label="Amount" required error={fields.amountMinor}>
              <Input name="amount" inputMode="decimal" placeholder="25.00" autoComplete="off" />
            </Field>
            <Field
              label="Currency"
              error={fields.currency}
              description={campaign ? "Set by the campaign" : undefined}
            >
              <NativeSelect
                name="currency"
                className="w-full px-3"
                value={cur}
                disabled={!!campaign}
                onChange={(e) => setCurrency(e.target.value)}
              >
                {(CURRENCIES as readonly string[]).includes(cur) ? null : <option value={cur}>{cur}</option>}
                {CURRENCIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <Field label="How often" required error={fields.interval}>
            <NativeSelect name="interval" className="w-full px-3" defaultValue="month">
              {planIntervals.map((i) => (
                <option key={i} value={i}>
                  {PLAN_INTERVAL_LABELS[i]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <div className="grid items-start gap-3 sm:grid-cols-2">
            <Field label="First donation" required error={fields.startDay}>
              <Input name="startDay" type="date" defaultValue={today} />
            </Field>
            <Field
              label="Day of the month"
              error={fields.dayOfMonth}
              description="Empty: the first donation's day. Short months use their last day."
            >
              <Input name="dayOfMonth" type="number" inputMode="numeric" min={1} max={31} step={1} />
            </Field>
          </div>
          <Field label="Payment method" error={fields.paymentMethod}>
            <NativeSelect name="paymentMethod" className="w-full px-3" defaultValue="">
              <option value="">Not recorded</option>
              {paymentMethods.map((m) => (
                <option key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {otherError ? (
            <p role="alert" className="text-destructive text-sm">
              {otherError}
            </p>
          ) : null}
        </form>
        <FormDialogFooter
          form="new-plan"
          pending={create.isPending}
          submitLabel="Create plan"
          onCancel={() => reset(false)}
        />
      </DialogContent>
    </Dialog>
  );
}
