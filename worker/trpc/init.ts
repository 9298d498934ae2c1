/**
 * tRPC setup and the procedure ladder (DESIGN §5.1). Every procedure starts from one of the
 * exported builders; a router-inventory test fails on any non-public procedure without a guard.
 */

import { type Permissions, refusal } from "@core/permissions";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { $ZodError } from "zod/v4/core";
import type { SessionRecord, UserRecord } from "../auth";
import { directoryDatabase } from "../db/databases";
import { currentRequestLog, noteCaller, noteProcedure } from "../lib/request-log";
import type { Context } from "./context";
import { type OrgContext, resolveOrganization } from "./org";

export interface ProcedureMeta {
  /** Which rung of the ladder built the procedure; the router-inventory test reads it. */
  guard?: "authed" | "org" | "admin";
  permissions?: Permissions;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error, ctx }) {
      const zod = error.cause instanceof $ZodError ? error.cause : null;
      // tRPC adds the stack whenever it thinks it runs in development (NODE_ENV is not
      // "production" in workerd): a stack names files and lines, so only `vite dev` shows it
      // (import.meta.env.DEV is false in every build, whatever ENVIRONMENT a deploy forgot to set).
      const dev = import.meta.env.DEV && ctx?.config.app.environment === "development";
      const { stack, ...data } = shape.data;
      // An unexpected failure's own message can name tables, SQL or bindings: callers get SPEC §8's
      // generic text (the cause is logged by the fetch adapter's onError in worker/app.ts).
      const internal = shape.data.code === "INTERNAL_SERVER_ERROR" && !dev;
      return {
        ...shape,
        message: zod ? "Invalid input" : internal ? "Something went wrong!" : shape.message,
        data: {
          ...data,
          ...(dev && stack ? { stack } : {}),
          // Field errors a form can show next to its inputs: { "title": ["Too short"] }.
          fieldErrors: zod ? fieldErrorsOf(zod) : undefined,
          // Extra detail a refusal carries (e.g. allowed status transitions).
          details: (error.cause as { details?: unknown } | undefined)?.details,
          // The request's id (worker/lib/request-log.ts), which an error screen shows for support.
          requestId: currentRequestLog()?.requestId,
        },
      };
    },
  });

function fieldErrorsOf(error: $ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    const list = out[key] ?? [];
    list.push(issue.message);
    out[key] = list;
  }
  return out;
}

/** An error whose `details` reach the client (e.g. `{ allowed: ["paused"] }`). */
export class DetailedError extends Error {
  constructor(
    message: string,
    readonly details: unknown,
  ) {
    super(message);
  }
}

export function fail(code: TRPCError["code"], message: string, details?: unknown): never {
  throw new TRPCError({
    code,
    message,
    cause: details === undefined ? undefined : new DetailedError(message, details),
  });
}

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

/**
 * The database's own rules (UNIQUE indexes, CHECKs, integrity triggers) are the last line behind
 * the procedures' checks. When two requests race past a check (two creates with one slug), the
 * refusal must reach the caller as 409/422 with the rule's name, never as a 500.
 */
export function constraintRefusal(error: unknown): TRPCError | null {
  const messages: string[] = [];
  for (let e: unknown = error, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof Error) messages.push(e.message);
  }
  const text = messages.join(" | ");
  const unique = /UNIQUE constraint failed: ([\w.]+(?:, [\w.]+)*)/.exec(text);
  if (unique) {
    return new TRPCError({
      code: "CONFLICT",
      message: `This conflicts with an existing record (${unique[1]}); reload and try again`,
      cause: new DetailedError("conflict", { rule: unique[1] }),
    });
  }
  const rule = /(CHECK|FOREIGN KEY|NOT NULL) constraint failed(?:: ([\w.]+))?/.exec(text);
  if (rule) {
    const name = rule[2] ?? (rule[1] ?? "constraint").toLowerCase();
    return new TRPCError({
      code: "UNPROCESSABLE_CONTENT",
      message: `The change breaks a data rule (${name}); nothing was saved`,
      cause: new DetailedError("constraint", { rule: name }),
    });
  }
  return null;
}

const base = t.procedure.use(async ({ path, next }) => {
  noteProcedure(path);
  const result = await next();
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR") {
    const refusal = constraintRefusal(result.error);
    if (refusal) throw refusal;
  }
  return result;
});

export const publicProcedure = base;

/**
 * Decision 018: a mutation or any admin-rung procedure decides on the session and user as D1 holds
 * them now (a sign-out, ban or demotion holds at once); other queries may use the cookie cache
 * (its 60 s window is documented there). Every rung below starts here, so a new mutation or admin
 * procedure cannot miss the rule.
 */
export function needsFreshSession(type: string, meta: ProcedureMeta | undefined) {
  return type === "mutation" || meta?.guard === "admin";
}

export const authedProcedure = base
  .use(async ({ ctx, type, meta, next }) => {
    const auth = needsFreshSession(type, meta)
      ? await ctx.freshAuth()
      : ctx.user && ctx.session
        ? { user: ctx.user, session: ctx.session }
        : null;
    if (!auth) {
      throw new TRPCError({ code: "UNAUTHORIZED", message: "Unauthorized" });
    }
    noteCaller({ userId: auth.user.id });
    return next({ ctx: { ...ctx, user: auth.user, session: auth.session } });
  })
  .meta({ guard: "authed" });

/**
 * Business procedures: the caller's organization role (from membership, never from input) must
 * grant every listed permission; platform roles add nothing there (decision 017), and an
 * impersonated session never holds export rights. `ctx.org` carries the tenant; queries must
 * filter by `ctx.org.id`.
 */
export function orgProcedure(permissions: Permissions) {
  return authedProcedure
    .use(async ({ ctx, next }) => {
      const org = await resolveOrganization(directoryDatabase(ctx.env), ctx.user, ctx.config);
      if (!org) {
        throw new TRPCError({ code: "FORBIDDEN", message: "You are not a member of any organization" });
      }
      noteCaller({ organizationId: org.id });
      const caller = { userId: ctx.user.id, role: ctx.user.role, impersonatedBy: ctx.session.impersonatedBy };
      const refused = refusal(caller, permissions, { orgRole: org.role }, ctx.config.auth.adminUserIds);
      if (refused) throw new TRPCError({ code: "FORBIDDEN", message: refused });
      return next({ ctx: { ...ctx, org, impersonatorId: ctx.session.impersonatedBy ?? null } });
    })
    .meta({ guard: "org", permissions });
}

/** Platform administration (users, organizers, badges, tiers): platform roles only, never an org role. */
export function adminProcedure(permissions: Permissions) {
  return authedProcedure
    .use(async ({ ctx, next }) => {
      const caller = { userId: ctx.user.id, role: ctx.user.role, impersonatedBy: ctx.session.impersonatedBy };
      const refused = refusal(caller, permissions, { platform: true }, ctx.config.auth.adminUserIds);
      if (refused) throw new TRPCError({ code: "FORBIDDEN", message: refused });
      return next({ ctx: { ...ctx, impersonatorId: ctx.session.impersonatedBy ?? null } });
    })
    .meta({ guard: "admin", permissions });
}

/**
 * What a service of one organization's data receives (docs/architecture.md): the org rung's
 * context — who acts (user, impersonator, ip), where (org: the tenant from the membership), with
 * what (env, config). HTTP handlers that reach a service build the same shape after their own
 * access check. Services take the narrowest `Pick` of it they need.
 */
export type OrgCtx = Context & {
  user: UserRecord;
  session: SessionRecord;
  org: OrgContext;
  impersonatorId: string | null;
};

/** The admin rung's context: platform administration, no tenant. */
export type AdminCtx = Context & { user: UserRecord; session: SessionRecord; impersonatorId: string | null };
