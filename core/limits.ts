// Limits both sides must agree on.

/** Calls per tRPC request: more would slip past the per-request API limiter (decision 018). */
export const TRPC_MAX_BATCH = 25;

/** A ban lasts at most 50 years so its expiry stays an instant pages can show (decision 019). */
export const BAN_REASON_MAX = 500;
export const BAN_MAX_DAYS = 50 * 365;
export const IMPERSONATION_REASON_MAX = 500;

/** Bytes, refused with 413 before being read, so no JSON body nears the Worker's 128 MB. */
export const TRPC_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The latest gifts a donor's page lists; at this many it links to /donations for the rest. */
export const DONOR_PAGE_GIFTS = 100;
