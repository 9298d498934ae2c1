/**
 * POST/GET /api/media against the real worker, D1 and sessions: who may upload, what counts as an
 * image (the bytes decide, not the header), the 1 MiB limit, tenancy, and byte-exact serving.
 */

import { MEDIA_MAX_BYTES } from "@core/media";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { sniffImage } from "../../worker/media/service";
import { callerFor, makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, testEnv } from "../helpers";

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG signature followed by `size - 8` varied bytes (the server only needs the signature). */
function png(size = 256) {
  const b = new Uint8Array(size);
  b.set(PNG_SIG);
  for (let i = PNG_SIG.length; i < size; i++) b[i] = (i * 31 + 7) % 256;
  return b;
}

function upload(
  bytes: Uint8Array<ArrayBuffer>,
  opts: { cookie?: string; type?: string; name?: string; origin?: string; field?: string } = {},
) {
  const form = new FormData();
  form.append(
    opts.field ?? "file",
    new File([bytes], opts.name ?? "cover.png", { type: opts.type ?? "image/png" }),
  );
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  // As a browser sends it; a test of foreign origins passes its own.
  headers.origin = opts.origin ?? BASE_URL;
  return appFetch("/api/media", { method: "POST", body: form, headers });
}

async function mediaCount(orgId: string) {
  const row = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE organization_id = ?")
    .bind(orgId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("sniffImage", () => {
  it("knows PNG, JPEG and WebP by signature and nothing else", () => {
    expect(sniffImage(png(16))).toBe("image/png");
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe("image/jpeg");
    const webp = new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 ");
    expect(sniffImage(webp)).toBe("image/webp");
    expect(sniffImage(new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WAVEfmt "))).toBeNull();
    expect(sniffImage(new TextEncoder().encode("GIF89a......"))).toBeNull();
    expect(sniffImage(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImage(new Uint8Array([0x89, 0x50, 0x4e]))).toBeNull();
  });
});

describe("POST /api/media", () => {
  it("refuses anonymous callers and members without a right to edit", async () => {
    const org = await makeOrg();
    const viewer = await member(org, "viewer");
    expect((await upload(png())).status).toBe(401);
    const res = await upload(png(), { cookie: viewer.jar.header() });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "FORBIDDEN" });
    expect(await mediaCount(org)).toBe(0);
  });

  it("stores an image for the caller's organization, audits it and serves the identical bytes", async () => {
    const org = await makeOrg();
    const organizer = await member(org, "organizer");
    const bytes = png(4096);
    const res = await upload(bytes, { cookie: organizer.jar.header(), origin: BASE_URL });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; url: string; contentType: string };
    expect(body.url).toBe(`/api/media/${body.id}`);
    expect(body.contentType).toBe("image/png");
    const stored = await testEnv.DB.prepare(
      "SELECT organization_id, content_type, byte_size, sha256, created_by FROM media WHERE id = ?",
    )
      .bind(body.id)
      .first<Record<string, unknown>>();
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
      .map((x) => x.toString(16).padStart(2, "0"))
      .join("");
    expect(stored).toEqual({
      organization_id: org,
      content_type: "image/png",
      byte_size: 4096,
      sha256: digest,
      created_by: organizer.user.id,
    });
    const audit = await testEnv.DB.prepare(
      "SELECT actor_id, organization_id FROM audit_event WHERE action = 'media.upload' AND entity_id = ?",
    )
      .bind(body.id)
      .first();
    expect(audit).toEqual({ actor_id: organizer.user.id, organization_id: org });

    // Served to anyone (public pages show covers), byte for byte, with the stored type.
    const got = await appFetch(body.url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);
    const again = await appFetch(body.url, { headers: { "if-none-match": got.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
    expect((await appFetch("/api/media/doesnotexist000000000")).status).toBe(404);
  });

  it("decides the type by the bytes: a text file sent as image/png is refused", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    const res = await upload(html, { cookie: owner.jar.header(), type: "image/png", name: "x.png" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    // A real JPEG sent with a wrong header is stored as what it is.
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6]);
    const ok = await upload(jpeg, { cookie: owner.jar.header(), type: "text/plain", name: "x.txt" });
    expect(ok.status).toBe(201);
    const { url } = (await ok.json()) as { url: string };
    expect((await appFetch(url)).headers.get("content-type")).toBe("image/jpeg");
    expect(await mediaCount(org)).toBe(1);
  });

  it("accepts exactly 1 MiB and refuses one byte more, writing nothing", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const over = await upload(png(MEDIA_MAX_BYTES + 1), { cookie: owner.jar.header() });
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(await mediaCount(org)).toBe(0);
    const max = png(MEDIA_MAX_BYTES);
    const ok = await upload(max, { cookie: owner.jar.header() });
    expect(ok.status).toBe(201);
    const { url } = (await ok.json()) as { url: string };
    expect(new Uint8Array(await (await appFetch(url)).arrayBuffer())).toEqual(max);
  });

  it("refuses empty files, missing fields, other origins and other methods", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const cookie = owner.jar.header();
    expect((await upload(new Uint8Array(0), { cookie })).status).toBe(400);
    expect((await upload(png(), { cookie, field: "image" })).status).toBe(400);
    const notMultipart = await appFetch("/api/media", {
      method: "POST",
      headers: { cookie, "content-type": "application/json", origin: BASE_URL },
      body: "{}",
    });
    expect(notMultipart.status).toBe(400);
    expect((await upload(png(), { cookie, origin: "https://evil.example" })).status).toBe(403);
    expect((await appFetch("/api/media", { headers: { cookie } })).status).toBe(405);
    expect(await mediaCount(org)).toBe(0);
  });

  it("files an upload under the uploader's organization, whose images other tenants cannot attach", async () => {
    const orgA = await makeOrg();
    const orgB = await makeOrg();
    const a = await member(orgA, "owner");
    const b = await member(orgB, "owner");
    const res = await upload(png(), { cookie: b.jar.header() });
    const { url } = (await res.json()) as { url: string };
    expect(await mediaCount(orgA)).toBe(0);
    expect(await mediaCount(orgB)).toBe(1);
    const base = { title: "Winter Coats", currency: "USD" as const };
    const err = await a.caller.campaigns.create({ ...base, coverUrl: url }).catch((e: TRPCError) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("BAD_REQUEST");
    const own = (await (await upload(png(), { cookie: a.jar.header() })).json()) as { url: string };
    const c = await a.caller.campaigns.create({ ...base, coverUrl: own.url });
    expect(c.coverUrl).toBe(own.url);
    const upd = await a.caller.campaigns
      .update({ id: c.id, data: { ...base, coverUrl: url } })
      .catch((e: TRPCError) => e);
    expect((upd as TRPCError).code).toBe("BAD_REQUEST");
    expect((await a.caller.campaigns.byId({ id: c.id })).coverUrl).toBe(own.url);
    // An anonymous caller cannot reach the tRPC side either.
    expect(await (await callerFor(null)).campaigns.list({}).catch((e: TRPCError) => e.code)).toBe(
      "UNAUTHORIZED",
    );
  });
});
