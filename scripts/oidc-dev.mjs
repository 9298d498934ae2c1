// A real OpenID provider (the npm package oidc-provider) on loopback, for tests, e2e and local dev.
// Its routes follow GitLab's layout (/oauth/authorize, /oauth/token, /oauth/userinfo,
// /oauth/discovery/keys), so arctic's GitLab class works against it unchanged, and discovery at
// /.well-known/openid-configuration serves the generic OIDC implementation.
//
// Login page: /interaction/:uid asks for a login (the account's subject), an optional e-mail and
// whether it is verified; any password is accepted. "Cancel" ends the flow with access_denied.
//
// `node scripts/oidc-dev.mjs [port]` runs it standalone (npm run dev can point the app at it).
// Test hooks under /__dev/ (only with `testHooks: true`): jwks statistics, failing key-set
// responses, key rotation.
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

export const DEV_CLIENT_ID = "almoner-dev";
export const DEV_CLIENT_SECRET = "almoner-dev-secret-0123456789";

async function newSigningKey() {
  const { privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: `k-${Math.random().toString(36).slice(2, 10)}`, alg: "RS256", use: "sig" };
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid, details) {
  const client = escapeHtml(details.params.client_id ?? "");
  const hint = escapeHtml(details.params.login_hint ?? "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in · Dev OpenID provider</title><link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;background:#1e293b;color:#0f172a;display:grid;place-items:center;min-height:100vh;margin:0}form{background:#fff;padding:1.5rem;border-radius:.5rem;width:min(22rem,90vw);display:grid;gap:.75rem}label{display:grid;gap:.25rem;font-size:.875rem}input{padding:.5rem;border:1px solid #cbd5e1;border-radius:.25rem}button{padding:.5rem;border-radius:.25rem;border:0;background:#4f46e5;color:#fff;font-weight:600}button.secondary{background:#e2e8f0;color:#0f172a}</style></head>
<body><form method="post" action="/interaction/${uid}/login">
<h1 style="margin:0;font-size:1.25rem">Dev OpenID provider</h1>
<p style="margin:0;font-size:.875rem">Sign in to continue to <b>${client}</b>.</p>
<label>Login (e-mail)<input name="login" autocomplete="username" required value="${hint}"></label>
<label>Password<input name="password" type="password" autocomplete="current-password"></label>
<label style="display:flex;gap:.5rem;align-items:center"><input type="checkbox" name="email_verified" value="true" checked> E-mail verified</label>
<button type="submit">Sign in</button>
<button type="submit" class="secondary" formaction="/interaction/${uid}/abort" formnovalidate>Cancel</button>
</form></body></html>`;
}

async function readForm(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}

/**
 * Starts the provider. `redirectUris` are the client's registered callback URLs (exact match).
 * Returns { issuer, port, close(), stats }.
 */
export async function startOidcServer({
  port = 0,
  host = "127.0.0.1",
  redirectUris,
  clientId = DEV_CLIENT_ID,
  clientSecret = DEV_CLIENT_SECRET,
  testHooks = false,
  accessTokenTtl = 3600,
  idTokenTtl = 3600,
} = {}) {
  const accounts = new Map();
  const stats = { jwksRequests: 0, tokenRequests: 0 };
  let failJwks = false;
  let keys = [await newSigningKey()];
  let provider;
  let issuer;

  const build = () => {
    const p = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_basic",
        },
      ],
      jwks: { keys },
      cookies: { keys: ["oidc-dev-cookie-key-0123456789"] },
      routes: {
        authorization: "/oauth/authorize",
        token: "/oauth/token",
        userinfo: "/oauth/userinfo",
        jwks: "/oauth/discovery/keys",
        revocation: "/oauth/revoke",
        end_session: "/oauth/logout",
      },
      scopes: ["openid", "offline_access", "email", "profile", "read_user"],
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
      // ID-token sign-in needs the e-mail inside the ID token itself.
      conformIdTokenClaims: false,
      features: {
        devInteractions: { enabled: false },
        revocation: { enabled: true },
        rpInitiatedLogout: { enabled: false },
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      issueRefreshToken: () => true,
      ttl: {
        RefreshToken: 14 * 24 * 3600,
        AccessToken: accessTokenTtl,
        IdToken: idTokenTtl,
        Interaction: 600,
        Session: 600,
        Grant: 3600,
      },
      findAccount: (_ctx, sub) => {
        const account = accounts.get(sub) ?? {
          email: sub.includes("@") ? sub : `${sub}@oidc.test`,
          verified: true,
        };
        return {
          accountId: sub,
          claims: () => ({
            sub,
            email: account.email,
            email_verified: account.verified,
            name: account.name ?? account.email.split("@")[0],
            picture: `https://avatars.example/${encodeURIComponent(sub)}.png`,
          }),
        };
      },
    });
    p.proxy = false;
    return p;
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, issuer);
      if (url.pathname === "/oauth/discovery/keys") {
        stats.jwksRequests += 1;
        if (failJwks) {
          res.writeHead(503, { "content-type": "application/json" });
          return res.end('{"error":"unavailable"}');
        }
      }
      if (url.pathname === "/oauth/token") stats.tokenRequests += 1;
      if (testHooks && url.pathname.startsWith("/__dev/")) {
        if (url.pathname === "/__dev/stats") {
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(JSON.stringify(stats));
        }
        if (url.pathname === "/__dev/jwks-fail") {
          failJwks = url.searchParams.get("on") === "1";
          res.writeHead(204);
          return res.end();
        }
        if (url.pathname === "/__dev/rotate") {
          keys = [await newSigningKey()];
          provider = build();
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(JSON.stringify({ kid: keys[0].kid }));
        }
      }
      const m = /^\/interaction\/([^/]+)(\/login|\/abort)?$/.exec(url.pathname);
      if (m) {
        const details = await provider.interactionDetails(req, res);
        if (!m[2] && req.method === "GET") {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          return res.end(loginPage(details.uid, details));
        }
        if (m[2] === "/abort") {
          return await provider.interactionFinished(
            req,
            res,
            { error: "access_denied", error_description: "End-User aborted interaction" },
            { mergeWithLastSubmission: false },
          );
        }
        const form = await readForm(req);
        const sub = String(form.login ?? "").trim();
        if (!sub) {
          res.writeHead(400, { "content-type": "text/plain" });
          return res.end("login required");
        }
        accounts.set(sub, {
          email: (form.email || (sub.includes("@") ? sub : `${sub}@oidc.test`)).toLowerCase(),
          verified: form.email_verified === "true",
          name: form.name || undefined,
        });
        const grant = new provider.Grant({ accountId: sub, clientId: details.params.client_id });
        grant.addOIDCScope(String(details.params.scope ?? "openid"));
        const grantId = await grant.save();
        return await provider.interactionFinished(
          req,
          res,
          { login: { accountId: sub }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      }
      return provider.callback()(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error?.message ?? error));
    }
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  issuer = `http://${host}:${server.address().port}`;
  provider = build();
  return {
    issuer,
    port: server.address().port,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// Standalone: `node scripts/oidc-dev.mjs [port] [redirect base]`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const port = Number(process.argv[2] ?? 9400);
  const base = process.argv[3] ?? "http://localhost:3000";
  const ids = ["gitlab", "huggingface", "cognito", "google"];
  const srv = await startOidcServer({
    port,
    redirectUris: ids.map((id) => `${base}/api/auth/callback/${id}`),
  });
  console.log(`dev OpenID provider at ${srv.issuer} (client ${DEV_CLIENT_ID})`);
}
