/**
 * An import file's encoding (decision 028): UTF-8, UTF-16 or Windows-1252, as Excel writes them.
 * Decoded once, whole, so no character is cut in two as a chunked reader can.
 */
import type { ImportEncoding } from "./fields.ts";

const SAMPLE = 64 * 1024;

/** By the BOM, UTF-16's NUL bytes, valid UTF-8, else Windows-1252. */
export function detectEncoding(bytes: Uint8Array): ImportEncoding {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  const sample = bytes.subarray(0, Math.min(bytes.length, SAMPLE));
  // Text in UTF-16 without a BOM: ASCII characters leave every other byte NUL.
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) evenNul++;
    if (sample[i + 1] === 0) oddNul++;
  }
  const pairs = Math.floor(sample.length / 2);
  if (pairs > 0 && oddNul > pairs * 0.3 && evenNul < pairs * 0.05) return "utf-16le";
  if (pairs > 0 && evenNul > pairs * 0.3 && oddNul < pairs * 0.05) return "utf-16be";
  try {
    // `stream: true`: a sample that ends inside a multi-byte character is not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: sample.length < bytes.length });
    return "utf-8";
  } catch {
    return "windows-1252";
  }
}

export function decodeBytes(bytes: Uint8Array, encoding: ImportEncoding): string {
  // TextDecoder drops one BOM; a second (a tool re-saved it) would otherwise open the first header.
  const text = new TextDecoder(encoding).decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export const ENCODING_LABELS: Readonly<Record<ImportEncoding, string>> = {
  "utf-8": "UTF-8",
  "utf-16le": "UTF-16 (little-endian)",
  "utf-16be": "UTF-16 (big-endian)",
  "windows-1252": "Windows-1252 (Western European)",
};
