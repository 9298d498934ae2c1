/**
 * Auth primitives of Lucia's design: @oslojs/encoding for the text, WebCrypto for the HMAC and
 * AES-GCM, node:crypto for SHA-256 (decision 041) and for scrypt, the passwords in better-auth's
 * format, so users exported from a better-auth database sign in unchanged.
 */
import { createHash, scrypt } from "node:crypto";
import { decodeBase64, encodeBase64, encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { randomString } from "../lib/ids";

const LOWER_DIGITS = "abcdefghijklmnopqrstuvwxyz0123456789";

export const generateDeleteToken = (length: number) => randomString(length, LOWER_DIGITS);

/**
 * SHA-256 of the string's UTF-8 bytes, lower-case hex; native (node:crypto), as every session read
 * past the cookie cache hashes its token (decision 041).
 */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string) {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    hmacKeys.set(secret, key);
  }
  return key;
}

async function hmacBase64(secret: string, message: string): Promise<string> {
  const sig = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(message));
  return encodeBase64(new Uint8Array(sig));
}

export async function hmacBase64url(secret: string, message: string): Promise<string> {
  const sig = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(message));
  return encodeBase64urlNoPadding(new Uint8Array(sig));
}

/** Constant-time string comparison (same length required). */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** better-call's signed cookie value: value + "." + base64(HMAC-SHA256(secret, value)). */
export async function signCookieValue(value: string, secret: string): Promise<string> {
  return `${value}.${await hmacBase64(secret, value)}`;
}

/** A signed value this isolate has verified before (verifyCookieValue), without the HMAC; else null. */
export function verifiedBefore(signed: string, secret: string): string | null {
  const known = verifiedCookies.get(signed);
  return known && known.secret === secret ? known.value : null;
}

export async function verifyCookieValue(signed: string, secret: string): Promise<string | null> {
  const known = verifiedBefore(signed, secret);
  if (known !== null) return known;
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const sig = signed.slice(dot + 1);
  if (sig.length !== 44 || !sig.endsWith("=")) return null;
  if (!safeEqual(sig, await hmacBase64(secret, value))) return null;
  verifiedCookies.set(signed, { secret, value });
  return value;
}

/**
 * A bounded map of results already computed in this isolate, oldest dropped first, for pure
 * functions of their key; only successful verifications are stored.
 */
export class BoundedMemo<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V) {
    if (this.map.size >= this.max && !this.map.has(key)) {
      this.map.delete(this.map.keys().next().value as string);
    }
    this.map.set(key, value);
  }
  get size() {
    return this.map.size;
  }
}

/** Signed cookie values this isolate has verified (the session token is sent on every request). */
const verifiedCookies = new BoundedMemo<{ secret: string; value: string }>(2000);

const aesKeys = new Map<string, Promise<CryptoKey>>();
function aesKey(secret: string) {
  let key = aesKeys.get(secret);
  if (!key) {
    const material = createHash("sha256").update(`almoner:token-encryption:${secret}`, "utf8").digest();
    key = crypto.subtle.importKey("raw", new Uint8Array(material), { name: "AES-GCM" }, false, [
      "encrypt",
      "decrypt",
    ]);
    aesKeys.set(secret, key);
  }
  return key;
}

/** AES-GCM with a random 96-bit IV; output base64(iv ‖ ciphertext). */
export async function encryptString(secret: string, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv },
      await aesKey(secret),
      new TextEncoder().encode(plain),
    ),
  );
  const out = new Uint8Array(iv.length + ct.length);
  out.set(iv);
  out.set(ct, iv.length);
  return encodeBase64(out);
}

export async function decryptString(secret: string, encoded: string): Promise<string> {
  const bytes = decodeBase64(encoded);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, 12) },
    await aesKey(secret),
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}

/** better-auth's scrypt parameters (N=16384, r=16, p=1, 64-byte key); N·r·p = 2^18 ≤ workerd's 2^20. */
const SCRYPT = { N: 16384, r: 16, p: 1, keyLength: 64, maxmem: 64 * 1024 * 1024 } as const;

function scryptHex(password: string, saltHex: string): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      saltHex,
      SCRYPT.keyLength,
      { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem },
      (err, key) => (err ? reject(err) : resolve(key.toString("hex"))),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(16)));
  return `${salt}:${await scryptHex(password, salt)}`;
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const [salt, key] = stored.split(":");
  if (!salt || !key) return false;
  return safeEqual(await scryptHex(password, salt), key);
}

/** Spent on unknown users so timing does not tell who has an account. */
const DUMMY_HASH = `${"0".repeat(32)}:${"0".repeat(128)}`;
export async function burnPasswordCheck(password: string) {
  await verifyPassword(DUMMY_HASH, password);
}
