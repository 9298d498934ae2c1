/**
 * The peer of issue 27: the real better-auth 1.3.34 as a Cloudflare Worker, served beside ours by
 * scripts/bench-peer.mjs (bundled there with esbuild, run in the same workerd through Miniflare).
 * D1 through better-auth's drizzle adapter (bench/peer/schema.ts, schema.sql), the cookie cache
 * on (60 s), and, with PEER_SECONDARY_STORAGE=kv, KV as its `secondaryStorage` (sessions then live
 * in KV only, better-auth's default `storeSessionInDatabase: false`). The other options are the
 * contract oracle's (test/oracle/server.ts): basePath /api/auth, e-mail and password 8–128 with
 * auto sign-in and a verification mail on sign-up (sent nowhere here), sessions 7 d / 1 d, the
 * admin plugin, rate limits off.
 *
 * Passwords (PEER_PASSWORD): "oracle" (the default) is the oracle's hasher, better-auth's
 * "saltHex:keyHex" scrypt at N=1024, r=8 through node:crypto; "ours" the same format at our
 * Worker's cost (N=16384, r=16, worker/auth/crypto.ts); "default" better-auth's own hasher
 * (@noble/hashes scrypt in JS, N=16384, r=16).
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin } from "better-auth/plugins";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

interface PeerEnv {
  DB: D1Database;
  KV: KVNamespace;
  AUTH_SECRET: string;
  PEER_SECONDARY_STORAGE?: string;
  PEER_PASSWORD?: string;
  PEER_RATE_LIMIT?: string;
}

const COSTS = { oracle: { N: 1024, r: 8 }, ours: { N: 16384, r: 16 } } as const;

function nativeHasher(cost: { N: number; r: number }) {
  const hex = (password: string, salt: string) =>
    new Promise<string>((resolve, reject) =>
      scrypt(
        password.normalize("NFKC"),
        salt,
        64,
        { N: cost.N, r: cost.r, p: 1, maxmem: 64 * 1024 * 1024 },
        (error, key) => (error ? reject(error) : resolve(key.toString("hex"))),
      ),
    );
  return {
    hash: async (password: string) => {
      const salt = randomBytes(16).toString("hex");
      return `${salt}:${await hex(password, salt)}`;
    },
    verify: async ({ hash, password }: { hash: string; password: string }) => {
      const [salt, key] = hash.split(":");
      if (!salt || !key) return false;
      const a = Buffer.from(await hex(password, salt), "hex");
      const b = Buffer.from(key, "hex");
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}

function makeAuth(env: PeerEnv, baseURL: string) {
  const passwordChoice = env.PEER_PASSWORD ?? "oracle";
  const password =
    passwordChoice === "default"
      ? undefined
      : nativeHasher(passwordChoice === "ours" ? COSTS.ours : COSTS.oracle);
  const kv = env.PEER_SECONDARY_STORAGE === "kv";
  return betterAuth({
    appName: "Almoner peer",
    baseURL,
    basePath: "/api/auth",
    secret: env.AUTH_SECRET,
    database: drizzleAdapter(drizzle(env.DB), { provider: "sqlite", schema }),
    ...(kv
      ? {
          secondaryStorage: {
            get: (key: string) => env.KV.get(key),
            set: (key: string, value: string, ttl?: number) =>
              env.KV.put(key, value, ttl ? { expirationTtl: Math.max(60, Math.ceil(ttl)) } : undefined),
            delete: (key: string) => env.KV.delete(key),
          },
        }
      : {}),
    trustedOrigins: ["http://localhost:3000"],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      requireEmailVerification: false,
      ...(password ? { password } : {}),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: 3600,
      sendVerificationEmail: async () => {},
    },
    session: {
      expiresIn: 7 * 24 * 3600,
      updateAge: 24 * 3600,
      freshAge: 24 * 3600,
      cookieCache: { enabled: true, maxAge: 60 },
    },
    // PEER_RATE_LIMIT=memory (bench-peer --rate-limits): better-auth's production default, counted
    // in the isolate's memory, with limits no run reaches.
    rateLimit:
      env.PEER_RATE_LIMIT === "memory"
        ? {
            enabled: true,
            storage: "memory",
            window: 10,
            max: 1_000_000_000,
            customRules: Object.fromEntries(
              ["/sign-in/email", "/sign-up/email"].map((p) => [p, { window: 10, max: 1_000_000_000 }]),
            ),
          }
        : { enabled: false },
    logger: { disabled: true },
    advanced: { cookiePrefix: "better-auth" },
    plugins: [admin({ defaultRole: "user", adminRoles: ["admin"], impersonationSessionDuration: 3600 })],
  });
}

let auth: ReturnType<typeof makeAuth> | null = null;

export default {
  async fetch(request: Request, env: PeerEnv): Promise<Response> {
    auth ??= makeAuth(env, new URL(request.url).origin);
    return auth.handler(request);
  },
};
