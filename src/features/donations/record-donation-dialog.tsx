import { manualDonationInput } from "@core/donation";
import { ANONYMOUS_DONOR } from "@core/labels";
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
import { Textarea } from "~/components/ui/textarea";
import {
  AmountField,
  DateReceivedField,
  PaymentMethodField,
  receivedAt,
} from "~/features/donations/manual-donation-fields";
import { errorInfo, exponentOf, formatMoney } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

// Offline gifts arrive for campaigns taking gifts and, late, for completed ones; drafts and archived
// campaigns are not offered (the gift's edit page can still move a gift to any of them).
const RECORD_CAMPAIGNS: CampaignScope = { status: ["active", "paused", "completed"] };

export { preloadDonorSearch } from "~/components/donor-field";

/**
 * Manual/offline gift: cash, check or bank transfer (donation:create). The button that opens it
 * is ./record-donation-button.tsx: this form loads with the first click, not with the page.
 */
export function RecordDonationDialogBody({
  donorId,
  open,
  onOpenChange,
  returnFocusRef,
}: {
  donorId?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef: React.RefObject<HTMLButtonElement | null>;
}) {
  const setOpen = onOpenChange;
  // The organization's days: the day typed is the day its lists, filters and reports show.
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [fields, setFields] = React.useState<Record<string, string>>({});
  const org = useQuery({ ...trpc.organization.current.queryOptions(), enabled: open });
  const [donor, setDonor] = React.useState<DonorChoice | null>(null);
  const [campaign, setCampaign] = React.useState<CampaignChoice | null>(null);
  const money = useMoneyInput();
  // The items a gift to the chosen campaign may fund (active ones: archived items take no gifts).
  const items = useQuery({
    ...trpc.campaigns.items.list.queryOptions({ campaignId: campaign?.id ?? "" }),
    enabled: open && !!campaign,
  });
  const offered = (items.data ?? []).filter((i) => i.active && !i.archived);
  // A campaign collects one currency; the general fund the organization's.
  const currency = campaign?.currency ?? org.data?.defaultCurrency ?? "USD";
  const create = useMutation(
    trpc.donations.create.mutationOptions({
      onSuccess: async (d) => {
        toast.success(`Donation #${d.number} recorded`);
        setOpen(false);
        await qc.invalidateQueries();
        await navigate({ to: "/donations/$donationId", params: { donationId: d.id } });
      },
      onError: (e) => setFields(errorInfo(e).fields),
    }),
  );
  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const campaignId = campaign?.id ?? null;
    const amount = money.read(String(f.get("amount") ?? ""), currency);
    if (!amount.ok) {
      setFields({ amountMinor: amount.message });
      return;
    }
    const amountMinor = amount.minor;
    const itemId = campaignId ? String(f.get("campaignItemId") || "") || null : null;
    const date = String(f.get("donatedAt") || "");
    // The schema donations.create takes (core/donation.ts): refused here as the server would.
    const parsed = manualDonationInput.safeParse({
      donorId: donorId ?? donor?.id ?? null,
      campaignId,
      campaignItemId: itemId,
      itemQuantity: itemId ? Number(f.get("itemQuantity") || 1) : 0,
      amountMinor,
      currency,
      paymentMethod: String(f.get("paymentMethod")),
      paymentReference: String(f.get("paymentReference") || "").trim() || null,
      donatedAt: receivedAt(date, tz),
      message: String(f.get("message") || "") || null,
      anonymous: f.get("anonymous") === "on",
    });
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
      setFields(errors);
      return;
    }
    create.mutate(parsed.data);
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setFields({});
        if (!o) {
          setDonor(null);
          setCampaign(null);
        }
      }}
    >
      <DialogContent onCloseAutoFocus={returnFocusTo(returnFocusRef)}>
        <DialogHeader>
          <DialogTitle>Record a donation</DialogTitle>
          <DialogDescription>For donations received offline: cash, check or bank transfer.</DialogDescription>
        </DialogHeader>
        <form id="record-donation" onSubmit={submit} className="flex flex-col gap-3" noValidate>
          {!donorId ? (
            <DonorField
              value={donor}
              onChange={setDonor}
              emptyLabel={`${ANONYMOUS_DONOR} (no donor record)`}
              error={fields.donorId}
            />
          ) : null}
          <Field label="Campaign" error={fields.campaignId}>
            {(control) => (
              <CampaignCombobox
                {...control}
                value={campaign?.id}
                onChange={setCampaign}
                scope={RECORD_CAMPAIGNS}
                none="General fund"
              />
            )}
          </Field>
          {campaign && offered.length ? (
            <div className="grid grid-cols-[1fr_6rem] gap-3">
              <Field label="Item (optional)" error={fields.campaignItemId}>
                <NativeSelect name="campaignItemId" className="w-full px-3" defaultValue="" key={campaign.id}>
                  <option value="">No item</option>
                  {offered.map((i) => (
                    <option key={i.id} value={i.id}>
                      {i.title} ({formatMoney(i.unitAmountMinor, campaign.currency)})
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Field label="Quantity" error={fields.itemQuantity}>
                <Input name="itemQuantity" type="number" min={1} max={10000} defaultValue={1} />
              </Field>
            </div>
          ) : null}
          <AmountField
            currency={currency}
            error={fields.amountMinor ?? fields.currency}
            placeholder={money.show(25 * 10 ** exponentOf(currency), currency)}
          />
          <PaymentMethodField defaultValue="check" error={fields.paymentMethod} />
          <Field
            label="Check number or reference"
            description="As written on the check or the transfer; optional."
            error={fields.paymentReference}
          >
            <Input name="paymentReference" maxLength={100} autoComplete="off" />
          </Field>
          <DateReceivedField error={fields.donatedAt} />
          <Field label="Message">
            <Textarea name="message" rows={2} />
          </Field>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="anonymous" className="size-4" /> Anonymous on public pages
          </label>
          {create.error && !Object.keys(fields).length ? (
            <p role="alert" className="text-destructive text-sm">
              {errorInfo(create.error).message}
            </p>
          ) : null}
        </form>
        <FormDialogFooter
          form="record-donation"
          pending={create.isPending}
          submitLabel="Record donation"
          onCancel={() => setOpen(false)}
        />
      </DialogContent>
    </Dialog>
  );
}
