/**
 * The 30 social providers of SPEC §7 (decision 009), one table entry each: arctic 3.7's class where it
 * has the provider; apple (arctic wants a signing key, not a client secret), huggingface and paypal
 * through the generic OAuth 2.0 / OpenID Connect client.
 */
import * as arctic from "arctic";
import type { SocialProviderId } from "../../../app.config";

export interface ProviderCreds {
  clientId: string;
  clientSecret: string;
  redirectURI: string;
  domain: string;
  tenant: string;
  region: string;
  userPoolId: string;
}

/** The subset of arctic's provider classes we call. Methods differ in whether they take a verifier. */
export interface ArcticLike {
  createAuthorizationURL(...args: unknown[]): URL;
  validateAuthorizationCode(...args: unknown[]): Promise<arctic.OAuth2Tokens>;
  refreshAccessToken?(...args: unknown[]): Promise<arctic.OAuth2Tokens>;
}

/** What we keep of a provider's profile (better-auth's OAuth2UserInfo). */
export interface SocialUserInfo {
  id: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
  image: string | null;
}

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
const idOf = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");

/** How the profile is read: an HTTP call with the access token, the ID token, or both. */
interface ProfileSource {
  url: (c: ProviderCreds) => string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export interface ProviderSpec {
  id: SocialProviderId;
  name: string;
  /** Builds arctic's class; null when the provider needs a knob that is not configured. */
  arctic?: (c: ProviderCreds) => ArcticLike;
  /** Whether arctic's methods take a PKCE code verifier (the generic client always sends one). */
  arcticPkce?: boolean;
  /** Generic client endpoints (used when there is no arctic class). */
  authorizationEndpoint?: (c: ProviderCreds) => string;
  tokenEndpoint?: (c: ProviderCreds) => string;
  scopes: string[];
  /** Extra authorization parameters. */
  authParams?: Record<string, string>;
  profile?: ProfileSource;
  /** Key set for ID tokens: providers with one accept ID-token sign-in. */
  jwksUri?: (c: ProviderCreds) => string;
  issuer?: (c: ProviderCreds) => string | null;
  /** SPEC §9: Apple and Cognito refuse ID tokens older than idTokenMaxAge. */
  idTokenMaxAge?: boolean;
  /** raw = profile response merged over the ID token's claims; tokens = the token response. */
  map: (raw: Json, tokens: Json, c: ProviderCreds) => SocialUserInfo | null;
}

/** Standard OpenID Connect claims. */
export function mapOidc(raw: Json): SocialUserInfo | null {
  const id = idOf(raw.sub);
  if (!id) return null;
  return {
    id,
    email: str(raw.email)?.toLowerCase() ?? null,
    emailVerified: raw.email_verified === true || raw.email_verified === "true",
    name: str(raw.name) ?? str(raw.preferred_username) ?? str(raw.nickname) ?? "",
    image: str(raw.picture),
  };
}

const gitlabBase = (c: ProviderCreds) => (c.domain || "https://gitlab.com").replace(/\/$/, "");
const cognitoIssuer = (c: ProviderCreds) =>
  c.region && c.userPoolId ? `https://cognito-idp.${c.region}.amazonaws.com/${c.userPoolId}` : null;
const salesforceDomain = (c: ProviderCreds) => c.domain || "login.salesforce.com";
const tenant = (c: ProviderCreds) => c.tenant || "common";

export const PROVIDERS: Record<SocialProviderId, ProviderSpec> = {
  apple: {
    id: "apple",
    name: "Apple",
    // clientSecret is the ES256 client-secret JWT Apple asks for (as better-auth expects it).
    authorizationEndpoint: () => "https://appleid.apple.com/auth/authorize",
    tokenEndpoint: () => "https://appleid.apple.com/auth/token",
    scopes: ["email", "name"],
    authParams: { response_mode: "form_post" },
    jwksUri: () => "https://appleid.apple.com/auth/keys",
    issuer: () => "https://appleid.apple.com",
    idTokenMaxAge: true,
    map: (raw) => {
      const base = mapOidc(raw);
      if (!base) return null;
      const user = raw.user as { name?: { firstName?: string; lastName?: string } } | undefined;
      const name = [user?.name?.firstName, user?.name?.lastName].filter(Boolean).join(" ");
      return { ...base, name: name || base.name || (base.email?.split("@")[0] ?? ""), image: null };
    },
  },
  atlassian: {
    id: "atlassian",
    name: "Atlassian",
    arctic: (c) => new arctic.Atlassian(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["read:jira-user", "offline_access"],
    authParams: { audience: "api.atlassian.com", prompt: "consent" },
    profile: { url: () => "https://api.atlassian.com/me" },
    map: (raw) =>
      raw.account_id
        ? {
            id: idOf(raw.account_id),
            email: str(raw.email),
            emailVerified: raw.email_verified === true,
            name: str(raw.name) ?? str(raw.nickname) ?? "",
            image: str(raw.picture),
          }
        : null,
  },
  cognito: {
    id: "cognito",
    name: "Amazon Cognito",
    arctic: (c) => new arctic.AmazonCognito(c.domain, c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["openid", "profile", "email"],
    profile: { url: (c) => `https://${c.domain}/oauth2/userInfo` },
    jwksUri: (c) => `${cognitoIssuer(c)}/.well-known/jwks.json`,
    issuer: cognitoIssuer,
    idTokenMaxAge: true,
    map: (raw) => mapOidc(raw),
  },
  discord: {
    id: "discord",
    name: "Discord",
    arctic: (c) => new arctic.Discord(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["identify", "email"],
    profile: { url: () => "https://discord.com/api/users/@me" },
    map: (raw) =>
      raw.id
        ? {
            id: idOf(raw.id),
            email: str(raw.email),
            emailVerified: raw.verified === true,
            name: str(raw.global_name) ?? str(raw.username) ?? "",
            image: raw.avatar
              ? `https://cdn.discordapp.com/avatars/${idOf(raw.id)}/${String(raw.avatar)}.png`
              : null,
          }
        : null,
  },
  facebook: {
    id: "facebook",
    name: "Facebook",
    arctic: (c) => new arctic.Facebook(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["email", "public_profile"],
    profile: { url: () => "https://graph.facebook.com/me?fields=id,name,email,picture" },
    // Limited Login ID tokens.
    jwksUri: () => "https://limited.facebook.com/.well-known/oauth/openid/jwks/",
    issuer: () => "https://www.facebook.com",
    map: (raw) => {
      const id = idOf(raw.id ?? raw.sub);
      if (!id) return null;
      const pic = raw.picture as { data?: { url?: string } } | string | undefined;
      return {
        id,
        email: str(raw.email),
        // Facebook only returns confirmed addresses.
        emailVerified: !!str(raw.email),
        name: str(raw.name) ?? "",
        image: typeof pic === "string" ? pic : (pic?.data?.url ?? null),
      };
    },
  },
  figma: {
    id: "figma",
    name: "Figma",
    arctic: (c) => new arctic.Figma(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["file_read"],
    profile: { url: () => "https://api.figma.com/v1/me" },
    map: (raw) =>
      raw.id
        ? {
            id: idOf(raw.id),
            email: str(raw.email),
            emailVerified: false,
            name: str(raw.handle) ?? "",
            image: str(raw.img_url),
          }
        : null,
  },
  github: {
    id: "github",
    name: "GitHub",
    arctic: (c) => new arctic.GitHub(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["read:user", "user:email"],
    profile: { url: () => "https://api.github.com/user" },
    map: (raw) =>
      raw.id
        ? {
            id: idOf(raw.id),
            email: str(raw.email),
            emailVerified: raw.__emailVerified === true,
            name: str(raw.name) ?? str(raw.login) ?? "",
            image: str(raw.avatar_url),
          }
        : null,
  },
  microsoft: {
    id: "microsoft",
    name: "Microsoft",
    arctic: (c) => new arctic.MicrosoftEntraId(tenant(c), c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["openid", "profile", "email", "User.Read", "offline_access"],
    jwksUri: (c) => `https://login.microsoftonline.com/${tenant(c)}/discovery/v2.0/keys`,
    map: (raw) => {
      const base = mapOidc(raw);
      // Entra ID addresses are verified by the directory (better-auth treats them so). The photo
      // comes from Graph at the configured size (client.ts microsoftPhoto).
      return base ? { ...base, emailVerified: !!base.email, image: str(raw.picture) } : null;
    },
  },
  google: {
    id: "google",
    name: "Google",
    arctic: (c) => new arctic.Google(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["openid", "email", "profile"],
    authParams: { include_granted_scopes: "true" },
    profile: { url: () => "https://openidconnect.googleapis.com/v1/userinfo" },
    jwksUri: () => "https://www.googleapis.com/oauth2/v3/certs",
    issuer: () => "https://accounts.google.com",
    map: (raw) => mapOidc(raw),
  },
  huggingface: {
    id: "huggingface",
    name: "Hugging Face",
    authorizationEndpoint: () => "https://huggingface.co/oauth/authorize",
    tokenEndpoint: () => "https://huggingface.co/oauth/token",
    scopes: ["openid", "profile", "email"],
    profile: { url: () => "https://huggingface.co/oauth/userinfo" },
    jwksUri: () => "https://huggingface.co/oauth/jwks",
    issuer: () => "https://huggingface.co",
    map: (raw) => mapOidc(raw),
  },
  slack: {
    id: "slack",
    name: "Slack",
    arctic: (c) => new arctic.Slack(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["openid", "profile", "email"],
    profile: { url: () => "https://slack.com/api/openid.connect.userInfo" },
    jwksUri: () => "https://slack.com/openid/connect/keys",
    issuer: () => "https://slack.com",
    map: (raw) => {
      const base = mapOidc({ ...raw, sub: raw["https://slack.com/user_id"] ?? raw.sub });
      return base ? { ...base, image: str(raw["https://slack.com/user_image_512"]) ?? base.image } : null;
    },
  },
  spotify: {
    id: "spotify",
    name: "Spotify",
    arctic: (c) => new arctic.Spotify(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["user-read-email"],
    profile: { url: () => "https://api.spotify.com/v1/me" },
    map: (raw) =>
      raw.id
        ? {
            id: idOf(raw.id),
            email: str(raw.email),
            emailVerified: false,
            name: str(raw.display_name) ?? "",
            image: (raw.images as { url?: string }[] | undefined)?.[0]?.url ?? null,
          }
        : null,
  },
  twitch: {
    id: "twitch",
    name: "Twitch",
    arctic: (c) => new arctic.Twitch(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["openid", "user:read:email"],
    authParams: {
      claims: JSON.stringify({
        id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
        userinfo: { email: null, email_verified: null, picture: null, preferred_username: null },
      }),
    },
    profile: { url: () => "https://id.twitch.tv/oauth2/userinfo" },
    jwksUri: () => "https://id.twitch.tv/oauth2/keys",
    issuer: () => "https://id.twitch.tv/oauth2",
    map: (raw) => mapOidc(raw),
  },
  twitter: {
    id: "twitter",
    name: "X (Twitter)",
    arctic: (c) => new arctic.Twitter(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["users.read", "tweet.read", "offline.access", "users.email"],
    profile: {
      url: () => "https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email",
    },
    map: (raw) => {
      const d = (raw.data ?? raw) as Json;
      return d.id
        ? {
            id: idOf(d.id),
            email: str(d.confirmed_email) ?? str(d.email),
            emailVerified: !!str(d.confirmed_email),
            name: str(d.name) ?? str(d.username) ?? "",
            image: str(d.profile_image_url),
          }
        : null;
    },
  },
  dropbox: {
    id: "dropbox",
    name: "Dropbox",
    arctic: (c) => new arctic.Dropbox(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["account_info.read"],
    authParams: { token_access_type: "offline" },
    profile: { url: () => "https://api.dropboxapi.com/2/users/get_current_account", method: "POST" },
    map: (raw) =>
      raw.account_id
        ? {
            id: idOf(raw.account_id),
            email: str(raw.email),
            emailVerified: raw.email_verified === true,
            name: str((raw.name as Json | undefined)?.display_name) ?? "",
            image: str(raw.profile_photo_url),
          }
        : null,
  },
  kick: {
    id: "kick",
    name: "Kick",
    arctic: (c) => new arctic.Kick(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["user:read"],
    profile: { url: () => "https://api.kick.com/public/v1/users" },
    map: (raw) => {
      const d = ((raw.data as Json[] | undefined)?.[0] ?? raw) as Json;
      return d.user_id
        ? {
            id: idOf(d.user_id),
            email: str(d.email),
            emailVerified: true,
            name: str(d.name) ?? "",
            image: str(d.profile_picture),
          }
        : null;
    },
  },
  linear: {
    id: "linear",
    name: "Linear",
    arctic: (c) => new arctic.Linear(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["read"],
    profile: {
      url: () => "https://api.linear.app/graphql",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "query { viewer { id name email avatarUrl active } }" }),
    },
    map: (raw) => {
      const v = ((raw.data as Json | undefined)?.viewer ?? raw) as Json;
      return v.id
        ? {
            id: idOf(v.id),
            email: str(v.email),
            emailVerified: false,
            name: str(v.name) ?? "",
            image: str(v.avatarUrl),
          }
        : null;
    },
  },
  linkedin: {
    id: "linkedin",
    name: "LinkedIn",
    arctic: (c) => new arctic.LinkedIn(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["profile", "email", "openid"],
    profile: { url: () => "https://api.linkedin.com/v2/userinfo" },
    map: (raw) => mapOidc(raw),
  },
  gitlab: {
    id: "gitlab",
    name: "GitLab",
    arctic: (c) => new arctic.GitLab(gitlabBase(c), c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["openid", "profile", "email", "read_user"],
    profile: { url: (c) => `${gitlabBase(c)}/oauth/userinfo` },
    jwksUri: (c) => `${gitlabBase(c)}/oauth/discovery/keys`,
    issuer: (c) => gitlabBase(c),
    map: (raw) => mapOidc(raw),
  },
  tiktok: {
    id: "tiktok",
    name: "TikTok",
    arctic: (c) => new arctic.TikTok(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["user.info.profile"],
    profile: {
      url: () =>
        "https://open.tiktokapis.com/v2/user/info/?fields=open_id,avatar_large_url,display_name,username",
    },
    map: (raw) => {
      const u = (((raw.data as Json | undefined)?.user ?? raw) as Json) ?? {};
      return u.open_id
        ? {
            id: idOf(u.open_id),
            // TikTok shares no e-mail address.
            email: null,
            emailVerified: false,
            name: str(u.display_name) ?? str(u.username) ?? "",
            image: str(u.avatar_large_url),
          }
        : null;
    },
  },
  reddit: {
    id: "reddit",
    name: "Reddit",
    arctic: (c) => new arctic.Reddit(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["identity"],
    authParams: { duration: "permanent" },
    profile: { url: () => "https://oauth.reddit.com/api/v1/me" },
    map: (raw) =>
      raw.id
        ? {
            id: idOf(raw.id),
            email: str(raw.email),
            emailVerified: raw.has_verified_email === true,
            name: str(raw.name) ?? "",
            image: str(raw.icon_img)?.split("?")[0] ?? null,
          }
        : null,
  },
  roblox: {
    id: "roblox",
    name: "Roblox",
    arctic: (c) => new arctic.Roblox(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["openid", "profile"],
    profile: { url: () => "https://apis.roblox.com/oauth/v1/userinfo" },
    jwksUri: () => "https://apis.roblox.com/oauth/v1/certs",
    issuer: () => "https://apis.roblox.com/oauth/",
    map: (raw) => mapOidc(raw),
  },
  salesforce: {
    id: "salesforce",
    name: "Salesforce",
    arctic: (c) => new arctic.Salesforce(salesforceDomain(c), c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["openid", "email", "profile"],
    profile: { url: (c) => `https://${salesforceDomain(c)}/services/oauth2/userinfo` },
    map: (raw) => {
      const base = mapOidc({ ...raw, sub: raw.user_id ?? raw.sub });
      return base ? { ...base, image: str((raw.photos as Json | undefined)?.picture) ?? base.image } : null;
    },
  },
  vk: {
    id: "vk",
    name: "VK",
    arctic: (c) => new arctic.VK(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["email"],
    profile: { url: () => "https://api.vk.com/method/users.get?fields=photo_100&v=5.199" },
    // VK hands the e-mail over with the token, not with the profile.
    map: (raw, tokens) => {
      const u = ((raw.response as Json[] | undefined)?.[0] ?? raw) as Json;
      return u.id
        ? {
            id: idOf(u.id),
            email: str(tokens.email),
            emailVerified: !!str(tokens.email),
            name: [str(u.first_name), str(u.last_name)].filter(Boolean).join(" "),
            image: str(u.photo_100),
          }
        : null;
    },
  },
  zoom: {
    id: "zoom",
    name: "Zoom",
    arctic: (c) => new arctic.Zoom(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: [],
    profile: { url: () => "https://api.zoom.us/v2/users/me" },
    map: (raw) =>
      raw.id
        ? {
            id: idOf(raw.id),
            email: str(raw.email),
            emailVerified: raw.verified === 1 || raw.verified === true,
            name:
              str(raw.display_name) ?? [str(raw.first_name), str(raw.last_name)].filter(Boolean).join(" "),
            image: str(raw.pic_url),
          }
        : null,
  },
  notion: {
    id: "notion",
    name: "Notion",
    arctic: (c) => new arctic.Notion(c.clientId, c.clientSecret, c.redirectURI),
    scopes: [],
    authParams: { owner: "user" },
    profile: { url: () => "https://api.notion.com/v1/users/me", headers: { "Notion-Version": "2022-06-28" } },
    // The token response names the authorizing user with their e-mail.
    map: (raw, tokens) => {
      const owner = ((tokens.owner as Json | undefined)?.user ?? raw.bot ?? raw) as Json;
      const person = (owner.person ?? {}) as Json;
      return owner.id
        ? {
            id: idOf(owner.id),
            email: str(person.email),
            emailVerified: false,
            name: str(owner.name) ?? "",
            image: str(owner.avatar_url),
          }
        : null;
    },
  },
  kakao: {
    id: "kakao",
    name: "Kakao",
    arctic: (c) => new arctic.Kakao(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["account_email", "profile_image", "profile_nickname"],
    profile: { url: () => "https://kapi.kakao.com/v2/user/me" },
    jwksUri: () => "https://kauth.kakao.com/.well-known/jwks.json",
    issuer: () => "https://kauth.kakao.com",
    map: (raw) => {
      if (raw.sub && !raw.id) return mapOidc(raw);
      const acc = (raw.kakao_account ?? {}) as Json;
      const prof = (acc.profile ?? {}) as Json;
      return raw.id
        ? {
            id: idOf(raw.id),
            email: str(acc.email),
            emailVerified: acc.is_email_valid === true && acc.is_email_verified === true,
            name: str(prof.nickname) ?? "",
            image: str(prof.profile_image_url),
          }
        : null;
    },
  },
  naver: {
    id: "naver",
    name: "Naver",
    arctic: (c) => new arctic.Naver(c.clientId, c.clientSecret, c.redirectURI),
    scopes: ["profile", "email"],
    profile: { url: () => "https://openapi.naver.com/v1/nid/me" },
    map: (raw) => {
      const r = (raw.response ?? raw) as Json;
      return r.id
        ? {
            id: idOf(r.id),
            email: str(r.email),
            emailVerified: false,
            name: str(r.name) ?? str(r.nickname) ?? "",
            image: str(r.profile_image),
          }
        : null;
    },
  },
  line: {
    id: "line",
    name: "LINE",
    arctic: (c) => new arctic.Line(c.clientId, c.clientSecret, c.redirectURI),
    arcticPkce: true,
    scopes: ["openid", "profile", "email"],
    profile: { url: () => "https://api.line.me/oauth2/v2.1/userinfo" },
    jwksUri: () => "https://api.line.me/oauth2/v2.1/certs",
    issuer: () => "https://access.line.me",
    map: (raw) => mapOidc(raw),
  },
  paypal: {
    id: "paypal",
    name: "PayPal",
    authorizationEndpoint: () => "https://www.paypal.com/signin/authorize",
    tokenEndpoint: () => "https://api-m.paypal.com/v1/oauth2/token",
    scopes: ["openid", "email", "profile"],
    profile: { url: () => "https://api-m.paypal.com/v1/identity/openidconnect/userinfo?schema=openid" },
    map: (raw) => {
      const base = mapOidc({ ...raw, sub: raw.user_id ?? raw.payer_id ?? raw.sub });
      const verified = raw.email_verified === true || raw.verified_account === true;
      return base ? { ...base, emailVerified: verified } : null;
    },
  },
};

/** Knobs a provider cannot work without (besides client id and secret). */
export function missingKnob(id: SocialProviderId, c: ProviderCreds): boolean {
  if (id === "cognito") return !c.domain;
  return false;
}
