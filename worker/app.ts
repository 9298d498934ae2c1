/**
 * The Worker's front door (DESIGN §1): request id, timing and security headers, then the API routes
 * ahead of SSR. `startFetch` is null in the vitest worker, which cannot load Start's server entry.
 */

import { TRPC_MAX_BATCH, TRPC_MAX_BODY_BYTES } from "@core/limits";
import { trustedOriginsOf } from "@core/trusted-url";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "./api-router";
import { handleAuthRequest, SESSION_ANSWER_HEADERS, sessionCheckFromMemory } from "./auth";
import { handleMyMemberships } from "./auth/memberships";
import { getConfig } from "./config";
import { withDatabases } from "./db/databases";
import { limitHttpRequest } from "./http/api-limit";
import { handleDonationExport } from "./http/export";
import {
  API_POLICY,
  applySecurityHeaders,
  CSP_NONCE_HEADER,
  json,
  newNonce,
  securityHeaders,
} from "./http/headers";
import { handleInvitation } from "./http/invitations";
import { handleMedia } from "./http/media";
import { handleOrganizationExport } from "./http/organization-export";
import { originGate, SAFE_METHODS } from "./http/origin-gate";
import { bookmarkHeaders, readStartOf } from "./http/reads";
import { handleReceiptPdf, handleStatementPdf } from "./http/receipt-pdf";
import { handleDonationWebhook } from "./http/webhook";
import {
  logError,
  newRequestLog,
  requestLine,
  SESSION_CHECK_PATH,
  serverTiming,
  timeD1,
  withRequestLog,
  writesLine,
} from "./lib/request-log";
import { shiftClock } from "./lib/shifted-clock";
import { handleDevOutbox } from "./mail/outbox";
import { runScheduled } from "./scheduled";
import { createContext } from "./trpc/context";

type StartFetch = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response> | Response;

/** Decision 018: one origin gate for each cookie-carrying state change, on every path, before a handler. */
function refuseForeignOrigin(request: Request, env: Env): Response | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const config = getConfig(env);
  const gate = originGate(request, {
    trusted: trustedOriginsOf(config.app.url, request.url, config.auth.trustedOrigins),
    cookiePrefix: config.cookie.prefix,
  });
  return gate.ok ? null : json(gate.refusal, { status: 403 });
}

/** tRPC takes JSON only: a form or text/plain body, sendable cross-site without a preflight, is refused. */
function refuseNonJsonTrpc(request: Request): Response | null {
  if (request.method.toUpperCase() !== "POST") return null;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json")
    return json(
      { code: "UNSUPPORTED_MEDIA_TYPE", message: "tRPC requests must be sent as application/json" },
      { status: 415 },
    );
  // A body whose length is not declared is read through a counter that stops at the same mark.
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > TRPC_MAX_BODY_BYTES) return tooLarge();
  return null;
}

const tooLarge = () =>
  json(
    {
      code: "PAYLOAD_TOO_LARGE",
      message: `A request body holds at most ${TRPC_MAX_BODY_BYTES / (1024 * 1024)} MiB`,
    },
    { status: 413 },
  );

/** The request with a body that errors past TRPC_MAX_BODY_BYTES (a chunked upload declares no length). */
function cappedBody(request: Request): Request {
  if (!request.body || request.headers.has("content-length")) return request;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > TRPC_MAX_BODY_BYTES) controller.error(new Error("The request body is too large"));
      else controller.enqueue(chunk);
    },
  });
  return new Request(request, { body: request.body.pipeThrough(counter) });
}

/** What route() answers, and the CSP nonce when the answer is a page SSR rendered with it. */
type Routed = Response | { response: Response; nonce: string };

async function route(
  request: Request,
  url: URL,
  env: Env,
  ctx: ExecutionContext,
  startFetch: StartFetch | null,
): Promise<Routed> {
  const path = url.pathname;
  const foreign = refuseForeignOrigin(request, env);
  if (foreign) return foreign;
  if (path === "/api/auth" || path.startsWith("/api/auth/")) {
    return handleAuthRequest(request, env, ctx, url);
  }
  if (path.startsWith("/api/trpc/") || path === "/api/trpc") {
    const notJson = refuseNonJsonTrpc(request);
    if (notJson) return notJson;
    return fetchRequestHandler({
      endpoint: "/api/trpc",
      req: cappedBody(request),
      maxBatchSize: TRPC_MAX_BATCH,
      router: appRouter,
      createContext: ({ resHeaders }) => createContext({ request, env, ctx, resHeaders, rateLimited: true }),
      onError({ error, path: procedure }) {
        if (error.code === "INTERNAL_SERVER_ERROR")
          logError(`tRPC ${procedure ?? "?"}`, error.cause ?? error);
      },
    });
  }
  if (path === "/api/organizations/my-memberships") {
    return handleMyMemberships(request, env);
  }
  if (path === "/api/export/donations.csv") return handleDonationExport(request, env);
  if (path === "/api/export/organization.zip") return handleOrganizationExport(request, env);
  const invitation = /^\/api\/invitations\/([A-Za-z0-9]{16,64})(?:\/(accept|decline))?$/.exec(path);
  if (invitation) {
    const limited = await limitHttpRequest(request, env, "invitations", true);
    if (limited) return limited;
    const action = (invitation[2] as "accept" | "decline" | undefined) ?? "view";
    return handleInvitation(request, env, invitation[1] as string, action);
  }
  if (path === "/api/webhooks/donations") {
    // Signed and cookie-less: counted per sending address.
    const limited = await limitHttpRequest(request, env, "webhook", false);
    if (limited) return limited;
    return handleDonationWebhook(request, env, (p) => ctx.waitUntil(p));
  }
  const receiptPdf = /^\/api\/receipts\/([A-Za-z0-9_-]{8,64})\.pdf$/.exec(path);
  const statementPdf = /^\/api\/donors\/([A-Za-z0-9_-]{8,64})\/statement\.pdf$/.exec(path);
  if (receiptPdf || statementPdf) {
    const limited = await limitHttpRequest(request, env, "documents", true);
    if (limited) return limited;
    return receiptPdf
      ? handleReceiptPdf(request, env, receiptPdf[1] as string)
      : handleStatementPdf(request, env, (statementPdf as RegExpExecArray)[1] as string);
  }
  if (path === "/api/media" || path.startsWith("/api/media/")) {
    return handleMedia(request, env, path);
  }
  if (path === "/api/dev/outbox") {
    return handleDevOutbox(request, env);
  }
  if (path === "/api" || path.startsWith("/api/")) {
    return json({ code: "NOT_FOUND", message: "Not Found" }, { status: 404 });
  }
  if (path === "/" && request.method === "GET" && !hasSessionCookie(request)) {
    // No session cookie: the session check can only answer /login, so answer it now (302).
    return new Response(null, { status: 302, headers: { Location: "/login" } });
  }
  if (!startFetch) return new Response("Not Found", { status: 404 });
  // A fresh nonce per page, carried into SSR on the request (an incoming one is replaced) and the CSP.
  const nonce = newNonce();
  const headers = new Headers(request.headers);
  headers.set(CSP_NONCE_HEADER, nonce);
  return { response: await startFetch(new Request(request, { headers }), env, ctx), nonce };
}

/**
 * A session check's headers but its request id, one Headers per protocol, which the Response copies in
 * one step (decision 041). Its Server-Timing is fixed: without I/O a Worker's clock does not advance.
 */
const answerHeaders = new Map<boolean, Headers>();
function sessionAnswerHeaders(href: string): Headers {
  const https = href.startsWith("https:");
  let headers = answerHeaders.get(https);
  if (!headers) {
    headers = new Headers([
      ...SESSION_ANSWER_HEADERS,
      ...securityHeaders(new URL(href), API_POLICY),
      ["Server-Timing", serverTiming(0, 0, 0)],
    ]);
    answerHeaders.set(https, headers);
  }
  return headers;
}

/**
 * Whether the URL's text is get-session without a query string, so a check from memory never parses
 * it; a spelling this misses takes the full path, which does.
 */
function isSessionCheck(href: string): boolean {
  const path = href.indexOf("/", href.indexOf("//") + 2);
  return path > 0 && href.length - path === SESSION_CHECK_PATH.length && href.endsWith(SESSION_CHECK_PATH);
}

function hasSessionCookie(request: Request) {
  return /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/.test(request.headers.get("cookie") ?? "");
}

export function createWorker(startFetch: StartFetch | null) {
  return {
    async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
      if (env.TEST_TODAY && env.ENVIRONMENT !== "production") shiftClock(env.TEST_TODAY);
      const started = performance.now();
      // A caller's id is kept only if it looks like one (it is echoed into logs and headers).
      const given = request.headers.get("x-request-id");
      const requestId = given && /^[\w.:-]{1,64}$/.test(given) ? given : crypto.randomUUID();
      const href = request.url;
      // The most frequent request, answered from what this isolate verified before (decision 041): no
      // store, log or D1 scope. It carries every header the path below gives a session check, so a header
      // added below for every response belongs here too (test/auth/core.test.ts compares the two).
      if (request.method === "GET" && isSessionCheck(href)) {
        const body = sessionCheckFromMemory(request, env);
        if (body !== null) {
          const response = new Response(body, { headers: sessionAnswerHeaders(href) });
          response.headers.set("x-request-id", requestId);
          return response;
        }
      }
      const url = new URL(href);
      const log = newRequestLog(request, requestId, url);
      timeD1(env.DB);
      // Every query of the request runs in D1 sessions that start where it needs (decision 027).
      const start = readStartOf(request, url);
      return withRequestLog(log, async () => {
        let response: Response;
        let nonce: string | null = null;
        let reached = {};
        try {
          const { result: routed, bookmarks } = await withDatabases(start, () =>
            route(request, url, env, ctx, startFetch),
          );
          reached = bookmarks;
          if (routed instanceof Response) response = routed;
          else ({ response, nonce } = routed);
        } catch (error) {
          logError("unhandled", error);
          response = json(
            { code: "INTERNAL_SERVER_ERROR", message: "Something went wrong!", requestId },
            { status: 500 },
          );
        }
        // A response we built has headers of its own to add to; one from fetch() or a cache (the
        // assets) has immutable headers, and its first change throws: then they are copied once.
        let headers = response.headers;
        let copied = false;
        try {
          applySecurityHeaders(headers, url, nonce);
        } catch {
          headers = new Headers(response.headers);
          copied = true;
          applySecurityHeaders(headers, url, nonce);
        }
        headers.set("x-request-id", requestId);
        bookmarkHeaders(request, start, reached, headers, url);
        const ms = performance.now() - started;
        headers.append("Server-Timing", serverTiming(log.d1.queries, log.d1.ms, ms));
        // Written when the response starts (a streamed body's time is not in it); LOG_REQUESTS=false
        // silences it, errors still log; a session check answered from a cache has none (`writesLine`).
        if (env.LOG_REQUESTS !== "false" && writesLine(log, response.status))
          console.log(requestLine(log, response.status, ms));
        if (!copied) return response;
        return new Response(response.body, {
          status: response.status,
          statusText: response.statusText,
          headers,
        });
      });
    },
    async scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
      ctx.waitUntil(runScheduled(controller.cron, env, new Date(controller.scheduledTime)));
    },
  };
}
