/**
 * The oracle of the auth contract suite: the real better-auth 1.3.34 server (the package the
 * official client comes from), on 127.0.0.1, on a free port, with Node's built-in SQLite and the
 * same options as our /api/auth (app.config.ts defaults, worker/auth/*): basePath /api/auth,
 * e-mail and password 8–128 with auto sign-in and no required verification, a verification mail on
 * sign-up, password reset that revokes sessions, change e-mail through the old address, delete
 * user by password / fresh session / mailed token, sessions 7 d / slid daily / fresh 1 d, a 60 s
 * cookie cache, the admin plugin (1 h impersonation), rate limits off (our harnesses turn ours off
 * too, decision 018). Mail callbacks land in `mails`, newest last.
 *
 * Runs on Node 24 (node:sqlite). Standalone: `node test/oracle/server.ts` prints its base URL.
 * See docs/decisions/023-auth-contract-differences.md.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DatabaseSync } from "node:sqlite";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db";
import { admin } from "better-auth/plugins";

/** The origin both servers trust besides their own (ours: APP_URL of wrangler.toml). */
export const SHARED_ORIGIN = "http://localhost:3000";

export interface OracleMail {
  kind: "verify-email" | "change-email" | "reset-password" | "delete-account";
  to: string;
  url: string;
  token: string;
}

/**
 * Passwords: better-auth's "saltHex:keyHex" scrypt format at a far lower cost (N=1024, r=8) than
 * its own (N=16384, r=16: ≈ 300 ms a hash on a small machine, on the main thread). The oracle's
 * hashes never leave its database and the contract does not see them; the suite creates hundreds
 * of users. Our Worker keeps its real cost.
 */
function scryptHex(password: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 64, { N: 1024, r: 8, p: 1 }, (error, key) =>
      error ? reject(error) : resolve(key.toString("hex")),
    ),
  );
}
const passwordHasher = {
  hash: async (password: string) => {
    const salt = randomBytes(16).toString("hex");
    return `${salt}:${await scryptHex(password, salt)}`;
  },
  verify: async ({ hash, password }: { hash: string; password: string }) => {
    const [salt, key] = hash.split(":");
    if (!salt || !key) return false;
    const a = Buffer.from(await scryptHex(password, salt), "hex");
    const b = Buffer.from(key, "hex");
    return a.length === b.length && timingSafeEqual(a, b);
  },
};

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function authOptions(base: string, db: DatabaseSync, mails: OracleMail[]) {
  const capture = (kind: OracleMail["kind"], to: string, url: string, token: string) => {
    mails.push({ kind, to, url, token });
  };
  return {
    appName: "Almoner",
    baseURL: base,
    basePath: "/api/auth",
    secret: "oracle-secret-0123456789abcdef0123456789abcdef",
    database: db,
    trustedOrigins: [SHARED_ORIGIN],
    emailAndPassword: {
      enabled: true,
      disableSignUp: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      requireEmailVerification: false,
      resetPasswordTokenExpiresIn: 3600,
      revokeSessionsOnPasswordReset: true,
      password: passwordHasher,
      sendResetPassword: async ({
        user,
        url,
        token,
      }: {
        user: { email: string };
        url: string;
        token: string;
      }) => capture("reset-password", user.email, url, token),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: 3600,
      sendVerificationEmail: async ({
        user,
        url,
        token,
      }: {
        user: { email: string };
        url: string;
        token: string;
      }) => capture("verify-email", user.email, url, token),
    },
    user: {
      changeEmail: {
        enabled: true,
        sendChangeEmailVerification: async ({
          user,
          url,
          token,
        }: {
          user: { email: string };
          newEmail: string;
          url: string;
          token: string;
        }) => capture("change-email", user.email, url, token),
      },
      deleteUser: {
        enabled: true,
        deleteTokenExpiresIn: 24 * 3600,
        sendDeleteAccountVerification: async ({
          user,
          url,
          token,
        }: {
          user: { email: string };
          url: string;
          token: string;
        }) => capture("delete-account", user.email, url, token),
      },
    },
    session: {
      expiresIn: 7 * 24 * 3600,
      updateAge: 24 * 3600,
      freshAge: 24 * 3600,
      cookieCache: { enabled: true, maxAge: 60 },
    },
    account: {
      accountLinking: { enabled: true, allowDifferentEmails: false, allowUnlinkingAll: false },
    },
    rateLimit: { enabled: false },
    // Refusals are the point of the suite; better-auth logs each one.
    logger: { disabled: true },
    advanced: { cookiePrefix: "better-auth" },
    plugins: [admin({ defaultRole: "user", adminRoles: ["admin"], impersonationSessionDuration: 3600 })],
  };
}

export interface Oracle {
  base: string;
  db: DatabaseSync;
  mails: OracleMail[];
  close: () => Promise<void>;
}

/** Starts the oracle on a free loopback port with a fresh in-memory database, migrated. */
export async function startOracle(): Promise<Oracle> {
  const db = new DatabaseSync(":memory:");
  const mails: OracleMail[] = [];
  let handler: ((request: Request) => Promise<Response>) | null = null;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const body = await readBody(req);
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
      }
      const method = req.method ?? "GET";
      const request = new Request(new URL(req.url ?? "/", base), {
        method,
        headers,
        body: method === "GET" || method === "HEAD" || body.length === 0 ? undefined : new Uint8Array(body),
      });
      const response = handler ? await handler(request) : new Response(null, { status: 503 });
      const out: Record<string, string | string[]> = {};
      response.headers.forEach((value, key) => {
        if (key !== "set-cookie") out[key] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) out["set-cookie"] = cookies;
      res.writeHead(response.status, out);
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      // better-auth's handler threw instead of answering (toNodeHandler would not answer at all):
      // a 500 that names the error, for the report.
      const name = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      res.writeHead(500, { "x-oracle-threw": encodeURIComponent(name.slice(0, 200)) }).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const options = authOptions(base, db, mails);
  const { runMigrations } = await getMigrations(options as never);
  await runMigrations();
  const auth = betterAuth(options as never) as unknown as { handler: (r: Request) => Promise<Response> };
  handler = auth.handler;
  return {
    base,
    db,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          db.close();
          resolve();
        });
      }),
  };
}

if (import.meta.main) {
  const oracle = await startOracle();
  console.log(`better-auth 1.3.34 oracle on ${oracle.base}/api/auth (Ctrl-C stops it)`);
}
