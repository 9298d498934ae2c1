/**
 * Social sign-in for the screens (SPEC §7): which providers are enabled (GET /api/auth/social/providers,
 * so only configured ones show), starting a redirect sign-in or link, the linked accounts, unlinking,
 * and human messages for the callback's error codes (SPEC §8).
 */
import { queryOptions } from "@tanstack/react-query";
import { AUTH_BASE } from "./api";
import { AuthError } from "./types";

interface SocialProvider {
  id: string;
  name: string;
}

interface LinkedAccount {
  id: string;
  providerId: string;
  accountId: string;
  scopes: string[];
  createdAt: string;
}

async function call<T>(path: string, json?: unknown): Promise<T> {
  const res = await fetch(`${AUTH_BASE}${path}`, {
    method: json === undefined ? "GET" : "POST",
    credentials: "include",
    headers: json === undefined ? {} : { "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const body = (data ?? {}) as { code?: string; message?: string };
    throw new AuthError(body.code ?? `HTTP_${res.status}`, body.message ?? res.statusText, res.status);
  }
  return data as T;
}

export const socialProvidersQuery = () =>
  queryOptions({
    queryKey: ["auth", "social-providers"] as const,
    queryFn: () => call<SocialProvider[]>("/social/providers"),
    staleTime: 5 * 60_000,
  });

export const linkedAccountsQuery = () =>
  queryOptions({
    queryKey: ["auth", "accounts"] as const,
    queryFn: () => call<LinkedAccount[]>("/list-accounts"),
  });

/** Starts the provider's sign-in and leaves for its login page. */
export async function startSocialSignIn(provider: string, callbackURL: string, errorCallbackURL = "/login") {
  const { url } = await call<{ url: string }>("/sign-in/social", {
    provider,
    callbackURL,
    errorCallbackURL,
    disableRedirect: true,
  });
  window.location.assign(url);
}

/** Starts linking a provider to the signed-in user; comes back to /profile. */
export async function startLinkSocial(provider: string) {
  const { url } = await call<{ url: string }>("/link-social", {
    provider,
    callbackURL: "/profile",
    errorCallbackURL: "/profile",
    disableRedirect: true,
  });
  window.location.assign(url);
}

export const unlinkAccount = (providerId: string, accountId?: string) =>
  call<{ status: boolean }>("/unlink-account", { providerId, accountId });

/** SPEC §8 redirect error codes, in words. */
export function socialErrorMessage(code: string, description?: string | null): string {
  switch (code) {
    case "account_not_linked":
      return "An account with this e-mail already exists. Sign in with your password, then link the provider on your profile.";
    case "signup_disabled":
      return "There is no account for this e-mail, and new accounts cannot be created this way.";
    case "banned":
      return description || "You have been banned from this application.";
    case "access_denied":
      return "Sign-in was cancelled at the provider.";
    case "email_not_found":
      return "The provider did not share an e-mail address.";
    case "email_doesn't_match":
      return "That provider account uses a different e-mail address, so it was not linked.";
    case "account_already_linked_to_different_user":
      return "That provider account is already linked to another user.";
    case "unable_to_link_account":
      return "The provider account could not be linked (its e-mail is not verified).";
    case "please_restart_the_process":
    case "state_not_found":
      return "The sign-in took too long or was interrupted. Please start again.";
    default:
      return description ? `${description} (${code})` : `Signing in with the provider failed (${code}).`;
  }
}
