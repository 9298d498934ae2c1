// Shared helpers for the project's scripts. They run on the project's Node (npm scripts put
// node_modules/.bin first on PATH), and call wrangler/vite through npx for the same reason.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Keeps wrangler/miniflare from phoning home on an offline machine (stack-facts G6). */
export const quietEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  CI: process.env.CI ?? "1",
};

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: quietEnv, ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed with ${res.status ?? res.signal}`);
  }
  return res;
}

export function capture(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, encoding: "utf8", env: quietEnv, ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${res.stderr || res.stdout}`);
  }
  return res.stdout;
}

export function start(cmd, args, opts = {}) {
  return spawn(cmd, args, { cwd: root, stdio: "inherit", env: quietEnv, ...opts });
}

/** `--persist-to DIR` when a harness keeps its own state, else wrangler's default (.wrangler/state). */
export function persistArgs(stateDir) {
  return stateDir ? ["--persist-to", stateDir] : [];
}

export function migrateLocal(stateDir) {
  run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", ...persistArgs(stateDir)]);
}

export function d1Query(sql, stateDir) {
  const out = capture("npx", [
    "wrangler",
    "d1",
    "execute",
    "DB",
    "--local",
    ...persistArgs(stateDir),
    "--json",
    "--command",
    sql,
  ]);
  const parsed = JSON.parse(out);
  return parsed[0]?.results ?? [];
}

export function d1ExecFile(file, stateDir) {
  run("npx", ["wrangler", "d1", "execute", "DB", "--local", ...persistArgs(stateDir), "--file", file], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** better-auth's scrypt format (N=16384, r=16, p=1, 64-byte key, NFKC, "saltHex:keyHex"). */
export function hashPassword(password) {
  const salt = randomBytes(16).toString("hex");
  const key = scryptSync(password.normalize("NFKC"), salt, 64, {
    N: 16384,
    r: 16,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  return `${salt}:${key.toString("hex")}`;
}

export function newId(size = 24) {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = randomBytes(size);
  let id = "";
  for (const b of bytes) id += alphabet[b % alphabet.length];
  return id;
}

/** .dev.vars holds local secrets; created once with a random AUTH_SECRET. */
export function ensureDevVars() {
  const file = join(root, ".dev.vars");
  if (existsSync(file) && /AUTH_SECRET=/.test(readFileSync(file, "utf8"))) return false;
  writeFileSync(file, `AUTH_SECRET=${randomBytes(32).toString("hex")}\n`, { flag: "a" });
  return true;
}

export function sqlString(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replaceAll("'", "''")}'`;
}
