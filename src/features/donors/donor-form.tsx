import { type DonorFormInput, donorInput, donorKinds } from "@core/donor";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";

/** What the form sends: the donor schema's input (core/donor.ts), every field the form has present. */
export type DonorFormValue = Required<Omit<DonorFormInput, "externalId">>;

export function DonorForm({
  initial,
  onSubmit,
  pending,
  errors,
  submitLabel,
}: {
  initial?: Partial<DonorFormValue>;
  onSubmit: (v: DonorFormValue) => void;
  pending: boolean;
  errors: Record<string, string>;
  submitLabel: string;
}) {
  const [type, setType] = React.useState(initial?.type ?? "individual");
  // What the donor schema (core/donor.ts, the input of donors.create and donors.update) refuses
  // before sending; the server's answer comes in `errors`.
  const [local, setLocal] = React.useState<Record<string, string>>({});
  const shown = Object.keys(local).length ? local : errors;
  return (
    <form
      noValidate
      className="grid max-w-3xl gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const s = (k: string) => String(f.get(k) ?? "").trim() || null;
        const value: DonorFormValue = {
          type,
          firstName: s("firstName"),
          lastName: s("lastName"),
          company: s("company"),
          email: s("email"),
          phone: s("phone"),
          addressLine1: s("addressLine1"),
          city: s("city"),
          region: s("region"),
          postalCode: s("postalCode"),
          country: s("country")?.toUpperCase() ?? null,
          emailOptIn: f.get("emailOptIn") === "on",
          phoneOptIn: f.get("phoneOptIn") === "on",
          mailOptIn: f.get("mailOptIn") === "on",
        };
        const parsed = donorInput.safeParse(value);
        if (!parsed.success) {
          const fields: Record<string, string> = {};
          for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
          setLocal({ ...fields, _: "Check the highlighted fields" });
          return;
        }
        setLocal({});
        onSubmit(value);
      }}
    >
      <fieldset className="flex gap-4 sm:col-span-2">
        <legend className="sr-only">Donor type</legend>
        {donorKinds.map((t) => (
          <label key={t} className="flex items-center gap-2 text-sm">
            <input type="radio" name="type" checked={type === t} onChange={() => setType(t)} />{" "}
            {t === "individual" ? "Individual" : "Organization"}
          </label>
        ))}
      </fieldset>
      {type === "individual" ? (
        <>
          <Field label="First name" error={shown.firstName}>
            <Input name="firstName" defaultValue={initial?.firstName ?? ""} autoComplete="off" />
          </Field>
          <Field label="Last name" error={shown.lastName}>
            <Input name="lastName" defaultValue={initial?.lastName ?? ""} autoComplete="off" />
          </Field>
        </>
      ) : null}
      <Field
        label={type === "organization" ? "Organization name" : "Company"}
        required={type === "organization"}
        error={shown.company}
        className="sm:col-span-2"
      >
        <Input name="company" defaultValue={initial?.company ?? ""} />
      </Field>
      <Field label="E-mail" error={shown.email}>
        <Input name="email" type="email" defaultValue={initial?.email ?? ""} />
      </Field>
      <Field label="Phone" error={shown.phone}>
        <Input name="phone" type="tel" defaultValue={initial?.phone ?? ""} />
      </Field>
      <Field label="Address" error={shown.addressLine1} className="sm:col-span-2">
        <Input name="addressLine1" defaultValue={initial?.addressLine1 ?? ""} />
      </Field>
      <Field label="City" error={shown.city}>
        <Input name="city" defaultValue={initial?.city ?? ""} />
      </Field>
      <Field label="Region" error={shown.region}>
        <Input name="region" defaultValue={initial?.region ?? ""} />
      </Field>
      <Field label="Postal code" error={shown.postalCode}>
        <Input name="postalCode" defaultValue={initial?.postalCode ?? ""} />
      </Field>
      <Field label="Country (2 letters)" error={shown.country}>
        <Input name="country" maxLength={2} defaultValue={initial?.country ?? ""} />
      </Field>
      <fieldset className="flex flex-wrap gap-4 text-sm sm:col-span-2">
        <legend className="mb-1 font-medium">Consent</legend>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="emailOptIn" defaultChecked={initial?.emailOptIn} /> E-mail updates
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="phoneOptIn" defaultChecked={initial?.phoneOptIn} /> Phone calls
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="mailOptIn" defaultChecked={initial?.mailOptIn} /> Post
        </label>
      </fieldset>
      {shown._ ? (
        <p role="alert" className="text-destructive text-sm sm:col-span-2">
          {shown._}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}
