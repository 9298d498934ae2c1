/**
 * A refusal, free of any transport: services, the cron and the HTTP routes throw it; the tRPC
 * ladder (worker/trpc/init.ts) and each HTTP route map `code` to their own answer.
 */
export type RefusalCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "UNPROCESSABLE_CONTENT"
  | "TOO_MANY_REQUESTS"
  | "SERVICE_UNAVAILABLE";

export const REFUSAL_STATUS: Record<RefusalCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

export class Refusal extends Error {
  override readonly name = "Refusal";
  constructor(
    readonly code: RefusalCode,
    message: string,
    /** Extra detail the caller may read (e.g. `{ allowed: ["paused"] }`). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function fail(code: RefusalCode, message: string, details?: unknown): never {
  throw new Refusal(code, message, details);
}

/** A database rule a race broke (UNIQUE, CHECK, trigger) reaches the caller as 409/422, never as a 500. */
export function constraintRefusal(error: unknown): Refusal | null {
  const messages: string[] = [];
  for (let e: unknown = error, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof Error) messages.push(e.message);
  }
  const text = messages.join(" | ");
  const unique = /UNIQUE constraint failed: ([\w.]+(?:, [\w.]+)*)/.exec(text);
  if (unique) {
    return new Refusal(
      "CONFLICT",
      `This conflicts with an existing record (${unique[1]}); reload and try again`,
      {
        rule: unique[1],
      },
    );
  }
  const rule = /(CHECK|FOREIGN KEY|NOT NULL) constraint failed(?:: ([\w.]+))?/.exec(text);
  if (rule) {
    const name = rule[2] ?? (rule[1] ?? "constraint").toLowerCase();
    return new Refusal(
      "UNPROCESSABLE_CONTENT",
      `The change breaks a data rule (${name}); nothing was saved`,
      {
        rule: name,
      },
    );
  }
  return null;
}

/** The name of the database rule `error` broke (e.g. "organization.slug"), or null. */
export function constraintRule(error: unknown): string | null {
  return (constraintRefusal(error)?.details as { rule?: string } | undefined)?.rule ?? null;
}
