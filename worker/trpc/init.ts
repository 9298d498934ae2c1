/**
 * tRPC setup and the procedure ladder (DESIGN §5.1). Every procedure starts from one of the
 * exported builders; a router-inventory test fails on any non-public procedure without a guard.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { Context } from "./context";

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? error.cause : null;
    return {
      ...shape,
      message: zod ? "Invalid input" : shape.message,
      data: {
        ...shape.data,
        // Field errors a form can show next to its inputs: { "title": ["Too short"] }.
        fieldErrors: zod ? fieldErrorsOf(zod) : undefined,
        // Extra detail a refusal carries (e.g. allowed status transitions).
        details: (error.cause as { details?: unknown } | undefined)?.details,
      },
    };
  },
});

function fieldErrorsOf(error: ZodError): Record<string, string[]> {
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
/** Marks a procedure as guarded; the inventory test reads it. */
export const GUARD = Symbol.for("almoner.guard");

export const publicProcedure = t.procedure;

export const authedProcedure = t.procedure.use(async ({ ctx, next }) => {
  if (!ctx.user || !ctx.session) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Unauthorized" });
  }
  return next({ ctx: { ...ctx, user: ctx.user, session: ctx.session } });
});
