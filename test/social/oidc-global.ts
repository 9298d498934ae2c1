/**
 * vitest globalSetup (runs in Node): two real OpenID providers (oidc-provider) on loopback, on the
 * ports vitest.config.ts chose and handed to the Worker as *_ISSUER bindings. Provider A serves
 * gitlab (arctic's class, base URL overridden) and huggingface (generic OIDC); provider B serves
 * cognito and is the one the key-set tests break and rotate.
 */
import { startOidcServer } from "../../scripts/oidc-dev.mjs";
import { shiftClock } from "../../worker/lib/shifted-clock";

export default async function setup() {
  shiftClock(process.env.TEST_TODAY);
  const base = process.env.ALMONER_TEST_APP_URL ?? "http://localhost:3000";
  const cb = (id: string) => `${base}/api/auth/callback/${id}`;
  const a = await startOidcServer({
    port: Number(process.env.ALMONER_TEST_OIDC_PORT_A),
    redirectUris: [cb("gitlab"), cb("huggingface")],
    testHooks: true,
  });
  const b = await startOidcServer({
    port: Number(process.env.ALMONER_TEST_OIDC_PORT_B),
    redirectUris: [cb("cognito")],
    testHooks: true,
    // Longer than Cognito's 1 h maximum ID-token age, so that age (not expiry) is what refuses.
    idTokenTtl: 7200,
  });
  return async () => {
    await a.close();
    await b.close();
  };
}
