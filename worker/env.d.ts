/** The Worker's bindings and vars, on the global `Cloudflare.Env` so "cloudflare:workers"' env is typed. */
declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database;
      KV: KVNamespace;
      /** The static assets (wrangler.toml [assets]): the portal's files, the receipts' fonts. */
      ASSETS: Fetcher;
      /** HMAC/AES key material for cookies and stored tokens. `npm run dev` writes one to .dev.vars. */
      AUTH_SECRET: string;
      APP_URL?: string;
      ENVIRONMENT?: string;
      /** Tests only: the moment the Worker's clock starts at (worker/lib/shifted-clock.ts). */
      TEST_TODAY?: string;
      MAIL_TRANSPORT?: string;
      MAIL_FROM?: string;
      MAIL_HTTP_ENDPOINT?: string;
      MAIL_HTTP_TOKEN?: string;
      TRUSTED_ORIGINS?: string;
      /** "false" stops the one-line-per-request log (worker/lib/request-log.ts); errors still log. */
      LOG_REQUESTS?: string;
      ADMIN_USER_IDS?: string;
      /** JSON {"<organization id>": "DB_EU"}: data kept in another [[d1_databases]] (docs/scaling.md). */
      ORGANIZATION_DATABASES?: string;
      /** The API limiter's Rate Limiting bindings (wrangler.toml [[ratelimits]], decision 018). */
      API_RATE_LIMITER?: RateLimit;
      EXPORT_RATE_LIMITER?: RateLimit;
      WEBHOOK_RATE_LIMITER?: RateLimit;
      /** HMAC key of POST /api/webhooks/donations (a secret). */
      WEBHOOK_SECRET?: string;
      /**
       * Social sign-in (README): `<ID>_CLIENT_ID` and `<ID>_CLIENT_SECRET` enable a provider; its
       * `<ID>_ISSUER` (ignored in production) and other knobs: app.config.ts `social.providers`.
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
