/**
 * ID-token verification against a provider's key set (SPEC §9): the key set is cached in KV for
 * 10 minutes, fetched with a 5 s timeout, and after a failed fetch nobody fetches it again for 30 s
 * (the failure is remembered in KV too, so every isolate backs off). A token signed with a key the
 * cache does not know triggers one refetch (key rotation), within the same cooldown.
 */
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
} from "jose";
import type { AuthContext } from "../core";
import { sha256Hex } from "../crypto";

interface CachedJwks {
  keys: JSONWebKeySet["keys"];
  fetchedAt: number;
}

class JwksUnavailable extends Error {
  override name = "JwksUnavailable";
}

const cacheKey = (uri: string) => `jwks:${sha256Hex(uri)}`;
const failKey = (uri: string) => `jwks-fail:${sha256Hex(uri)}`;

async function fetchJwks(ctx: AuthContext, uri: string): Promise<CachedJwks> {
  const { jwksCooldownMs, jwksFetchTimeoutMs } = ctx.config.oauth;
  const failed = await ctx.env.KV.get<{ at: number }>(failKey(uri), "json");
  if (failed && ctx.now() < failed.at + jwksCooldownMs) {
    throw new JwksUnavailable("key set fetch is cooling down after a failure");
  }
  try {
    const res = await fetch(uri, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(jwksFetchTimeoutMs),
    });
    if (!res.ok) throw new Error(`key set answered ${res.status}`);
    const body = (await res.json()) as JSONWebKeySet;
    if (!body || !Array.isArray(body.keys)) throw new Error("key set has no keys");
    const entry: CachedJwks = { keys: body.keys, fetchedAt: ctx.now() };
    await ctx.env.KV.put(cacheKey(uri), JSON.stringify(entry), {
      expirationTtl: Math.max(60, Math.ceil(ctx.config.oauth.jwksCacheMaxAgeMs / 1000)),
    });
    await ctx.env.KV.delete(failKey(uri));
    return entry;
  } catch (error) {
    await ctx.env.KV.put(failKey(uri), JSON.stringify({ at: ctx.now() }), {
      expirationTtl: Math.max(60, Math.ceil(jwksCooldownMs / 1000)),
    });
    throw new JwksUnavailable(`key set fetch failed: ${String(error)}`);
  }
}

/** The cached key set when it is younger than the cache life, else a fresh one. */
async function getJwks(ctx: AuthContext, uri: string): Promise<{ jwks: CachedJwks; fromCache: boolean }> {
  const cached = await ctx.env.KV.get<CachedJwks>(cacheKey(uri), "json");
  if (cached && ctx.now() - cached.fetchedAt < ctx.config.oauth.jwksCacheMaxAgeMs) {
    return { jwks: cached, fromCache: true };
  }
  return { jwks: await fetchJwks(ctx, uri), fromCache: false };
}

interface VerifyOptions {
  jwksUri: string;
  audience: string;
  issuer?: string | null;
  nonce?: string;
  maxAgeSeconds?: number;
}

/** Verifies signature, audience, issuer, expiry, nonce (when given) and age (when limited). */
export async function verifyIdToken(
  ctx: AuthContext,
  token: string,
  opts: VerifyOptions,
): Promise<JWTPayload> {
  const header = decodeProtectedHeader(token);
  let { jwks } = await getJwks(ctx, opts.jwksUri);
  const known = () => !header.kid || jwks.keys.some((k) => k.kid === header.kid);
  // Unknown key id: the provider may have rotated its keys. Refetch, but not more often than the
  // cooldown, so tokens with made-up key ids cannot make us hammer the provider.
  if (!known() && ctx.now() - jwks.fetchedAt >= ctx.config.oauth.jwksCooldownMs) {
    jwks = await fetchJwks(ctx, opts.jwksUri);
  }
  const keys = jwks.keys.filter((k) => {
    if (k.kty !== "RSA") return true;
    // SPEC §5: RSA signing keys of at least 2048 bits.
    const n = typeof k.n === "string" ? k.n : "";
    return Math.floor((n.length * 6) / 8) * 8 >= ctx.config.oauth.rsaMinBits - 8;
  });
  const { payload } = await jwtVerify(token, createLocalJWKSet({ keys }), {
    audience: opts.audience,
    ...(opts.issuer ? { issuer: opts.issuer } : {}),
    currentDate: new Date(ctx.now()),
    ...(opts.maxAgeSeconds ? { maxTokenAge: opts.maxAgeSeconds } : {}),
    algorithms: ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"],
  });
  if (opts.nonce !== undefined && payload.nonce !== opts.nonce) throw new Error("nonce mismatch");
  return payload;
}
