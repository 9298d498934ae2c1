import { getConfig } from "../config";
import { directoryDatabase } from "../db/databases";
import { json } from "../http/headers";

/** GET /api/dev/outbox?to=ADDRESS: the dev/test mailbox, newest first. 404 unless the outbox is on. */
export async function handleDevOutbox(request: Request, env: Env): Promise<Response> {
  const config = getConfig(env);
  if (config.mail.transport !== "outbox" || config.app.environment === "production") {
    return json({ code: "NOT_FOUND", message: "Not Found" }, { status: 404 });
  }
  if (request.method !== "GET")
    return json({ code: "METHOD_NOT_ALLOWED", message: "Method not allowed" }, { status: 405 });
  const to = new URL(request.url).searchParams.get("to")?.toLowerCase();
  const stmt = to
    ? directoryDatabase(env)
        .prepare(
          'SELECT "to", subject, text, html, url, created_at FROM mail_outbox WHERE "to" = ? ORDER BY created_at DESC, rowid DESC LIMIT 100',
        )
        .bind(to)
    : directoryDatabase(env).prepare(
        'SELECT "to", subject, text, html, url, created_at FROM mail_outbox ORDER BY created_at DESC, rowid DESC LIMIT 100',
      );
  const { results } = await stmt.all<{
    to: string;
    subject: string;
    text: string;
    html: string;
    url: string | null;
    created_at: number;
  }>();
  return json(
    results.map((r) => ({
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      url: r.url,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    { headers: { "cache-control": "no-store" } },
  );
}
