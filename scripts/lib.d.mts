// Types for the parts of scripts/lib.mjs that TypeScript harnesses import (test/oracle/*, e2e/).
import type { Miniflare } from "miniflare";

export const root: string;
export const quietEnv: NodeJS.ProcessEnv;
export function migrateLocal(stateDir?: string): void;
/** One SQL command on the local D1 (wrangler d1 execute); the rows of its first statement. */
export function d1Query(sql: string, stateDir?: string): Record<string, unknown>[];
export function ensureDevVars(): boolean;
export function freePort(): Promise<number>;
export function serveBuildDirect(
  stateDir: string,
  opts?: { inspect?: boolean },
): Promise<{
  base: string;
  apiBase: string;
  proxiedApiBase: string;
  mf: Miniflare;
  stop: () => Promise<void>;
}>;
