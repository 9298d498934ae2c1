/** /donors/{donorId}: profile, stats, tier (with the manual lock), tags, notes, donations, history. */

import { DONOR_PAGE_GIFTS } from "@core/limits";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { Lock, LockOpen, Pencil, Trash2 } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { HistoryPanel } from "~/components/history-panel";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { RecordDonationDialog } from "~/features/donations/record-donation-button";
import { DonorPlans } from "~/features/plans/donor-plans";
import { DonorStatements } from "~/features/receipts/donor-statements";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDate, formatMoney } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC, useTRPCClient } from "~/lib/trpc";
import { TagChip, TierBadge } from "./chips";
import { DonorNotes } from "./donor-notes";
import { donorTypeLabels } from "./filters";

export function DonorPage({ donorId }: { donorId: string }) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery(trpc.donors.byId.queryOptions({ id: donorId }));
  const org = useQuery(trpc.organization.current.queryOptions());
  const can = useCan();
  const [dialog, setDialog] = React.useState<null | "merge" | "anonymize" | "delete">(null);
  const d = q.data;
  // An old id of a merged donor resolves to the survivor: show the survivor's own address.
  React.useEffect(() => {
    if (d && d.id !== donorId)
      void navigate({ to: "/donors/$donorId", params: { donorId: d.id }, replace: true });
  }, [d, donorId, navigate]);
  if (!d) return null;
  const currency = org.data?.defaultCurrency ?? "USD";
  const money = (v: number) => formatMoney(v, currency);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.donors.pathKey() });
  return (
    <>
      <PageHeader
        title={d.name}
        description={[d.email, d.company, d.city].filter(Boolean).join(" · ") || undefined}
        actions={
          d.anonymized ? null : (
            <>
              {can({ donation: ["create"] }) ? <RecordDonationDialog donorId={d.id} /> : null}
              {can({ donor: ["update"] }) ? (
                <>
                  <Button variant="outline" asChild>
                    <Link to="/donors/$donorId/edit" params={{ donorId: d.id }}>
                      <Pencil className="size-4" /> Edit
                    </Link>
                  </Button>
                  <Button variant="outline" onClick={() => setDialog("merge")}>
                    Merge
                  </Button>
                </>
              ) : null}
              {can({ donor: ["delete"] }) ? (
                <>
                  <Button variant="outline" onClick={() => setDialog("anonymize")}>
                    Anonymize
                  </Button>
                  <Button variant="outline" onClick={() => setDialog("delete")}>
                    <Trash2 className="size-4" /> Delete
                  </Button>
                </>
              ) : null}
            </>
          )
        }
      />
      {d.anonymized ? (
        <Alert>
          <AlertDescription>
            This donor was anonymized: personal data is gone for good; the donations still count in your
            totals.
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        {[
          ["Lifetime", money(d.lifetimeMinor)],
          ["Donations", String(d.donationCount)],
          ["Average donation", money(d.averageGiftMinor)],
          ["Largest donation", money(d.largestGiftMinor)],
          ["Last donation", formatDate(d.lastGiftAt, tz)],
        ].map(([k, v]) => (
          <Card key={k} className="gap-0 py-0">
            <CardContent className="p-4">
              <p className="text-muted-foreground text-sm">{k}</p>
              <p className="font-semibold text-lg tabular-nums">{v}</p>
            </CardContent>
          </Card>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="flex flex-col gap-4">
          <ProfileCard d={d} />
          <TierCard d={d} onChange={refresh} editable={can({ donor: ["update"] })} />
          <TagsCard
            d={d}
            onChange={refresh}
            editable={can({ tag: ["update"] })}
            creates={can({ tag: ["create"] })}
          />
        </div>
        <DonorNotes
          className="lg:col-span-2"
          donorId={d.id}
          readOnly={d.anonymized}
          canWrite={can({ note: ["create"] })}
          canModerate={can.orgAdmin}
        />
      </div>
      {/* Plans are giving: reading them takes donation:view (worker/plans/router.ts). */}
      {can({ donation: ["view"] }) ? <DonorPlans donorId={d.id} /> : null}
      {can({ receipt: ["view"] }) && !d.anonymized ? <DonorStatements donorId={d.id} /> : null}
      <Card>
        <CardHeader>
          <CardTitle>Donations</CardTitle>
          {/* The card holds the latest DONOR_PAGE_GIFTS (worker/donors/queries.ts donorDonations); the
              list holds them all, with its filters, totals and export, the donor named in a chip. */}
          {d.donations.length > 0 && can({ donation: ["view"] }) ? (
            <CardAction>
              <Link
                to="/donations"
                search={{ donorId: d.id } as never}
                className="text-primary text-sm hover:underline"
              >
                All donations in Donations
              </Link>
            </CardAction>
          ) : null}
        </CardHeader>
        <CardContent>
          <ul className="divide-y">
            {d.donations.map((x) => (
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
                    <span className="text-muted-foreground">{formatDate(x.donatedAt, tz)}</span>
                  </span>
                </Link>
              </li>
            ))}
            {d.donations.length === 0 ? (
              <li className="py-2 text-muted-foreground text-sm">No donations yet.</li>
            ) : null}
            {d.donations.length >= DONOR_PAGE_GIFTS ? (
              <li className="pt-2 text-muted-foreground text-sm">
                The latest {DONOR_PAGE_GIFTS}; every donation is in Donations.
              </li>
            ) : null}
          </ul>
        </CardContent>
      </Card>
      <HistoryPanel entityType="donor" entityId={d.id} />

      <MergeDialog d={d} open={dialog === "merge"} onClose={() => setDialog(null)} currency={currency} />
      <AnonymizeDialog
        d={d}
        open={dialog === "anonymize"}
        onClose={() => setDialog(null)}
        // Everything: the history panel held the personal values the server just scrubbed.
        onDone={() => qc.invalidateQueries()}
      />
      <DeleteDialog
        d={d}
        open={dialog === "delete"}
        onClose={() => setDialog(null)}
        onAnonymize={() => setDialog("anonymize")}
      />
    </>
  );
}

type Donor = RouterOutputs["donors"]["byId"];

function ProfileCard({ d }: { d: Donor }) {
  const tz = useTimeZone();
  const address = [d.addressLine1, [d.postalCode, d.city].filter(Boolean).join(" "), d.region, d.country]
    .filter(Boolean)
    .join(", ");
  const consent = [d.emailOptIn && "e-mail", d.phoneOptIn && "phone", d.mailOptIn && "post"].filter(Boolean);
  const rows: [string, React.ReactNode][] = [
    ["Type", d.type === "organization" ? "Organization" : "Individual"],
    ["Giving", donorTypeLabels[d.donorType]],
    [
      "E-mail",
      d.email ? (
        <a key="email" href={`mailto:${d.email}`} className="break-all hover:underline">
          {d.email}
        </a>
      ) : (
        "—"
      ),
    ],
    // Addresses a merge kept (decision 052): gifts and imports under them find this donor.
    ...(d.otherEmails.length
      ? [
          [
            "Other e-mails",
            <span key="emails" className="break-all">
              {d.otherEmails.join(", ")}
            </span>,
          ] as [string, React.ReactNode],
        ]
      : []),
    ["Phone", d.phone ?? "—"],
    ...(d.otherPhones.length
      ? [["Other phones", d.otherPhones.join(", ")] as [string, React.ReactNode]]
      : []),
    ["Company", d.company ?? "—"],
    ["Address", address || "—"],
    ["Consent", consent.length ? consent.join(", ") : "none"],
    ["External id", d.externalId ?? "—"],
    ["First donation", formatDate(d.firstGiftAt, tz)],
    ["Donor since", formatDate(d.donorSince, tz)],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {rows.map(([k, v]) => (
            <React.Fragment key={k}>
              <dt className="text-muted-foreground">{k}</dt>
              <dd className="min-w-0">{v}</dd>
            </React.Fragment>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/** Tier badge, previous tier, and the manual lock (Bloomerang's override). */
function TierCard({ d, onChange, editable }: { d: Donor; onChange: () => unknown; editable: boolean }) {
  const trpc = useTRPC();
  const tiers = useQuery(trpc.donors.tiers.list.queryOptions());
  const [choice, setChoice] = React.useState(d.tier?.id ?? "");
  const setLock = useMutation(
    trpc.donors.tiers.setLock.mutationOptions({
      onSuccess: async (_r, v) => {
        toast.success(v.locked ? "Tier locked" : "Tier unlocked; assigned by the ladder again");
        await onChange();
      },
      onError: (e) => toast.error(errorInfo(e).message),
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Tier</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <TierBadge tier={d.tier} />
          {d.tierLocked ? (
            <span className="inline-flex items-center gap-1 text-muted-foreground">
              <Lock className="size-3.5" aria-hidden /> Locked by hand
            </span>
          ) : (
            <span className="text-muted-foreground">Assigned by giving</span>
          )}
        </p>
        <p className="text-muted-foreground">Previous tier: {d.previousTier?.name ?? "none"}</p>
        {d.anonymized || !editable ? null : d.tierLocked ? (
          <Button
            size="sm"
            variant="outline"
            className="self-start"
            disabled={setLock.isPending}
            onClick={() => setLock.mutate({ donorId: d.id, locked: false })}
          >
            <LockOpen className="size-4" /> Unlock tier
          </Button>
        ) : (
          <div className="flex flex-wrap gap-2">
            <NativeSelect
              aria-label="Tier to lock"
              value={choice}
              onChange={(e) => setChoice(e.target.value)}
            >
              <option value="">No tier</option>
              {tiers.data?.tiers.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
            <Button
              size="sm"
              variant="outline"
              disabled={setLock.isPending}
              onClick={() => setLock.mutate({ donorId: d.id, locked: true, tierId: choice || null })}
            >
              <Lock className="size-4" /> Lock tier
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function TagsCard({
  d,
  onChange,
  editable,
  creates,
}: {
  d: Donor;
  onChange: () => unknown;
  /** Assigning and removing tags (tag update); naming a new one also needs tag create. */
  editable: boolean;
  creates: boolean;
}) {
  const trpc = useTRPC();
  const tags = useQuery(trpc.donors.tags.list.queryOptions());
  const [newTag, setNewTag] = React.useState("");
  const onError = (e: unknown) => toast.error(errorInfo(e).message);
  const assign = useMutation(trpc.donors.tags.assign.mutationOptions({ onSuccess: onChange, onError }));
  const createTag = useMutation(trpc.donors.tags.create.mutationOptions({ onError }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Tags</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap gap-1">
          {d.tags.map((t) => (
            <TagChip key={t.id} tag={t}>
              {d.anonymized || !editable ? null : (
                <button
                  type="button"
                  aria-label={`Remove tag ${t.name}`}
                  className="ml-0.5 opacity-60 hover:opacity-100"
                  onClick={() => assign.mutate({ donorIds: [d.id], tagIds: [t.id], mode: "remove" })}
                >
                  ×
                </button>
              )}
            </TagChip>
          ))}
          {d.tags.length === 0 ? <span className="text-muted-foreground text-sm">No tags.</span> : null}
        </div>
        {d.anonymized || !editable ? null : (
          <form
            className="flex gap-2"
            onSubmit={async (e) => {
              e.preventDefault();
              const name = newTag.trim();
              if (!name) return;
              const existing = tags.data?.find((t) => t.name.toLowerCase() === name.toLowerCase());
              const id =
                existing?.id ??
                (creates ? (await createTag.mutateAsync({ name }).catch(() => null))?.id : undefined);
              if (!id) return;
              assign.mutate({ donorIds: [d.id], tagIds: [id], mode: "add" });
              setNewTag("");
            }}
          >
            <Input
              aria-label="Add a tag"
              list="tag-options"
              placeholder="Add a tag"
              value={newTag}
              maxLength={40}
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
        )}
      </CardContent>
    </Card>
  );
}

/** Pick the donor to keep by search, read the dry-run preview, then merge. */
function MergeDialog({
  d,
  open,
  onClose,
  currency,
}: {
  d: Donor;
  open: boolean;
  onClose: () => void;
  currency: string;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [query, setQuery] = React.useState("");
  const [debounced, setDebounced] = React.useState("");
  const [target, setTarget] = React.useState("");
  React.useEffect(() => {
    const t = setTimeout(() => setDebounced(query.trim()), 250);
    return () => clearTimeout(t);
  }, [query]);
  const candidates = useQuery({
    ...trpc.donors.list.queryOptions({ q: debounced || undefined, pageSize: 10, sort: "name", desc: false }),
    enabled: open,
  });
  const merge = useMutation(trpc.donors.merge.mutationOptions());
  // The dry run is a read from the user's point of view: re-asked whenever the choice changes.
  const preview = useQuery({
    queryKey: ["donors", "merge-preview", d.id, target],
    queryFn: () => client.donors.merge.mutate({ sourceId: d.id, targetId: target, dryRun: true }),
    enabled: open && !!target,
    retry: false,
    gcTime: 0,
  });
  const p = preview.data;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setTarget("");
          setQuery("");
          onClose();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Merge {d.name} into another donor</DialogTitle>
          <DialogDescription>
            Donations, notes and tags move to the donor you keep; this record then points there, so its links
            keep working.
          </DialogDescription>
        </DialogHeader>
        <Input
          aria-label="Find the donor to keep"
          placeholder="Search name, e-mail or company"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <ul
          className="flex max-h-48 flex-col overflow-y-auto rounded-md border text-sm"
          aria-label="Donors to keep"
        >
          {candidates.data?.rows
            .filter((o) => o.id !== d.id && !o.anonymized)
            .map((o) => (
              <li key={o.id}>
                <button
                  type="button"
                  aria-pressed={target === o.id}
                  className="flex w-full flex-col items-start px-3 py-2 text-left hover:bg-muted aria-pressed:bg-muted"
                  onClick={() => setTarget(o.id)}
                >
                  <span className="font-medium">{o.name}</span>
                  <span className="text-muted-foreground text-xs [overflow-wrap:anywhere]">
                    {[o.email, o.postalCode, plural(o.donationCount, "donation")].filter(Boolean).join(" · ")}
                  </span>
                </button>
              </li>
            ))}
          {candidates.data && candidates.data.rows.filter((o) => o.id !== d.id).length === 0 ? (
            <li className="px-3 py-2 text-muted-foreground">No other donor matches.</li>
          ) : null}
        </ul>
        {preview.error ? (
          <p role="alert" className="text-destructive text-sm">
            {errorInfo(preview.error).message}
          </p>
        ) : null}
        {p ? (
          <div
            className="flex flex-col gap-2 rounded-md border bg-muted/50 p-3 text-sm"
            role="status"
            aria-label="Merge preview"
          >
            {/* Two records often share a name: each is told by its e-mail, age and gifts. */}
            <MergeSide label="Kept" d={p.target} />
            <MergeSide label="Merged into it, then pointing there" d={p.source} current />
            <ul className="list-disc pl-5">
              <li>
                {plural(p.donations, "donation")} {p.donations === 1 ? "moves" : "move"}
              </li>
              <li>
                {plural(p.notes, "note")} {p.notes === 1 ? "moves" : "move"}
              </li>
              <li>{plural(p.tags, "tag")} added</li>
              {p.email ? <li>E-mail {p.email} becomes the kept donor's</li> : null}
              {p.alternateEmail ? (
                <li>
                  <span className="break-all">{p.alternateEmail}</span> is kept as another e-mail: imports and
                  donations from it still find the donor
                </li>
              ) : null}
              {p.phone ? <li>Phone {p.phone} becomes the kept donor's</li> : null}
              {p.alternatePhone ? <li>Phone {p.alternatePhone} is kept as another phone</li> : null}
              <li>
                Afterwards: {plural(p.result.donationCount, "counted donation")},{" "}
                {formatMoney(p.result.lifetimeMinor, currency)} lifetime
              </li>
            </ul>
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!p || merge.isPending}
            onClick={async () => {
              try {
                const r = await merge.mutateAsync({ sourceId: d.id, targetId: target, dryRun: false });
                // The preview is spent: asked again, the merged id would resolve to the survivor.
                qc.removeQueries({ queryKey: ["donors", "merge-preview"] });
                setTarget("");
                onClose();
                toast.success("Donors merged");
                await qc.invalidateQueries();
                await navigate({ to: "/donors/$donorId", params: { donorId: r.target.id } });
              } catch (e) {
                toast.error(errorInfo(e).message);
              }
            }}
          >
            Merge
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const plural = (n: number, one: string) => `${formatCount(n)} ${n === 1 ? one : `${one}s`}`;

/** One side of a merge, told apart from a namesake by its e-mail, donor-since date and gifts. */
function MergeSide({
  label,
  d,
  current,
}: {
  label: string;
  d: RouterOutputs["donors"]["merge"]["source"];
  current?: boolean;
}) {
  const tz = useTimeZone();
  return (
    <p>
      <span className="text-muted-foreground">{label}: </span>
      <span className="font-medium">{d.name}</span>
      {current ? " (this record)" : ""}
      <span className="block text-muted-foreground text-xs [overflow-wrap:anywhere]">
        {[
          d.email ?? "no e-mail",
          `donor since ${formatDate(d.donorSince, tz)}`,
          plural(d.donationCount, "donation"),
        ].join(" · ")}
      </span>
    </p>
  );
}

/** Irreversible, so the e-mail (or the name when there is none) must be typed. */
function AnonymizeDialog({
  d,
  open,
  onClose,
  onDone,
}: {
  d: Donor;
  open: boolean;
  onClose: () => void;
  onDone: () => unknown;
}) {
  const trpc = useTRPC();
  const [confirm, setConfirm] = React.useState("");
  const expected = d.email ?? d.name;
  const anonymize = useMutation(
    trpc.donors.anonymize.mutationOptions({
      onSuccess: async () => {
        onClose();
        toast.success("Donor anonymized");
        await onDone();
      },
      onError: (e) => toast.error(errorInfo(e).message),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setConfirm("");
          onClose();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Anonymize this donor?</DialogTitle>
          <DialogDescription>
            Names, contact details, notes and donation messages are removed for good; amounts, dates and
            campaigns stay for your totals. This cannot be undone. Type{" "}
            <strong className="break-all">{expected}</strong> to confirm.
          </DialogDescription>
        </DialogHeader>
        <Input aria-label="Confirmation" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={confirm.trim().toLowerCase() !== expected.toLowerCase() || anonymize.isPending}
            onClick={() => anonymize.mutate({ id: d.id, confirm })}
          >
            Anonymize
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Delete, or, when completed gifts exist, the refusal with anonymize as the way out. */
function DeleteDialog({
  d,
  open,
  onClose,
  onAnonymize,
}: {
  d: Donor;
  open: boolean;
  onClose: () => void;
  onAnonymize: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [refused, setRefused] = React.useState<string | null>(null);
  const del = useMutation(
    trpc.donors.delete.mutationOptions({
      onSuccess: async () => {
        onClose();
        toast.success("Donor deleted");
        await qc.invalidateQueries({ queryKey: trpc.donors.pathKey() });
        await navigate({ to: "/donors" });
      },
      onError: (e) => {
        const details = (e as { data?: { details?: { allowed?: string[] } } }).data?.details;
        if (details?.allowed?.includes("anonymize")) setRefused(errorInfo(e).message);
        else toast.error(errorInfo(e).message);
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setRefused(null);
          onClose();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete {d.name}?</DialogTitle>
          <DialogDescription>
            Only donors without completed donations can be deleted; donors who gave are anonymized instead.
          </DialogDescription>
        </DialogHeader>
        {refused ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{refused}</AlertDescription>
          </Alert>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          {refused ? (
            <Button
              variant="destructive"
              onClick={() => {
                setRefused(null);
                onAnonymize();
              }}
            >
              Anonymize instead
            </Button>
          ) : (
            <Button variant="destructive" disabled={del.isPending} onClick={() => del.mutate({ id: d.id })}>
              Delete
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
