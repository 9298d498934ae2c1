/**
 * One Mailer, two transports (DESIGN §2): `outbox` (rows in D1, read by GET /api/dev/outbox and the
 * tests) and `http` (a transactional-mail provider's JSON API with a bearer token).
 */
import { getConfig } from "../config";
import { directoryDatabase } from "../db/databases";

interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the message is about (verification, reset…), kept for the outbox and tests. */
  url?: string;
  /** Files sent with it: a receipt or a year-end statement as a PDF. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** Base64 of bytes, in chunks (a PDF is too long for one String.fromCharCode call). */
function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Attachments as the provider's JSON API and the outbox take them: content in base64. */
const encodeAttachments = (a: MailAttachment[] | undefined) =>
  a?.length
    ? a.map((f) => ({ filename: f.filename, contentType: f.contentType, content: toBase64(f.content) }))
    : undefined;

interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A plain, accessible message with one call to action. */
export function renderMail(opts: {
  to: string;
  subject: string;
  intro: string;
  action?: { label: string; url: string };
  outro?: string;
}): MailMessage {
  const text = [opts.intro, opts.action ? `${opts.action.label}: ${opts.action.url}` : "", opts.outro ?? ""]
    .filter(Boolean)
    .join("\n\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>${escapeHtml(opts.intro)}</p>${
    opts.action
      ? `<p><a href="${escapeHtml(opts.action.url)}" style="background:#0f766e;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(opts.action.label)}</a></p>`
      : ""
  }${opts.outro ? `<p style="color:#475569">${escapeHtml(opts.outro)}</p>` : ""}</body></html>`;
  return { to: opts.to, subject: opts.subject, text, html, url: opts.action?.url };
}

export function getMailer(env: Env): Mailer {
  const config = getConfig(env);
  if (config.mail.transport === "http") {
    return {
      async send(message) {
        const res = await fetch(config.mail.httpEndpoint, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${String(env.MAIL_HTTP_TOKEN ?? "")}`,
          },
          body: JSON.stringify({
            from: config.mail.from,
            ...message,
            attachments: encodeAttachments(message.attachments),
          }),
        });
        if (!res.ok) throw new Error(`mail provider answered ${res.status}`);
      },
    };
  }
  return {
    async send(message) {
      await directoryDatabase(env)
        .prepare(
          'INSERT INTO mail_outbox (id, "to", subject, text, html, url, attachments, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .bind(
          crypto.randomUUID(),
          message.to.toLowerCase(),
          message.subject,
          message.text,
          message.html,
          message.url ?? null,
          message.attachments?.length ? JSON.stringify(encodeAttachments(message.attachments)) : null,
          Date.now(),
        )
        .run();
    },
  };
}
