import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { Pencil, Pin, Trash2 } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { HistoryPanel } from "~/components/history-panel";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { RecordDonationDialog } from "~/features/donations/record-donation-dialog";
import { errorInfo, formatDate, formatDateTime, formatMoney } from "~/lib/format";
import { or404 } from "~/lib/loaders";
import { useTRPC } from "~/lib/trpc";

export const Route = createFileRoute("/_authed/donors/$donorId/")({
  loader: ({ context, params }) =>
    or404(context.queryClient.ensureQueryData(context.trpc.donors.byId.queryOptions({ id: params.donorId }))),
  head: () => ({ meta: [{ title: "Donor · Almoner" }] }),
  component: DonorPage,
});

function DonorPage() {
  const { donorId } = Route.useParams();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery(trpc.donors.byId.queryOptions({ id: donorId }));
  const org = useQuery(trpc.organization.current.queryOptions());
  const tags = useQuery(trpc.donors.tags.list.queryOptions());
  const notes = useQuery(trpc.donors.notes.list.queryOptions({ donorId }));
  const [dialog, setDialog] = React.useState<null | "merge" | "anonymize" | "delete">(null);
  const [mergeTarget, setMergeTarget] = React.useState("");
  const [confirm, setConfirm] = React.useState("");
  const [newTag, setNewTag] = React.useState("");
  const others = useQuery({
    ...trpc.donors.list.queryOptions({ pageSize: 100, sort: "name", desc: false }),
    enabled: dialog === "merge",
  });
  const refresh = () => qc.invalidateQueries();
  const onError = (e: unknown) => toast.error(errorInfo(e).message);
  const assign = useMutation(trpc.donors.tags.assign.mutationOptions({ onSuccess: refresh, onError }));
  const createTag = useMutation(trpc.donors.tags.create.mutationOptions({ onError }));
  const addNote = useMutation(trpc.donors.notes.create.mutationOptions({ onSuccess: refresh, onError }));
  const deleteNote = useMutation(trpc.donors.notes.delete.mutationOptions({ onSuccess: refresh, onError }));
  const merge = useMutation(trpc.donors.merge.mutationOptions({ onError }));
  const anonymize = useMutation(
    trpc.donors.anonymize.mutationOptions({
      onSuccess: async () => {
        setDialog(null);
        toast.success("Donor anonymized");
        await refresh();
      },
      onError,
    }),
  );
  const del = useMutation(
    trpc.donors.delete.mutationOptions({
      onSuccess: async () => {
        toast.success("Donor deleted");
        await navigate({ to: "/donors" });
      },
      onError: (e) => {
        setDialog(null);
        onError(e);
      },
    }),
  );
  const d = q.data;
  if (!d) return null;
  const currency = org.data?.defaultCurrency ?? "USD";
  const money = (v: number) => formatMoney(v, currency);
  const preview = merge.data?.dryRun ? merge.data : null;
  return (
    <>
      <PageHeader
        title={d.name}
        description={[d.email, d.company, d.city].filter(Boolean).join(" · ") || undefined}
        actions={
          d.anonymized ? null : (
            <>
              <RecordDonationDialog donorId={d.id} />
              <Button variant="outline" asChild>
                <Link to="/donors/$donorId/edit" params={{ donorId: d.id }}>
                  <Pencil className="size-4" /> Edit
                </Link>
              </Button>
              <Button
                variant="outline"
                onClick={() => {
                  merge.reset();
                  setDialog("merge");
                }}
              >
                Merge
              </Button>
              <Button
                variant="outline"
                onClick={() => {
                  setConfirm("");
                  setDialog("anonymize");
                }}
              >
                Anonymize
              </Button>
              <Button variant="outline" onClick={() => setDialog("delete")}>
                <Trash2 className="size-4" /> Delete
              </Button>
            </>
          )
        }
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        {[
          ["Lifetime", money(d.lifetimeMinor)],
          ["Gifts", String(d.donationCount)],
          ["Average gift", money(d.averageGiftMinor)],
          ["Largest gift", money(d.largestGiftMinor)],
          ["Last gift", formatDate(d.lastGiftAt)],
        ].map(([k, v]) => (
          <Card key={k}>
            <CardContent className="p-4">
              <p className="text-muted-foreground text-sm">{k}</p>
              <p className="font-semibold text-lg tabular-nums">{v}</p>
            </CardContent>
          </Card>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>Tier and tags</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <p className="text-sm">
              Tier:{" "}
              {d.tier ? (
                <Badge variant="outline" style={{ borderColor: d.tier.color, color: d.tier.color }}>
                  {d.tier.name}
                </Badge>
              ) : (
                "none"
              )}
              {d.tierLocked ? " (locked)" : ""}
            </p>
            <div className="flex flex-wrap gap-1">
              {d.tags.map((t) => (
                <Badge key={t.id} variant="secondary" className="gap-1">
                  {t.name}
                  <button
                    type="button"
                    aria-label={`Remove tag ${t.name}`}
                    className="ml-0.5 opacity-60 hover:opacity-100"
                    onClick={() => assign.mutate({ donorIds: [d.id], tagIds: [t.id], mode: "remove" })}
                  >
                    ×
                  </button>
                </Badge>
              ))}
            </div>
            <form
              className="flex gap-2"
              onSubmit={async (e) => {
                e.preventDefault();
                const name = newTag.trim();
                if (!name) return;
                const existing = tags.data?.find((t) => t.name.toLowerCase() === name.toLowerCase());
                const id = existing?.id ?? (await createTag.mutateAsync({ name })).id;
                assign.mutate({ donorIds: [d.id], tagIds: [id], mode: "add" });
                setNewTag("");
              }}
            >
              <Input
                aria-label="Add a tag"
                list="tag-options"
                placeholder="Add a tag"
                value={newTag}
                onChange={(e) => setNewTag(e.target.value)}
              />
              <datalist id="tag-options">
                {tags.data?.map((t) => (
                  <option key={t.id} value={t.name} />
                ))}
              </datalist>
              <Button type="submit" variant="outline">
                Add
              </Button>
            </form>
          </CardContent>
        </Card>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Notes</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {!d.anonymized ? (
              <form
                className="flex flex-col gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  const f = new FormData(e.currentTarget);
                  addNote.mutate({
                    donorId: d.id,
                    body: String(f.get("body") ?? ""),
                    pinned: f.get("pinned") === "on",
                  });
                  e.currentTarget.reset();
                }}
              >
                <Textarea
                  name="body"
                  aria-label="New note"
                  placeholder="Write a note (visible to your team)"
                  rows={2}
                  maxLength={5000}
                />
                <div className="flex items-center justify-between">
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="pinned" /> Pin
                  </label>
                  <Button type="submit" size="sm" disabled={addNote.isPending}>
                    Add note
                  </Button>
                </div>
              </form>
            ) : null}
            <ul className="flex flex-col gap-2">
              {notes.data?.map((n) => (
                <li key={n.id} className="rounded-md border p-3 text-sm">
                  <p className="whitespace-pre-wrap">
                    {n.pinned ? <Pin className="mr-1 inline size-3.5" aria-label="Pinned" /> : null}
                    {n.body}
                  </p>
                  <p className="mt-1 flex items-center justify-between text-muted-foreground text-xs">
                    <span>
                      {n.author ?? "Someone"} · {formatDateTime(n.createdAt)}
                    </span>
                    <button
                      type="button"
                      className="hover:text-destructive"
                      onClick={() => deleteNote.mutate({ id: n.id })}
                    >
                      Delete
                    </button>
                  </p>
                </li>
              ))}
              {notes.data?.length === 0 ? (
                <li className="text-muted-foreground text-sm">No notes yet.</li>
              ) : null}
            </ul>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Donations</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y">
            {(
              d.donations as {
                id: string;
                number: number;
                amountMinor: number;
                currency: string;
                status: string;
                donatedAt: number;
                campaign: string | null;
              }[]
            ).map((x) => (
              <li key={x.id}>
                <Link
                  to="/donations/$donationId"
                  params={{ donationId: x.id }}
                  className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm hover:underline"
                >
                  <span>
                    #{x.number} · {x.campaign ?? "General fund"}
                  </span>
                  <span className="flex items-center gap-3">
                    <StatusBadge status={x.status} />
                    <span className="tabular-nums">{formatMoney(x.amountMinor, x.currency)}</span>
                    <span className="text-muted-foreground">{formatDate(x.donatedAt)}</span>
                  </span>
                </Link>
              </li>
            ))}
            {d.donations.length === 0 ? (
              <li className="py-2 text-muted-foreground text-sm">No donations yet.</li>
            ) : null}
          </ul>
        </CardContent>
      </Card>
      <HistoryPanel entityType="donor" entityId={d.id} />

      <Dialog open={dialog === "merge"} onOpenChange={(o) => !o && setDialog(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Merge {d.name} into another donor</DialogTitle>
            <DialogDescription>
              Donations, notes and tags move to the donor you choose; this record then points there.
            </DialogDescription>
          </DialogHeader>
          <select
            aria-label="Donor to keep"
            className="h-9 rounded-md border border-input bg-transparent px-2 text-sm"
            value={mergeTarget}
            onChange={(e) => {
              setMergeTarget(e.target.value);
              if (e.target.value) merge.mutate({ sourceId: d.id, targetId: e.target.value, dryRun: true });
            }}
          >
            <option value="">Choose the donor to keep…</option>
            {others.data?.rows
              .filter((o) => o.id !== d.id)
              .map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                  {o.email ? ` (${o.email})` : ""}
                </option>
              ))}
          </select>
          {preview ? (
            <p className="text-sm">
              Moves {preview.donations} donation(s), {preview.notes} note(s) and {preview.tags} tag(s) to{" "}
              {preview.target.name}.
            </p>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button
              disabled={!preview}
              onClick={async () => {
                const r = await merge.mutateAsync({ sourceId: d.id, targetId: mergeTarget, dryRun: false });
                setDialog(null);
                toast.success("Donors merged");
                await refresh();
                await navigate({ to: "/donors/$donorId", params: { donorId: r.target.id } });
              }}
            >
              Merge
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog open={dialog === "anonymize"} onOpenChange={(o) => !o && setDialog(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Anonymize this donor?</DialogTitle>
            <DialogDescription>
              Personal data is removed for good; amounts, dates and campaigns stay for your totals. This
              cannot be undone. Type <strong>{d.email ?? d.name}</strong> to confirm.
            </DialogDescription>
          </DialogHeader>
          <Input aria-label="Confirmation" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
          <DialogFooter>
            <Button variant="outline" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={confirm.trim().toLowerCase() !== (d.email ?? d.name).toLowerCase()}
              onClick={() => anonymize.mutate({ id: d.id, confirm })}
            >
              Anonymize
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog open={dialog === "delete"} onOpenChange={(o) => !o && setDialog(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete {d.name}?</DialogTitle>
            <DialogDescription>
              Only donors without completed donations can be deleted; otherwise anonymize them.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => del.mutate({ id: d.id })}>
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
