/**
 * Driving the real OpenID providers of oidc-global.ts from inside workerd: a browser-like cookie
 * jar for our app (with optional Worker var overrides, for policy switches) and one for the
 * provider's own login page.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { DEV_CLIENT_ID, DEV_CLIENT_SECRET } from "../../scripts/oidc-dev.mjs";
import { BASE_URL } from "../helpers";
import worker from "../worker";

export const ISSUER_A = env.TEST_OIDC_ISSUER_A as string;
export const ISSUER_B = env.TEST_OIDC_ISSUER_B as string;
export { DEV_CLIENT_ID, DEV_CLIENT_SECRET };

/** Env objects are cached so the config (parsed once per env object) is too. */
const envs = new Map<string, Env>();
export function envWith(overrides: Record<string, string> = {}): Env {
  const key = JSON.stringify(overrides);
  let e = envs.get(key);
  if (!e) {
    e = Object.keys(overrides).length ? ({ ...env, ...overrides } as Env) : env;
    envs.set(key, e);
  }
  return e;
}

export class Jar {
  readonly cookies = new Map<string, string>();
  constructor(readonly overrides: Record<string, string> = {}) {}

  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async fetch(input: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", this.header());
    const request = new Request(new URL(input, BASE_URL), { ...init, headers, redirect: "manual" });
    const ctx = createExecutionContext();
    const res = await worker.fetch(request, envWith(this.overrides), ctx);
    await waitOnExecutionContext(ctx);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = (pair ?? "").indexOf("=");
      const name = (pair ?? "").slice(0, eq).trim();
      const maxAge = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith("max-age="));
      if (maxAge && Number(maxAge.split("=")[1]) <= 0) this.cookies.delete(name);
      else this.cookies.set(name, (pair ?? "").slice(eq + 1).trim());
    }
    return res;
  }

  get(path: string) {
    return this.fetch(path);
  }

  post(path: string, body: unknown = {}) {
    return this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE_URL },
      body: JSON.stringify(body),
    });
  }
}

export interface ProviderLogin {
  /** The subject at the provider (default: the e-mail). */
  login: string;
  email?: string;
  emailVerified?: boolean;
  /** Press "Cancel" on the provider's page instead of signing in. */
  abort?: boolean;
}

/**
 * Goes through the provider's real authorization endpoint and login form, as a browser would,
 * and returns where the provider sends the browser back (our callback URL with code and state).
 */
export async function loginAtProvider(authorizationURL: string, who: ProviderLogin): Promise<string> {
  const cookies = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = (pair ?? "").indexOf("=");
      cookies.set((pair ?? "").slice(0, eq).trim(), (pair ?? "").slice(eq + 1).trim());
    }
    return res;
  };
  const start = await go(authorizationURL);
  if (start.status !== 303 && start.status !== 302) {
    throw new Error(`authorization endpoint answered ${start.status}: ${await start.text()}`);
  }
  const interaction = new URL(start.headers.get("location") ?? "", authorizationURL);
  const page = await go(interaction.toString());
  const html = await page.text();
  if (!html.includes('name="login"'))
    throw new Error(`no login form at ${interaction}: ${html.slice(0, 200)}`);
  const form = new URLSearchParams({ login: who.login, password: "anything" });
  if (who.email) form.set("email", who.email);
  if (who.emailVerified !== false) form.set("email_verified", "true");
  const submitted = await go(`${interaction.toString()}/${who.abort ? "abort" : "login"}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  const resume = new URL(submitted.headers.get("location") ?? "", authorizationURL);
  const back = await go(resume.toString());
  const location = back.headers.get("location");
  if (!location) throw new Error(`provider did not redirect back (${back.status}): ${await back.text()}`);
  return new URL(location, authorizationURL).toString();
}

/** Asks the provider for tokens directly (as a mobile app would), for ID-token sign-in tests. */
export async function providerTokens(
  issuer: string,
  providerId: string,
  who: ProviderLogin,
  nonce = "n-0123456789",
): Promise<{ id_token: string; access_token: string; refresh_token?: string }> {
  const redirectURI = `${BASE_URL}/api/auth/callback/${providerId}`;
  const auth = new URL(`${issuer}/oauth/authorize`);
  auth.searchParams.set("client_id", DEV_CLIENT_ID);
  auth.searchParams.set("response_type", "code");
  auth.searchParams.set("redirect_uri", redirectURI);
  auth.searchParams.set("scope", "openid email profile");
  auth.searchParams.set("state", "test-state");
  auth.searchParams.set("nonce", nonce);
  const back = new URL(await loginAtProvider(auth.toString(), who));
  const code = back.searchParams.get("code");
  if (!code) throw new Error(`no code: ${back}`);
  const res = await fetch(`${issuer}/oauth/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa(`${DEV_CLIENT_ID}:${DEV_CLIENT_SECRET}`)}`,
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectURI,
    }).toString(),
  });
  if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Starts a redirect sign-in (or link) on our side and returns the provider URL. */
export async function startFlow(jar: Jar, path: string, body: Record<string, unknown>) {
  const res = await jar.post(path, body);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { url: string; redirect: boolean };
}

/** The whole redirect flow: our sign-in/social → provider login → our callback. */
export async function socialSignIn(
  jar: Jar,
  provider: string,
  who: ProviderLogin,
  body: Record<string, unknown> = {},
) {
  const { url } = await startFlow(jar, "/api/auth/sign-in/social", {
    provider,
    callbackURL: "/dashboard",
    ...body,
  });
  const callback = await loginAtProvider(url, who);
  return jar.get(callback);
}

let n = 0;
export const email = (prefix = "social") => {
  n += 1;
  return `${prefix}-${Date.now().toString(36)}-${n}@example.test`;
};
