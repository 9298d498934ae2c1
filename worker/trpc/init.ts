// The procedure ladder (DESIGN §5.1): a router-inventory test fails on any non-public unguarded procedure.

import { type Permissions, refusal } from "@core/permissions";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { $ZodError } from "zod/v4/core";
import type { SessionRecord, UserRecord } from "../auth";
import { directoryDatabase } from "../db/databases";
import { constraintRefusal, Refusal } from "../lib/fail";
import { currentRequestLog, noteCaller, noteProcedure } from "../lib/request-log";
import type { Context } from "./context";
import { type OrgContext, resolveOrganization } from "./org";

interface ProcedureMeta {
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
      // tRPC adds the stack unless NODE_ENV is "production", which workerd never sets: a stack names files
      // and lines, so only `vite dev` shows it (import.meta.env.DEV is false in every build).
      const dev = import.meta.env.DEV && ctx?.config.app.environment === "development";
      const { stack, ...data } = shape.data;
      // An unexpected failure's message can name tables or SQL: callers get SPEC §8's generic text.
      const internal = shape.data.code === "INTERNAL_SERVER_ERROR" && !dev;
      return {
        ...shape,
        message: zod ? "Invalid input" : internal ? "Something went wrong!" : shape.message,
        data: {
          ...data,
          ...(dev && stack ? { stack } : {}),
          fieldErrors: zod ? fieldErrorsOf(zod) : undefined,
          details: (error.cause as { details?: unknown } | undefined)?.details,
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

/** A service's refusal as tRPC's answer: same code and message, the details in `data.details`. */
function trpcError(refusal: Refusal) {
  return new TRPCError({ code: refusal.code, message: refusal.message, cause: refusal });
}

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

const base = t.procedure.use(async ({ path, next }) => {
  noteProcedure(path);
  const result = await next();
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR") {
    const refusal =
      result.error.cause instanceof Refusal ? result.error.cause : constraintRefusal(result.error);
    if (refusal) throw trpcError(refusal);
  }
  return result;
});

export const publicProcedure = base;

/** Decision 018: a mutation or admin-rung procedure decides on the session as D1 holds it now; other queries
 * may use the cookie cache. Every rung starts here, so none can miss the rule. */
function needsFreshSession(type: string, meta: ProcedureMeta | undefined) {
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

/** The caller's organization role (from membership, never input) must grant every permission; platform roles
 * add nothing (decision 017), and an impersonated session never exports. Queries filter by `ctx.org.id`. */
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

/** What a service of one organization's data receives (docs/architecture.md): the org rung's context.
 * A service takes `OrgReader` to read, `OrgActor` to change, or another `Pick`. */
export type OrgCtx = Context & {
  user: UserRecord;
  session: SessionRecord;
  org: OrgContext;
  impersonatorId: string | null;
};

export type OrgReader = Pick<OrgCtx, "env" | "org">;

/** What a change needs besides: who acts, for the audit row (user, impersonator, ip). */
export type OrgActor = Pick<OrgCtx, "env" | "org" | "user" | "impersonatorId" | "ip">;

export type AdminCtx = Context & { user: UserRecord; session: SessionRecord; impersonatorId: string | null };
