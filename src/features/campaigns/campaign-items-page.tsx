import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { ArrowDown, ArrowUp, Plus } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { PageHeader } from "~/components/layout/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Progress } from "~/components/ui/progress";
import { Textarea } from "~/components/ui/textarea";
import { CampaignTabs } from "~/features/campaigns/campaign-tabs";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatMoney } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/_authed/campaigns/$campaignId/items");

type Item = RouterOutputs["campaigns"]["items"]["list"][number];

export function CampaignItemsPage() {
  const { campaignId } = route.useParams();
  const trpc = useTRPC();
  // Items are part of the campaign: changing them is campaign update (worker/campaigns/items/router.ts).
  const can = useCan();
  const mayEdit = can({ campaign: ["update"] });
  const mayViewGifts = can({ donation: ["view"] });
  const qc = useQueryClient();
  const campaign = useQuery(trpc.campaigns.byId.queryOptions({ id: campaignId }));
  const items = useQuery(trpc.campaigns.items.list.queryOptions({ campaignId }));
  const [open, setOpen] = React.useState(false);
  /** The item being edited, or null when the dialog adds a new one. */
  const [editing, setEditing] = React.useState<Item | null>(null);
  const [fields, setFields] = React.useState<Record<string, string>>({});
  const money = useMoneyInput();
  const refresh = () =>
    qc.invalidateQueries({ queryKey: trpc.campaigns.items.list.queryKey({ campaignId }) });
  const create = useMutation(
    trpc.campaigns.items.create.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast.success("Item added");
        await refresh();
      },
      onError: (e) => setFields({ ...errorInfo(e).fields, _: errorInfo(e).message }),
    }),
  );
  const update = useMutation(
    trpc.campaigns.items.update.mutationOptions({
      onSuccess: refresh,
      onError: (e) => toast.error(errorInfo(e).message),
    }),
  );
  const edit = useMutation(
    trpc.campaigns.items.update.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast.success("Item saved");
        await refresh();
      },
      onError: (e) => setFields({ ...errorInfo(e).fields, _: errorInfo(e).message }),
    }),
  );
  const reorder = useMutation(trpc.campaigns.items.reorder.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.campaigns.items.delete.mutationOptions({
      onSuccess: async () => {
        toast.success("Item deleted");
        await refresh();
      },
      // Failures show in the confirm dialog.
    }),
  );
  const currency = campaign.data?.currency ?? "USD";
  const list = items.data ?? [];
  const move = (i: number, dir: -1 | 1) => {
    const ids = list.filter((x) => !x.archived).map((x) => x.id);
    const j = i + dir;
    if (j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
    reorder.mutate({ campaignId, ids });
  };
  return (
    <>
      <PageHeader
        title={campaign.data?.title ?? "Campaign"}
        description="Fundable items donors can choose."
        actions={
          mayEdit ? (
            <Button
              onClick={() => {
                setFields({});
                setEditing(null);
                setOpen(true);
              }}
            >
              <Plus className="size-4" /> Add item
            </Button>
          ) : null
        }
      />
      <CampaignTabs campaignId={campaignId} />
      {list.length === 0 ? <p className="py-10 text-center text-muted-foreground">No items yet.</p> : null}
      <div className="flex flex-col gap-3">
        {list.map((item, i) => (
          <Card key={item.id} className={item.archived ? "opacity-60" : undefined}>
            <CardContent className="flex flex-wrap items-center gap-4 p-4">
              <div className={mayEdit ? "flex flex-col" : "hidden"}>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-6"
                  aria-label="Move up"
                  disabled={item.archived || i === 0}
                  onClick={() => move(i, -1)}
                >
                  <ArrowUp className="size-3.5" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-6"
                  aria-label="Move down"
                  disabled={item.archived}
                  onClick={() => move(i, 1)}
                >
                  <ArrowDown className="size-3.5" />
                </Button>
              </div>
              <div className="min-w-40 flex-1">
                <p className="flex items-center gap-2 font-medium">
                  {item.title}
                  {item.fullyFunded ? <Badge>Fully funded</Badge> : null}
                  {!item.active ? <Badge variant="secondary">Inactive</Badge> : null}
                  {item.archived ? <Badge variant="secondary">Archived</Badge> : null}
                </p>
                {item.description ? (
                  <p className="text-muted-foreground text-sm">{item.description}</p>
                ) : null}
                <p className="text-muted-foreground text-sm">
                  {formatMoney(item.unitAmountMinor, currency)} each · {formatCount(item.quantityFunded)}
                  {item.quantityNeeded ? ` of ${formatCount(item.quantityNeeded)}` : ""} funded
                </p>
                {item.quantityNeeded ? (
                  <Progress
                    className="mt-2 h-2"
                    value={Math.min(100, (item.quantityFunded / item.quantityNeeded) * 100)}
                    aria-label={`${item.title} progress`}
                  />
                ) : null}
              </div>
              <div className="flex flex-wrap gap-2">
                {/* The gifts that chose this item: /donations narrowed to it, the item named in a chip. */}
                <Button asChild size="sm" variant="outline" className={mayViewGifts ? undefined : "hidden"}>
                  <Link
                    to="/donations"
                    search={{ campaignId, campaignItemId: item.id } as never}
                    aria-label={`Donations for ${item.title}`}
                  >
                    Donations
                  </Link>
                </Button>
                <div className={mayEdit ? "contents" : "hidden"}>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Edit ${item.title}`}
                    onClick={() => {
                      setFields({});
                      setEditing(item);
                      setOpen(true);
                    }}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => update.mutate({ id: item.id, active: !item.active })}
                  >
                    {item.active ? "Deactivate" : "Activate"}
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => update.mutate({ id: item.id, archived: !item.archived })}
                  >
                    {item.archived ? "Unarchive" : "Archive"}
                  </Button>
                  {item.quantityFunded === 0 ? (
                    <ConfirmButton
                      variant="ghost"
                      destructive
                      title={`Delete “${item.title}”?`}
                      description="Nobody has funded it yet, so it is removed for good. To keep it but hide it, archive it instead."
                      confirmLabel="Delete item"
                      onConfirm={() => remove.mutateAsync({ id: item.id })}
                    >
                      Delete
                    </ConfirmButton>
                  ) : null}
                </div>
              </div>
            </CardContent>
          </Card>
        ))}
      </div>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{editing ? `Edit “${editing.title}”` : "Add an item"}</DialogTitle>
          </DialogHeader>
          <form
            id="item-form"
            className="flex flex-col gap-3"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              const read = money.read(String(f.get("unit") ?? ""), currency);
              if (!read.ok) {
                setFields({ unitAmountMinor: read.message });
                return;
              }
              const unit = read.minor;
              const need = Number(f.get("need"));
              const title = String(f.get("title") ?? "").trim();
              if (!title) {
                setFields({ title: "Enter a title" });
                return;
              }
              const values = {
                title,
                description: String(f.get("description") ?? "").trim() || null,
                unitAmountMinor: unit,
                quantityNeeded: need > 0 ? need : null,
                allowOverfunding: f.get("over") === "on",
              };
              if (editing) edit.mutate({ id: editing.id, ...values });
              else create.mutate({ campaignId, ...values });
            }}
          >
            <Field label="Title" required error={fields.title}>
              <Input name="title" maxLength={128} defaultValue={editing?.title ?? ""} />
            </Field>
            <Field label="Description" error={fields.description}>
              <Textarea
                name="description"
                rows={2}
                maxLength={2000}
                defaultValue={editing?.description ?? ""}
              />
            </Field>
            <Field label={`Unit amount (${currency})`} required error={fields.unitAmountMinor}>
              <Input
                name="unit"
                inputMode="decimal"
                defaultValue={editing ? money.show(editing.unitAmountMinor, currency) : ""}
              />
            </Field>
            <Field
              label="Quantity needed"
              description="Leave empty for no limit."
              error={fields.quantityNeeded}
            >
              <Input name="need" type="number" min={1} defaultValue={editing?.quantityNeeded ?? ""} />
            </Field>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="over"
                defaultChecked={editing?.allowOverfunding ?? true}
                className="size-4"
              />{" "}
              Accept donations beyond the quantity needed
            </label>
            {fields._ ? (
              <p role="alert" className="text-destructive text-sm">
                {fields._}
              </p>
            ) : null}
          </form>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form="item-form" disabled={create.isPending || edit.isPending}>
              {editing ? "Save item" : "Add item"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
