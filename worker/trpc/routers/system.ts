import { directoryDatabase } from "../../db/databases";
import { publicProcedure, router } from "../init";

async function timed<T>(fn: () => Promise<T>) {
  const started = performance.now();
  try {
    const value = await fn();
    return { ok: true as const, ms: Math.round((performance.now() - started) * 10) / 10, value };
  } catch (error) {
    return {
      ok: false as const,
      ms: Math.round((performance.now() - started) * 10) / 10,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

export const systemRouter = router({
  /** Liveness of the two stores, read for real: D1 (migrations applied) and a KV round trip. */
  health: publicProcedure.query(async ({ ctx }) => {
    const d1 = await timed(async () => {
      const row = await directoryDatabase(ctx.env)
        .prepare("SELECT count(*) AS n FROM d1_migrations")
        .first<{ n: number }>();
      return { migrations: row?.n ?? 0 };
    });
    const kv = await timed(async () => {
      const key = "health:probe";
      const stamp = String(Date.now());
      await ctx.env.KV.put(key, stamp, { expirationTtl: 60 });
      const read = await ctx.env.KV.get(key);
      return { roundTrip: read === stamp };
    });
    return {
      status: d1.ok && kv.ok ? ("ok" as const) : ("degraded" as const),
      environment: ctx.config.app.environment,
      d1,
      kv,
    };
  }),
});
