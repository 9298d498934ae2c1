// Keyed by the analytics version, which every audited change bumps with its audit row (decision 011),
// so a cached answer is never stale; keys carry the local day, so "last 30 days" moves at midnight.
import { hasLoneSurrogate } from "@core/trusted-url";
import { sha256Hex } from "../auth/crypto";
import { noteCache } from "../lib/request-log";

const TTL_SECONDS = 3600;

/** KV's longest key, in UTF-8 bytes. */
const KV_KEY_MAX_BYTES = 512;

/** KV refuses a key over 512 bytes or not well-formed UTF-16 (a lone surrogate searched): hash the rest. */
function kvKey(prefix: string, rest: string): string {
  const key = `${prefix}:${rest}`;
  if (!hasLoneSurrogate(key) && new TextEncoder().encode(key).length <= KV_KEY_MAX_BYTES) return key;
  return `${prefix}:#${sha256Hex(rest)}`;
}

export async function cachedAnalytics<T>(
  ctx: { env: Env; waitUntil: (p: Promise<unknown>) => unknown },
  org: { id: string; dataVersion: number },
  name: string,
  parts: readonly (string | number | null | undefined)[],
  compute: () => Promise<T>,
): Promise<T> {
  // The version was read with the organization, before computing: a change landing in between makes
  // this key obsolete at once, never the other way round.
  const key = kvKey(`analytics:${org.id}:${org.dataVersion}:${name}`, parts.map((p) => p ?? "").join(":"));
  const hit = await ctx.env.KV.get<T>(key, "json").catch(() => null);
  noteCache(hit !== null);
  if (hit !== null) return hit;
  const value = await compute();
  const fill = ctx.env.KV.put(key, JSON.stringify(value), { expirationTtl: TTL_SECONDS }).catch((e) =>
    console.error("analytics cache fill failed", e),
  );
  await ctx.waitUntil(fill);
  return value;
}
