import { createAuthClient } from "better-auth/client";
import { adminClient } from "better-auth/client/plugins";
import { appFetch, BASE_URL, testEnv } from "../helpers";

/** A browser-like cookie jar around the worker's fetch handler. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = (pair ?? "").indexOf("=");
      const name = (pair ?? "").slice(0, eq).trim();
      const value = (pair ?? "").slice(eq + 1).trim();
      const maxAge = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith("max-age="));
      if (maxAge && Number(maxAge.split("=")[1]) <= 0) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  fetch = async (input: string | URL | Request, init: RequestInit = {}) => {
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    if (this.cookies.size) headers.set("cookie", this.header());
    // As a browser: every POST from the portal's page says where it comes from (the origin gate,
    // worker/http/origin-gate.ts, refuses a cookie-carrying one that does not).
    const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", BASE_URL);
    const res = await appFetch(input instanceof Request ? input.url : input, {
      ...init,
      headers,
      redirect: "manual",
    });
    this.store(res);
    return res;
  };

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

/** The official better-auth 1.3 client (with the admin plugin) driving our server. */
export function authClient(jar = new CookieJar(), basePath = "/api/auth") {
  const client = createAuthClient({
    baseURL: `${BASE_URL}${basePath}`,
    plugins: [adminClient()],
    fetchOptions: { customFetchImpl: jar.fetch as typeof fetch },
  });
  return { client, jar };
}

let counter = 0;
export function uniqueEmail(prefix = "user") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}

export const PASSWORD = "correct horse battery";

export async function signUp(jar = new CookieJar(), email = uniqueEmail(), name = "Test User") {
  const res = await jar.post("/api/auth/sign-up/email", { name, email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { id: string; email: string } };
  return { jar, email, user: body.user, token: body.token };
}

export async function setRole(userId: string, role: string) {
  await testEnv.DB.prepare("UPDATE user SET role = ? WHERE id = ?").bind(role, userId).run();
  await testEnv.DB.prepare("SELECT 1").run();
}

export async function lastMail(to: string) {
  const res = await appFetch(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  const list = (await res.json()) as { to: string; subject: string; url: string | null; text: string }[];
  return list[0];
}

/** Follows the newest "Verify your e-mail address" link mailed to `email`, as its owner would. */
export async function verifyByMail(email: string) {
  const res = await appFetch(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
  const list = (await res.json()) as { subject: string; url: string | null }[];
  const link = list.find((m) => m.subject === "Verify your e-mail address")?.url;
  if (!link) throw new Error(`no verification mail to ${email}`);
  const url = new URL(link);
  const done = await appFetch(url.pathname + url.search);
  if (done.status !== 302) throw new Error(`verification failed: ${done.status} ${await done.text()}`);
}

export async function makeAdmin(email = uniqueEmail("admin")) {
  const s = await signUp(new CookieJar(), email, "Admin Person");
  await setRole(s.user.id, "admin");
  // Re-sign-in so no cached session data still says "user".
  const jar = new CookieJar();
  await jar.post("/api/auth/sign-in/email", { email, password: PASSWORD });
  return { ...s, jar };
}
