/**
 * The Worker's bindings and vars. Declared on the global `Cloudflare.Env` so that
 * `import { env } from "cloudflare:workers"` is typed everywhere (SSR, tRPC, tests).
 */
declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database;
      KV: KVNamespace;
      /**
       * The static assets (wrangler.toml [assets]): the portal's files and the fonts receipts embed
       * (public/fonts, worker/receipts/pdf/fonts.ts).
       */
      ASSETS: Fetcher;
      /** HMAC/AES key material for cookies and stored tokens. `npm run dev` writes one to .dev.vars. */
      AUTH_SECRET: string;
      APP_URL?: string;
      ENVIRONMENT?: string;
      MAIL_TRANSPORT?: string;
      MAIL_FROM?: string;
      MAIL_HTTP_ENDPOINT?: string;
      MAIL_HTTP_TOKEN?: string;
      TRUSTED_ORIGINS?: string;
      /** "false" stops the one-line-per-request log (worker/lib/request-log.ts); errors still log. */
      LOG_REQUESTS?: string;
      ADMIN_USER_IDS?: string;
      /**
       * Organizations whose data lives in a database other than DB, as JSON: {"<organization id>":
       * "DB_EU"}, each name a [[d1_databases]] binding (worker/db/databases.ts, docs/scaling.md).
       */
      ORGANIZATION_DATABASES?: string;
      /** The API limiter's Rate Limiting bindings (wrangler.toml [[ratelimits]], decision 018). */
      API_RATE_LIMITER?: RateLimit;
      EXPORT_RATE_LIMITER?: RateLimit;
      WEBHOOK_RATE_LIMITER?: RateLimit;
      /** HMAC key of POST /api/webhooks/donations (a secret). */
      WEBHOOK_SECRET?: string;
      /**
       * Social sign-in (README "Social sign-in"): a provider is enabled when both are set, e.g.
       * GOOGLE_CLIENT_ID + GOOGLE_CLIENT_SECRET (secrets). `<ID>_ISSUER` points a provider at another
       * OpenID issuer and is ignored in production; `<ID>_DOMAIN`/`_TENANT`/`_REGION`/`_USER_POOL_ID`
       * are provider knobs (app.config.ts `social.providers`).
       */
      GOOGLE_CLIENT_ID?: string;
      GOOGLE_CLIENT_SECRET?: string;
      SOCIAL_TRUSTED_PROVIDERS?: string;
      /** Any other policy override of app.config.ts (see envNameFor). */
      [key: string]: unknown;
    }
  }
  type Env = Cloudflare.Env;
}

export {};
