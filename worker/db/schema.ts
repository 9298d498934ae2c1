// D1 schema: instants UTC epoch ms, money integer minor units, booleans 0/1. Tables follow better-auth's
// (user, session, account, verification), but session tokens are stored hashed and encrypted (DESIGN §2).
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const timestamps = {
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
};

export const user = sqliteTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** Always lower-cased before it is written or looked up. */
    email: text("email").notNull(),
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    image: text("image"),
    /** admin | organizer | user, or several joined by commas. */
    role: text("role").notNull().default("user"),
    banned: integer("banned", { mode: "boolean" }).notNull().default(false),
    banReason: text("ban_reason"),
    banExpires: integer("ban_expires", { mode: "timestamp_ms" }),
    /** The organization the portal opens on for users with several memberships. */
    activeOrganizationId: text("active_organization_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("user_email_unique").on(t.email),
    index("user_created_at_idx").on(t.createdAt),
    check("user_email_lower", sql`${t.email} = lower(${t.email})`),
    check("user_role_not_empty", sql`length(${t.role}) > 0`),
  ],
);

export const session = sqliteTable(
  "session",
  {
    id: text("id").primaryKey(),
    /** Hex SHA-256 of the token: the lookup key. A leaked table yields no usable cookie. */
    tokenHash: text("token_hash").notNull(),
    /** The token, AES-GCM encrypted under a key derived from AUTH_SECRET (the contract hands tokens back). */
    tokenEnc: text("token_enc").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** Non-null while an admin impersonates: the admin's user id. */
    impersonatedBy: text("impersonated_by"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("session_token_hash_unique").on(t.tokenHash),
    index("session_user_idx").on(t.userId),
    index("session_expires_idx").on(t.expiresAt),
  ],
);

export const account = sqliteTable(
  "account",
  {
    id: text("id").primaryKey(),
    /** The provider's id for the user; for "credential" it is the user id. */
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: integer("access_token_expires_at", { mode: "timestamp_ms" }),
    refreshTokenExpiresAt: integer("refresh_token_expires_at", { mode: "timestamp_ms" }),
    scope: text("scope"),
    /** scrypt "saltHex:keyHex", only on the "credential" account. */
    password: text("password"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("account_provider_account_unique").on(t.providerId, t.accountId),
    index("account_user_idx").on(t.userId),
  ],
);

export const verification = sqliteTable(
  "verification",
  {
    id: text("id").primaryKey(),
    /** "<purpose>:<sha256 of the token>" for mailed tokens; "oauth-state:<state>" for OAuth. */
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("verification_identifier_unique").on(t.identifier),
    index("verification_expires_idx").on(t.expiresAt),
  ],
);

export const organization = sqliteTable(
  "organization",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    legalName: text("legal_name"),
    /** nonprofit | charity | foundation | community_group | school | religious | other */
    type: text("type").notNull().default("nonprofit"),
    registrationId: text("registration_id"),
    taxId: text("tax_id"),
    country: text("country"),
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2"),
    city: text("city"),
    region: text("region"),
    postalCode: text("postal_code"),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    website: text("website"),
    mission: text("mission"),
    description: text("description"),
    logoUrl: text("logo_url"),
    defaultCurrency: text("default_currency").notNull().default("USD"),
    timeZone: text("time_zone").notNull().default("UTC"),
    fiscalYearStartMonth: integer("fiscal_year_start_month").notNull().default(1),
    /** pending_verification → active ⇄ suspended → archived */
    status: text("status").notNull().default("active"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("organization_slug_unique").on(t.slug),
    check(
      "organization_status_valid",
      sql`${t.status} in ('pending_verification','active','suspended','archived')`,
    ),
    check("organization_fiscal_month", sql`${t.fiscalYearStartMonth} between 1 and 12`),
    check("organization_currency_len", sql`length(${t.defaultCurrency}) = 3`),
  ],
);

export const membership = sqliteTable(
  "membership",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** owner | admin | organizer | viewer */
    role: text("role").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("membership_org_user_unique").on(t.organizationId, t.userId),
    index("membership_user_idx").on(t.userId),
    check("membership_role_valid", sql`${t.role} in ('owner','admin','organizer','viewer')`),
  ],
);

/** Fixed-window counters for the auth rate limiter; incremented atomically in one statement. */
export const rateLimit = sqliteTable("rate_limit", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStart: integer("window_start").notNull(),
});

/** The dev/test mail transport: messages land here and GET /api/dev/outbox lists them. */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    url: text("url"),
    /** JSON [{ filename, contentType, content (base64) }]: receipts and statements as PDFs. */
    attachments: text("attachments"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("mail_outbox_to_idx").on(t.to, t.createdAt)],
);
export * from "./domain";
export * from "./lifecycle";
