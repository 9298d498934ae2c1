import { SKETCH_SPACE } from "@core/analytics";
import { appRouter } from "../worker/api-router";
import { createContext } from "../worker/trpc/context";
import { createCallerFactory } from "../worker/trpc/init";
import { CookieJar, PASSWORD, setRole, signUp, uniqueEmail } from "./auth/jar";
import { BASE_URL, testEnv } from "./helpers";

const createCaller = createCallerFactory(appRouter);

export async function callerFor(jar: CookieJar | null) {
  const request = new Request(`${BASE_URL}/api/trpc`, { headers: jar ? { cookie: jar.header() } : {} });
  return createCaller(await createContext({ request, env: testEnv, resHeaders: new Headers() }));
}

let n = 0;
export async function makeOrg(opts: { timeZone?: string; currency?: string } = {}) {
  n += 1;
  const id = `org-${Date.now().toString(36)}-${n}`;
  const now = Date.now();
  await testEnv.DB.prepare(
    "INSERT INTO organization (id, name, slug, default_currency, time_zone, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)",
  )
    .bind(id, `Org ${n}`, id, opts.currency ?? "USD", opts.timeZone ?? "UTC", now, now)
    .run();
  // Without donations, donation_daily_totals is built (what the seed and the cron's rebuild write):
  // the writes keep it from the first gift, and date-filtered list totals read it (decision 013).
  await testEnv.DB.prepare("INSERT INTO donation_daily_state (organization_id, time_zone) VALUES (?, ?)")
    .bind(id, opts.timeZone ?? "UTC")
    .run();
  // Likewise the plan months (issue 24, decision 030): built, empty, in the organization's zone.
  await testEnv.DB.prepare("INSERT INTO plan_rollup_state (organization_id, time_zone) VALUES (?, ?)")
    .bind(id, opts.timeZone ?? "UTC")
    .run();
  return id;
}

/** A deterministic uniform sketch value for donor n (a multiplicative hash, as random as the trigger's). */
export const sketchOf = (n: number) => Number((BigInt(n) * 0x9e3779b97f4a7c15n) % BigInt(SKETCH_SPACE));

/**
 * A statement writing `count` donors of `org`, ids `${org}-${first}` onward, for tests that write
 * many gifts in SQL (the analytics rollups' estimates). Their sketch values are sketchOf(n), not the
 * trigger's random(), so an estimate over them is the same on every run: a 95% bound tried on random
 * values fails one run in twenty (core/analytics.test.ts tries the bound itself). The CAST: D1 binds
 * a JS number as a real, which would name the first donor `…-1.0`.
 */
export function numberedDonors(org: string, count: number, first = 1) {
  const sketches = Array.from({ length: count }, (_, i) => sketchOf(first + i));
  return testEnv.DB.prepare(
    `INSERT INTO donor (id, organization_id, first_name, last_name, sketch, created_at, updated_at)
     SELECT ?1 || '-' || (CAST(?2 AS INTEGER) + key), ?1, 'Donor', 'No. ' || (CAST(?2 AS INTEGER) + key), value, 0, 0
       FROM json_each(?3)`,
  ).bind(org, first, JSON.stringify(sketches));
}

export async function member(
  orgId: string,
  role: "owner" | "admin" | "organizer" | "viewer",
  platformRole = "user",
) {
  let s = await signUp(new CookieJar(), uniqueEmail(role));
  if (platformRole !== "user") {
    await setRole(s.user.id, platformRole);
    // A new session, as makeAdmin does: the sign-up's cached session (KV) still says "user".
    const jar = new CookieJar();
    const res = await jar.post("/api/auth/sign-in/email", { email: s.email, password: PASSWORD });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
    s = { ...s, jar, token: ((await res.json()) as { token: string }).token };
  }
  await testEnv.DB.prepare(
    "INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  )
    .bind(`m-${s.user.id}`, orgId, s.user.id, role, Date.now(), Date.now())
    .run();
  s.jar.cookies.delete("better-auth.session_data");
  return { ...s, caller: await callerFor(s.jar) };
}

/** A campaign any test may create: an amount goal in USD. */
export const campaign = {
  title: "Winter Coats",
  currency: "USD" as const,
  goalType: "amount" as const,
  goalAmountMinor: 100_000,
};
