/**
 * The dev outbox (GET /api/dev/outbox?to=…, newest first), read as a person reads their mail: the
 * newest message with a subject, and the link its button carries.
 */
import assert from "node:assert/strict";
import { BASE_URL } from "./browser.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  url: string | null;
}

export async function inbox(to: string): Promise<Mail[]> {
  const res = await fetch(`${BASE_URL}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  return (await res.json()) as Mail[];
}

/** The newest mail to `to` whose subject matches, waiting a little for it to land. */
export async function newestMail(to: string, subject: string | RegExp): Promise<Mail> {
  const matches = (m: Mail) =>
    typeof subject === "string" ? m.subject === subject : subject.test(m.subject);
  for (let i = 0; i < 20; i++) {
    const found = (await inbox(to)).find(matches);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`no mail to ${to} with subject ${String(subject)}`);
}

/** The path and search of the mail's link, to follow in a browser on this server. */
export async function mailLink(to: string, subject: string | RegExp): Promise<string> {
  const mail = await newestMail(to, subject);
  assert.ok(mail.url, `the mail "${mail.subject}" carries a link`);
  const url = new URL(mail.url);
  return url.pathname + url.search;
}

let n = 0;
export function freshEmail(prefix: string) {
  n += 1;
  return `${prefix}-${Date.now().toString(36)}-${n}@example.org`;
}
