/**
 * Dashboard answers cached in KV under the organization's analytics version (drizzle/0006): every
 * audited change bumps the version in the same statement as its audit row, so a key names one
 * state of the data and a cached answer can never be stale. Keys also carry the organization's
 * local day, so "last 30 days" moves at midnight. A miss computes and fills in the background.
 * docs/performance.md reports both paths (warm = cached, cold = computed).
 */
import { noteCache } from "../lib/request-log";

const TTL_SECONDS = 3600;

export async function cachedAnalytics<T>(
  ctx: { env: Env; waitUntil: (p: Promise<unknown>) => unknown },
  org: { id: string; dataVersion: number },
  name: string,
  parts: readonly (string | number | null | undefined)[],
  compute: () => Promise<T>,
): Promise<T> {
  // The version was read with the organization (trpc/org.ts), before computing: a change landing
  // in between makes this entry's key obsolete at once (readers see the new version), never the
  // other way round.
  const key = `analytics:${org.id}:${org.dataVersion}:${name}:${parts.map((p) => p ?? "").join(":")}`;
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
