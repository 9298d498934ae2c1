// One JSON line per request for Workers Logs, gathered in an AsyncLocalStorage store. Ids only: never an
// e-mail, name, IP address, cookie or query string. Errors are lines of their own with the request id.
import { AsyncLocalStorage } from "node:async_hooks";

interface RequestLog {
  requestId: string;
  method: string;
  /** The path without its query string (which can hold what a user typed). */
  route: string;
  procedures: string[];
  userId: string | null;
  organizationId: string | null;
  d1: { queries: number; ms: number };
  cache: { hits: number; misses: number };
  colo: string | null;
}

const store = new AsyncLocalStorage<RequestLog>();

export function newRequestLog(request: Request, requestId: string, url = new URL(request.url)): RequestLog {
  const cf = (request as { cf?: { colo?: unknown } }).cf;
  return {
    requestId,
    method: request.method,
    route: url.pathname.slice(0, 200),
    procedures: [],
    userId: null,
    organizationId: null,
    d1: { queries: 0, ms: 0 },
    cache: { hits: 0, misses: 0 },
    colo: typeof cf?.colo === "string" ? cf.colo : null,
  };
}

export function withRequestLog<T>(log: RequestLog, fn: () => T): T {
  return store.run(log, fn);
}

export function currentRequestLog(): RequestLog | undefined {
  return store.getStore();
}

export function noteProcedure(path: string) {
  const log = store.getStore();
  if (log && log.procedures.length < 20) log.procedures.push(path);
}

export function noteCaller(ids: { userId?: string | null; organizationId?: string | null }) {
  const log = store.getStore();
  if (!log) return;
  if (ids.userId) log.userId = ids.userId;
  if (ids.organizationId) log.organizationId = ids.organizationId;
}

export function noteCache(hit: boolean) {
  const log = store.getStore();
  if (log) log.cache[hit ? "hits" : "misses"] += 1;
}

function noteD1(ms: number, queries: number) {
  const log = store.getStore();
  if (!log) return;
  log.d1.queries += queries;
  log.d1.ms += ms;
}

/** Every request gets its line but a session check answered from a cache (GET get-session, 200, no D1):
 * Workers Logs' invocation log already has it, and it is the most repeated request (decision 039). */
export function writesLine(log: RequestLog, status: number): boolean {
  return !(
    log.route === SESSION_CHECK_PATH &&
    log.method === "GET" &&
    status === 200 &&
    log.d1.queries === 0
  );
}

export const SESSION_CHECK_PATH = "/api/auth/get-session";

export const serverTiming = (queries: number, d1Ms: number, totalMs: number) =>
  `d1;desc="${queries} queries";dur=${d1Ms.toFixed(1)}, total;dur=${totalMs.toFixed(1)}`;

export function requestLine(log: RequestLog, status: number, ms: number): string {
  return JSON.stringify({
    level: status >= 500 ? "error" : "info",
    ...log,
    d1: { queries: log.d1.queries, ms: round(log.d1.ms) },
    status,
    ms: round(ms),
  });
}

export function logError(where: string, error: unknown) {
  const log = store.getStore();
  const e = error instanceof Error ? error : new Error(String(error));
  console.error(
    JSON.stringify({
      level: "error",
      requestId: log?.requestId ?? null,
      route: log?.route ?? null,
      where,
      error: e.name,
      message: e.message,
      stack: e.stack ?? null,
      cause: e.cause instanceof Error ? `${e.cause.name}: ${e.cause.message}` : undefined,
    }),
  );
}

const round = (ms: number) => Math.round(ms * 10) / 10;

const PATCHED = Symbol.for("almoner.d1-timing");

/** Counts and times every D1 query of the current request, whoever runs it: the binding's prototypes are
 * wrapped once per isolate. A batch counts its statements. */
export function timeD1(db: D1Database) {
  const dbProto = Object.getPrototypeOf(db) as Record<PropertyKey, unknown>;
  if (!dbProto || dbProto[PATCHED]) return;
  const stmtProto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<string, unknown>;
  const timed = (proto: Record<string, unknown>, name: string, count: (args: unknown[]) => number) => {
    const original = proto[name];
    if (typeof original !== "function") return;
    proto[name] = async function (this: unknown, ...args: unknown[]) {
      const started = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        noteD1(performance.now() - started, count(args));
      }
    };
  };
  for (const name of ["first", "all", "run", "raw"]) timed(stmtProto, name, () => 1);
  timed(dbProto, "batch", (args) => (Array.isArray(args[0]) ? args[0].length : 1));
  timed(dbProto, "exec", () => 1);
  // A request's queries run in D1 sessions (worker/db/databases.ts), whose batch is their own.
  const sessionProto = Object.getPrototypeOf(db.withSession("first-unconstrained")) as Record<
    string,
    unknown
  >;
  if (sessionProto && sessionProto !== dbProto)
    timed(sessionProto, "batch", (args) => (Array.isArray(args[0]) ? args[0].length : 1));
  dbProto[PATCHED] = true;
}
