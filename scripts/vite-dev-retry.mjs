// `vite dev` only: a request the dev server failed to hand to workerd is sent again, when the
// failure proves workerd never read it (docs/decisions/051-dev-server-under-load.md).
//
// The Cloudflare plugin forwards each request with Miniflare's dispatchFetch over a keep-alive
// undici Pool to workerd. workerd (kj's HttpServer) waits 5 s for the next request on a kept-alive
// connection, then closes it. On two busy cores, workerd's one thread can be busy longer than that
// (sign-ins are scrypt in the Worker); when it comes back, the 5 s have passed and it closes
// connections on which the dev server had already written the next request. Closing a socket with
// unread bytes sends a reset: fetch fails ("fetch failed", ECONNRESET) and Vite answered 500.
// No option of the plugin, Miniflare or workerd changes the timeout or the Pool.
//
// Proof, from undici's diagnostics channels (public API, process-wide): the request went out on a
// socket that had already carried a request (a fresh connection has no such timeout), no byte of
// an answer came back, and the socket was reset, which means workerd closed it with our bytes
// unread. Only then is the request replayed (at most 5 times: one stall resets many sockets
// at once, and the replay may land on another of them), with the body it had (kept as it
// arrived). A connection closed without a reset ("other side closed") does not prove that workerd
// left the request unread, so it is replayed only for GET and HEAD. Anything else goes to Vite's
// error page as before.
import { channel } from "node:diagnostics_channel";
import { IncomingMessage } from "node:http";

const MAX_REPLAYS = 5;
const ATTEMPT = Symbol("almoner.devRetryAttempt");
const BODY = Symbol("almoner.devRetryBody");

/** Errors of requests workerd never read: fetch's TypeError carries the same object as `cause`. */
const unread = new WeakSet();
let watching = false;
const usesOfSocket = new WeakMap();
const sent = new WeakMap();

function watchUndici() {
  if (watching) return;
  watching = true;
  channel("undici:client:sendHeaders").subscribe(({ request, socket }) => {
    const uses = usesOfSocket.get(socket) ?? 0;
    usesOfSocket.set(socket, uses + 1);
    sent.set(request, { reused: uses > 0, answered: false });
  });
  channel("undici:request:headers").subscribe(({ request }) => {
    const s = sent.get(request);
    if (s) s.answered = true;
  });
  channel("undici:request:error").subscribe(({ request, error }) => {
    const s = sent.get(request);
    if (!s?.reused || s.answered || !error) return;
    const reset = error.code === "ECONNRESET";
    const closed = error.code === "UND_ERR_SOCKET" && (request.method === "GET" || request.method === "HEAD");
    if (reset || closed) unread.add(error);
  });
}

/** Keeps the body as Node's parser pushes it, without changing how anyone else reads it. */
function keepBody(req) {
  // Bytes pushed before this point would be missing from the copy: then it is never replayed.
  const body = { chunks: [], complete: false, whole: req.readableLength === 0 && !req.readableEnded };
  const push = req.push;
  req.push = function pushKept(chunk, encoding) {
    if (chunk === null) body.complete = true;
    else body.chunks.push(Buffer.isBuffer(chunk) ? Buffer.from(chunk) : Buffer.from(chunk, encoding));
    return push.call(this, chunk, encoding);
  };
  req[BODY] = body;
}

/** Whether the kept body is all of it: nothing missed, the end seen, Content-Length bytes if given. */
function keptWhole(req, body) {
  if (!body.whole || !body.complete) return false;
  const declared = req.headers["content-length"];
  if (declared === undefined) return true;
  return body.chunks.reduce((n, c) => n + c.length, 0) === Number(declared);
}

/** The same request again, on the same socket, with the body it came with. */
function replayOf(req, body, attempt) {
  const again = new IncomingMessage(req.socket);
  again._read = () => {};
  again.method = req.method;
  again.url = req.originalUrl ?? req.url;
  again.originalUrl = again.url;
  again.httpVersion = req.httpVersion;
  again.httpVersionMajor = req.httpVersionMajor;
  again.httpVersionMinor = req.httpVersionMinor;
  again.headers = req.headers;
  again.rawHeaders = req.rawHeaders;
  again[ATTEMPT] = attempt;
  again[BODY] = body;
  for (const chunk of body.chunks) again.push(chunk);
  again.push(null);
  again.complete = true;
  return again;
}

/** @returns {import("vite").Plugin[]} */
export function replayUnreadRequests() {
  return [
    {
      name: "almoner:dev-keep-request-body",
      apply: "serve",
      configureServer: {
        order: "pre",
        handler(server) {
          watchUndici();
          server.middlewares.use(function almonerKeepRequestBody(req, _res, next) {
            if (!req[BODY] && req.method !== "GET" && req.method !== "HEAD") keepBody(req);
            next();
          });
        },
      },
    },
    {
      name: "almoner:dev-replay-unread-requests",
      apply: "serve",
      configureServer: {
        order: "post",
        handler(server) {
          // After every other middleware (the plugin's catch-all included), before Vite's error page.
          return () => {
            server.middlewares.use(function almonerReplayUnread(err, req, res, next) {
              const attempt = req[ATTEMPT] ?? 0;
              const body = req[BODY] ?? { chunks: [], complete: true, whole: true };
              if (
                !unread.has(err?.cause) ||
                res.headersSent ||
                !keptWhole(req, body) ||
                attempt >= MAX_REPLAYS
              ) {
                return next(err);
              }
              server.config.logger.warn(
                `[almoner] ${req.method} ${req.originalUrl ?? req.url}: workerd reset a kept-alive connection before reading it; sent again (${attempt + 1}/${MAX_REPLAYS})`,
                { timestamp: true },
              );
              server.middlewares(replayOf(req, body, attempt + 1), res, next);
            });
          };
        },
      },
    },
  ];
}
