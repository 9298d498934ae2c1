import { type AppConfig, loadConfig } from "../app.config";

const cache = new WeakMap<object, AppConfig>();

/** The validated policy, parsed once per env object: a bad override fails the first request loudly. */
export function getConfig(env: Env): AppConfig {
  let cfg = cache.get(env);
  if (!cfg) {
    cfg = loadConfig(env as unknown as Record<string, unknown>);
    cache.set(env, cfg);
  }
  return cfg;
}
