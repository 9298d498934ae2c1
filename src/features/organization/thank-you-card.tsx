/**
 * Thank-you messages (issue 25, decision 031): what donors read with their receipt, or on its own.
 * The organization's message, then each campaign's own, which replaces it for that campaign's
 * gifts. Merge fields insert at the cursor; the preview renders the text with a sample gift in the
 * organization's currency through the same renderer the mail uses (core/thanks.ts), beside the
 * editor on a wide screen and under it on a phone. Owners and admins (organization:update) edit;
 * validated in the browser by the API's own schema.
 */
import {
  DEFAULT_THANK_YOU,
  emptyFieldWarnings,
  mergeTag,
  renderThankYou,
  sampleThankYouData,
  THANK_YOU_BODY_MAX,
  THANK_YOU_FIELDS,
  THANK_YOU_SUBJECT_MAX,
  type ThankYouData,
  thankYouTemplateInput,
} from "@core/thanks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import {
  type CampaignChoice,
  CampaignCombobox,
  type CampaignScope,
  campaignSearchInput,
} from "~/components/campaign-combobox";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Segmented, SegmentedItem } from "~/components/ui/segmented";
import { Skeleton } from "~/components/ui/skeleton";
import { Textarea } from "~/components/ui/textarea";
import type { RouterOutputs } from "~/lib/api-types";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { useUnsaved } from "./unsaved";

type Templates = RouterOutputs["thanks"]["list"];
type Template = { subject: string; body: string };

// A campaign message is written before or while a campaign takes gifts, or for its last thanks.
const MESSAGE_CAMPAIGNS: CampaignScope = { status: ["draft", "active", "paused", "completed"] };

export function ThankYouCard() {
  const trpc = useTRPC();
  const q = useQuery(trpc.thanks.list.queryOptions());
  const org = useQuery(trpc.organization.current.queryOptions());
  const sample = React.useMemo(
    () => (org.data ? sampleThankYouData(org.data.name, org.data.defaultCurrency) : null),
    [org.data],
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Thank-you message</CardTitle>
        <CardDescription>
          What donors read in the e-mail that thanks them, with their receipt or on its own. Merge fields fill
          in each donation's details.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {q.error ? (
          <p role="alert" className="text-destructive text-sm">
            {errorInfo(q.error).message}
          </p>
        ) : q.data && sample ? (
          <div className="grid gap-8">
            <TemplateForm
              key={q.data.default.updatedAt ?? "default"}
              name="Thank-you message"
              campaignId={null}
              initial={q.data.default}
              sample={sample}
              submitLabel="Save thank-you message"
              note={
                q.data.default.saved
                  ? null
                  : "This is the suggested message: donors get it until you save your own."
              }
            />
            <CampaignMessages templates={q.data} sample={sample} />
          </div>
        ) : (
          <Skeleton className="h-80 w-full" />
        )}
      </CardContent>
    </Card>
  );
}

/** "Campaign messages": each campaign's own message, added, edited and removed here. */
function CampaignMessages({ templates, sample }: { templates: Templates; sample: ThankYouData }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [editing, setEditing] = React.useState<string | null>(null);
  const [adding, setAdding] = React.useState(false);
  const addButton = React.useRef<HTMLButtonElement>(null);
  const remove = useMutation(trpc.thanks.remove.mutationOptions());
  const headingId = React.useId();
  const close = () => {
    setAdding(false);
    setEditing(null);
  };
  return (
    <section aria-labelledby={headingId} className="grid gap-3 border-t pt-6">
      <div className="grid gap-1">
        <h3 id={headingId} className="font-semibold">
          Campaign messages
        </h3>
        <p className="text-muted-foreground text-sm">
          A campaign's own message replaces the one above for that campaign's donations.
        </p>
      </div>
      {templates.campaigns.length ? (
        <ul className="grid gap-3">
          {templates.campaigns.map((t) => (
            <li key={t.campaignId} className="rounded-md border p-4">
              {editing === t.campaignId ? (
                <TemplateForm
                  name={`Message for ${t.campaignTitle}`}
                  campaignId={t.campaignId}
                  initial={t}
                  sample={{ ...sample, campaign: { title: t.campaignTitle } }}
                  heading={t.campaignTitle}
                  submitLabel="Save campaign message"
                  onDone={close}
                />
              ) : (
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="grid min-w-0 gap-1">
                    <p className="font-medium">{t.campaignTitle}</p>
                    <p className="break-words text-muted-foreground text-sm">{t.subject}</p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Edit the message for ${t.campaignTitle}`}
                      onClick={() => {
                        setAdding(false);
                        setEditing(t.campaignId);
                      }}
                    >
                      Edit
                    </Button>
                    <ConfirmButton
                      destructive
                      title={`Remove the message for ${t.campaignTitle}?`}
                      description="Its donations will be thanked with the organization's message again."
                      confirmLabel="Remove message"
                      onConfirm={async () => {
                        await remove.mutateAsync({ campaignId: t.campaignId });
                        toast.success(`Message for ${t.campaignTitle} removed`);
                        await qc.invalidateQueries({ queryKey: trpc.thanks.list.queryKey() });
                        addButton.current?.focus();
                      }}
                    >
                      Remove
                    </ConfirmButton>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted-foreground text-sm">
          No campaign has its own message: every donation gets the one above.
        </p>
      )}
      {adding ? (
        <div className="rounded-md border p-4">
          <NewCampaignMessage
            templates={templates}
            sample={sample}
            onDone={() => {
              close();
              addButton.current?.focus();
            }}
          />
        </div>
      ) : (
        <div>
          <Button
            ref={addButton}
            variant="outline"
            onClick={() => {
              setEditing(null);
              setAdding(true);
            }}
          >
            <Plus aria-hidden /> Add a campaign message
          </Button>
        </div>
      )}
    </section>
  );
}

/** A campaign without a message of its own, then its message (starting from the organization's). */
function NewCampaignMessage({
  templates,
  sample,
  onDone,
}: {
  templates: Templates;
  sample: ThankYouData;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const taken = { ids: new Set(templates.campaigns.map((t) => t.campaignId)), reason: "Has its own message" };
  const [campaign, setCampaign] = React.useState<CampaignChoice | null>(null);
  const campaignId = campaign?.id ?? "";
  const title = campaign?.title;
  // The picker's first page (cached for it): when it holds every campaign and each has a message, say so.
  const first = useQuery(trpc.campaigns.list.queryOptions(campaignSearchInput(MESSAGE_CAMPAIGNS)));
  const allTaken =
    !!first.data?.total &&
    first.data.total === first.data.rows.length &&
    first.data.rows.every((c) => taken.ids.has(c.id));
  return (
    <TemplateForm
      name="New campaign message"
      campaignId={campaignId}
      initial={templates.default}
      sample={title ? { ...sample, campaign: { title } } : sample}
      heading="New campaign message"
      submitLabel="Save campaign message"
      onDone={onDone}
      campaignPicker={(error) => (
        <Field
          label="Campaign"
          required
          error={error}
          description={allTaken ? "Every campaign already has its own message." : undefined}
        >
          {(control) => (
            <CampaignCombobox
              {...control}
              value={campaign?.id}
              onChange={setCampaign}
              // One message per campaign: a campaign that has one is edited in its own row above.
              unavailable={taken}
              scope={MESSAGE_CAMPAIGNS}
            />
          )}
        </Field>
      )}
    />
  );
}

/**
 * Subject and body with the merge fields to insert and the live preview. Saves through
 * thanks.save; `onDone` (after saving or on Cancel) closes a campaign's editor.
 */
function TemplateForm({
  name,
  campaignId,
  initial,
  sample,
  submitLabel,
  heading,
  note,
  onDone,
  campaignPicker,
}: {
  name: string;
  /** null: the organization's message; "" while a new campaign message has no campaign yet. */
  campaignId: string | null;
  initial: Template;
  sample: ThankYouData;
  submitLabel: string;
  heading?: string;
  note?: string | null;
  onDone?: () => void;
  campaignPicker?: (error: string | undefined) => React.ReactNode;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [subject, setSubject] = React.useState(initial.subject);
  const [body, setBody] = React.useState(initial.body);
  // What was last saved: the page warns before leaving while the message differs (unsaved.tsx).
  const [saved, setSaved] = React.useState(initial);
  useUnsaved(subject !== saved.subject || body !== saved.body);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const subjectRef = React.useRef<HTMLInputElement>(null);
  const bodyRef = React.useRef<HTMLTextAreaElement>(null);
  /** Where a merge field goes: the field last focused (the body until then). */
  const target = React.useRef<"subject" | "body">("body");
  const formId = React.useId();
  // The organization's message also thanks general-fund gifts, which leave fields empty: the
  // preview shows one on request, and the editor names the fields that can be empty (M16).
  const [shown, setShown] = React.useState<"campaign" | "general">("campaign");
  const general: ThankYouData = {
    ...sample,
    donor: { ...sample.donor, company: "" },
    campaign: { title: "" },
    tribute: { name: "" },
  };
  const deferred = { subject: React.useDeferredValue(subject), body: React.useDeferredValue(body) };
  const preview = renderThankYou(deferred, campaignId === null && shown === "general" ? general : sample);
  const warnings = emptyFieldWarnings(deferred).filter(
    (w) => campaignId === null || !w.startsWith(mergeTag("campaign.title")),
  );
  const save = useMutation(
    trpc.thanks.save.mutationOptions({
      onSuccess: async (out) => {
        toast.success(
          out.campaignTitle ? `Message for ${out.campaignTitle} saved` : "Thank-you message saved",
        );
        setErrors({});
        setSaved({ ...saved, subject, body });
        await qc.invalidateQueries({ queryKey: trpc.thanks.list.queryKey() });
        onDone?.();
      },
      onError: (e) => {
        const info = errorInfo(e);
        setErrors({ ...info.fields, _: info.message });
      },
    }),
  );

  function insert(key: (typeof THANK_YOU_FIELDS)[number]["key"]) {
    const tag = mergeTag(key);
    const which = target.current;
    const el = which === "subject" ? subjectRef.current : bodyRef.current;
    const value = which === "subject" ? subject : body;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const next = value.slice(0, start) + tag + value.slice(end);
    (which === "subject" ? setSubject : setBody)(next);
    setErrors(({ [which]: _, ...rest }) => rest);
    // Back to the field, the caret after the inserted field, once React has written the value.
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + tag.length, start + tag.length);
    });
  }

  return (
    <form
      noValidate
      aria-label={name}
      className="grid gap-6 lg:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (campaignId === "") {
          setErrors({ campaignId: "Choose a campaign" });
          return;
        }
        const parsed = thankYouTemplateInput.safeParse({ campaignId, subject, body });
        if (!parsed.success) {
          const fields: Record<string, string> = {};
          for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
          setErrors({ ...fields, _: "Check the highlighted fields" });
          return;
        }
        save.mutate(parsed.data);
      }}
    >
      <div className="grid self-start gap-4">
        {heading ? <p className="font-medium">{heading}</p> : null}
        {campaignPicker?.(errors.campaignId)}
        <Field label="Subject" required error={errors.subject}>
          <Input
            ref={subjectRef}
            value={subject}
            maxLength={THANK_YOU_SUBJECT_MAX}
            autoComplete="off"
            onFocus={() => {
              target.current = "subject";
            }}
            onChange={(e) => {
              setSubject(e.target.value);
              setErrors(({ subject: _, ...rest }) => rest);
            }}
          />
        </Field>
        <Field
          label="Message"
          required
          description="Plain text. Leave a blank line between paragraphs."
          error={errors.body}
        >
          <Textarea
            ref={bodyRef}
            value={body}
            rows={8}
            maxLength={THANK_YOU_BODY_MAX}
            className="min-h-40"
            onFocus={() => {
              target.current = "body";
            }}
            onChange={(e) => {
              setBody(e.target.value);
              setErrors(({ body: _, ...rest }) => rest);
            }}
          />
        </Field>
        <div className="grid gap-2">
          <p id={`${formId}-fields`} className="font-medium text-sm">
            Insert a merge field
          </p>
          <p className="text-muted-foreground text-sm">
            Goes where the cursor was, in the subject or the message.
          </p>
          <ul aria-labelledby={`${formId}-fields`} className="flex flex-wrap gap-1.5">
            {THANK_YOU_FIELDS.map((f) => (
              <li key={f.key}>
                <Button
                  size="sm"
                  variant="outline"
                  className="h-7 px-2 font-mono text-xs"
                  title={f.label}
                  aria-label={`${mergeTag(f.key)}: ${f.label}`}
                  // Keeps the caret where it is in the field when clicked with a mouse.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => insert(f.key)}
                >
                  {mergeTag(f.key)}
                </Button>
              </li>
            ))}
          </ul>
        </div>
        {warnings.length ? (
          <ul className="grid gap-1 text-muted-foreground text-sm" aria-label="Fields that can be empty">
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        ) : null}
        {note ? <p className="text-muted-foreground text-sm">{note}</p> : null}
        {errors._ ? (
          <p role="alert" className="text-destructive text-sm">
            {errors._}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>
            {submitLabel}
          </Button>
          {campaignId === null &&
          (subject !== DEFAULT_THANK_YOU.subject || body !== DEFAULT_THANK_YOU.body) ? (
            <Button
              variant="outline"
              onClick={() => {
                setSubject(DEFAULT_THANK_YOU.subject);
                setBody(DEFAULT_THANK_YOU.body);
                setErrors({});
              }}
            >
              Use the suggested message
            </Button>
          ) : null}
          {onDone ? (
            <Button variant="ghost" onClick={onDone} disabled={save.isPending}>
              Cancel
            </Button>
          ) : null}
        </div>
      </div>
      <section aria-label={`Preview of ${name}`} className="grid self-start gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="font-medium text-sm" aria-hidden>
            Preview
          </p>
          {campaignId === null ? (
            <Segmented
              aria-label="Preview with"
              value={shown}
              onValueChange={(v) => setShown(v as "campaign" | "general")}
            >
              <SegmentedItem value="campaign">A campaign donation</SegmentedItem>
              <SegmentedItem value="general">A general-fund donation</SegmentedItem>
            </Segmented>
          ) : null}
        </div>
        <div className="grid gap-3 rounded-md border bg-muted/30 p-4 text-sm">
          <p className="break-words">
            <span className="text-muted-foreground">Subject: </span>
            <span className="font-medium">{preview.subject}</span>
          </p>
          <div className="grid gap-3 border-t pt-3">
            {preview.text.split("\n\n").map((p, i) => (
              <p key={i} className="whitespace-pre-line break-words">
                {p}
              </p>
            ))}
          </div>
        </div>
        <p className="text-muted-foreground text-xs">
          With a sample donation: {sample.donor.name}, {sample.gift.amount}
          {campaignId === null && shown === "general" ? ", to no campaign, in no one's honor" : ""}.
        </p>
      </section>
    </form>
  );
}
