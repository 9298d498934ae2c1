/**
 * Uploaded images (docs/decisions/008-media-in-d1.md): what both sides know of them. The upload
 * and its checks are the server's (worker/media/service.ts); a form that accepts an image — a
 * campaign's cover (core/campaign.ts), an organization's logo — validates its value with
 * MEDIA_PATH, and the picker checks the limits before it uploads.
 */

/** 1 MiB. D1 allows up to 2 MB per row/BLOB (docs/decisions/008-media-in-d1.md). */
export const MEDIA_MAX_BYTES = 1024 * 1024;

/** The types an upload may be, decided from the bytes on the server (never from the part's header). */
export const MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** The URL of an uploaded image: ids are 128-bit random, base64url. */
export const MEDIA_PATH = /^\/api\/media\/([A-Za-z0-9_-]{16,64})$/;
export const mediaUrl = (id: string) => `/api/media/${id}`;
