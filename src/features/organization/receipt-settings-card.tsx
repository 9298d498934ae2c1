/**
 * Receipts (issue 25, decision 031): what the organization's tax receipts say beyond its profile
 * (the legal name, registration and tax numbers, address and logo come from the profile above) and
 * whether they go out on their own. Owners and admins (organization:update) edit; validated in the
 * browser by the API's own schema (core/receipts.ts).
 */

import {
  formatReceiptNumber,
  RECEIPT_LANGUAGE_LABELS,
  RECEIPT_PREFIX_MAX,
  receiptLanguages,
  receiptSettingsInput,
} from "@core/receipts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Skeleton } from "~/components/ui/skeleton";
import { Switch } from "~/components/ui/switch";
import { Textarea } from "~/components/ui/textarea";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { useFormChanges } from "./unsaved";

export function ReceiptSettingsCard() {
  const trpc = useTRPC();
  const q = useQuery(trpc.receipts.settings.queryOptions());
  return (
    <Card>
      <CardHeader>
        <CardTitle>Receipts</CardTitle>
        <CardDescription>
          What tax receipts say besides the profile, which gives them the legal name, registration and tax
          numbers, address and logo.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {q.error ? (
          <p role="alert" className="text-destructive text-sm">
            {errorInfo(q.error).message}
          </p>
        ) : q.data ? (
          <ReceiptSettingsForm key={q.data.updatedAt ?? "defaults"} settings={q.data} />
        ) : (
          <Skeleton className="h-64 max-w-3xl" />
        )}
      </CardContent>
    </Card>
  );
}

type Settings = import("~/lib/api-types").RouterOutputs["receipts"]["settings"];

function ReceiptSettingsForm({ settings }: { settings: Settings }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [prefix, setPrefix] = React.useState(settings.numberPrefix);
  const [autoSend, setAutoSend] = React.useState(settings.autoSend);
  const changes = useFormChanges(autoSend);
  const save = useMutation(
    trpc.receipts.updateSettings.mutationOptions({
      onSuccess: async () => {
        toast.success("Receipt settings saved");
        setErrors({});
        changes.saved();
        await qc.invalidateQueries({ queryKey: trpc.receipts.settings.queryKey() });
      },
      onError: (e) => {
        const info = errorInfo(e);
        setErrors({ ...info.fields, _: info.message });
      },
    }),
  );
  return (
    <form
      {...changes.form}
      noValidate
      aria-label="Receipt settings"
      className="grid max-w-3xl gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const s = (k: string) => String(f.get(k) ?? "").trim();
        const parsed = receiptSettingsInput.safeParse({
          signatoryName: s("signatoryName") || null,
          signatoryTitle: s("signatoryTitle") || null,
          taxStatement: s("taxStatement") || null,
          numberPrefix: s("numberPrefix"),
          language: s("language"),
          autoSend,
        });
        if (!parsed.success) {
          const fields: Record<string, string> = {};
          for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
          setErrors({ ...fields, _: "Check the highlighted fields" });
          return;
        }
        save.mutate(parsed.data);
      }}
    >
      <Field label="Signed by" error={errors.signatoryName}>
        <Input
          name="signatoryName"
          maxLength={100}
          defaultValue={settings.signatoryName ?? ""}
          autoComplete="off"
        />
      </Field>
      <Field label="Signatory's title" error={errors.signatoryTitle}>
        <Input
          name="signatoryTitle"
          maxLength={100}
          defaultValue={settings.signatoryTitle ?? ""}
          placeholder="Treasurer"
          autoComplete="off"
        />
      </Field>
      <Field
        label="Tax statement"
        description="Printed under the amounts: what your country's tax rules ask a receipt to say."
        error={errors.taxStatement}
        className="sm:col-span-2"
      >
        <Textarea
          name="taxStatement"
          rows={3}
          maxLength={2000}
          defaultValue={settings.taxStatement ?? ""}
          placeholder="No goods or services were provided in exchange for this contribution."
        />
      </Field>
      <Field
        label="Receipt number prefix"
        description={`Letters, digits and - _ / . (up to ${RECEIPT_PREFIX_MAX}). Numbers run on, one sequence per organization: ${formatReceiptNumber(prefix, 1)}, ${formatReceiptNumber(prefix, 2)}…`}
        error={errors.numberPrefix}
      >
        <Input
          name="numberPrefix"
          maxLength={RECEIPT_PREFIX_MAX}
          value={prefix}
          onChange={(e) => setPrefix(e.target.value)}
          autoComplete="off"
        />
      </Field>
      {/* Its neighbour's description is long: keep the label at the top of the row. */}
      <Field label="Language" error={errors.language} className="self-start">
        <NativeSelect name="language" defaultValue={settings.language} className="w-full px-3">
          {receiptLanguages.map((l) => (
            <option key={l} value={l}>
              {RECEIPT_LANGUAGE_LABELS[l]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <div className="flex items-start gap-3 sm:col-span-2">
        <Switch id="receipt-auto-send" checked={autoSend} onCheckedChange={setAutoSend} className="mt-0.5" />
        <div className="grid gap-1">
          <label htmlFor="receipt-auto-send" className="font-medium text-sm">
            Send receipts automatically
          </label>
          <p className="text-muted-foreground text-sm">
            When a donation completes, its donor gets the receipt by e-mail. Off: send them from the
            donation's page.
          </p>
        </div>
      </div>
      {errors._ ? (
        <p role="alert" className="text-destructive text-sm sm:col-span-2">
          {errors._}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={save.isPending}>
          Save receipt settings
        </Button>
      </div>
    </form>
  );
}
