/**
 * Limits both sides must agree on.
 *
 * The most calls one tRPC HTTP request may carry: the server refuses a longer batch with 400
 * (worker/app.ts), and the portal's batch link splits its calls at this size (src/lib/trpc.ts).
 * Without it, one request could carry thousands of calls past the per-request API limiter
 * (decision 018). A portal page loads well under ten queries at once.
 */
export const TRPC_MAX_BATCH = 25;

/**
 * A ban's reason and length, and an impersonation's reason (worker/auth/admin.ts refuses more; the
 * admin dialogs in src/features/admin/user-action-dialogs.tsx stop at the same marks). A ban lasts
 * at most 50 years so its expiry stays an instant pages can show (decision 019).
 */
export const BAN_REASON_MAX = 500;
export const BAN_MAX_DAYS = 50 * 365;
export const IMPERSONATION_REASON_MAX = 500;

/**
 * The largest tRPC request body, bytes: an import batch (core/import/batch.ts, 500 rows of a wide
 * export) is the largest a client sends, a few hundred KB. A larger body is refused with 413 before
 * it is read, so no request can make the Worker parse a JSON document near its 128 MB of memory.
 */
export const TRPC_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The gifts a donor's page lists: the latest, newest first (worker/donors/queries.ts
 * donorDonations). The page says when it shows this many and links to /donations, which lists
 * them all (src/features/donors/donor-page.tsx).
 */
export const DONOR_PAGE_GIFTS = 100;
