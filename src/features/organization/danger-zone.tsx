/**
 * /organization's danger zone, for owners (issue 53; decisions 046, 047): hand the organization
 * on by offering its ownership to a member, and delete it, typing its name, with the export of all
 * its data offered first in the same dialog.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Download } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { errorInfo, formatDate, titleCase } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

export function DangerZone({ name, canExport }: { name: string; canExport: boolean }) {
  return (
    <div className="flex flex-col gap-6">
      <TransferCard />
      <DeleteCard name={name} canExport={canExport} />
    </div>
  );
}

function TransferCard() {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const members = useQuery(trpc.organization.members.queryOptions());
  const offer = useQuery(trpc.organization.ownershipOffer.queryOptions());
  const [membershipId, setMembershipId] = React.useState("");
  const [stepDown, setStepDown] = React.useState(false);
  const [asking, setAsking] = React.useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.organization.pathKey() });
  const make = useMutation(trpc.organization.offerOwnership.mutationOptions());
  const withdraw = useMutation(trpc.organization.withdrawOwnershipOffer.mutationOptions());
  const candidates = (members.data ?? []).filter((m) => m.role !== "owner");
  const chosen = candidates.find((m) => m.id === membershipId);
  const open = offer.data && !offer.data.expired ? offer.data : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Hand on the ownership</CardTitle>
        <CardDescription>
          Offer to make another member an owner. They are mailed and accept or decline in the portal; until
          then nothing changes. You can stay an owner, or become an admin once they accept.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {open ? (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3 text-sm">
            <p className="min-w-0">
              Offered to <span className="font-medium">{open.to.name}</span>{" "}
              <span className="break-all text-muted-foreground">{open.to.email}</span> by {open.from.name},
              open until {formatDate(open.expiresAt, tz)}.{" "}
              {open.fromBecomes === "admin"
                ? `${open.from.name} becomes an admin when it is accepted.`
                : `${open.from.name} stays an owner.`}
            </p>
            <ConfirmButton
              title={`Withdraw the offer to ${open.to.name}?`}
              description="They can no longer accept it. You can make a new offer afterwards."
              confirmLabel="Withdraw offer"
              onConfirm={async () => {
                await withdraw.mutateAsync();
                toast.success("Offer withdrawn");
                await refresh();
              }}
            >
              Withdraw offer
            </ConfirmButton>
          </div>
        ) : candidates.length ? (
          <form
            className="grid max-w-xl gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (chosen) setAsking(true);
            }}
          >
            <Field label="New owner">
              <NativeSelect
                className="w-full px-3"
                value={membershipId}
                onChange={(e) => setMembershipId(e.target.value)}
                required
              >
                <option value="">Choose a member…</option>
                {candidates.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name} ({m.email}) · {titleCase(m.role)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <fieldset className="flex flex-col gap-2 text-sm">
              <legend className="mb-1 font-medium">When they accept</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name="after" checked={!stepDown} onChange={() => setStepDown(false)} />I
                stay an owner
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="after" checked={stepDown} onChange={() => setStepDown(true)} />I
                become an admin
              </label>
            </fieldset>
            <div>
              <Button type="submit" variant="outline" disabled={!chosen}>
                Offer ownership…
              </Button>
            </div>
          </form>
        ) : (
          <p className="text-muted-foreground text-sm">
            Every member is an owner already. Invite someone from Members to hand the organization on to them.
          </p>
        )}
        <ConfirmDialog
          open={asking && !!chosen}
          onOpenChange={setAsking}
          title={`Offer the ownership to ${chosen?.name ?? ""}?`}
          description={`${chosen?.email ?? ""} is mailed and can accept within 7 days. ${stepDown ? "When they accept, you become an admin." : "You stay an owner."}`}
          confirmLabel="Send offer"
          onConfirm={async () => {
            await make.mutateAsync({ membershipId, stepDown });
            toast.success(`Ownership offered to ${chosen?.name ?? "the member"}`);
            setMembershipId("");
            await refresh();
          }}
        />
      </CardContent>
    </Card>
  );
}

function DeleteCard({ name, canExport }: { name: string; canExport: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = React.useState(false);
  const [typed, setTyped] = React.useState("");
  const del = useMutation(trpc.organization.delete.mutationOptions());
  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete this organization</CardTitle>
        <CardDescription>
          Every member loses access at once, its public pages go, and its campaigns, donors, donations,
          receipts and history are removed for good. This cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button
          variant="destructive"
          onClick={() => {
            setTyped("");
            setOpen(true);
          }}
        >
          Delete organization…
        </Button>
        <ConfirmDialog
          open={open}
          onOpenChange={setOpen}
          destructive
          title={`Delete ${name}?`}
          description="Members lose access at once; its data is removed for good. Download what you want to keep first."
          confirmLabel="Delete organization"
          canConfirm={typed.trim() === name}
          onConfirm={async () => {
            try {
              await del.mutateAsync({ confirmName: typed });
            } catch (e) {
              throw new Error(errorInfo(e).message);
            }
            toast.success(`${name} was deleted`);
            await qc.invalidateQueries();
            await navigate({ to: "/dashboard" });
          }}
        >
          {canExport ? (
            <Button asChild variant="outline" className="w-fit">
              <a href="/api/export/organization.zip" download>
                <Download aria-hidden /> Download all data (ZIP)
              </a>
            </Button>
          ) : null}
          <Field label={`Type ${name} to confirm`} required>
            <Input value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
          </Field>
        </ConfirmDialog>
      </CardContent>
    </Card>
  );
}
