import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { CampaignCombobox } from "~/components/campaign-combobox";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { errorInfo } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/_authed/donations/$donationId/edit");

export function DonationEditPage() {
  const { donationId } = route.useParams();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery(trpc.donations.byId.queryOptions({ id: donationId }));
  const [fields, setFields] = React.useState<Record<string, string>>({});
  const money = useMoneyInput();
  const [campaignSel, setCampaignSel] = React.useState<string | undefined>(undefined);
  const campaignNow = campaignSel ?? q.data?.campaignId ?? "";
  const items = useQuery({
    ...trpc.campaigns.items.list.queryOptions({ campaignId: campaignNow }),
    enabled: !!campaignNow,
  });
  const save = useMutation(
    trpc.donations.update.mutationOptions({
      onSuccess: async () => {
        toast.success("Donation saved");
        await qc.invalidateQueries();
        await navigate({ to: "/donations/$donationId", params: { donationId } });
      },
      onError: (e) => setFields({ ...errorInfo(e).fields, _: errorInfo(e).message }),
    }),
  );
  const d = q.data;
  if (!d) return null;
  return (
    <>
      <PageHeader
        title={`Edit donation #${d.number}`}
        description="Amounts can only change on manual entries."
      />
      <Card>
        <CardContent className="pt-6">
          <form
            className="flex max-w-xl flex-col gap-4"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              const data: Record<string, unknown> = {
                message: String(f.get("message") ?? "") || null,
                internalNote: String(f.get("internalNote") ?? "") || null,
                tributeName: String(f.get("tributeName") ?? "") || null,
                tributeType: (String(f.get("tributeType") ?? "") || null) as "in_honor" | "in_memory" | null,
                anonymous: f.get("anonymous") === "on",
              };
              const campaignId = String(f.get("campaignId") ?? "") || null;
              if (campaignId !== d.campaignId) data.campaignId = campaignId;
              const itemId = String(f.get("campaignItemId") ?? "") || null;
              const quantity = Number(f.get("itemQuantity") ?? 1) || 1;
              if (itemId !== d.campaignItemId || (itemId && quantity !== d.itemQuantity)) {
                data.campaignItemId = itemId;
                if (itemId) data.itemQuantity = quantity;
              }
              if (d.source === "manual") {
                const read = money.read(String(f.get("amount") ?? ""), d.currency);
                if (!read.ok) {
                  setFields({ amountMinor: read.message });
                  return;
                }
                data.amountMinor = read.minor;
              }
              save.mutate({ id: d.id, data });
            }}
          >
            {d.source === "manual" ? (
              <Field label={`Amount (${d.currency})`} error={fields.amountMinor}>
                <Input
                  name="amount"
                  defaultValue={money.show(d.amountMinor, d.currency)}
                  inputMode="decimal"
                />
              </Field>
            ) : null}
            <Field label="Campaign" error={fields.campaignId}>
              {(control) => (
                <CampaignCombobox
                  {...control}
                  name="campaignId"
                  value={campaignNow}
                  onChange={(c) => setCampaignSel(c?.id ?? "")}
                  // Reassignment stays inside the organization and the gift's currency.
                  scope={{ currency: d.currency }}
                  none="General fund"
                  initial={
                    d.campaignId && d.campaignTitle ? { id: d.campaignId, title: d.campaignTitle } : null
                  }
                />
              )}
            </Field>
            {campaignNow && items.data?.length ? (
              <div className="grid gap-4 sm:grid-cols-[1fr_8rem]" key={campaignNow}>
                <Field label="Item" error={fields.campaignItemId}>
                  <NativeSelect
                    name="campaignItemId"
                    defaultValue={campaignNow === d.campaignId ? (d.campaignItemId ?? "") : ""}
                    className="w-full px-3"
                  >
                    <option value="">No item</option>
                    {items.data.map((i) => (
                      <option key={i.id} value={i.id}>
                        {i.title}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
                <Field label="Quantity" error={fields.itemQuantity}>
                  <Input
                    name="itemQuantity"
                    type="number"
                    min={1}
                    defaultValue={campaignNow === d.campaignId ? Math.max(1, d.itemQuantity) : 1}
                  />
                </Field>
              </div>
            ) : null}
            <Field label="Message from the donor" error={fields.message}>
              <Textarea name="message" defaultValue={d.message ?? ""} rows={3} />
            </Field>
            <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
              <Field label="Tribute" error={fields.tributeType}>
                <NativeSelect name="tributeType" defaultValue={d.tributeType ?? ""} className="w-full px-3">
                  <option value="">None</option>
                  <option value="in_honor">In honor of</option>
                  <option value="in_memory">In memory of</option>
                </NativeSelect>
              </Field>
              <Field label="In honor or memory of" error={fields.tributeName}>
                <Input name="tributeName" defaultValue={d.tributeName ?? ""} />
              </Field>
            </div>
            <Field label="Internal note" error={fields.internalNote}>
              <Textarea name="internalNote" defaultValue={d.internalNote ?? ""} rows={3} />
            </Field>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="anonymous" defaultChecked={d.anonymous} className="size-4" />{" "}
              Anonymous on public pages
            </label>
            {fields._ && Object.keys(fields).length === 1 ? (
              <p role="alert" className="text-destructive text-sm">
                {fields._}
              </p>
            ) : null}
            <div className="flex gap-2">
              <Button type="submit" disabled={save.isPending}>
                Save
              </Button>
              <Button
                type="button"
                variant="outline"
                onClick={() => navigate({ to: "/donations/$donationId", params: { donationId } })}
              >
                Cancel
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </>
  );
}
