import { getConfig } from "../config";
import { directoryDatabase } from "../db/databases";
import { json, methodNotAllowed } from "../http/headers";

/**
 * GET /api/dev/outbox?to=ADDRESS: the dev/test mailbox, newest first, each attachment named with
 * its size; `&attachments=1` adds their content (base64), for the tests that read a receipt back.
 * 404 unless the outbox is on.
 */
export async function handleDevOutbox(request: Request, env: Env): Promise<Response> {
  const config = getConfig(env);
  if (config.mail.transport !== "outbox" || config.app.environment === "production") {
    return json({ code: "NOT_FOUND", message: "Not Found" }, { status: 404 });
  }
  if (request.method !== "GET") return methodNotAllowed(["GET"]);
  const params = new URL(request.url).searchParams;
  const to = params.get("to")?.toLowerCase();
  const withContent = params.get("attachments") === "1";
  const stmt = to
    ? directoryDatabase(env)
        .prepare(
          'SELECT "to", subject, text, html, url, attachments, created_at FROM mail_outbox WHERE "to" = ? ORDER BY created_at DESC, rowid DESC LIMIT 100',
        )
        .bind(to)
    : directoryDatabase(env).prepare(
        'SELECT "to", subject, text, html, url, attachments, created_at FROM mail_outbox ORDER BY created_at DESC, rowid DESC LIMIT 100',
      );
  const { results } = await stmt.all<{
    to: string;
    subject: string;
    text: string;
    html: string;
    url: string | null;
    attachments: string | null;
    created_at: number;
  }>();
  return json(
    results.map((r) => ({
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      url: r.url,
      attachments: (
        JSON.parse(r.attachments ?? "[]") as { filename: string; contentType: string; content: string }[]
      ).map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        // Decoded length of the base64 content.
        size:
          Math.floor((a.content.length * 3) / 4) -
          (a.content.endsWith("==") ? 2 : a.content.endsWith("=") ? 1 : 0),
        ...(withContent ? { content: a.content } : {}),
      })),
      createdAt: new Date(r.created_at).toISOString(),
    })),
    { headers: { "cache-control": "no-store" } },
  );
}
