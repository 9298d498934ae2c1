/**
 * One OAuth 2.0 / OpenID Connect client per enabled provider: arctic's class when arctic has the
 * provider, else arctic's generic OAuth2Client with PKCE S256. A provider is enabled when its client
 * id and secret are configured. Outside production `<ID>_ISSUER` points it at another OpenID issuer
 * (endpoints from discovery, cached in KV): tests and the dev server run a real provider on loopback.
 */
import * as arctic from "arctic";
import { SOCIAL_PROVIDER_IDS, type SocialProviderId } from "../../../app.config";
import type { AuthContext } from "../core";
import { sha256Hex } from "../crypto";
import {
  type ArcticLike,
  mapOidc,
  missingKnob,
  PROVIDERS,
  type ProviderCreds,
  type ProviderSpec,
  type SocialUserInfo,
} from "./providers";

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
  jwks_uri?: string;
}

export interface TokenSet {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: number | null;
  refreshTokenExpiresAt: number | null;
  scopes: string[];
  raw: Record<string, unknown>;
}

export interface Provider {
  id: SocialProviderId;
  name: string;
  spec: ProviderSpec;
  clientId: string;
  /** Scopes always asked for (the caller may add more). */
  scopes: string[];
  jwksUri: string | null;
  issuer: string | null;
  idTokenMaxAge: number | null;
  authorizationURL(state: string, codeVerifier: string, scopes: string[], extra: Record<string, string>): URL;
  /** `deviceId`: the callback's device_id (VK ID), sent on with the code as better-auth 1.3.34 does. */
  exchange(code: string, codeVerifier: string, deviceId?: string): Promise<TokenSet>;
  refresh: ((refreshToken: string) => Promise<TokenSet>) | null;
  /** The provider's profile from its user-info endpoint and/or the (already verified) ID token claims. */
  userInfo(
    tokens: TokenSet,
    idClaims: Record<string, unknown> | null,
  ): Promise<{
    user: SocialUserInfo;
    data: Record<string, unknown>;
  } | null>;
}

function credsFor(ctx: AuthContext, id: SocialProviderId, redirectURI: string) {
  const p = ctx.config.social.providers[id];
  const c: ProviderCreds = {
    clientId: p.clientId,
    clientSecret: p.clientSecret,
    redirectURI,
    domain: p.domain,
    tenant: p.tenant,
    region: p.region,
    userPoolId: p.userPoolId,
  };
  return { c, issuer: ctx.config.app.environment === "production" ? "" : p.issuer };
}

function isEnabled(ctx: AuthContext, id: string): id is SocialProviderId {
  if (!(SOCIAL_PROVIDER_IDS as readonly string[]).includes(id)) return false;
  const { c, issuer } = credsFor(ctx, id as SocialProviderId, "");
  if (!c.clientId || !c.clientSecret) return false;
  return !!issuer || !missingKnob(id as SocialProviderId, c);
}

/** Enabled providers in the spec's order, for /login and /profile. */
export function enabledProviders(ctx: AuthContext) {
  return SOCIAL_PROVIDER_IDS.filter((id) => isEnabled(ctx, id)).map((id) => ({
    id,
    name: PROVIDERS[id].name,
  }));
}

async function discover(ctx: AuthContext, issuer: string): Promise<Discovery> {
  const key = `oidc-discovery:${sha256Hex(issuer)}`;
  const cached = await ctx.env.KV.get<Discovery & { fetchedAt: number }>(key, "json");
  if (cached && ctx.now() - cached.fetchedAt < ctx.config.oauth.jwksCacheMaxAgeMs) return cached;
  const res = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(ctx.config.oauth.jwksFetchTimeoutMs),
  });
  if (!res.ok) throw new Error(`discovery answered ${res.status}`);
  const doc = (await res.json()) as Discovery;
  await ctx.env.KV.put(key, JSON.stringify({ ...doc, fetchedAt: ctx.now() }), { expirationTtl: 600 });
  return doc;
}

function toTokenSet(tokens: arctic.OAuth2Tokens, now: number): TokenSet {
  const d = tokens.data as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && v ? Number(v) : null);
  const expiresIn = num(d.expires_in);
  const refreshExpiresIn = num(d.refresh_token_expires_in);
  const scope = typeof d.scope === "string" ? d.scope : "";
  return {
    accessToken: typeof d.access_token === "string" ? d.access_token : null,
    refreshToken: typeof d.refresh_token === "string" ? d.refresh_token : null,
    idToken: typeof d.id_token === "string" ? d.id_token : null,
    accessTokenExpiresAt: expiresIn ? now + expiresIn * 1000 : null,
    refreshTokenExpiresAt: refreshExpiresIn ? now + refreshExpiresIn * 1000 : null,
    scopes: scope.split(/[\s,]+/).filter(Boolean),
    raw: d,
  };
}

async function fetchProfile(
  url: string,
  accessToken: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: "application/json",
      "user-agent": "almoner",
      ...init.headers,
    },
    body: init.body,
  });
  if (!res.ok) throw new Error(`user info answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

/** GitHub hides private addresses from /user: read the primary one and whether it is verified. */
async function githubEmail(accessToken: string, raw: Record<string, unknown>) {
  try {
    const emails = (await fetchProfile("https://api.github.com/user/emails", accessToken)) as unknown as {
      email: string;
      primary: boolean;
      verified: boolean;
    }[];
    const primary = emails.find((e) => e.primary) ?? emails[0];
    if (primary) {
      raw.email = raw.email ?? primary.email;
      raw.__emailVerified = emails.find((e) => e.email === raw.email)?.verified === true;
    }
  } catch {
    // keep what /user said
  }
}

/**
 * SPEC §9's profile photo size, for Microsoft Graph only (1.3.34 asks for it square, 48 by default);
 * its bytes become a data: URL, which the CSP's img-src allows (worker/http/headers.ts).
 */
async function microsoftPhoto(accessToken: string, size: number): Promise<string | null> {
  try {
    const res = await fetch(`https://graph.microsoft.com/v1.0/me/photos/${size}x${size}/$value`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!res.ok) return null;
    const bytes = new Uint8Array(await res.arrayBuffer());
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    return `data:${res.headers.get("content-type") ?? "image/jpeg"};base64,${btoa(binary)}`;
  } catch {
    return null;
  }
}

/**
 * arctic's OAuth2Client token request plus the `device_id` better-auth 1.3.34 forwards from the
 * callback, for which arctic's own request has no place.
 */
async function codeWithDevice(
  tokenEndpoint: string,
  c: ProviderCreds,
  code: string,
  codeVerifier: string,
  deviceId: string,
) {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: c.redirectURI,
    code_verifier: codeVerifier,
    device_id: deviceId,
  });
  const res = await fetch(tokenEndpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      authorization: `Basic ${btoa(`${c.clientId}:${c.clientSecret}`)}`,
    },
    body,
  });
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || !data || typeof data.access_token !== "string") {
    throw new Error(`token endpoint answered ${res.status}`);
  }
  return new arctic.OAuth2Tokens(data);
}

/**
 * The provider for this request, or null when it is unknown or not configured. `redirectURI` is
 * the callback URL sent with the authorization request (the token request repeats it).
 */
export async function getProvider(
  ctx: AuthContext,
  id: string,
  redirectURI: string,
): Promise<Provider | null> {
  if (!isEnabled(ctx, id)) return null;
  const spec = PROVIDERS[id];
  const { c, issuer: override } = credsFor(ctx, id, redirectURI);
  const discovery = override ? await discover(ctx, override) : null;
  if (discovery && id === "gitlab") c.domain = override; // arctic's GitLab takes the base URL

  const generic = new arctic.OAuth2Client(c.clientId, c.clientSecret, redirectURI);
  const authEndpoint = discovery?.authorization_endpoint ?? spec.authorizationEndpoint?.(c) ?? "";
  const tokenEndpoint = discovery?.token_endpoint ?? spec.tokenEndpoint?.(c) ?? "";
  // An overridden provider keeps arctic only where arctic can be pointed elsewhere (GitLab's base URL).
  const useArctic = !!spec.arctic && (!discovery || id === "gitlab");
  const impl: ArcticLike | null = useArctic && spec.arctic ? spec.arctic(c) : null;
  const pkce = impl ? !!spec.arcticPkce : true;
  const now = () => ctx.now();

  const jwksUri = discovery ? (discovery.jwks_uri ?? null) : (spec.jwksUri?.(c) ?? null);
  const issuer = discovery ? discovery.issuer : (spec.issuer?.(c) ?? null);
  const userInfoUrl = discovery ? (discovery.userinfo_endpoint ?? null) : (spec.profile?.url(c) ?? null);
  const map = discovery ? (raw: Record<string, unknown>) => mapOidc(raw) : spec.map;

  return {
    id,
    name: spec.name,
    spec,
    clientId: c.clientId,
    scopes: spec.scopes,
    jwksUri,
    issuer,
    idTokenMaxAge: spec.idTokenMaxAge ? ctx.config.oauth.idTokenMaxAge : null,
    authorizationURL(state, codeVerifier, scopes, extra) {
      let url: URL;
      if (impl) {
        url = pkce
          ? impl.createAuthorizationURL(state, codeVerifier, scopes)
          : impl.createAuthorizationURL(state, scopes);
      } else {
        url = generic.createAuthorizationURLWithPKCE(
          authEndpoint,
          state,
          arctic.CodeChallengeMethod.S256,
          codeVerifier,
          scopes,
        );
      }
      // Some arctic classes (Naver) take no state; every request carries ours.
      url.searchParams.set("state", state);
      for (const [k, v] of Object.entries({ ...spec.authParams, ...extra })) url.searchParams.set(k, v);
      return url;
    },
    async exchange(code, codeVerifier, deviceId) {
      const tokens = impl
        ? pkce
          ? await impl.validateAuthorizationCode(code, codeVerifier)
          : await impl.validateAuthorizationCode(code)
        : deviceId
          ? await codeWithDevice(tokenEndpoint, c, code, codeVerifier, deviceId)
          : await generic.validateAuthorizationCode(tokenEndpoint, code, codeVerifier);
      return toTokenSet(tokens, now());
    },
    refresh:
      impl && !impl.refreshAccessToken
        ? null
        : async (refreshToken) => {
            const tokens = impl?.refreshAccessToken
              ? await impl.refreshAccessToken(refreshToken, [])
              : await generic.refreshAccessToken(tokenEndpoint, refreshToken, []);
            return toTokenSet(tokens, now());
          },
    async userInfo(tokens, idClaims) {
      let raw: Record<string, unknown> = { ...(idClaims ?? {}) };
      if (userInfoUrl && tokens.accessToken) {
        const p = spec.profile;
        const profile = await fetchProfile(
          userInfoUrl,
          tokens.accessToken,
          discovery ? {} : { method: p?.method, headers: p?.headers, body: p?.body },
        );
        if (!discovery && id === "github") await githubEmail(tokens.accessToken, profile);
        raw = { ...raw, ...profile };
      }
      if (!discovery && id === "microsoft" && tokens.accessToken) {
        const picture = await microsoftPhoto(tokens.accessToken, ctx.config.oauth.profilePhotoSize);
        if (picture) raw = { ...raw, picture };
      }
      if (!Object.keys(raw).length) return null;
      const user = map(raw, tokens.raw, c);
      return user ? { user, data: raw } : null;
    },
  };
}
