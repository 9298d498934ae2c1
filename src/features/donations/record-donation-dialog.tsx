import { manualDonationInput } from "@core/donation";
import { ANONYMOUS_DONOR, PAYMENT_METHOD_LABELS } from "@core/labels";
import { localDay, startOfLocalDay } from "@core/time";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { type CampaignChoice, CampaignCombobox, type CampaignScope } from "~/components/campaign-combobox";
import type { DonorChoice } from "~/components/donor-combobox";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { errorInfo, toMinor } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

// The donor search (cmdk, ~7 kB gzip) loads when the dialog first opens, not with the page.
// Rendered only in the open dialog, in the browser: the server build leaves cmdk out (see
// src/components/date-range-picker.tsx's loadCalendar).
const preloadDonorSearch = (): Promise<
  Pick<typeof import("~/components/donor-combobox"), "DonorCombobox">
> =>
  import.meta.env.SSR
    ? Promise.resolve({ DonorCombobox: (() => null) as never })
    : import("~/components/donor-combobox");
const DonorCombobox = React.lazy(() => preloadDonorSearch().then((m) => ({ default: m.DonorCombobox })));

// Offline gifts arrive for campaigns taking gifts and, late, for completed ones; drafts and archived
// campaigns are not offered (the gift's edit page can still move a gift to any of them).
const RECORD_CAMPAIGNS: CampaignScope = { status: ["active", "paused", "completed"] };

const selectClass = "h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs";

export { preloadDonorSearch };

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
    let amountMinor: number;
    try {
      amountMinor = toMinor(String(f.get("amount") ?? ""), currency);
    } catch {
      setFields({ amountMinor: `Enter an amount like 25.00 (${currency})` });
      return;
    }
    const date = String(f.get("donatedAt") || "");
    // The schema donations.create takes (core/donation.ts): refused here as the server would.
    const parsed = manualDonationInput.safeParse({
      donorId: donorId ?? donor?.id ?? null,
      campaignId,
      amountMinor,
      currency,
      paymentMethod: String(f.get("paymentMethod")),
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
      <DialogContent
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          returnFocusRef.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Record a donation</DialogTitle>
          <DialogDescription>For gifts received offline: cash, check or bank transfer.</DialogDescription>
        </DialogHeader>
        <form id="record-donation" onSubmit={submit} className="flex flex-col gap-3" noValidate>
          {!donorId ? (
            <Field label="Donor" error={fields.donorId}>
              {(control) => (
                <React.Suspense
                  fallback={
                    <Button {...control} variant="outline" disabled className="justify-start font-normal">
                      {ANONYMOUS_DONOR} (no donor record)
                    </Button>
                  }
                >
                  <DonorCombobox
                    {...control}
                    value={donor}
                    onChange={setDonor}
                    emptyLabel={`${ANONYMOUS_DONOR} (no donor record)`}
                  />
                </React.Suspense>
              )}
            </Field>
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
          <Field label={`Amount (${currency})`} required error={fields.amountMinor ?? fields.currency}>
            <Input name="amount" inputMode="decimal" placeholder="25.00" />
          </Field>
          <Field label="Payment method">
            <select name="paymentMethod" className={selectClass} defaultValue="check">
              {(["check", "cash", "bank_transfer", "other"] as const).map((m) => (
                <option key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Date received" error={fields.donatedAt}>
            <Input
              name="donatedAt"
              type="date"
              defaultValue={localDay(Date.now(), tz)}
              max={localDay(Date.now(), tz)}
            />
          </Field>
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
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" form="record-donation" disabled={create.isPending}>
            {create.isPending ? "Saving…" : "Record donation"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Today means now; an earlier day means its noon in the organization's zone, so the gift lands on
 * the day typed whatever the browser's zone.
 */
function receivedAt(day: string, timeZone: string): number {
  if (!day || day === localDay(Date.now(), timeZone)) return Date.now();
  return Math.min(startOfLocalDay(day, timeZone) + 12 * 3_600_000, Date.now());
}
