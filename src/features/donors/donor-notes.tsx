/** The notes thread of a donor: pinned first, newest first; internal or shared with the donor. */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Pin, PinOff } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { sessionQueryOptions } from "~/lib/auth/session";
import { errorInfo, formatDateTime } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

export function DonorNotes({
  donorId,
  readOnly,
  canWrite,
  canModerate,
  className,
}: {
  donorId: string;
  readOnly: boolean;
  /** Org owners and admins may edit and delete anyone's note. */
  /** The caller's role writes notes (note create); moderating others' needs `canModerate`. */
  canWrite: boolean;
  canModerate: boolean;
  className?: string;
}) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const session = useQuery(sessionQueryOptions());
  const me = session.data?.payload?.user.id;
  const notes = useQuery(trpc.donors.notes.list.queryOptions({ donorId }));
  const [editing, setEditing] = React.useState<string | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.donors.pathKey() });
  const onError = (e: unknown) => toast.error(errorInfo(e).message);
  const add = useMutation(
    trpc.donors.notes.create.mutationOptions({
      onSuccess: refresh,
      onError: (e) => setError(errorInfo(e).fields.body ?? errorInfo(e).message),
    }),
  );
  const update = useMutation(trpc.donors.notes.update.mutationOptions({ onSuccess: refresh, onError }));
  // Its failures show in the confirm dialog.
  const del = useMutation(trpc.donors.notes.delete.mutationOptions({ onSuccess: refresh }));
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Notes</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {!readOnly && canWrite ? (
          <form
            className="flex flex-col gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const f = new FormData(form);
              setError(null);
              add.mutate(
                {
                  donorId,
                  body: String(f.get("body") ?? ""),
                  visibility: f.get("visibility") === "shared" ? "shared" : "internal",
                  pinned: f.get("pinned") === "on",
                },
                { onSuccess: () => form.reset() },
              );
            }}
          >
            <Textarea
              name="body"
              aria-label="New note"
              placeholder="Write a note"
              rows={2}
              maxLength={5000}
            />
            {error ? (
              <p role="alert" className="text-destructive text-sm">
                {error}
              </p>
            ) : null}
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div className="flex flex-wrap items-center gap-3">
                <NativeSelect name="visibility" aria-label="Visibility" defaultValue="internal">
                  <option value="internal">Internal (team only)</option>
                  <option value="shared">Shared with the donor</option>
                </NativeSelect>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="pinned" /> Pin
                </label>
              </div>
              <Button type="submit" size="sm" disabled={add.isPending}>
                Add note
              </Button>
            </div>
          </form>
        ) : null}
        <ul className="flex flex-col gap-2">
          {notes.data?.map((n) => {
            const mayChange = !readOnly && ((n.authorId === me && canWrite) || canModerate);
            return (
              <li
                key={n.id}
                className="rounded-md border p-3 text-sm"
                data-pinned={n.pinned ? "true" : undefined}
              >
                <div className="mb-1 flex flex-wrap items-center gap-1">
                  {n.pinned ? (
                    <Badge variant="outline">
                      <Pin aria-hidden /> Pinned
                    </Badge>
                  ) : null}
                  <Badge variant={n.visibility === "shared" ? "warning" : "secondary"}>
                    {n.visibility === "shared" ? "Shared with donor" : "Internal"}
                  </Badge>
                </div>
                {editing === n.id ? (
                  <form
                    className="flex flex-col gap-2"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const f = new FormData(e.currentTarget);
                      update.mutate(
                        {
                          id: n.id,
                          body: String(f.get("body") ?? ""),
                          visibility: f.get("visibility") === "shared" ? "shared" : "internal",
                        },
                        { onSuccess: () => setEditing(null) },
                      );
                    }}
                  >
                    <Textarea
                      name="body"
                      aria-label="Edit note"
                      defaultValue={n.body}
                      rows={3}
                      maxLength={5000}
                    />
                    <div className="flex flex-wrap items-center justify-end gap-2">
                      <NativeSelect
                        name="visibility"
                        aria-label="Visibility of the note"
                        defaultValue={n.visibility}
                      >
                        <option value="internal">Internal (team only)</option>
                        <option value="shared">Shared with the donor</option>
                      </NativeSelect>
                      <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(null)}>
                        Cancel
                      </Button>
                      <Button type="submit" size="sm">
                        Save note
                      </Button>
                    </div>
                  </form>
                ) : (
                  <p className="whitespace-pre-wrap break-words">{n.body}</p>
                )}
                <p className="mt-1 flex flex-wrap items-center justify-between gap-2 text-muted-foreground text-xs">
                  <span>
                    {n.author ?? "Someone"} · {formatDateTime(n.createdAt, tz)}
                    {n.updatedAt > n.createdAt ? " · edited" : ""}
                  </span>
                  {mayChange && editing !== n.id ? (
                    <span className="flex gap-3">
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 hover:text-foreground"
                        onClick={() => update.mutate({ id: n.id, pinned: !n.pinned })}
                      >
                        {n.pinned ? (
                          <PinOff className="size-3" aria-hidden />
                        ) : (
                          <Pin className="size-3" aria-hidden />
                        )}
                        {n.pinned ? "Unpin" : "Pin"}
                      </button>
                      <button
                        type="button"
                        className="hover:text-foreground"
                        onClick={() => setEditing(n.id)}
                      >
                        Edit
                      </button>
                      <ConfirmButton
                        variant="ghost"
                        className="h-auto px-0 py-0 font-normal text-inherit text-xs hover:bg-transparent hover:text-destructive dark:hover:bg-transparent"
                        destructive
                        title="Delete this note?"
                        description={`“${n.body.length > 80 ? `${n.body.slice(0, 80)}…` : n.body}” is deleted for good.`}
                        confirmLabel="Delete note"
                        onConfirm={() => del.mutateAsync({ id: n.id })}
                      >
                        Delete
                      </ConfirmButton>
                    </span>
                  ) : null}
                </p>
              </li>
            );
          })}
          {notes.data?.length === 0 ? <li className="text-muted-foreground text-sm">No notes yet.</li> : null}
        </ul>
      </CardContent>
    </Card>
  );
}
