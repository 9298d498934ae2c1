/**
 * The TanStack Query client with SPEC §9's defaults, read from app.config.ts so there is one
 * source: fresh 5 min, kept 10 min, no refetch on focus, refetch on reconnect, up to 3 retries with
 * a 1 s delay doubling to 30 s and never for 4xx answers; mutations retry once after 1 s.
 */
import { QueryClient } from "@tanstack/react-query";
import { defaultQueryPolicy } from "../../app.config";

const policy = defaultQueryPolicy;

/** HTTP status of an error from tRPC, our auth client or fetch; undefined when unknown. */
export function statusOf(error: unknown): number | undefined {
  if (!error || typeof error !== "object") return undefined;
  const e = error as {
    status?: unknown;
    data?: { httpStatus?: unknown };
    shape?: { data?: { httpStatus?: unknown } };
  };
  const candidates = [e.status, e.data?.httpStatus, e.shape?.data?.httpStatus];
  for (const c of candidates) if (typeof c === "number") return c;
  return undefined;
}

function isClientError(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && status >= 400 && status < 500;
}

/** Query retry policy: never on 4xx (retrying cannot fix the request), else up to `retries`. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (isClientError(error)) return false;
  return failureCount < policy.retries;
}

/** 1 s, 2 s, 4 s, … capped at 30 s. `attempt` is 0 for the first retry. */
export function retryDelay(attempt: number): number {
  return Math.min(policy.retryBaseDelayMs * 2 ** attempt, policy.retryMaxDelayMs);
}

export function shouldRetryMutation(failureCount: number, error: unknown): boolean {
  if (isClientError(error)) return false;
  return failureCount < policy.mutationRetries;
}

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: policy.staleTimeMs,
        gcTime: policy.gcTimeMs,
        refetchOnWindowFocus: policy.refetchOnWindowFocus,
        refetchOnReconnect: policy.refetchOnReconnect,
        retry: shouldRetryQuery,
        retryDelay,
      },
      mutations: {
        retry: shouldRetryMutation,
        retryDelay: policy.mutationRetryDelayMs,
      },
    },
  });
}
