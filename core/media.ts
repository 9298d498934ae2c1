// Uploaded images (decision 008); the server's checks are in worker/media/service.ts.

/** 1 MiB, under D1's 2 MB per row. */
export const MEDIA_MAX_BYTES = 1024 * 1024;

/** Decided from the bytes on the server, never from the part's header. */
export const MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** Ids are 128-bit random, base64url. */
export const MEDIA_PATH = /^\/api\/media\/([A-Za-z0-9_-]{16,64})$/;
export const mediaUrl = (id: string) => `/api/media/${id}`;
