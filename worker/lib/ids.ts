const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Uniform random string (rejection sampling, no modulo bias). 32 alnum chars ≈ 190 bits. */
export function randomString(length: number, alphabet = ALNUM): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < limit && out.length < length) out.push(alphabet[b % alphabet.length] as string);
    }
  }
  return out.join("");
}

export const generateId = () => randomString(32);

/** Digits and letters in ASCII order, so a prefix in it sorts as its number does. */
const ORDERED = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** generateId's shape, sorted by creation: the millisecond in 8 chars, then 24 random (≈ 143 bits), so a bulk
 * insert fills the id index's pages in order (decision 035). */
export function timeOrderedId(now = Date.now()): string {
  let t = Math.max(0, Math.floor(now));
  let prefix = "";
  for (let i = 0; i < 8; i++) {
    prefix = ORDERED[t % 62] + prefix;
    t = Math.floor(t / 62);
  }
  return prefix + randomString(24);
}
