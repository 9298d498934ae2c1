import { CURRENCIES } from "@core/money";
import { organizationInput, organizationTypes } from "@core/organization";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { toast } from "sonner";
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";
import { ImageUpload } from "~/components/image-upload";
import { TimeZoneCombobox } from "~/components/time-zone-combobox";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { errorInfo, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { useFormChanges } from "./unsaved";

// The shared schema is zod/mini, which ships no messages: the form shows English ones, the same
// the Worker answers with (classic zod registers this locale there).
config(en());

type Org = Record<string, string | number | boolean | null> & { canEdit: boolean };

const TEXT_FIELDS: { name: string; label: string; type?: string; wide?: boolean; max?: number }[] = [
  { name: "name", label: "Name" },
  { name: "legalName", label: "Legal name" },
  { name: "registrationId", label: "Registration number" },
  { name: "taxId", label: "Tax id" },
  { name: "addressLine1", label: "Address", wide: true },
  { name: "addressLine2", label: "Address (line 2)", wide: true },
  { name: "city", label: "City" },
  { name: "region", label: "Region / state" },
  { name: "postalCode", label: "Postal code" },
  { name: "country", label: "Country (2 letters)", max: 2 },
  { name: "contactEmail", label: "Contact e-mail", type: "email" },
  { name: "contactPhone", label: "Contact phone", type: "tel" },
  { name: "website", label: "Website", type: "url" },
  { name: "mission", label: "Mission", wide: true },
];

const MONTH = (m: number) => new Date(2026, m - 1, 1).toLocaleString("en-US", { month: "long" });

/**
 * The organization profile (DESIGN §4): a form for owners and admins, validated in the browser by
 * the API's own zod schema; for everyone else the same facts to read (L11: no form of disabled
 * inputs to puzzle over).
 */
export function ProfileForm({ org }: { org: Org }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        {org.canEdit ? null : (
          <CardDescription>Only owners and admins of the organization can edit its profile.</CardDescription>
        )}
      </CardHeader>
      <CardContent>{org.canEdit ? <EditProfile org={org} /> : <ProfileFacts org={org} />}</CardContent>
    </Card>
  );
}

/** The profile to read: each field with its label, the empty ones left out. */
function ProfileFacts({ org }: { org: Org }) {
  const v = (k: string) => (org[k] === null || org[k] === undefined || org[k] === "" ? null : String(org[k]));
  const facts: [string, string | null][] = [
    ...TEXT_FIELDS.map((t) => [t.label.replace(" (2 letters)", ""), v(t.name)] as [string, string | null]),
    ["Type", org.type ? titleCase(String(org.type)) : null],
    ["Default currency", v("defaultCurrency")],
    ["Time zone", v("timeZone")?.replaceAll("_", " ") ?? null],
    ["Fiscal year starts in", org.fiscalYearStartMonth ? MONTH(Number(org.fiscalYearStartMonth)) : null],
    ["About", v("description")],
  ];
  return (
    <dl className="grid max-w-3xl gap-x-6 gap-y-3 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]">
      {facts
        .filter(([, value]) => value !== null)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 whitespace-pre-line break-words">{value}</dd>
          </div>
        ))}
    </dl>
  );
}

function EditProfile({ org }: { org: Org }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [logo, setLogo] = React.useState<string | null>((org.logoUrl as string | null) ?? null);
  const [timeZone, setTimeZone] = React.useState(String(org.timeZone ?? "UTC"));
  const changes = useFormChanges(logo);
  const save = useMutation(
    trpc.organization.update.mutationOptions({
      onSuccess: async () => {
        toast.success("Organization saved");
        setErrors({});
        changes.saved();
        await qc.invalidateQueries();
      },
      onError: (e) => {
        const info = errorInfo(e);
        setErrors({ ...info.fields, _: info.message });
      },
    }),
  );
  const v = (k: string) => (org[k] === null || org[k] === undefined ? "" : String(org[k]));
  return (
    <form
      {...changes.form}
      noValidate
      aria-label="Profile"
      className="grid max-w-3xl gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const s = (k: string) => String(f.get(k) ?? "").trim();
        const raw: Record<string, unknown> = {
          type: s("type"),
          defaultCurrency: s("defaultCurrency"),
          timeZone: s("timeZone"),
          fiscalYearStartMonth: Number(s("fiscalYearStartMonth")),
          description: s("description") || null,
        };
        for (const t of TEXT_FIELDS) raw[t.name] = t.name === "name" ? s("name") : s(t.name) || null;
        raw.logoUrl = logo;
        const parsed = organizationInput.safeParse(raw);
        if (!parsed.success) {
          const fields: Record<string, string> = {};
          for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
          setErrors({ ...fields, _: "Check the highlighted fields" });
          return;
        }
        save.mutate(parsed.data);
      }}
    >
      <fieldset className="contents">
        {TEXT_FIELDS.map((t) => (
          <Field
            key={t.name}
            label={t.label}
            required={t.name === "name"}
            error={errors[t.name]}
            className={t.wide ? "sm:col-span-2" : undefined}
          >
            <Input name={t.name} type={t.type ?? "text"} maxLength={t.max} defaultValue={v(t.name)} />
          </Field>
        ))}
        <ImageUpload
          label="Logo"
          description="PNG, JPEG or WebP up to 1 MB; shown on public campaign pages."
          shape="square"
          value={logo}
          onChange={setLogo}
          error={errors.logoUrl}
          className="sm:col-span-2"
        />
        <Field label="Type" error={errors.type}>
          <NativeSelect name="type" className="w-full px-3" defaultValue={v("type")}>
            {organizationTypes.map((t) => (
              <option key={t} value={t}>
                {titleCase(t)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="Default currency" error={errors.defaultCurrency}>
          <NativeSelect name="defaultCurrency" className="w-full px-3" defaultValue={v("defaultCurrency")}>
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          label="Time zone"
          description="Dates, reports and date filters use it. A change recounts the daily figures in the new zone: at once for most organizations, within the hour for the largest (totals stay exact meanwhile)."
          error={errors.timeZone}
        >
          <TimeZoneCombobox name="timeZone" value={timeZone} onChange={setTimeZone} />
        </Field>
        <Field label="Fiscal year starts in" error={errors.fiscalYearStartMonth}>
          <NativeSelect
            name="fiscalYearStartMonth"
            className="w-full px-3"
            defaultValue={v("fiscalYearStartMonth")}
          >
            {Array.from({ length: 12 }, (_, i) => (
              <option key={i + 1} value={i + 1}>
                {MONTH(i + 1)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="About" error={errors.description} className="sm:col-span-2">
          <Textarea name="description" rows={4} maxLength={5000} defaultValue={v("description")} />
        </Field>
      </fieldset>
      {errors._ ? (
        <p role="alert" className="text-destructive text-sm sm:col-span-2">
          {errors._}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button type="submit" disabled={save.isPending}>
          Save
        </Button>
        {changes.dirty ? <span className="text-muted-foreground text-sm">Unsaved changes</span> : null}
      </div>
    </form>
  );
}
