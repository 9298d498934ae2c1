// Types for the parts of scripts/lib.mjs that TypeScript harnesses import (test/oracle/*).
import type { Miniflare } from "miniflare";

export const root: string;
export const quietEnv: NodeJS.ProcessEnv;
export function migrateLocal(stateDir?: string): void;
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
