/**
 * Issue 26, defence in depth (docs/decisions/021): every portal page carries a nonce-based
 * Content-Security-Policy, the pages run under it without a single violation, and script that
 * markup injection would bring (an inline script without the nonce, a foreign host) does not run.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, go, openBrowser, signIn } from "./browser.ts";

const nonceOf = (policy: string | null) =>
  /script-src [^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? "")?.[1];

test("each page gets its own nonce, on every script the server writes, and no unsafe-inline script", async () => {
  const first = await fetch(`${BASE_URL}/login`);
  const second = await fetch(`${BASE_URL}/login`);
  const policy = first.headers.get("content-security-policy");
  const nonce = nonceOf(policy);
  assert.ok(nonce, `no nonce in ${policy}`);
  assert.notEqual(nonce, nonceOf(second.headers.get("content-security-policy")));
  assert.doesNotMatch(policy ?? "", /'unsafe-inline'[^;]*;?\s*$|script-src[^;]*'unsafe-(inline|eval)'/);
  assert.match(policy ?? "", /default-src 'self'/);
  assert.match(policy ?? "", /frame-ancestors 'none'/);
  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.ok(scripts.length > 0);
  for (const tag of scripts)
    assert.match(tag, new RegExp(`nonce="${nonce?.replace(/[+/=]/g, "\\$&")}"`), tag);
  // A nonce sent by the caller is never the page's nonce.
  const forged = await fetch(`${BASE_URL}/login`, { headers: { "x-almoner-csp-nonce": "attacker" } });
  assert.notEqual(nonceOf(forged.headers.get("content-security-policy")), "attacker");
  // API answers allow nothing at all.
  const api = await fetch(`${BASE_URL}/api/auth/ok`);
  assert.match(api.headers.get("content-security-policy") ?? "", /^default-src 'none'/);
});

test("the portal runs under the policy without a violation, and injected script does not run", async () => {
  const s = await openBrowser();
  try {
    await s.context.addInitScript(() => {
      const w = window as unknown as { __violations: string[] };
      w.__violations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const violations = () =>
      s.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL(/\/dashboard/);
    for (const path of [
      "/dashboard",
      "/donations",
      "/donors",
      "/campaigns",
      "/organization",
      "/organizers",
    ]) {
      await go(s.page, path);
      await s.page.waitForLoadState("networkidle");
      assert.deepEqual(await violations(), [], `violations on ${path}`);
    }
    // Navigating client-side loads more chunks: they must pass too.
    await s.page.getByRole("link", { name: "Donors" }).first().click();
    await s.page.waitForURL(/\/donors/);
    await s.page.waitForLoadState("networkidle");
    assert.deepEqual(await violations(), []);

    // What a stored XSS would do once it reached the DOM: an inline script without the nonce, and
    // a script from another host. Neither runs; both are reported as violations.
    const ran = await s.page.evaluate(async () => {
      const w = window as unknown as { __pwned?: boolean };
      const inline = document.createElement("script");
      inline.textContent = "window.__pwned = true";
      document.body.appendChild(inline);
      const foreign = document.createElement("script");
      foreign.src = "https://evil.example/x.js";
      document.body.appendChild(foreign);
      await new Promise((r) => setTimeout(r, 200));
      return w.__pwned === true;
    });
    assert.equal(ran, false);
    const seen = await violations();
    assert.ok(
      seen.some((v) => v.startsWith("script-src")),
      `expected script-src violations, saw ${JSON.stringify(seen)}`,
    );
    s.errors.length = 0; // the two refusals above are the point of the test
  } finally {
    await s.close();
  }
});
