/**
 * Thank-you templates (decision 031), rendered alike by the browser's preview and the Worker's mail
 * (decision 022). Plain text with merge fields; everything is escaped when the HTML part is built.
 */
import { z } from "zod/mini";
import { formatMoney } from "./money";

export const THANK_YOU_FIELDS = [
  { key: "donor.firstName", label: "Donor's first name", example: "Ada" },
  { key: "donor.lastName", label: "Donor's last name", example: "Lovelace" },
  { key: "donor.name", label: "Donor's full name (or company)", example: "Ada Lovelace" },
  { key: "donor.company", label: "Donor's company", example: "Analytical Engines Ltd" },
  { key: "gift.amount", label: "Amount, with its currency", example: "$50.00" },
  { key: "gift.date", label: "Date of the donation", example: "March 14, 2026" },
  { key: "gift.number", label: "Donation number", example: "1042" },
  { key: "gift.method", label: "Payment method", example: "Card" },
  { key: "campaign.title", label: "Campaign", example: "Winter Coats" },
  { key: "organization.name", label: "Your organization's name", example: "Harbor Light Foundation" },
  { key: "receipt.number", label: "Receipt number", example: "R-000042" },
  { key: "tribute.name", label: "In honor or memory of", example: "Grace Hopper" },
] as const;
type ThankYouField = (typeof THANK_YOU_FIELDS)[number]["key"];

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
const TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Unknown merge fields or unclosed braces, in the form's words; null when the text is fine. */
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

/** As receipts print it: first and last name, else the company. */
export function thankYouDonorName(d: {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
}): string {
  const full = `${d.firstName?.trim() ?? ""} ${d.lastName?.trim() ?? ""}`.trim();
  return full || d.company?.trim() || "";
}

/** Marks where a field printed nothing: a private-use character no template or value keeps. */
const EMPTY = "\uE000";

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
  return typeof v === "string" ? printable(v).replace(/\s+/g, " ").trim() : "";
}

/** Where an empty field may vanish from its line: a greeting, or a name beside a comma; not mid-sentence. */
const VANISHES = [
  /^[ \t]*(?:[^\s.!?;:\uE000]+[ \t]+){0,2}\uE000[ \t]*(?=[.,;:!?)]|$)/,
  /,[ \t]*\uE000[ \t]*(?=[.,;:!?)]|$)/,
  /^[ \t]*\uE000[ \t]*,/,
];

function tidyable(line: string): boolean {
  if (!line.replace(/\uE000/g, "").trim()) return true;
  let rest = line;
  for (const re of VANISHES) rest = rest.replace(re, (m) => m.replace(/\uE000/g, ""));
  return !rest.includes(EMPTY);
}

/**
 * Tidies a line around empty fields ("Dear,"), leaving the template's own text as written. A line with
 * an empty field mid-sentence is dropped (null), so no broken sentence reaches a donor; `keep` tidies it.
 */
function tidy(line: string, keep = false): string | null {
  if (!line.includes(EMPTY)) return line;
  line = line.replace(/\uE000(?:[ \t]*\uE000)+/g, EMPTY);
  if (!keep && !tidyable(line)) return null;
  const opensWithName = /^[ \t]*\uE000[ \t]*,[ \t]*/.test(line);
  if (opensWithName) {
    const rest = line.replace(/^[ \t]*\uE000[ \t]*,[ \t]*/, "");
    line = rest.charAt(0).toLocaleUpperCase() + rest.slice(1);
  }
  return (
    line
      .replace(/\uE000(?:[ \t]*\uE000)+/g, EMPTY)
      // "Thanks, !" → "Thanks!".
      .replace(/[ \t]*,[ \t]*\uE000(?=[ \t]*(?:[.!?;:,)]|$))/g, "")
      .replace(/[ \t]*\uE000(?=[.,;:!?)])/g, "")
      .replace(/[ \t]+\uE000[ \t]+/g, " ")
      .replace(/^[ \t]*\uE000[ \t]*/, "")
      .replace(/[ \t]*\uE000[ \t]*$/, "")
      .replaceAll(EMPTY, "")
  );
}

function fill(text: string, data: ThankYouData, keep = false): string {
  return printable(text)
    .replace(/\r\n?/g, "\n")
    .replace(TAG, (_, name: string) => (KNOWN.has(name) ? fieldValue(data, name) || EMPTY : EMPTY))
    .split("\n")
    .flatMap((line) => {
      const tidied = tidy(line, keep);
      return tidied === null ? [] : [tidied.replace(/[ \t]+$/, "")];
    })
    .join("\n");
}

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** A template with a gift's values, as text and escaped HTML paragraphs; unknown fields print nothing. */
export function renderThankYou(
  template: { subject: string; body: string },
  data: ThankYouData,
): { subject: string; text: string; html: string } {
  const subject = fill(template.subject, data, true).replace(/\s+/g, " ").trim();
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

/** The preview's gifts; "general", the most common, leaves campaign, tribute and company empty. */
export function sampleThankYouData(
  orgName: string,
  currency: string,
  kind: "campaign" | "general" = "campaign",
): ThankYouData {
  const general = kind === "general";
  return {
    donor: {
      firstName: "Ada",
      lastName: "Lovelace",
      name: "Ada Lovelace",
      company: general ? "" : "Analytical Engines Ltd",
    },
    gift: { amount: formatMoney(5_000, currency), date: "March 14, 2026", number: "1042", method: "Card" },
    campaign: { title: general ? "" : "Winter Coats" },
    organization: { name: orgName },
    receipt: { number: "R-000042" },
    tribute: { name: general ? "" : "Grace Hopper" },
  };
}

/** Fields a gift may leave empty, and which gifts do. */
const OPTIONAL_FIELDS: Readonly<Partial<Record<ThankYouField, string>>> = {
  "donor.firstName": "a donor recorded by company name only",
  "donor.lastName": "a donor recorded by company name only",
  "donor.company": "a donor who gives in their own name",
  "campaign.title": "a general-fund donation",
  "receipt.number": "a thank-you sent without a receipt",
  "tribute.name": "a donation in no one's honor or memory",
};

/** The editor's warning per optional field a template uses. */
export function emptyFieldWarnings(template: { subject: string; body: string }): string[] {
  const used = new Set<string>();
  for (const m of `${template.subject}\n${template.body}`.matchAll(TAG)) used.add(m[1] ?? "");
  return THANK_YOU_FIELDS.flatMap((f) => {
    const when = OPTIONAL_FIELDS[f.key];
    return when && used.has(f.key)
      ? [`${mergeTag(f.key)} is empty for ${when}: a sentence that needs it is left out of that message.`]
      : [];
  });
}
