/**
 * Limits both sides must agree on.
 *
 * The most calls one tRPC HTTP request may carry: the server refuses a longer batch with 400
 * (worker/app.ts), and the portal's batch link splits its calls at this size (src/lib/trpc.ts).
 * Without it, one request could carry thousands of calls past the per-request API limiter
 * (decision 018). A portal page loads well under ten queries at once.
 */
export const TRPC_MAX_BATCH = 25;
