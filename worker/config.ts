import { type AppConfig, loadConfig } from "../app.config";

const cache = new WeakMap<object, AppConfig>();

/**
 * The validated policy for this Worker's vars. Parsed once per env object (an isolate keeps the
 * same env), so a bad override fails the first request loudly instead of half-applying.
 */
export function getConfig(env: Env): AppConfig {
  let cfg = cache.get(env);
  if (!cfg) {
    cfg = loadConfig(env as unknown as Record<string, unknown>);
    cache.set(env, cfg);
  }
  return cfg;
}
