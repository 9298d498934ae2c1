/** /organization-badges (platform admins): definitions, grants with evidence and expiry, revokes. */

import { badgeGrantInput } from "@core/badges";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BadgeCheck } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { PageHeader } from "~/components/layout/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { errorInfo, formatDate } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

// The shared schema is zod/mini, which ships no messages: the form shows the English ones the
// Worker answers with (as in src/features/organization/profile-form.tsx).
config(en());

export function BadgesPage() {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const defs = useQuery(trpc.badges.definitions.queryOptions());
  const list = useQuery(trpc.badges.list.queryOptions());
  const orgs = useQuery(trpc.organization.all.queryOptions());
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: trpc.badges.list.queryKey() }),
      qc.invalidateQueries({ queryKey: trpc.badges.definitions.queryKey() }),
    ]);
  const grant = useMutation(
    trpc.badges.grant.mutationOptions({
      onSuccess: async () => {
        toast.success("Badge granted");
        setErrors({});
        await refresh();
      },
      onError: (e) => {
        const info = errorInfo(e);
        setErrors({ ...info.fields, _: info.message });
      },
    }),
  );
  const revoke = useMutation(trpc.badges.revoke.mutationOptions());
  const manual = defs.data?.filter((d) => d.kind === "manual") ?? [];
  return (
    <>
      <PageHeader
        title="Organization badges"
        description="Trust signals shown on organization profiles and public campaign pages."
      />
      <Card>
        <CardHeader>
          <CardTitle>Badges</CardTitle>
          <CardDescription>
            Manual badges are granted here; automatic ones are recomputed every night.
          </CardDescription>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Badge</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead className="hidden sm:table-cell">Meaning</TableHead>
                <TableHead className="text-right">Holders</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {defs.data?.map((d) => (
                <TableRow key={d.key}>
                  <TableCell className="font-medium">{d.name}</TableCell>
                  <TableCell>
                    <Badge variant={d.kind === "manual" ? "secondary" : "outline"}>{d.kind}</Badge>
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground sm:table-cell">
                    {d.description}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{d.holders}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Grant a badge</CardTitle>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-start"
            onSubmit={(e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              const exp = String(f.get("expiresAt") ?? "");
              // Checked here with the procedure's own schema (core/badges.ts) before sending.
              const parsed = badgeGrantInput.safeParse({
                organizationId: String(f.get("organizationId") ?? ""),
                badge: String(f.get("badge")),
                reason: String(f.get("reason") ?? "").trim() || undefined,
                // End of the chosen day in the admin's time zone.
                expiresAt: exp ? new Date(`${exp}T23:59:59`).getTime() : null,
              });
              if (!parsed.success) {
                const fields: Record<string, string> = {};
                for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
                setErrors(fields);
                return;
              }
              grant.mutate(parsed.data);
            }}
          >
            <Field label="Organization" required error={errors.organizationId}>
              <NativeSelect name="organizationId" className="w-full">
                {orgs.data?.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Badge" required error={errors.badge}>
              <NativeSelect name="badge" className="w-full">
                {manual.map((d) => (
                  <option key={d.key} value={d.key}>
                    {d.name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Expires (optional)" error={errors.expiresAt}>
              <Input name="expiresAt" type="date" />
            </Field>
            <Field
              label="Evidence"
              description="What was checked (kept in the audit log)."
              error={errors.reason}
            >
              <Input name="reason" maxLength={500} />
            </Field>
            {errors._ ? (
              <p role="alert" className="text-destructive text-sm sm:col-span-2 lg:col-span-4">
                {errors._}
              </p>
            ) : null}
            <div>
              <Button type="submit" disabled={grant.isPending}>
                Grant
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Current badges</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col divide-y">
          {list.data?.map((b) => (
            <div key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="flex min-w-0 items-center gap-2">
                <BadgeCheck className="size-4 shrink-0 text-primary" aria-hidden />
                <strong>{b.name}</strong> · <span className="truncate">{b.organizationName}</span>
              </span>
              <span className="flex flex-wrap items-center gap-3 text-muted-foreground">
                {b.expiresAt
                  ? `${b.expired ? "expired" : "until"} ${formatDate(b.expiresAt, tz)}`
                  : "no expiry"}{" "}
                · by {b.grantedBy ?? "system"}
                {b.reason ? ` · ${b.reason}` : ""}
                <ConfirmButton
                  title={`Revoke “${b.name}” from ${b.organizationName}?`}
                  description="The badge disappears from their pages at once. The grant stays in the audit log."
                  confirmLabel="Revoke"
                  destructive
                  reasonLabel="Reason"
                  onConfirm={async (reason) => {
                    try {
                      await revoke.mutateAsync({ id: b.id, reason });
                      toast.success("Badge revoked");
                      await refresh();
                    } catch (e) {
                      toast.error(errorInfo(e).message);
                    }
                  }}
                >
                  Revoke
                </ConfirmButton>
              </span>
            </div>
          ))}
          {list.data?.length === 0 ? (
            <p className="py-4 text-muted-foreground text-sm">No badges granted yet.</p>
          ) : null}
        </CardContent>
      </Card>
    </>
  );
}
