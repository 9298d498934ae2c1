import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { errorInfo, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { CURRENCIES } from "../../../worker/lib/money";

export const Route = createFileRoute("/_authed/organization")({
  head: () => ({ meta: [{ title: "Organization · Almoner" }] }),
  component: OrganizationPage,
});

const TYPES = ["nonprofit", "charity", "foundation", "community_group", "school", "religious", "other"];
const sel = "h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm";

function OrganizationPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const org = useQuery(trpc.organization.current.queryOptions());
  const mine = useQuery(trpc.organization.mine.queryOptions());
  const [fields, setFields] = React.useState<Record<string, string>>({});
  const save = useMutation(
    trpc.organization.update.mutationOptions({
      onSuccess: async () => {
        toast.success("Organization saved");
        setFields({});
        await qc.invalidateQueries();
      },
      onError: (e) => setFields({ ...errorInfo(e).fields, _: errorInfo(e).message }),
    }),
  );
  const switchOrg = useMutation(
    trpc.organization.setActive.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries();
        toast.success("Switched organization");
      },
    }),
  );
  const members = useQuery(trpc.organization.members.queryOptions());
  const invitations = useQuery(trpc.organization.invitations.queryOptions());
  const invite = useMutation(
    trpc.organization.invite.mutationOptions({
      onSuccess: async () => {
        toast.success("Invitation sent");
        await qc.invalidateQueries({ queryKey: trpc.organization.invitations.queryKey() });
      },
      onError: (e) => toast.error(errorInfo(e).message),
    }),
  );
  const o = org.data;
  if (org.error)
    return (
      <p role="alert" className="text-destructive">
        {errorInfo(org.error).message}
      </p>
    );
  if (!o) return null;
  const disabled = !o.canEdit;
  return (
    <>
      <PageHeader
        title={o.name}
        description={`Your role: ${o.role ? titleCase(o.role) : "platform admin"} · ${titleCase(o.status)}`}
      />
      {(mine.data?.length ?? 0) > 1 ? (
        <Card>
          <CardHeader>
            <CardTitle>Working in</CardTitle>
          </CardHeader>
          <CardContent>
            <select
              aria-label="Organization"
              className={sel}
              value={o.id}
              onChange={(e) => switchOrg.mutate({ organizationId: e.target.value })}
            >
              {mine.data?.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </select>
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            className="grid max-w-3xl gap-4 sm:grid-cols-2"
            onSubmit={(e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              const s = (k: string) => String(f.get(k) ?? "").trim();
              save.mutate({
                name: s("name"),
                legalName: s("legalName") || null,
                type: s("type") as never,
                registrationId: s("registrationId") || null,
                taxId: s("taxId") || null,
                country: s("country").toUpperCase() || null,
                city: s("city") || null,
                contactEmail: s("contactEmail") || null,
                contactPhone: s("contactPhone") || null,
                website: s("website") || null,
                mission: s("mission") || null,
                description: s("description") || null,
                defaultCurrency: s("defaultCurrency") as never,
                timeZone: s("timeZone"),
                fiscalYearStartMonth: Number(s("fiscalYearStartMonth")),
              });
            }}
          >
            <fieldset disabled={disabled} className="contents">
              <Field label="Name" required error={fields.name}>
                <Input name="name" defaultValue={o.name} />
              </Field>
              <Field label="Legal name" error={fields.legalName}>
                <Input name="legalName" defaultValue={o.legalName ?? ""} />
              </Field>
              <Field label="Type">
                <select name="type" className={sel} defaultValue={o.type}>
                  {TYPES.map((t) => (
                    <option key={t} value={t}>
                      {titleCase(t)}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Registration number" error={fields.registrationId}>
                <Input name="registrationId" defaultValue={o.registrationId ?? ""} />
              </Field>
              <Field label="Tax id" error={fields.taxId}>
                <Input name="taxId" defaultValue={o.taxId ?? ""} />
              </Field>
              <Field label="Country (2 letters)" error={fields.country}>
                <Input name="country" maxLength={2} defaultValue={o.country ?? ""} />
              </Field>
              <Field label="City" error={fields.city}>
                <Input name="city" defaultValue={o.city ?? ""} />
              </Field>
              <Field label="Contact e-mail" error={fields.contactEmail}>
                <Input name="contactEmail" type="email" defaultValue={o.contactEmail ?? ""} />
              </Field>
              <Field label="Contact phone" error={fields.contactPhone}>
                <Input name="contactPhone" defaultValue={o.contactPhone ?? ""} />
              </Field>
              <Field label="Website" error={fields.website}>
                <Input name="website" type="url" defaultValue={o.website ?? ""} />
              </Field>
              <Field label="Mission" error={fields.mission} className="sm:col-span-2">
                <Input name="mission" defaultValue={o.mission ?? ""} />
              </Field>
              <Field label="About" error={fields.description} className="sm:col-span-2">
                <Textarea name="description" rows={4} defaultValue={o.description ?? ""} />
              </Field>
              <Field label="Default currency">
                <select name="defaultCurrency" className={sel} defaultValue={o.defaultCurrency}>
                  {CURRENCIES.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </select>
              </Field>
              <Field label="Time zone" description="Reports and date filters use it." error={fields.timeZone}>
                <Input name="timeZone" defaultValue={o.timeZone} />
              </Field>
              <Field label="Fiscal year starts in" error={fields.fiscalYearStartMonth}>
                <select
                  name="fiscalYearStartMonth"
                  className={sel}
                  defaultValue={String(o.fiscalYearStartMonth)}
                >
                  {Array.from({ length: 12 }, (_, i) => (
                    <option key={i + 1} value={i + 1}>
                      {new Date(2026, i, 1).toLocaleString("en-US", { month: "long" })}
                    </option>
                  ))}
                </select>
              </Field>
            </fieldset>
            {fields._ ? (
              <p role="alert" className="text-destructive text-sm sm:col-span-2">
                {fields._}
              </p>
            ) : null}
            {o.canEdit ? (
              <div className="sm:col-span-2">
                <Button type="submit" disabled={save.isPending}>
                  Save
                </Button>
              </div>
            ) : (
              <p className="text-muted-foreground text-sm sm:col-span-2">
                Only owners and admins of the organization can edit its profile.
              </p>
            )}
          </form>
        </CardContent>
      </Card>
    </>
  );
}
