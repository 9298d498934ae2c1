/**
 * The OAuth endpoints of the better-auth 1.3 contract (SPEC §7) and GET /social/providers, in one file:
 * they share the state, PKCE and account-linking steps of one flow.
 */

import { withSearchParams } from "@core/trusted-url";
import { decodeJwt } from "jose";
import { z } from "zod";
import {
  type AuthContext,
  assertNotBanned,
  createSessionWithCookies,
  loadSession,
  requireSession,
} from "../core";
import { type Handler, ok, redirect } from "../endpoints";
import { AuthApiError, E } from "../errors";
import { checkUrls, readBody } from "../guards";
import { type AccountRow, dec, linkToUser, resolveSocialUser, updateTokens, userAccounts } from "./accounts";
import { enabledProviders, getProvider, type Provider, type TokenSet } from "./client";
import { verifyIdToken } from "./jwks";
import { consumeState, createState, newCodeVerifier } from "./state";

const PROVIDER_NOT_FOUND = () => new AuthApiError(404, "PROVIDER_NOT_FOUND", "Provider not found");
const ID_TOKEN_NOT_SUPPORTED = () =>
  new AuthApiError(404, "ID_TOKEN_NOT_SUPPORTED", "id_token not supported");
const INVALID_TOKEN = () => new AuthApiError(401, "INVALID_TOKEN", "Invalid token");
const FAILED_TO_GET_USER_INFO = () =>
  new AuthApiError(401, "FAILED_TO_GET_USER_INFO", "Failed to get user info");
const USER_EMAIL_NOT_FOUND = () => new AuthApiError(401, "USER_EMAIL_NOT_FOUND", "User email not found");
const FAILED_TO_GET_ACCESS_TOKEN = () =>
  new AuthApiError(400, "FAILED_TO_GET_ACCESS_TOKEN", "Failed to get a valid access token");

/**
 * The callback URL registered with the provider: on the configured app URL in production (never
 * derived from a Host header there); on the origin that was asked elsewhere (dev, e2e on a random port).
 */
const redirectURIFor = (ctx: AuthContext, id: string) => {
  const origin =
    ctx.config.app.environment === "production" ? new URL(ctx.config.app.url).origin : ctx.url.origin;
  return `${origin}${ctx.config.auth.basePath}/callback/${id}`;
};

/** Adds query parameters to a URL, keeping its own, as a same-origin reference (core/trusted-url.ts). */
function withParams(ctx: AuthContext, url: string, params: Record<string, string | undefined>) {
  return withSearchParams(url, new URL(url, ctx.url.origin), params);
}

/** DESIGN §3: credential changes are refused while an admin impersonates. */
function refuseWhileImpersonating(session: { impersonatedBy: string | null }) {
  if (session.impersonatedBy) throw new AuthApiError(403, "IMPERSONATION_RESTRICTED", "Not authorized");
}

const idTokenSchema = z.object({
  token: z.string().min(1),
  nonce: z.string().optional(),
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  expiresAt: z.number().optional(),
});

const signInBody = z.object({
  provider: z.string().min(1),
  callbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
  disableRedirect: z.boolean().optional(),
  idToken: idTokenSchema.optional(),
  scopes: z.array(z.string()).optional(),
  requestSignUp: z.boolean().optional(),
  loginHint: z.string().optional(),
  additionalData: z.record(z.string(), z.unknown()).optional(),
});

/** Verifies an ID token given to us by the client and reads the profile from its claims. */
async function profileFromIdToken(
  ctx: AuthContext,
  provider: Provider,
  idToken: z.infer<typeof idTokenSchema>,
) {
  if (!provider.jwksUri) throw ID_TOKEN_NOT_SUPPORTED();
  let claims: Record<string, unknown>;
  try {
    claims = (await verifyIdToken(ctx, idToken.token, {
      jwksUri: provider.jwksUri,
      audience: provider.clientId,
      issuer: provider.issuer,
      nonce: idToken.nonce,
      maxAgeSeconds: provider.idTokenMaxAge ?? undefined,
    })) as Record<string, unknown>;
  } catch {
    throw INVALID_TOKEN();
  }
  const tokens: TokenSet = {
    accessToken: idToken.accessToken ?? null,
    refreshToken: idToken.refreshToken ?? null,
    idToken: idToken.token,
    accessTokenExpiresAt: idToken.expiresAt ?? null,
    refreshTokenExpiresAt: null,
    scopes: [],
    raw: {},
  };
  const info = await provider.userInfo({ ...tokens, accessToken: null }, claims).catch(() => null);
  if (!info) throw FAILED_TO_GET_USER_INFO();
  if (!info.user.email) throw USER_EMAIL_NOT_FOUND();
  return { info: { ...info.user, email: info.user.email }, tokens };
}

async function startRedirectFlow(
  ctx: AuthContext,
  provider: Provider,
  opts: {
    callbackURL?: string;
    errorURL?: string;
    newUserURL?: string;
    scopes?: string[];
    loginHint?: string;
    requestSignUp?: boolean;
    disableRedirect?: boolean;
    link?: { email: string; userId: string };
    defaultCallback: string;
  },
) {
  const codeVerifier = newCodeVerifier(ctx);
  const redirectURI = redirectURIFor(ctx, provider.id);
  const scopes = [...new Set([...provider.scopes, ...(opts.scopes ?? [])])];
  const state = await createState(ctx, {
    providerId: provider.id,
    codeVerifier,
    redirectURI,
    callbackURL: opts.callbackURL || opts.defaultCallback,
    errorURL: opts.errorURL || undefined,
    newUserURL: opts.newUserURL || undefined,
    link: opts.link,
    requestSignUp: opts.requestSignUp,
    scopes,
  });
  const url = provider
    .authorizationURL(state, codeVerifier, scopes, opts.loginHint ? { login_hint: opts.loginHint } : {})
    .toString();
  if (!opts.disableRedirect) ctx.headers.set("Location", url);
  return { url, redirect: !opts.disableRedirect };
}

export const signInSocial: Handler = async (ctx) => {
  const body = await readBody(ctx, signInBody);
  checkUrls(ctx, body);
  const provider = await getProvider(ctx, body.provider, redirectURIFor(ctx, body.provider));
  if (!provider) throw PROVIDER_NOT_FOUND();
  if (body.idToken) {
    const { info, tokens } = await profileFromIdToken(ctx, provider, body.idToken);
    const outcome = await resolveSocialUser(ctx, provider.id, info, tokens, {
      requestSignUp: body.requestSignUp,
    });
    if (!outcome.ok) throw new AuthApiError(401, "UNAUTHORIZED", outcome.error);
    await assertNotBanned(ctx, outcome.user);
    const created = await createSessionWithCookies(ctx, outcome.user);
    return ok(ctx, { redirect: false, token: created.token, user: created.user });
  }
  return ok(
    ctx,
    await startRedirectFlow(ctx, provider, {
      callbackURL: body.callbackURL,
      errorURL: body.errorCallbackURL,
      newUserURL: body.newUserCallbackURL,
      scopes: body.scopes,
      loginHint: body.loginHint,
      requestSignUp: body.requestSignUp,
      disableRedirect: body.disableRedirect,
      defaultCallback: ctx.config.auth.defaultRedirect,
    }),
  );
};

const linkBody = signInBody.pick({
  provider: true,
  callbackURL: true,
  errorCallbackURL: true,
  disableRedirect: true,
  idToken: true,
  scopes: true,
  requestSignUp: true,
});

export const linkSocial: Handler = async (ctx) => {
  const loaded = await requireSession(ctx, true);
  refuseWhileImpersonating(loaded.session);
  const body = await readBody(ctx, linkBody);
  checkUrls(ctx, body);
  const provider = await getProvider(ctx, body.provider, redirectURIFor(ctx, body.provider));
  if (!provider) throw PROVIDER_NOT_FOUND();
  const link = { email: loaded.user.email, userId: loaded.user.id };
  if (!body.idToken) {
    return ok(
      ctx,
      await startRedirectFlow(ctx, provider, {
        callbackURL: body.callbackURL,
        errorURL: body.errorCallbackURL,
        scopes: body.scopes,
        requestSignUp: body.requestSignUp,
        disableRedirect: body.disableRedirect,
        link,
        defaultCallback: "/profile",
      }),
    );
  }
  const { info, tokens } = await profileFromIdToken(ctx, provider, body.idToken);
  const outcome = await linkToUser(ctx, provider.id, info, tokens, link);
  if (!outcome.ok) {
    switch (outcome.reason) {
      case "not_allowed":
        throw new AuthApiError(401, "LINKING_NOT_ALLOWED", "Account not linked - linking not allowed");
      case "different_emails":
        throw new AuthApiError(
          401,
          "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED",
          "Account not linked - different emails not allowed",
        );
      case "linked_elsewhere":
        throw new AuthApiError(
          409,
          "SOCIAL_ACCOUNT_ALREADY_LINKED",
          "This social account is already linked to a different user",
        );
      default:
        throw new AuthApiError(417, "LINKING_FAILED", "Account not linked - unable to create account");
    }
  }
  return ok(ctx, { url: "", status: true, redirect: false });
};

/* ---------------------------------------------------------------- callback */

export const callback: Handler = async (ctx) => {
  const id = decodeURIComponent(ctx.url.pathname.split("/").pop() ?? "");
  if (ctx.request.method === "POST") {
    // form_post providers (Apple): bring the parameters over to the GET, where the cookies are.
    const type = ctx.request.headers.get("content-type") ?? "";
    const text = new TextDecoder().decode(await ctx.request.arrayBuffer());
    let params: Record<string, string> = {};
    if (type.includes("application/json")) {
      try {
        params = Object.fromEntries(
          Object.entries(JSON.parse(text) as Record<string, unknown>).map(([k, v]) => [
            k,
            typeof v === "string" ? v : JSON.stringify(v),
          ]),
        );
      } catch {
        params = {};
      }
    } else params = Object.fromEntries(new URLSearchParams(text));
    const target = new URL(ctx.url.pathname, ctx.url.origin);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    for (const [k, v] of ctx.url.searchParams) if (!target.searchParams.has(k)) target.searchParams.set(k, v);
    return redirect(ctx, target.toString());
  }
  const defaultErrorURL = `${ctx.url.origin}${ctx.config.auth.basePath}/error`;
  try {
    return await callbackGet(ctx, id, defaultErrorURL);
  } catch (error) {
    // better-auth 1.3.34 sends a callback that fails unexpectedly (its database, here anything) to
    // the error page with internal_server_error: the browser is mid-redirect, never a 500 JSON.
    console.error("oauth callback failed", id, error);
    return redirect(ctx, withParams(ctx, defaultErrorURL, { error: "internal_server_error" }));
  }
};

async function callbackGet(ctx: AuthContext, id: string, defaultErrorURL: string): Promise<Response> {
  const q = ctx.url.searchParams;
  const state = q.get("state");
  // 1.3.34's redirect, as it is: the code rides in `state`, with no `error` parameter.
  if (!state) return redirect(ctx, withParams(ctx, defaultErrorURL, { state: "state_not_found" }));
  const parsed = await consumeState(ctx, state);
  if (parsed.status !== "ok") {
    return redirect(ctx, withParams(ctx, defaultErrorURL, { error: "please_restart_the_process" }));
  }
  const st = parsed.value;
  const errorURL = st.errorURL || defaultErrorURL;
  const fail = (error: string, description?: string) =>
    redirect(ctx, withParams(ctx, errorURL, { error, error_description: description }));
  if (st.providerId !== id) return fail("invalid_callback_request");
  const providerError = q.get("error");
  if (providerError) return fail(providerError, q.get("error_description") ?? undefined);
  const code = q.get("code");
  if (!code) return fail("no_code");
  const provider = await getProvider(ctx, id, st.redirectURI).catch(() => null);
  if (!provider) return fail("oauth_provider_not_found");

  let tokens: TokenSet;
  try {
    tokens = await provider.exchange(code, st.codeVerifier, q.get("device_id") ?? undefined);
  } catch (error) {
    console.warn("oauth code exchange failed", id, String(error));
    return fail("invalid_code");
  }
  let claims: Record<string, unknown> | null = null;
  let info: Awaited<ReturnType<Provider["userInfo"]>> = null;
  try {
    if (tokens.idToken && provider.jwksUri) {
      claims = (await verifyIdToken(ctx, tokens.idToken, {
        jwksUri: provider.jwksUri,
        audience: provider.clientId,
        issuer: provider.issuer,
        maxAgeSeconds: provider.idTokenMaxAge ?? undefined,
      })) as Record<string, unknown>;
    }
    const appleUser = q.get("user");
    if (appleUser) {
      try {
        claims = { ...(claims ?? {}), user: JSON.parse(appleUser) };
      } catch {}
    }
    info = await provider.userInfo(tokens, claims);
  } catch (error) {
    console.warn("oauth user info failed", id, String(error));
    info = null;
  }
  if (!info) return fail("unable_to_get_user_info");
  if (!st.callbackURL) return fail("no_callback_url");

  if (st.link) {
    const outcome = await linkToUser(ctx, provider.id, info.user, tokens, st.link);
    if (!outcome.ok) {
      const code =
        outcome.reason === "different_emails"
          ? "email_doesn't_match"
          : outcome.reason === "linked_elsewhere"
            ? "account_already_linked_to_different_user"
            : "unable_to_link_account";
      return fail(code);
    }
    return redirect(ctx, st.callbackURL);
  }

  if (!info.user.email) return fail("email_not_found");
  const outcome = await resolveSocialUser(
    ctx,
    provider.id,
    { ...info.user, email: info.user.email },
    tokens,
    { requestSignUp: st.requestSignUp },
  );
  if (!outcome.ok) return fail(outcome.error.replaceAll(" ", "_"));
  try {
    await assertNotBanned(ctx, outcome.user);
  } catch (error) {
    if (error instanceof AuthApiError) {
      return redirect(
        ctx,
        withParams(ctx, defaultErrorURL, { error: "banned", error_description: error.message }),
      );
    }
    throw error;
  }
  try {
    await createSessionWithCookies(ctx, outcome.user);
  } catch (error) {
    console.error("session after oauth failed", error);
    return fail("unable_to_create_session");
  }
  return redirect(ctx, outcome.isNew && st.newUserURL ? st.newUserURL : st.callbackURL);
}

/* ---------------------------------------------------------------- tokens */

const tokenBody = z.object({
  providerId: z.string().min(1),
  accountId: z.string().optional(),
  userId: z.string().optional(),
});

/**
 * The caller's account for a provider; null without a session over HTTP. A server-side call
 * (serverAccessToken) has no session and names the user; with neither, better-auth 1.3.34's 400.
 */
async function accountFor(
  ctx: AuthContext,
  body: z.infer<typeof tokenBody>,
  { overHttp = true, providerFirst = true } = {},
) {
  const loaded = await loadSession(ctx, { fresh: true });
  if (overHttp && !loaded) return null;
  // Over HTTP the session decides: a userId in the body never reaches another user's tokens.
  const userId = loaded?.user.id ?? (overHttp ? undefined : body.userId);
  if (!userId) throw E.USER_ID_OR_SESSION_REQUIRED();
  const findProvider = async () => {
    const provider = await getProvider(ctx, body.providerId, redirectURIFor(ctx, body.providerId));
    // SPEC §8's wording (1.3.34 says "Provider {id} is not supported."; decision 023).
    if (!provider) {
      throw new AuthApiError(
        400,
        "PROVIDER_NOT_SUPPORTED",
        `Provider ${body.providerId} is not supported, or not found`,
      );
    }
    return provider;
  };
  // 1.3.34's order: get-access-token asks for the provider first, refresh-token for the account.
  const early = providerFirst ? await findProvider() : null;
  const account = (await userAccounts(ctx, userId)).find(
    (a) =>
      a.provider_id === body.providerId &&
      (body.accountId === undefined || a.account_id === body.accountId || a.id === body.accountId),
  );
  if (!account) throw new AuthApiError(400, "ACCOUNT_NOT_FOUND", "Account not found");
  return { provider: early ?? (await findProvider()), account, userId };
}

const iso = (ms: number | null) => (ms ? new Date(ms).toISOString() : undefined);

/**
 * SPEC §7: refresh-token answers what 1.3.34's refreshAccessToken makes of the token response: these
 * keys in this order, absent ones left out, scopes split on spaces, no account ids.
 */
function rawRefreshResult(fresh: TokenSet) {
  const raw = fresh.raw;
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    accessToken: text(raw.access_token),
    refreshToken: text(raw.refresh_token),
    tokenType: text(raw.token_type),
    scopes: text(raw.scope)?.split(" "),
    idToken: text(raw.id_token),
    accessTokenExpiresAt: raw.expires_in ? iso(fresh.accessTokenExpiresAt) : undefined,
  };
}

/** A valid access token, refreshed first when it expires within the threshold (SPEC §9: 5 s). */
async function validAccessToken(ctx: AuthContext, provider: Provider, account: AccountRow) {
  let accessToken = await dec(ctx, account.access_token);
  let expiresAt = account.access_token_expires_at;
  let idToken = await dec(ctx, account.id_token);
  let scopes = (account.scope ?? "").split(",").filter(Boolean);
  const refreshToken = await dec(ctx, account.refresh_token);
  const due =
    !accessToken ||
    (expiresAt !== null && expiresAt - ctx.now() < ctx.config.oauth.accessTokenRefreshThresholdMs);
  if (due && refreshToken && provider.refresh) {
    const fresh = await provider.refresh(refreshToken);
    await (await updateTokens(ctx, account.id, fresh)).run();
    accessToken = fresh.accessToken ?? accessToken;
    expiresAt = fresh.accessTokenExpiresAt;
    idToken = fresh.idToken ?? idToken;
    if (fresh.scopes.length) scopes = fresh.scopes;
  }
  if (!accessToken) throw E.ACCESS_TOKEN_NOT_FOUND();
  return { accessToken, expiresAt, idToken, scopes };
}

/** Server-side `auth.api.getAccessToken({ body })`: `userId`'s valid access token, never over HTTP. */
export async function serverAccessToken(ctx: AuthContext, body: z.input<typeof tokenBody>) {
  const parsed = tokenBody.safeParse(body);
  if (!parsed.success) throw new AuthApiError(400, "VALIDATION_ERROR", "Invalid body parameters");
  const found = await accountFor(ctx, parsed.data, { overHttp: false });
  if (!found) throw E.USER_ID_OR_SESSION_REQUIRED();
  const t = await validAccessToken(ctx, found.provider, found.account);
  return {
    accessToken: t.accessToken,
    accessTokenExpiresAt: iso(t.expiresAt),
    scopes: t.scopes,
    idToken: t.idToken ?? undefined,
  };
}

export const getAccessToken: Handler = async (ctx) => {
  const body = await readBody(ctx, tokenBody);
  const found = await accountFor(ctx, body);
  if (!found) throw E.UNAUTHORIZED();
  const { provider, account } = found;
  try {
    const t = await validAccessToken(ctx, provider, account);
    return ok(ctx, {
      accessToken: t.accessToken,
      accessTokenExpiresAt: iso(t.expiresAt),
      scopes: t.scopes,
      idToken: t.idToken ?? undefined,
    });
  } catch (error) {
    console.warn("get-access-token failed", String(error));
    throw FAILED_TO_GET_ACCESS_TOKEN();
  }
};

export const refreshToken: Handler = async (ctx) => {
  const body = await readBody(ctx, tokenBody);
  const found = await accountFor(ctx, body, { providerFirst: false });
  if (!found) throw E.UNAUTHORIZED();
  const { provider, account } = found;
  if (!provider.refresh) {
    throw new AuthApiError(
      400,
      "TOKEN_REFRESH_NOT_SUPPORTED",
      `Provider ${body.providerId} does not support token refreshing`,
    );
  }
  const stored = await dec(ctx, account.refresh_token);
  if (!stored) throw new AuthApiError(400, "REFRESH_TOKEN_NOT_FOUND", "Refresh token not found");
  try {
    const fresh = await provider.refresh(stored);
    await (await updateTokens(ctx, account.id, fresh)).run();
    return ok(ctx, rawRefreshResult(fresh));
  } catch (error) {
    console.warn("refresh-token failed", String(error));
    throw new AuthApiError(400, "FAILED_TO_REFRESH_ACCESS_TOKEN", "Failed to refresh access token");
  }
};

export const accountInfo: Handler = async (ctx) => {
  const loaded = await loadSession(ctx, { fresh: true });
  if (!loaded) throw new AuthApiError(401, "UNAUTHORIZED", "Unauthorized");
  const { accountId } = await readBody(ctx, z.object({ accountId: z.string().min(1) }));
  const account = (await userAccounts(ctx, loaded.user.id)).find(
    (a) => a.provider_id !== "credential" && (a.id === accountId || a.account_id === accountId),
  );
  if (!account) throw new AuthApiError(400, "ACCOUNT_NOT_FOUND", "Account not found");
  const provider = await getProvider(ctx, account.provider_id, redirectURIFor(ctx, account.provider_id));
  if (!provider) throw new AuthApiError(400, "PROVIDER_NOT_CONFIGURED", "Provider is not configured");
  // better-auth 1.3.34: no stored access token is 400 "Access token not found"; one that could not
  // be refreshed is get-access-token's 400.
  const t = await validAccessToken(ctx, provider, account).catch((error) => {
    if (error instanceof AuthApiError) throw error;
    console.warn("account-info token failed", String(error));
    throw FAILED_TO_GET_ACCESS_TOKEN();
  });
  let info: Awaited<ReturnType<Provider["userInfo"]>> = null;
  try {
    const claims = t.idToken ? (decodeJwt(t.idToken) as Record<string, unknown>) : null;
    info = await provider.userInfo(
      {
        accessToken: t.accessToken,
        refreshToken: null,
        idToken: t.idToken ?? null,
        accessTokenExpiresAt: t.expiresAt ?? null,
        refreshTokenExpiresAt: null,
        scopes: t.scopes,
        raw: {},
      },
      claims,
    );
  } catch (error) {
    console.warn("account-info failed", String(error));
  }
  if (!info) throw new AuthApiError(400, "FAILED_TO_GET_USER_INFO", "Failed to get user info");
  const u = info.user;
  return ok(ctx, {
    user: {
      id: u.id,
      name: u.name,
      email: u.email,
      image: u.image ?? undefined,
      emailVerified: u.emailVerified,
    },
    data: info.data,
  });
};

export const socialProviders: Handler = async (ctx) => ok(ctx, enabledProviders(ctx));
