/**
 * A gift that pays a plan, recorded by hand (a standing order's transfer, a pledge's check):
 * donations.create with the plan's donor, campaign and currency and its planId, so the gift joins
 * the plan (worker/ledger/plan-gift.ts: a late plan is active again, the next gift is expected a period
 * on). Its own small dialog: the general record dialog carries the donor search and campaigns, and
 * the /donations bundle it lives in is at its budget.
 */

import { manualDonationInput, manualPaymentMethods } from "@core/donation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { FormDialogFooter } from "~/components/form-dialog-footer";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { Field } from "~/components/ui/form-field";
import { Textarea } from "~/components/ui/textarea";
import {
  AmountField,
  DateReceivedField,
  PaymentMethodField,
  receivedAt,
} from "~/features/donations/manual-donation-fields";
import type { RouterOutputs } from "~/lib/api-types";
import { errorInfo } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { planAmount } from "./plan-bits";

type Plan = Pick<
  RouterOutputs["plans"]["byId"],
  "id" | "donorId" | "campaignId" | "amountMinor" | "currency" | "interval" | "paymentMethod"
>;

export function RecordPlanGiftDialog({ plan }: { plan: Plan }) {
  // The organization's days: the day typed is the day its lists, filters and reports show.
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = React.useState(false);
  const [fields, setFields] = React.useState<Record<string, string>>({});
  const money = useMoneyInput();
  const create = useMutation(
    trpc.donations.create.mutationOptions({
      onSuccess: async (d) => {
        setOpen(false);
        toast.success(`Donation #${d.number} recorded for this plan`, {
          action: {
            label: "View",
            onClick: () => navigate({ to: "/donations/$donationId", params: { donationId: d.id } }),
          },
        });
        // The plan, its lists, the donor and the dashboard all move with the gift.
        await qc.invalidateQueries();
      },
      onError: (e) => setFields(errorInfo(e).fields),
    }),
  );
  // The plan's own method when it is one a hand-recorded gift may carry (a standing order's transfer).
  const method = (manualPaymentMethods as readonly string[]).includes(plan.paymentMethod ?? "")
    ? (plan.paymentMethod as string)
    : "bank_transfer";

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const amount = money.read(String(f.get("amount") ?? ""), plan.currency);
    if (!amount.ok) {
      setFields({ amountMinor: amount.message });
      return;
    }
    const amountMinor = amount.minor;
    // The schema donations.create takes (core/donation.ts): refused here as the server would.
    const parsed = manualDonationInput.safeParse({
      donorId: plan.donorId,
      campaignId: plan.campaignId,
      planId: plan.id,
      amountMinor,
      currency: plan.currency,
      paymentMethod: String(f.get("paymentMethod")),
      donatedAt: receivedAt(String(f.get("donatedAt") || ""), tz),
      internalNote: String(f.get("internalNote") || "") || null,
    });
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
      setFields(errors);
      return;
    }
    setFields({});
    create.mutate(parsed.data);
  }

  // Errors of fields the dialog does not show (the plan, the donor) are said once, below the form.
  const shown = ["amountMinor", "donatedAt", "paymentMethod", "internalNote"];
  const other =
    Object.entries(fields).find(([k]) => !shown.includes(k))?.[1] ??
    (create.error && !Object.keys(fields).length ? errorInfo(create.error).message : null);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setFields({});
        create.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus className="size-4" aria-hidden /> Record a donation
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Record a donation for this plan</DialogTitle>
          <DialogDescription>
            A donation received offline that pays this plan (
            {planAmount(plan.amountMinor, plan.currency, plan.interval)}
            ).
          </DialogDescription>
        </DialogHeader>
        <form id="record-plan-gift" onSubmit={submit} className="flex flex-col gap-3" noValidate>
          <AmountField
            currency={plan.currency}
            error={fields.amountMinor ?? fields.currency}
            defaultValue={money.show(plan.amountMinor, plan.currency)}
          />
          <DateReceivedField error={fields.donatedAt} />
          <PaymentMethodField defaultValue={method} error={fields.paymentMethod} />
          <Field
            label="Note"
            description="Internal: staff see it, the donor does not."
            error={fields.internalNote}
          >
            <Textarea name="internalNote" rows={2} maxLength={2000} />
          </Field>
          {other ? (
            <p role="alert" className="text-destructive text-sm">
              {other}
            </p>
          ) : null}
        </form>
        <FormDialogFooter
          form="record-plan-gift"
          pending={create.isPending}
          submitLabel="Record donation"
          onCancel={() => setOpen(false)}
        />
      </DialogContent>
    </Dialog>
  );
}
