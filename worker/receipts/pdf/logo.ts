/**
 * The organization's logo on its receipts; anything unexpected prints the receipt without it. An upload
 * (`/api/media/<id>`, decision 008) is read from D1; an https URL is never fetched: a reprinted tax
 * record must be the same, a third party's image can change or stall the Worker, and fetching a typed
 * URL is a request forgery risk. PNG and JPEG only; a PNG pdfkit would decode is checked here first
 * (whole chunks, LOGO_MAX_PIXELS, data inflating to its header's size): pdfkit decodes it in a
 * callback whose error no caller can catch.
 */
import { MEDIA_PATH } from "@core/media";
import { directoryDatabase } from "../../db/databases";
import { mediaById } from "../../media/queries";

export interface Logo {
  bytes: Uint8Array;
  type: "png" | "jpeg";
}

/** Decoded size cap for PNGs pdfkit decodes: 2 048 × 2 048 pixels, far more than a logo needs. */
const LOGO_MAX_PIXELS = 2048 * 2048;

export async function loadLogo(env: Env, logoUrl: string | null | undefined): Promise<Logo | null> {
  const id = logoUrl ? MEDIA_PATH.exec(logoUrl)?.[1] : undefined;
  if (!id) return null;
  try {
    const row = await mediaById(directoryDatabase(env), id);
    if (!row) return null;
    const bytes = row.bytes instanceof ArrayBuffer ? new Uint8Array(row.bytes) : new Uint8Array(row.bytes);
    return await usableLogo(bytes);
  } catch {
    return null;
  }
}

/** The image when pdfkit can embed it safely, else null. */
export async function usableLogo(bytes: Uint8Array): Promise<Logo | null> {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { bytes, type: "jpeg" };
  }
  const png = readPng(bytes);
  if (!png) return null;
  if (!png.decoded) return { bytes, type: "png" };
  return (await inflatesTo(png.data, png.expectedBytes)) ? { bytes, type: "png" } : null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Channels per PNG colour type: grey, RGB, palette, grey + alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

interface PngFacts {
  /** Whether pdfkit decodes the pixels (alpha channel, palette transparency or interlacing). */
  decoded: boolean;
  /** The concatenated IDAT data. */
  data: Uint8Array;
  /** What the data inflates to (0 when interlaced: not checked). */
  expectedBytes: number;
}

function readPng(b: Uint8Array): PngFacts | null {
  if (b.length < 8 || PNG_SIGNATURE.some((v, i) => b[i] !== v)) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let pos = 8;
  let header: { width: number; height: number; depth: number; colour: number; interlaced: boolean } | null =
    null;
  let transparency = false;
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (pos + 12 > b.length) return null;
    const length = view.getUint32(pos);
    const type = String.fromCharCode(b[pos + 4]!, b[pos + 5]!, b[pos + 6]!, b[pos + 7]!);
    const start = pos + 8;
    if (length > b.length - start - 4) return null;
    if (!header && type !== "IHDR") return null;
    if (type === "IHDR") {
      if (length !== 13) return null;
      header = {
        width: view.getUint32(start),
        height: view.getUint32(start + 4),
        depth: b[start + 8]!,
        colour: b[start + 9]!,
        interlaced: b[start + 12] === 1,
      };
    } else if (type === "tRNS") transparency = true;
    else if (type === "IDAT") {
      parts.push(b.subarray(start, start + length));
      size += length;
    } else if (type === "IEND") break;
    pos = start + length + 4;
  }
  if (!header || !parts.length) return null;
  const { width, height, depth, colour, interlaced } = header;
  const channels = CHANNELS[colour];
  if (!channels || ![1, 2, 4, 8, 16].includes(depth) || width < 1 || height < 1) return null;
  if (width * height > LOGO_MAX_PIXELS) return null;
  const decoded = colour === 4 || colour === 6 || (colour === 3 && transparency) || interlaced;
  const data = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  const rowBytes = 1 + Math.ceil((width * channels * depth) / 8);
  return { decoded, data, expectedBytes: interlaced ? 0 : rowBytes * height };
}

/** Whether zlib `data` inflates without error to at least `expected` bytes (stopping well past it). */
async function inflatesTo(data: Uint8Array, expected: number): Promise<boolean> {
  const limit = (expected || LOGO_MAX_PIXELS * 8) + 1024;
  try {
    const stream = new Blob([data as Uint8Array<ArrayBuffer>])
      .stream()
      .pipeThrough(new DecompressionStream("deflate"));
    const reader = stream.getReader();
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel();
        return false;
      }
    }
    return total >= expected && total > 0;
  } catch {
    return false;
  }
}
