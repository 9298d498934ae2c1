/**
 * Thank-you messages (issue 25, decision 031): the organization's template, per-campaign
 * overrides, the merge fields they may use and how a template becomes an e-mail. One schema for
 * the form and the tRPC input (decision 022); the renderer runs in the browser (the live preview)
 * and in the Worker (the mail), so both show the same words. zod/mini, as core/receipts.ts, so the
 * card adds little to the browser's chunks.
 *
 * A template is plain text: `{{donor.firstName}}`-style merge fields, blank lines between
 * paragraphs. Nothing in it is HTML: the text and every value are escaped when the HTML part is
 * built, so a donor named `<script>` prints as those characters.
 */
import { z } from "zod/mini";
import { formatMoney } from "./money";

/** The merge fields a template may use, with what each prints and an example for the editor. */
export const THANK_YOU_FIELDS = [
  { key: "donor.firstName", label: "Donor's first name", example: "Ada" },
  { key: "donor.lastName", label: "Donor's last name", example: "Lovelace" },
  { key: "donor.name", label: "Donor's full name (or company)", example: "Ada Lovelace" },
  { key: "donor.company", label: "Donor's company", example: "Analytical Engines Ltd" },
  { key: "gift.amount", label: "Amount, with its currency", example: "$50.00" },
  { key: "gift.date", label: "Date of the gift", example: "March 14, 2026" },
  { key: "gift.number", label: "Gift number", example: "1042" },
  { key: "gift.method", label: "Payment method", example: "Card" },
  { key: "campaign.title", label: "Campaign", example: "Winter Coats" },
  { key: "organization.name", label: "Your organization's name", example: "Harbor Light Foundation" },
  { key: "receipt.number", label: "Receipt number", example: "R-000042" },
  { key: "tribute.name", label: "In honor or memory of", example: "Grace Hopper" },
] as const;
export type ThankYouField = (typeof THANK_YOU_FIELDS)[number]["key"];

/** `{{donor.firstName}}`: the text the editor inserts for a field. */
export const mergeTag = (key: ThankYouField) => `{{${key}}}`;

export const THANK_YOU_SUBJECT_MAX = 200;
export const THANK_YOU_BODY_MAX = 10_000;

/** Every value a template can print; empty strings where the gift has none. */
export interface ThankYouData {
  donor: { firstName: string; lastName: string; name: string; company: string };
  gift: { amount: string; date: string; number: string; method: string };
  campaign: { title: string };
  organization: { name: string };
  receipt: { number: string };
  tribute: { name: string };
}

/** What an organization that never saved a template sends. */
export const DEFAULT_THANK_YOU: Readonly<{ subject: string; body: string }> = {
  subject: "Thank you for your gift to {{organization.name}}",
  body: [
    "Dear {{donor.name}},",
    "Thank you for your gift of {{gift.amount}} on {{gift.date}}. Your generosity makes our work possible, and we are grateful to have you with us.",
    "With our warm thanks,\n{{organization.name}}",
  ].join("\n\n"),
};

const KNOWN = new Set<string>(THANK_YOU_FIELDS.map((f) => f.key));
/** `{{ name }}`: two braces, a name without braces, two braces (spaces inside are allowed). */
const TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * What is wrong with a template's text, in the form's words: unknown merge fields (named, with
 * the field meant when only the case differs) or braces that do not close. Null when it is fine.
 */
export function mergeFieldProblem(text: string): string | null {
  const unknown: string[] = [];
  for (const m of text.matchAll(TAG)) {
    const name = m[1] ?? "";
    if (KNOWN.has(name)) continue;
    const meant = THANK_YOU_FIELDS.find((f) => f.key.toLowerCase() === name.toLowerCase());
    const tag = `{{${name}}}${meant ? ` (did you mean ${mergeTag(meant.key)}?)` : ""}`;
    if (!unknown.includes(tag)) unknown.push(tag);
  }
  if (unknown.length === 1) return `Unknown merge field ${unknown[0]}`;
  if (unknown.length > 1)
    return `Unknown merge fields ${unknown.slice(0, -1).join(", ")} and ${unknown[unknown.length - 1]}`;
  const rest = text.replace(TAG, "");
  if (rest.includes("{{") || rest.includes("}}"))
    return "Unbalanced braces: write a merge field as {{field}}, with two braces on each side";
  return null;
}

const mergeFields = z.superRefine((value: string, ctx) => {
  const problem = mergeFieldProblem(value);
  if (problem) ctx.issues.push({ code: "custom", message: problem, input: value });
});

export const thankYouTemplateInput = z.strictObject({
  /** null: the organization's own message; otherwise the campaign whose gifts it thanks. */
  campaignId: z.nullable(z.string().check(z.minLength(1), z.maxLength(64))),
  subject: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Write a subject"),
      z.maxLength(THANK_YOU_SUBJECT_MAX, `At most ${THANK_YOU_SUBJECT_MAX} characters`),
      z.regex(/^[^\r\n]*$/, "The subject is a single line"),
      mergeFields,
    ),
  body: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Write the message"),
      z.maxLength(THANK_YOU_BODY_MAX, `At most ${THANK_YOU_BODY_MAX} characters`),
      mergeFields,
    ),
});
export type ThankYouTemplateInput = z.infer<typeof thankYouTemplateInput>;

/** A donor's name as receipts print it: first and last name, else the company. */
export function thankYouDonorName(d: {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
}): string {
  const full = `${d.firstName?.trim() ?? ""} ${d.lastName?.trim() ?? ""}`.trim();
  return full || d.company?.trim() || "";
}

/**
 * Marks where a field printed nothing, so the tidying below touches only those places: a
 * private-use character, which no template or value keeps (printable drops it).
 */
const EMPTY = "\uE000";

/** Control characters (other than tab and line breaks) and the empty-field marker: never printed. */
function printable(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch === EMPTY || c === 0x7f || (c < 0x20 && ch !== "\t" && ch !== "\n" && ch !== "\r")) continue;
    out += ch;
  }
  return out;
}

function fieldValue(data: ThankYouData, key: string): string {
  const [group, field] = key.split(".") as [keyof ThankYouData, string];
  const v = (data[group] as Record<string, unknown> | undefined)?.[field];
  // A value is one line, whatever the record holds.
  return typeof v === "string" ? printable(v).replace(/\s+/g, " ").trim() : "";
}

/**
 * Tidies one line around the fields that printed nothing: "Dear {{donor.firstName}}," with no
 * first name reads "Dear,", "Thank you, {{donor.firstName}}!" reads "Thank you!", two spaces
 * become one; text the template wrote itself is left as written (a French "Merci !" keeps its
 * space).
 */
function tidy(line: string): string {
  if (!line.includes(EMPTY)) return line;
  return (
    line
      // Several empty fields in a row are one.
      .replace(/\uE000(?:[ \t]*\uE000)+/g, EMPTY)
      // A comma that introduced the missing value, before punctuation: "Thanks, !" → "Thanks!".
      .replace(/[ \t]*,[ \t]*\uE000(?=[ \t]*(?:[.!?;:,)]|$))/g, "")
      // Before punctuation, the spaces that led to it go: "Dear ," → "Dear,".
      .replace(/[ \t]*\uE000(?=[.,;:!?)])/g, "")
      // Between words, one space stays; at either end of the line, none.
      .replace(/[ \t]+\uE000[ \t]+/g, " ")
      .replace(/^[ \t]*\uE000[ \t]*/, "")
      .replace(/[ \t]*\uE000[ \t]*$/, "")
      .replaceAll(EMPTY, "")
  );
}

function fill(text: string, data: ThankYouData): string {
  return printable(text)
    .replace(/\r\n?/g, "\n")
    .replace(TAG, (_, name: string) => (KNOWN.has(name) ? fieldValue(data, name) || EMPTY : EMPTY))
    .split("\n")
    .map((line) => tidy(line).replace(/[ \t]+$/, ""))
    .join("\n");
}

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/**
 * A template with a gift's values: the subject on one line, the body as plain text, and as HTML
 * paragraphs (a blank line starts a paragraph, a single line break stays one), every character of
 * the text and of the values escaped. Fields without a value print nothing; unknown ones (a
 * template saved before a field was renamed) print nothing too.
 */
export function renderThankYou(
  template: { subject: string; body: string },
  data: ThankYouData,
): { subject: string; text: string; html: string } {
  const subject = fill(template.subject, data).replace(/\s+/g, " ").trim();
  const paragraphs = fill(template.body, data)
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/^\n+|\n+$/g, "").trim())
    .filter(Boolean);
  return {
    subject,
    text: paragraphs.join("\n\n"),
    html: paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>\n")}</p>`).join("\n"),
  };
}

/** The preview's gift: the fields' examples, in the organization's name and currency. */
export function sampleThankYouData(orgName: string, currency: string): ThankYouData {
  return {
    donor: {
      firstName: "Ada",
      lastName: "Lovelace",
      name: "Ada Lovelace",
      company: "Analytical Engines Ltd",
    },
    gift: { amount: formatMoney(5_000, currency), date: "March 14, 2026", number: "1042", method: "Card" },
    campaign: { title: "Winter Coats" },
    organization: { name: orgName },
    receipt: { number: "R-000042" },
    tribute: { name: "Grace Hopper" },
  };
}
