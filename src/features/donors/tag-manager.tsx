/** Tags of the organization: create, rename, recolour, and delete with the number of donors affected. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Tags } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmButton } from "~/components/data-table/data-table";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { errorInfo, formatCount } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export function TagManager() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [open, setOpen] = React.useState(false);
  const tags = useQuery({ ...trpc.donors.tags.list.queryOptions(), enabled: open });
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.donors.pathKey() });
  const onError = (e: unknown) => toast.error(errorInfo(e).message);
  const create = useMutation(trpc.donors.tags.create.mutationOptions({ onSuccess: refresh, onError }));
  const update = useMutation(trpc.donors.tags.update.mutationOptions({ onSuccess: refresh, onError }));
  const del = useMutation(trpc.donors.tags.delete.mutationOptions({ onError }));
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Tags className="size-4" /> Tags
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Donor tags</DialogTitle>
          <DialogDescription>Names are unique in your organization, whatever their case.</DialogDescription>
        </DialogHeader>
        <ul className="flex max-h-[50vh] flex-col gap-2 overflow-y-auto">
          {tags.data?.map((t) => (
            <li key={t.id}>
              <form
                className="flex flex-wrap items-center gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  const f = new FormData(e.currentTarget);
                  update.mutate(
                    { id: t.id, name: String(f.get("name") ?? ""), color: String(f.get("color")) },
                    { onSuccess: () => toast.success("Tag saved") },
                  );
                }}
              >
                <input
                  type="color"
                  name="color"
                  defaultValue={t.color}
                  aria-label={`Colour of ${t.name}`}
                  className="h-9 w-10 rounded border"
                />
                <Input
                  name="name"
                  defaultValue={t.name}
                  aria-label={`Name of ${t.name}`}
                  className="min-w-0 flex-1"
                />
                <span className="text-muted-foreground text-xs tabular-nums">
                  {formatCount(t.donors)} donors
                </span>
                <Button type="submit" size="sm" variant="outline">
                  Save
                </Button>
                <ConfirmButton
                  variant="ghost"
                  destructive
                  title={`Delete the tag "${t.name}"?`}
                  description={`It is removed from ${formatCount(t.donors)} donor${t.donors === 1 ? "" : "s"}. The donors stay.`}
                  confirmLabel="Delete tag"
                  onConfirm={async () => {
                    const r = await del.mutateAsync({ id: t.id });
                    toast.success(`Tag deleted; ${r.donorsAffected} donor(s) affected`);
                    await refresh();
                  }}
                >
                  Delete
                </ConfirmButton>
              </form>
            </li>
          ))}
          {tags.data?.length === 0 ? <li className="text-muted-foreground text-sm">No tags yet.</li> : null}
        </ul>
        <form
          className="flex gap-2 border-t pt-3"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const name = String(new FormData(form).get("name") ?? "");
            create.mutate({ name }, { onSuccess: () => form.reset() });
          }}
        >
          <Input name="name" aria-label="New tag name" placeholder="New tag" maxLength={40} />
          <Button type="submit">Add tag</Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
