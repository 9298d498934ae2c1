/**
 * Almoner's application policy: every constant of SPEC §9 and every number DESIGN.md fixes, once,
 * with its default. The Worker overrides any leaf through a var of the same name in
 * SCREAMING_SNAKE_CASE (`session.expiresIn` → `SESSION_EXPIRES_IN`; arrays are comma-separated),
 * and the result is validated with zod when the Worker starts. The browser bundle imports the
 * defaults only (it cannot see Worker vars), which is all it needs: query policy and list sizes.
 *
 * See docs/decisions/003-app-config-as-policy.md.
 */
import { z } from "zod";

// Schemas are built in /* @__PURE__ */ closures so a bundle that imports only `defaultConfig`
// (the browser's query client) tree-shakes zod away.
const seconds = /* @__PURE__ */ (() => z.number().int().nonnegative())();

/** SPEC §7: the supported social providers, in the spec's order. */
export const SOCIAL_PROVIDER_IDS = [
  "apple",
  "atlassian",
  "cognito",
  "discord",
  "facebook",
  "figma",
  "github",
  "microsoft",
  "google",
  "huggingface",
  "slack",
  "spotify",
  "twitch",
  "twitter",
  "dropbox",
  "kick",
  "linear",
  "linkedin",
  "gitlab",
  "tiktok",
  "reddit",
  "roblox",
  "salesforce",
  "vk",
  "zoom",
  "notion",
  "kakao",
  "naver",
  "line",
  "paypal",
] as const;
export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number];

/**
 * One provider's settings. It is enabled when both clientId and clientSecret are set (Worker
 * vars/secrets `GOOGLE_CLIENT_ID` + `GOOGLE_CLIENT_SECRET`, …). `issuer` (`GOOGLE_ISSUER`) points the
 * provider at another OpenID issuer (discovery) and is honoured only outside production: tests and
 * the dev server use it. `domain`, `tenant`, `region`, `userPoolId` are the provider's own knobs
 * (GitLab base URL, Cognito domain/region/pool, Microsoft tenant, Salesforce login domain).
 */
const socialProviderSchema = /* @__PURE__ */ (() =>
  z.object({
    clientId: z.string(),
    clientSecret: z.string(),
    issuer: z.string(),
    domain: z.string(),
    tenant: z.string(),
    region: z.string(),
    userPoolId: z.string(),
  }))();
const emptyProvider = {
  clientId: "",
  clientSecret: "",
  issuer: "",
  domain: "",
  tenant: "",
  region: "",
  userPoolId: "",
};
const positive = /* @__PURE__ */ (() => z.number().int().positive())();

export const appConfigSchema = /* @__PURE__ */ (() =>
  z.object({
    app: z.object({
      name: z.string().min(1),
      /** Absolute origin of the portal; links in mail are built on it. */
      url: z.url(),
      /** "development" | "test" | "production"; rate limits and secure cookies key off it. */
      environment: z.enum(["development", "test", "production"]),
    }),
    auth: z.object({
      basePath: z.string().startsWith("/"),
      /** SPEC §9: default redirect after login. */
      defaultRedirect: z.string().startsWith("/"),
      /** Extra trusted origins for callback/redirect URLs (the app URL is always trusted). */
      trustedOrigins: z.array(z.string()),
      /** SPEC §6: a configured list of admin user ids holds every permission. */
      adminUserIds: z.array(z.string()),
    }),
    features: z.object({
      emailAndPassword: z.boolean(),
      signUp: z.boolean(),
      resetPassword: z.boolean(),
      verificationEmail: z.boolean(),
      deleteUser: z.boolean(),
      changeEmail: z.boolean(),
      accountLinking: z.boolean(),
      /** Linking a provider whose e-mail differs from the user's. */
      allowDifferentEmails: z.boolean(),
      allowUnlinkingAll: z.boolean(),
      revokeSessionsOnPasswordReset: z.boolean(),
      /**
       * better-auth's emailAndPassword.requireEmailVerification: an unverified user cannot sign in
       * with a password (403 "Email not verified", SPEC §8) and sign-up starts no session.
       */
      requireEmailVerification: z.boolean(),
    }),
    password: z.object({
      /** better-auth's defaults; ASVS 6.2.9 asks to allow at least 64. */
      minLength: positive,
      maxLength: positive,
    }),
    session: z.object({
      /** DESIGN §2: 7 days. */
      expiresIn: seconds,
      /** Slide the expiry at most once a day. */
      updateAge: seconds,
      /** Sensitive actions need a session younger than this; 0 disables the check. */
      freshAge: seconds,
      /** rememberMe:false sessions live one day and are never slid. */
      dontRememberExpiresIn: seconds,
      /** Impersonation sessions: 1 h hard cap, never extended. */
      impersonationExpiresIn: seconds,
    }),
    cookie: z.object({
      /** SPEC §9: default cookie-cache life 60 s. */
      cacheMaxAge: seconds,
      /** SPEC §5: the cookie cache must stay below about 4093 characters. */
      cacheMaxLength: positive,
      /** SPEC §5: cookies live at most 400 days (browsers cap Max-Age there). */
      maxAgeCap: positive,
      prefix: z.string().min(1),
    }),
    tokens: z.object({
      /** SPEC §9: verification token lifetime default 3600 s. */
      verificationExpiresIn: seconds,
      /** SPEC §9: reset token 1 hour, 24 random characters. */
      resetPasswordExpiresIn: seconds,
      resetPasswordLength: positive,
      /** SPEC §9: delete-account token 32 characters [0-9a-z], about 24 h. */
      deleteAccountExpiresIn: seconds,
      deleteAccountLength: positive,
    }),
    oauth: z.object({
      /** SPEC §9: 32-character state id, 128-character PKCE verifier, valid 10 minutes. */
      stateLength: positive,
      codeVerifierLength: positive,
      stateExpiresIn: seconds,
      /** Apple and Cognito ID tokens older than this are refused. */
      idTokenMaxAge: seconds,
      /** Key-set fetch: 5 s timeout, 30 s cooldown after a failure, 10 min cache. */
      jwksFetchTimeoutMs: positive,
      jwksCooldownMs: positive,
      jwksCacheMaxAgeMs: positive,
      /** SPEC §9: profile photo size default 48 (Microsoft Graph). */
      profilePhotoSize: positive,
      /** Refresh an access token when it expires in under this many milliseconds. */
      accessTokenRefreshThresholdMs: positive,
      /** Minimum RSA modulus for signing keys. */
      rsaMinBits: positive,
    }),
    social: z.object({
      /** Providers whose e-mail is trusted for linking even when not marked verified (SPEC §5). */
      trustedProviders: z.array(z.string()),
      /** No new users through a provider (signup_disabled). */
      disableSignUp: z.boolean(),
      /** New users only when the request asks for it (requestSignUp: true). */
      disableImplicitSignUp: z.boolean(),
      providers: z.object(
        Object.fromEntries(SOCIAL_PROVIDER_IDS.map((id) => [id, socialProviderSchema])) as Record<
          SocialProviderId,
          typeof socialProviderSchema
        >,
      ),
    }),
    rateLimit: z.object({
      /**
       * Follows the environment unless RATE_LIMIT_ENABLED is set: on in production, off in
       * development and test (better-auth's `enabled ?? isProduction`); see loadConfig.
       */
      enabled: z.boolean(),
      /** Per address (IPv6 by /64) and path, better-auth's defaults. */
      window: positive,
      max: positive,
      /** sign-in, sign-up, change-password, change-email. */
      strictWindow: positive,
      strictMax: positive,
      /** reset and verification mails. */
      mailWindow: positive,
      mailMax: positive,
      /**
       * Sign-ins per account (the e-mail, trimmed and lower-cased) from all addresses together, so
       * rotating addresses does not reset the count (decision 018): 10 per 5 minutes lets a person
       * mistype a few times and caps guessing at 2 880 a day per account, while a locked-out owner
       * waits at most 5 minutes.
       */
      accountWindow: positive,
      accountMax: positive,
      /** Reset and verification mails per address from all clients: a mailbox is not flooded. */
      mailAccountWindow: positive,
      mailAccountMax: positive,
    }),
    query: z.object({
      /** SPEC §9: queries fresh for 5 minutes, kept 10 minutes. */
      staleTimeMs: seconds,
      gcTimeMs: seconds,
      refetchOnWindowFocus: z.boolean(),
      refetchOnReconnect: z.boolean(),
      /** Up to 3 retries with backoff 1 s doubling up to 30 s, never on 4xx. */
      retries: seconds,
      retryBaseDelayMs: positive,
      retryMaxDelayMs: positive,
      /** Mutations retry once after 1 s. */
      mutationRetries: seconds,
      mutationRetryDelayMs: positive,
    }),
    lists: z.object({
      defaultPageSize: positive,
      pageSizes: z.array(positive).min(1),
      maxPageSize: positive,
    }),
    money: z.object({
      /**
       * The platform's currency when an organization has none. One gift's floor and cap are not
       * policy here: both sides validate with them, and the browser cannot see Worker vars, so they
       * live once in worker/lib/currencies.ts (docs/decisions/019-shared-input-schemas.md).
       */
      defaultCurrency: z.string().length(3),
    }),
    organizations: z.object({
      invitationExpiresIn: seconds,
      /** How long an owner's offer of ownership stays open for the member it names (issue 53). */
      ownershipOfferExpiresIn: seconds,
      /**
       * How a signed-up person gets an organization of their own (decision 045): "open" creates it
       * at once, they its owner; "approval" sends a request that platform admins approve or decline;
       * "closed" offers neither (platform admins still create them). ORGANIZATIONS_CREATION.
       */
      creation: z.enum(["open", "approval", "closed"]),
      /** Whom a person without an organization writes to: named wherever the portal turns them away. */
      contactEmail: z.email(),
    }),
    donations: z.object({
      /** Pending donations older than this become abandoned (cron). */
      abandonAfterHours: positive,
      /** Webhook signatures older than this are replays. */
      webhookToleranceSeconds: positive,
      /**
       * Campaigns with at least this many counted gifts get analytics rollups of their own, built by
       * the cron (decision 037); below it campaign analytics reads the gifts, within its budget.
       */
      campaignRollupsFrom: positive,
    }),
    /**
     * Recurring plans (issue 24, decision 030): days a plan's expected gift may be late before the
     * cron marks it past due, and before it marks it lapsed (out of recurring revenue).
     */
    plans: z
      .object({ pastDueAfterDays: positive, lapsedAfterDays: positive })
      .refine((p) => p.lapsedAfterDays > p.pastDueAfterDays, "lapsedAfterDays must exceed pastDueAfterDays"),
    mail: z.object({
      transport: z.enum(["outbox", "http"]),
      from: z.string().min(3),
      /** `http` transport: a transactional-mail provider's JSON API endpoint. */
      httpEndpoint: z.string(),
    }),
  }))();

export type AppConfig = z.infer<typeof appConfigSchema>;

/**
 * SPEC §9's TanStack Query defaults. Its own constant so the browser's query client can import it
 * without the rest of the defaults (the whole object was ~1 KB gzip in the entry chunk).
 */
export const defaultQueryPolicy: AppConfig["query"] = {
  staleTimeMs: 5 * 60_000,
  gcTimeMs: 10 * 60_000,
  refetchOnWindowFocus: false,
  refetchOnReconnect: true,
  retries: 3,
  retryBaseDelayMs: 1000,
  retryMaxDelayMs: 30_000,
  mutationRetries: 1,
  mutationRetryDelayMs: 1000,
};

export const defaultConfig: AppConfig = {
  app: { name: "Almoner", url: "http://localhost:3000", environment: "development" },
  auth: { basePath: "/api/auth", defaultRedirect: "/dashboard", trustedOrigins: [], adminUserIds: [] },
  features: {
    emailAndPassword: true,
    signUp: true,
    resetPassword: true,
    verificationEmail: true,
    deleteUser: true,
    changeEmail: true,
    accountLinking: true,
    allowDifferentEmails: false,
    allowUnlinkingAll: false,
    revokeSessionsOnPasswordReset: true,
    requireEmailVerification: false,
  },
  password: { minLength: 8, maxLength: 128 },
  session: {
    expiresIn: 7 * 24 * 3600,
    updateAge: 24 * 3600,
    freshAge: 24 * 3600,
    dontRememberExpiresIn: 24 * 3600,
    impersonationExpiresIn: 3600,
  },
  cookie: { cacheMaxAge: 60, cacheMaxLength: 4093, maxAgeCap: 34_560_000, prefix: "better-auth" },
  tokens: {
    verificationExpiresIn: 3600,
    resetPasswordExpiresIn: 3600,
    resetPasswordLength: 24,
    deleteAccountExpiresIn: 24 * 3600,
    deleteAccountLength: 32,
  },
  oauth: {
    stateLength: 32,
    codeVerifierLength: 128,
    stateExpiresIn: 600,
    idTokenMaxAge: 3600,
    jwksFetchTimeoutMs: 5000,
    jwksCooldownMs: 30_000,
    jwksCacheMaxAgeMs: 600_000,
    profilePhotoSize: 48,
    accessTokenRefreshThresholdMs: 5000,
    rsaMinBits: 2048,
  },
  social: {
    trustedProviders: [],
    disableSignUp: false,
    disableImplicitSignUp: false,
    providers: Object.fromEntries(SOCIAL_PROVIDER_IDS.map((id) => [id, { ...emptyProvider }])) as Record<
      SocialProviderId,
      typeof emptyProvider
    >,
  },
  rateLimit: {
    // The development default; loadConfig turns it on for ENVIRONMENT=production.
    enabled: false,
    window: 10,
    max: 100,
    strictWindow: 10,
    strictMax: 3,
    mailWindow: 60,
    mailMax: 3,
    accountWindow: 300,
    accountMax: 10,
    mailAccountWindow: 900,
    mailAccountMax: 5,
  },
  query: defaultQueryPolicy,
  lists: { defaultPageSize: 25, pageSizes: [10, 25, 50, 100], maxPageSize: 100 },
  money: { defaultCurrency: "USD" },
  organizations: {
    invitationExpiresIn: 7 * 24 * 3600,
    ownershipOfferExpiresIn: 7 * 24 * 3600,
    creation: "open",
    contactEmail: "support@almoner.local",
  },
  donations: { abandonAfterHours: 72, webhookToleranceSeconds: 300, campaignRollupsFrom: 10_000 },
  plans: { pastDueAfterDays: 7, lapsedAfterDays: 60 },
  mail: { transport: "outbox", from: "Almoner <no-reply@almoner.local>", httpEndpoint: "" },
};

/** `session.expiresIn` → `SESSION_EXPIRES_IN`. */
export function envNameFor(path: string[]): string {
  return path.map((p) => p.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()).join("_");
}

function coerce(defaultValue: unknown, raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  if (typeof defaultValue === "number") return raw.trim() === "" ? Number.NaN : Number(raw);
  if (typeof defaultValue === "boolean") {
    if (/^(true|1|yes|on)$/i.test(raw)) return true;
    if (/^(false|0|no|off)$/i.test(raw)) return false;
    return raw;
  }
  if (Array.isArray(defaultValue)) {
    const items = raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    return typeof defaultValue[0] === "number" ? items.map(Number) : items;
  }
  return raw;
}

function overlay(defaults: Record<string, unknown>, vars: Record<string, unknown>, path: string[]) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) {
    const here = [...path, key];
    if (value && typeof value === "object" && !Array.isArray(value)) {
      out[key] = overlay(value as Record<string, unknown>, vars, here);
      continue;
    }
    const name = envNameFor(here);
    out[key] = name in vars && vars[name] !== undefined ? coerce(value, vars[name]) : value;
  }
  return out;
}

/** Short aliases kept for the vars people expect to set by hand. */
const aliases: Record<string, string> = {
  APP_URL: "APP_URL",
  ENVIRONMENT: "APP_ENVIRONMENT",
  TRUSTED_ORIGINS: "AUTH_TRUSTED_ORIGINS",
  ADMIN_USER_IDS: "AUTH_ADMIN_USER_IDS",
  MAIL_TRANSPORT: "MAIL_TRANSPORT",
  MAIL_FROM: "MAIL_FROM",
  MAIL_HTTP_ENDPOINT: "MAIL_HTTP_ENDPOINT",
  SOCIAL_TRUSTED_PROVIDERS: "SOCIAL_TRUSTED_PROVIDERS",
  // GOOGLE_CLIENT_ID → SOCIAL_PROVIDERS_GOOGLE_CLIENT_ID, and so on for every provider and knob.
  ...Object.fromEntries(
    SOCIAL_PROVIDER_IDS.flatMap((id) =>
      Object.keys(emptyProvider).map((knob) => [
        envNameFor([id, knob]),
        envNameFor(["social", "providers", id, knob]),
      ]),
    ),
  ),
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Builds and validates the policy from Worker vars; throws ConfigError naming each bad var. */
export function loadConfig(vars: Record<string, unknown> = {}): AppConfig {
  const expanded: Record<string, unknown> = { ...vars };
  for (const [alias, name] of Object.entries(aliases)) {
    if (vars[alias] !== undefined && vars[name] === undefined) expanded[name] = vars[alias];
  }
  const candidate = overlay(defaultConfig as unknown as Record<string, unknown>, expanded, []);
  const parsed = appConfigSchema.safeParse(candidate);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `${envNameFor(i.path.map(String))}: ${i.message}`)
      .join("; ");
    throw new ConfigError(`Invalid configuration: ${detail}`);
  }
  // Rate limits follow the environment (on in production) unless the var says otherwise.
  if (expanded.RATE_LIMIT_ENABLED === undefined) {
    parsed.data.rateLimit.enabled = parsed.data.app.environment === "production";
  }
  if (parsed.data.password.minLength > parsed.data.password.maxLength) {
    throw new ConfigError("Invalid configuration: PASSWORD_MIN_LENGTH exceeds PASSWORD_MAX_LENGTH");
  }
  if (parsed.data.cookie.maxAgeCap > defaultConfig.cookie.maxAgeCap) {
    throw new ConfigError("Invalid configuration: COOKIE_MAX_AGE_CAP above 400 days");
  }
  return parsed.data;
}
