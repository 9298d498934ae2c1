// The business domain (DESIGN §4): every row carries organization_id and indexes lead with it. Triggers
// live in the migrations (same-org references, integer money, the analytics version of decision 011, the
// change token of decision 020); `npm run db:check` lists them and compares this one schema with them.
import { sql } from "drizzle-orm";
import {
  blob,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { organization, user } from "./schema";

const timestamps = {
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
};
const orgId = () =>
  text("organization_id")
    .notNull()
    .references(() => organization.id, { onDelete: "cascade" });

export const invitation = sqliteTable(
  "invitation",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    email: text("email").notNull(),
    role: text("role").notNull(),
    invitedBy: text("invited_by"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    /** Set by a revoke and by the invitee's decline alike: either closes the invitation. */
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    /** The invitee declined (revoked_at is set too): the link says "declined", not "withdrawn". */
    declinedAt: integer("declined_at", { mode: "timestamp_ms" }),
    /** SHA-256 (hex) of the mailed link's secret (decision 017); null on older rows. */
    secretHash: text("secret_hash"),
    ...timestamps,
  },
  (t) => [
    index("invitation_org_idx").on(t.organizationId, t.createdAt),
    uniqueIndex("invitation_secret_hash_unique").on(t.secretHash),
    check("invitation_role_valid", sql`${t.role} in ('owner','admin','organizer','viewer')`),
    check("invitation_email_lower", sql`${t.email} = lower(${t.email})`),
  ],
);

/** A request for a new organization when organizations.creation is "approval" (decision 045), until a
 * platform admin approves or declines it. One pending request per person; in the directory. */
export const organizationRequest = sqliteTable(
  "organization_request",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    country: text("country").notNull(),
    defaultCurrency: text("default_currency").notNull(),
    timeZone: text("time_zone").notNull(),
    fiscalYearStartMonth: integer("fiscal_year_start_month").notNull(),
    /** pending → approved | declined */
    status: text("status").notNull().default("pending"),
    /** The platform admin who decided, and why a decline (mailed to the person). */
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
    reason: text("reason"),
    organizationId: text("organization_id").references(() => organization.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("organization_request_one_pending").on(t.userId).where(sql`status = 'pending'`),
    index("organization_request_user_idx").on(t.userId, t.createdAt),
    index("organization_request_status_idx").on(t.status, t.createdAt),
    check("organization_request_status_valid", sql`${t.status} in ('pending','approved','declined')`),
    check(
      "organization_request_decided",
      sql`(${t.status} = 'pending') = (${t.decidedAt} IS NULL) AND (${t.status} <> 'declined' OR ${t.reason} IS NOT NULL)`,
    ),
    check("organization_request_fiscal_month", sql`${t.fiscalYearStartMonth} between 1 and 12`),
    check("organization_request_currency_len", sql`length(${t.defaultCurrency}) = 3`),
  ],
);

export const organizationBadge = sqliteTable(
  "organization_badge",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    badge: text("badge").notNull(),
    grantedBy: text("granted_by"),
    reason: text("reason"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    ...timestamps,
  },
  (t) => [
    index("organization_badge_org_idx").on(t.organizationId, t.badge),
    check(
      "organization_badge_known",
      sql`${t.badge} in ('verified_organization','registered_charity','transparent','top_fundraiser','goal_achiever')`,
    ),
  ],
);

export const campaign = sqliteTable(
  "campaign",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    shortDescription: text("short_description"),
    description: text("description"),
    coverUrl: text("cover_url"),
    currency: text("currency").notNull(),
    goalType: text("goal_type").notNull().default("none"),
    goalAmountMinor: integer("goal_amount_minor"),
    goalCount: integer("goal_count"),
    startAt: integer("start_at", { mode: "timestamp_ms" }),
    endAt: integer("end_at", { mode: "timestamp_ms" }),
    acceptAfterEnd: integer("accept_after_end", { mode: "boolean" }).notNull().default(false),
    completeOnGoal: integer("complete_on_goal", { mode: "boolean" }).notNull().default(false),
    suggestedAmounts: text("suggested_amounts").notNull().default("[]"),
    minAmountMinor: integer("min_amount_minor").notNull().default(100),
    maxAmountMinor: integer("max_amount_minor").notNull().default(99_999_999),
    allowRecurring: integer("allow_recurring", { mode: "boolean" }).notNull().default(true),
    visibility: text("visibility").notNull().default("public"),
    status: text("status").notNull().default("draft"),
    createdBy: text("created_by"),
    publishedAt: integer("published_at", { mode: "timestamp_ms" }),
    archivedAt: integer("archived_at", { mode: "timestamp_ms" }),
    /** The import that created the campaign (a donations file named it), for its undo. */
    importId: text("import_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("campaign_org_slug_unique").on(t.organizationId, t.slug),
    index("campaign_org_import_idx").on(t.organizationId, t.importId).where(sql`import_id IS NOT NULL`),
    index("campaign_org_status_idx").on(t.organizationId, t.status, t.createdAt),
    index("campaign_org_created_idx").on(t.organizationId, t.createdAt),
    check("campaign_status_valid", sql`${t.status} in ('draft','active','paused','completed','archived')`),
    check("campaign_goal_type_valid", sql`${t.goalType} in ('none','amount','donations','donors')`),
    check(
      "campaign_goal_positive",
      sql`(${t.goalType} = 'none') or (${t.goalType} = 'amount' and ${t.goalAmountMinor} > 0) or (${t.goalType} in ('donations','donors') and ${t.goalCount} > 0)`,
    ),
    check("campaign_title_len", sql`length(${t.title}) between 3 and 128`),
    check("campaign_currency_len", sql`length(${t.currency}) = 3`),
    check(
      "campaign_amount_range",
      sql`${t.minAmountMinor} >= 1 and ${t.maxAmountMinor} >= ${t.minAmountMinor}`,
    ),
    check("campaign_dates", sql`${t.endAt} is null or ${t.startAt} is null or ${t.endAt} > ${t.startAt}`),
    check("campaign_visibility_valid", sql`${t.visibility} in ('public','unlisted','private')`),
  ],
);

/** Old slugs keep redirecting to their campaign. */
export const campaignSlug = sqliteTable(
  "campaign_slug",
  {
    organizationId: orgId(),
    slug: text("slug").notNull(),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaign.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.slug] })],
);

export const campaignItem = sqliteTable(
  "campaign_item",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaign.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    imageUrl: text("image_url"),
    unitAmountMinor: integer("unit_amount_minor").notNull(),
    quantityNeeded: integer("quantity_needed"),
    allowOverfunding: integer("allow_overfunding", { mode: "boolean" }).notNull().default(true),
    sortOrder: integer("sort_order").notNull().default(0),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    archivedAt: integer("archived_at", { mode: "timestamp_ms" }),
    ...timestamps,
  },
  (t) => [
    index("campaign_item_campaign_idx").on(t.campaignId, t.sortOrder),
    check("campaign_item_unit_positive", sql`${t.unitAmountMinor} > 0`),
    check("campaign_item_quantity_positive", sql`${t.quantityNeeded} is null or ${t.quantityNeeded} > 0`),
    check("campaign_item_title_len", sql`length(${t.title}) between 1 and 128`),
  ],
);

export const donorTier = sqliteTable(
  "donor_tier",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    name: text("name").notNull(),
    basis: text("basis").notNull().default("lifetime"),
    minMinor: integer("min_minor").notNull(),
    maxMinor: integer("max_minor"),
    color: text("color").notNull().default("#64748b"),
    sortOrder: integer("sort_order").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index("donor_tier_org_idx").on(t.organizationId, t.minMinor),
    check("donor_tier_basis_valid", sql`${t.basis} in ('lifetime','rolling_12m')`),
    check(
      "donor_tier_range",
      sql`${t.minMinor} >= 0 and (${t.maxMinor} is null or ${t.maxMinor} > ${t.minMinor})`,
    ),
  ],
);

export const donor = sqliteTable(
  "donor",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    type: text("type").notNull().default("individual"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    company: text("company"),
    email: text("email"),
    phone: text("phone"),
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2"),
    city: text("city"),
    region: text("region"),
    postalCode: text("postal_code"),
    country: text("country"),
    emailOptIn: integer("email_opt_in", { mode: "boolean" }).notNull().default(false),
    phoneOptIn: integer("phone_opt_in", { mode: "boolean" }).notNull().default(false),
    mailOptIn: integer("mail_opt_in", { mode: "boolean" }).notNull().default(false),
    externalId: text("external_id"),
    anonymizedAt: integer("anonymized_at", { mode: "timestamp_ms" }),
    mergedIntoId: text("merged_into_id"),
    tierId: text("tier_id"),
    previousTierId: text("previous_tier_id"),
    tierLocked: integer("tier_locked", { mode: "boolean" }).notNull().default(false),
    lifetimeMinor: integer("lifetime_minor").notNull().default(0),
    donationCount: integer("donation_count").notNull().default(0),
    largestGiftMinor: integer("largest_gift_minor").notNull().default(0),
    firstGiftAt: integer("first_gift_at", { mode: "timestamp_ms" }),
    lastGiftAt: integer("last_gift_at", { mode: "timestamp_ms" }),
    createdBy: text("created_by"),
    /** The creating import and the row's key in it: a file imported twice creates its donors once. */
    importId: text("import_id"),
    importKey: text("import_key"),
    /** Uniform random in [0, 2^52), set once by a trigger (drizzle/0021): distinct-donor estimates sample the
     * smallest (core/analytics.ts estimateDistinct, decision 032). */
    sketch: integer("sketch"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("donor_org_email_unique").on(t.organizationId, t.email),
    uniqueIndex("donor_org_import_key_unique")
      .on(t.organizationId, t.importKey)
      .where(sql`import_key IS NOT NULL`),
    index("donor_org_import_idx").on(t.organizationId, t.importId).where(sql`import_id IS NOT NULL`),
    // Matching a file's donors (and the duplicate check) by name + postal code and by external id.
    index("donor_org_postal_idx").on(t.organizationId, t.postalCode).where(sql`postal_code IS NOT NULL`),
    index("donor_org_external_idx").on(t.organizationId, t.externalId).where(sql`external_id IS NOT NULL`),
    index("donor_org_name_idx").on(t.organizationId, t.lastName, t.firstName),
    index("donor_org_lifetime_idx").on(t.organizationId, t.lifetimeMinor),
    index("donor_org_last_gift_idx").on(t.organizationId, t.lastGiftAt),
    index("donor_org_created_idx").on(t.organizationId, t.createdAt),
    index("donor_org_tier_idx").on(t.organizationId, t.tierId),
    check("donor_type_valid", sql`${t.type} in ('individual','organization')`),
    check("donor_email_lower", sql`${t.email} is null or ${t.email} = lower(${t.email})`),
    check(
      "donor_has_name",
      sql`${t.anonymizedAt} is not null or coalesce(${t.firstName}, ${t.lastName}, ${t.company}, ${t.email}) is not null`,
    ),
    check("donor_stats_nonneg", sql`${t.lifetimeMinor} >= 0 and ${t.donationCount} >= 0`),
  ],
);

/** A donor's other addresses and numbers, kept by a merge so old ones still find the donor (decision 052).
 * An e-mail belongs to one donor of the organization, main or here: triggers (drizzle/0027) enforce it. */
export const donorContact = sqliteTable(
  "donor_contact",
  {
    organizationId: orgId(),
    donorId: text("donor_id")
      .notNull()
      .references(() => donor.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    /** The record merged into the donor that brought the address, if a merge did. */
    fromDonorId: text("from_donor_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.donorId, t.kind, t.value] }),
    uniqueIndex("donor_contact_org_email_unique").on(t.organizationId, t.value).where(sql`kind = 'email'`),
    check("donor_contact_kind_valid", sql`${t.kind} in ('email','phone')`),
    check("donor_contact_email_lower", sql`${t.kind} != 'email' or ${t.value} = lower(${t.value})`),
  ],
);

export const donorTag = sqliteTable(
  "donor_tag",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    name: text("name").notNull(),
    color: text("color").notNull().default("#0f766e"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("donor_tag_org_name_unique").on(t.organizationId, sql`lower(${t.name})`),
    check("donor_tag_name_len", sql`length(trim(${t.name})) between 1 and 40`),
  ],
);

export const donorTagAssignment = sqliteTable(
  "donor_tag_assignment",
  {
    donorId: text("donor_id")
      .notNull()
      .references(() => donor.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => donorTag.id, { onDelete: "cascade" }),
    organizationId: orgId(),
  },
  (t) => [
    primaryKey({ columns: [t.donorId, t.tagId] }),
    index("donor_tag_assignment_tag_idx").on(t.tagId, t.donorId),
  ],
);

export const donorNote = sqliteTable(
  "donor_note",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    donorId: text("donor_id")
      .notNull()
      .references(() => donor.id, { onDelete: "cascade" }),
    authorId: text("author_id"),
    body: text("body").notNull(),
    visibility: text("visibility").notNull().default("internal"),
    pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index("donor_note_donor_idx").on(t.donorId, t.createdAt),
    check("donor_note_body_len", sql`length(${t.body}) between 1 and 5000`),
    check("donor_note_visibility_valid", sql`${t.visibility} in ('internal','shared')`),
  ],
);

/** A recurring plan (decision 030) on core/plans.ts's machine, kept in the batch of each of its gifts; every
 * change is conditional on the change token read (decision 020) and writes its plan_event. */
export const recurringPlan = sqliteTable(
  "recurring_plan",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    donorId: text("donor_id").references(() => donor.id, { onDelete: "set null" }),
    campaignId: text("campaign_id").references(() => campaign.id, { onDelete: "set null" }),
    amountMinor: integer("amount_minor").notNull(),
    currency: text("currency").notNull(),
    interval: text("interval").notNull(),
    /** The day of the month gifts are due (the month's last day when it is shorter). */
    intervalDay: integer("interval_day").notNull(),
    status: text("status").notNull().default("active"),
    /** manual (entered in the portal), webhook (a processor's subscription), migration (drizzle/0016). */
    source: text("source").notNull().default("manual"),
    gateway: text("gateway"),
    gatewaySubscriptionId: text("gateway_subscription_id"),
    paymentMethod: text("payment_method"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    nextExpectedAt: integer("next_expected_at", { mode: "timestamp_ms" }),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    statusChangedAt: integer("status_changed_at", { mode: "timestamp_ms" }).notNull(),
    /** A paused plan's own end of the pause: the watch (worker/plans/cron.ts) resumes it then. */
    resumeAt: integer("resume_at", { mode: "timestamp_ms" }),
    giftCount: integer("gift_count").notNull().default(0),
    givenMinor: integer("given_minor").notNull().default(0),
    lastGiftAt: integer("last_gift_at", { mode: "timestamp_ms" }),
    /** Expected gifts that did not come since the last one (the cron counts them; a gift resets it). */
    missedCount: integer("missed_count").notNull().default(0),
    changeToken: text("change_token"),
    createdBy: text("created_by"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("recurring_plan_gateway_sub_unique")
      .on(t.organizationId, t.gatewaySubscriptionId)
      .where(sql`gateway_subscription_id IS NOT NULL`),
    index("recurring_plan_org_status_next_idx").on(t.organizationId, t.status, t.nextExpectedAt),
    // One index per sort of /recurring (worker/plans/queries.ts PLAN_SORTS), each ending in the status so a
    // status filter is checked inside the index: a page of 25 reads 25 rows (docs/performance.md).
    index("recurring_plan_org_risk_idx").on(
      t.organizationId,
      sql`(CASE ${t.status} WHEN 'past_due' THEN 0 WHEN 'lapsed' THEN 1 WHEN 'active' THEN 2 WHEN 'paused' THEN 3 ELSE 4 END)`,
      sql`(${t.nextExpectedAt} IS NULL)`,
      t.nextExpectedAt,
      t.status,
    ),
    index("recurring_plan_org_next_idx").on(
      t.organizationId,
      sql`(${t.nextExpectedAt} IS NULL)`,
      t.nextExpectedAt,
      t.status,
    ),
    index("recurring_plan_org_amount_idx").on(t.organizationId, t.amountMinor, t.status),
    index("recurring_plan_org_given_idx").on(t.organizationId, t.givenMinor, t.status),
    index("recurring_plan_org_created_idx").on(t.organizationId, t.createdAt, t.status),
    index("recurring_plan_donor_idx").on(t.donorId),
    index("recurring_plan_campaign_idx").on(t.campaignId),
    check("recurring_plan_amount_positive", sql`${t.amountMinor} > 0`),
    check("recurring_plan_currency_len", sql`length(${t.currency}) = 3`),
    check("recurring_plan_interval_valid", sql`${t.interval} in ('month','quarter','year')`),
    check("recurring_plan_day_valid", sql`${t.intervalDay} between 1 and 31`),
    check(
      "recurring_plan_status_valid",
      sql`${t.status} in ('active','past_due','lapsed','paused','cancelled','completed')`,
    ),
    check("recurring_plan_source_valid", sql`${t.source} in ('manual','webhook','migration','import')`),
    check(
      "recurring_plan_totals_nonneg",
      sql`${t.giftCount} >= 0 and ${t.givenMinor} >= 0 and ${t.missedCount} >= 0`,
    ),
  ],
);

export const donation = sqliteTable(
  "donation",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    number: integer("number").notNull(),
    donorId: text("donor_id").references(() => donor.id, { onDelete: "set null" }),
    campaignId: text("campaign_id").references(() => campaign.id, { onDelete: "set null" }),
    campaignItemId: text("campaign_item_id").references(() => campaignItem.id, { onDelete: "set null" }),
    itemQuantity: integer("item_quantity").notNull().default(0),
    amountMinor: integer("amount_minor").notNull(),
    feeCoveredMinor: integer("fee_covered_minor").notNull().default(0),
    processingFeeMinor: integer("processing_fee_minor").notNull().default(0),
    platformFeeMinor: integer("platform_fee_minor").notNull().default(0),
    refundedMinor: integer("refunded_minor").notNull().default(0),
    currency: text("currency").notNull(),
    status: text("status").notNull().default("pending"),
    frequency: text("frequency").notNull().default("one_time"),
    paymentMethod: text("payment_method").notNull().default("card"),
    /** What staff read off an offline gift: a check number, a transfer's reference (not a processor id). */
    paymentReference: text("payment_reference"),
    gateway: text("gateway"),
    gatewayTransactionId: text("gateway_transaction_id"),
    source: text("source").notNull().default("manual"),
    mode: text("mode").notNull().default("live"),
    anonymous: integer("anonymous", { mode: "boolean" }).notNull().default(false),
    message: text("message"),
    tributeType: text("tribute_type"),
    tributeName: text("tribute_name"),
    internalNote: text("internal_note"),
    donatedAt: integer("donated_at", { mode: "timestamp_ms" }).notNull(),
    trashedAt: integer("trashed_at", { mode: "timestamp_ms" }),
    createdBy: text("created_by"),
    /** Random per write: later statements of the batch apply only if this write won (decisions 006, 020);
     * the trigger donation_change_token_renewed (drizzle/0013) renews it on any other update. */
    changeToken: text("change_token"),
    /** The creating import and the row's key in it, unique per organization: a re-import creates nothing. */
    importId: text("import_id"),
    importKey: text("import_key"),
    /** The recurring plan the gift belongs to (decision 030). */
    planId: text("plan_id").references(() => recurringPlan.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("donation_org_number_unique").on(t.organizationId, t.number),
    index("donation_plan_idx").on(t.planId, t.donatedAt).where(sql`plan_id IS NOT NULL`),
    uniqueIndex("donation_org_import_key_unique")
      .on(t.organizationId, t.importKey)
      .where(sql`import_key IS NOT NULL`),
    index("donation_org_import_idx").on(t.organizationId, t.importId).where(sql`import_id IS NOT NULL`),
    uniqueIndex("donation_gateway_tx_unique").on(t.organizationId, t.gatewayTransactionId),
    index("donation_org_date_idx").on(
      t.organizationId,
      t.donatedAt,
      t.status,
      t.trashedAt,
      t.mode,
      t.currency,
      t.amountMinor,
      t.refundedMinor,
      t.id,
    ),
    index("donation_org_status_date_idx").on(
      t.organizationId,
      t.status,
      t.donatedAt,
      t.trashedAt,
      t.mode,
      t.currency,
      t.amountMinor,
      t.refundedMinor,
      t.id,
    ),
    index("donation_counted_idx")
      .on(
        t.organizationId,
        t.currency,
        t.donatedAt,
        t.amountMinor,
        t.refundedMinor,
        t.donorId,
        t.frequency,
        t.paymentMethod,
        t.status,
        t.mode,
        t.trashedAt,
      )
      .where(sql`status IN ('completed','partially_refunded') AND mode = 'live' AND trashed_at IS NULL`),
    // Gifts by amount with the list's index-only filters, so the amount window reads no rows (drizzle/0009).
    index("donation_org_amount_idx").on(
      t.organizationId,
      t.amountMinor,
      t.id,
      t.status,
      t.donatedAt,
      t.trashedAt,
      t.mode,
      t.currency,
    ),
    // A campaign's gifts in date order, covering its analytics, its stats recount and its rollups' build.
    index("donation_campaign_idx").on(
      t.campaignId,
      t.donatedAt,
      t.status,
      t.mode,
      t.trashedAt,
      t.currency,
      t.amountMinor,
      t.refundedMinor,
      t.donorId,
    ),
    // An item's gifts alone (what it funded, the overfunding check); gifts without an item write no entry.
    index("donation_item_idx")
      .on(t.campaignItemId, t.status, t.mode, t.trashedAt, t.itemQuantity, t.id)
      .where(sql`campaign_item_id IS NOT NULL`),
    index("donation_donor_idx").on(t.donorId, t.donatedAt),
    // Year-end statement runs walk the donors of imported gifts in id order (decision 048).
    index("donation_imported_donor_idx")
      .on(t.organizationId, t.donorId, t.donatedAt)
      .where(sql`source = 'import'`),
    check("donation_amount_positive", sql`${t.amountMinor} > 0`),
    check(
      "donation_money_nonneg",
      sql`${t.feeCoveredMinor} >= 0 and ${t.processingFeeMinor} >= 0 and ${t.platformFeeMinor} >= 0 and ${t.refundedMinor} >= 0`,
    ),
    check("donation_refund_le_amount", sql`${t.refundedMinor} <= ${t.amountMinor}`),
    check("donation_currency_len", sql`length(${t.currency}) = 3`),
    check(
      "donation_status_valid",
      sql`${t.status} in ('pending','processing','completed','failed','cancelled','abandoned','refunded','partially_refunded','disputed')`,
    ),
    check("donation_frequency_valid", sql`${t.frequency} in ('one_time','monthly','quarterly','annually')`),
    check("donation_mode_valid", sql`${t.mode} in ('live','test')`),
    check("donation_source_valid", sql`${t.source} in ('manual','online','import','webhook')`),
    check("donation_item_quantity", sql`${t.itemQuantity} >= 0`),
  ],
);

/** Append-only history of every change (DESIGN §4), written in the same batch as the change. */
export const auditEvent = sqliteTable(
  "audit_event",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id"),
    actorId: text("actor_id"),
    impersonatorId: text("impersonator_id"),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    before: text("before"),
    after: text("after"),
    reason: text("reason"),
    ip: text("ip"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("audit_event_entity_idx").on(t.organizationId, t.entityType, t.entityId, t.at)],
);

/** Rollups kept in the same batch as each donation change; rebuildable from donations. */
export const campaignStats = sqliteTable("campaign_stats", {
  campaignId: text("campaign_id")
    .primaryKey()
    .references(() => campaign.id, { onDelete: "cascade" }),
  organizationId: orgId(),
  raisedMinor: integer("raised_minor").notNull().default(0),
  donationCount: integer("donation_count").notNull().default(0),
  donorCount: integer("donor_count").notNull().default(0),
  refundedMinor: integer("refunded_minor").notNull().default(0),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

export const orgDaily = sqliteTable(
  "org_daily",
  {
    organizationId: orgId(),
    campaignId: text("campaign_id").notNull().default(""),
    day: text("day").notNull(),
    currency: text("currency").notNull(),
    raisedMinor: integer("raised_minor").notNull().default(0),
    donationCount: integer("donation_count").notNull().default(0),
    /** The part of raised_minor and donation_count given through recurring plans. */
    planRaisedMinor: integer("plan_raised_minor").notNull().default(0),
    planDonationCount: integer("plan_donation_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.campaignId, t.day, t.currency] }),
    index("org_daily_day_idx").on(t.organizationId, t.day),
  ],
);

/** Per-organization donation totals by currency, status, mode and trash (the unfiltered list). */
export const donationTotals = sqliteTable(
  "donation_totals",
  {
    organizationId: orgId(),
    currency: text("currency").notNull(),
    status: text("status").notNull(),
    mode: text("mode").notNull(),
    trashed: integer("trashed").notNull(),
    donationCount: integer("donation_count").notNull().default(0),
    amountMinor: integer("amount_minor").notNull().default(0),
    refundedMinor: integer("refunded_minor").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.currency, t.status, t.mode, t.trashed] }),
    check("donation_totals_trashed", sql`${t.trashed} IN (0, 1)`),
  ],
);

/** donation_totals by local day in the organization's zone; without a donation_daily_state row in that zone
 * the list totals count the donations (decision 013). */
export const donationDailyTotals = sqliteTable(
  "donation_daily_totals",
  {
    organizationId: orgId(),
    day: text("day").notNull(),
    currency: text("currency").notNull(),
    status: text("status").notNull(),
    mode: text("mode").notNull(),
    trashed: integer("trashed").notNull(),
    donationCount: integer("donation_count").notNull().default(0),
    amountMinor: integer("amount_minor").notNull().default(0),
    refundedMinor: integer("refunded_minor").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.day, t.currency, t.status, t.mode, t.trashed] }),
    check("donation_daily_totals_trashed", sql`${t.trashed} IN (0, 1)`),
    check("donation_daily_totals_day", sql`${t.day} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`),
  ],
);

export const donationDailyState = sqliteTable("donation_daily_state", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  timeZone: text("time_zone").notNull(),
});

/** A rebuild of the per-day rollups under way, in stretches of local days (decisions 038, 043). Gifts dated
 * before `built_until` are counted and kept by every change meanwhile; later ones are not. */
export const donationDailyBuild = sqliteTable("donation_daily_build", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  timeZone: text("time_zone").notNull(),
  /** 'YYYY-MM': the month of the first day not yet built ('' before the first batch), for people. */
  builtMonth: text("built_month").notNull(),
  /** The instant the first day not yet built starts in `time_zone` (ms; -2^53 + 1 before the first batch). */
  builtUntil: integer("built_until").notNull(),
  startedAt: integer("started_at").notNull(),
});

/** The columns of a facet rollup after its owner: analytics_facet's and campaign_facet's (decision 037). */
const facetColumns = () => ({
  currency: text("currency").notNull(),
  facet: text("facet").notNull(),
  grain: text("grain").notNull(),
  period: text("period").notNull(),
  key: text("key").notNull(),
  giftCount: integer("gift_count").notNull().default(0),
  amountMinor: integer("amount_minor").notNull().default(0),
});

/** The dashboard's breakdowns of counted gifts by local day ('d') and month ('m'): method, kind, net (amount
 * buckets, for the median), campaign, refund (decision 032). Kept under donation_daily_state. */
export const analyticsFacet = sqliteTable(
  "analytics_facet",
  { organizationId: orgId(), ...facetColumns() },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.currency, t.facet, t.grain, t.period, t.key] }),
    check("analytics_facet_grain", sql`${t.grain} IN ('d', 'm')`),
    check("analytics_facet_facet", sql`${t.facet} IN ('method', 'kind', 'net', 'campaign', 'refund')`),
  ],
);

/** Each donor's counted gifts per currency and local day or month, with the donor's sketch (decision 032);
 * rows exist only while gift_count > 0. The columns after the owner, shared with campaign_donor_period. */
const donorPeriodColumns = () => ({
  currency: text("currency").notNull(),
  grain: text("grain").notNull(),
  period: text("period").notNull(),
  donorId: text("donor_id").notNull(),
  sketch: integer("sketch").notNull(),
  giftCount: integer("gift_count").notNull().default(0),
  amountMinor: integer("amount_minor").notNull().default(0),
  oneTimeCount: integer("one_time_count").notNull().default(0),
});

type Col = ReturnType<typeof text> | ReturnType<typeof integer>;
/** A donor rollup's key and covering indexes: a sample and the top donors read only these (decision 032). */
function donorPeriodKeys(
  table: "donor_period" | "campaign_donor_period",
  owner: Col,
  t: Record<keyof ReturnType<typeof donorPeriodColumns>, Col>,
) {
  return [
    primaryKey({ columns: [owner, t.currency, t.grain, t.period, t.donorId] }),
    index(`${table}_sketch_idx`).on(
      owner,
      t.currency,
      t.grain,
      t.period,
      t.sketch,
      t.donorId,
      t.giftCount,
      t.oneTimeCount,
    ),
    index(`${table}_amount_idx`).on(owner, t.currency, t.grain, t.period, t.amountMinor, t.donorId),
    index(`${table}_donor_idx`).on(t.donorId),
    check(`${table}_grain`, sql`${t.grain} IN ('d', 'm')`),
  ];
}

export const donorPeriod = sqliteTable(
  "donor_period",
  { organizationId: orgId(), ...donorPeriodColumns() },
  (t) => donorPeriodKeys("donor_period", t.organizationId, t),
);

const campaignRef = () =>
  text("campaign_id")
    .notNull()
    .references(() => campaign.id, { onDelete: "cascade" });

/** A large campaign's rollups (decision 037, kept like the organization's of decision 032), built by the cron
 * (worker/ledger/campaign-rollups.ts) past campaignRollupsFrom counted gifts; a change applies its deltas
 * only while the row names the change's zone. Without it, campaign analytics reads the gifts. */
export const campaignRollupState = sqliteTable(
  "campaign_rollup_state",
  {
    campaignId: campaignRef().primaryKey(),
    organizationId: orgId(),
    timeZone: text("time_zone").notNull(),
    builtAt: integer("built_at").notNull(),
  },
  // A gift set asks once whether its organization has any built campaign (worker/ledger/rollups.ts).
  (t) => [index("campaign_rollup_state_org_idx").on(t.organizationId, t.timeZone)],
);

/** A large campaign's rollup build under way (decisions 038, 043), as donation_daily_build is. */
export const campaignRollupBuild = sqliteTable(
  "campaign_rollup_build",
  {
    campaignId: campaignRef().primaryKey(),
    organizationId: orgId(),
    timeZone: text("time_zone").notNull(),
    builtMonth: text("built_month").notNull(),
    builtUntil: integer("built_until").notNull(),
    startedAt: integer("started_at").notNull(),
  },
  // A gift set asks once whether its organization has any campaign built or being built.
  (t) => [index("campaign_rollup_build_org_idx").on(t.organizationId, t.timeZone)],
);

/** analytics_facet for one campaign (decision 037): net-amount buckets and refunds, by day and month. */
export const campaignFacet = sqliteTable(
  "campaign_facet",
  { campaignId: campaignRef(), ...facetColumns() },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.currency, t.facet, t.grain, t.period, t.key] }),
    check("campaign_facet_grain", sql`${t.grain} IN ('d', 'm')`),
    check("campaign_facet_facet", sql`${t.facet} IN ('net', 'refund')`),
  ],
);

/** donor_period for one campaign (decision 037): the same columns and indexes, by campaign. */
export const campaignDonorPeriod = sqliteTable(
  "campaign_donor_period",
  { campaignId: campaignRef(), ...donorPeriodColumns() },
  (t) => donorPeriodKeys("campaign_donor_period", t.campaignId, t),
);

/** core/analytics.ts AMOUNT_BUCKETS as a table: SQL rebuilds look a net amount's bucket up here. */
export const analyticsBucket = sqliteTable("analytics_bucket", {
  lo: integer("lo").primaryKey(),
  bucket: integer("bucket").notNull(),
});

/** Bumped by a trigger on every audited change of the organization: the dashboard cache's key. */
export const analyticsVersion = sqliteTable("analytics_version", {
  organizationId: text("organization_id").primaryKey(),
  version: integer("version").notNull().default(0),
});

export const orgCounter = sqliteTable(
  "org_counter",
  {
    organizationId: orgId(),
    name: text("name").notNull(),
    value: integer("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.name] })],
);

/** Uploaded images (decision 008): type, size and hash are set before the insert; rows never change. */
export const media = sqliteTable(
  "media",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    contentType: text("content_type").notNull(),
    byteSize: integer("byte_size").notNull(),
    sha256: text("sha256").notNull(),
    bytes: blob("bytes", { mode: "buffer" }).notNull(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("media_org_created_idx").on(t.organizationId, t.createdAt)],
);

/** A CSV import (decision 028): the file (by hash, to resume), its mapping and how far it got (`next_row`,
 * the header being row 1). Each batch moves `next_row` and the counts in the D1 batch of its rows. */
export const dataImport = sqliteTable(
  "data_import",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    kind: text("kind").notNull(),
    fileName: text("file_name").notNull(),
    fileHash: text("file_hash").notNull(),
    fileSize: integer("file_size").notNull(),
    /** Data rows in the file, as the browser counted them (for progress; the server trusts none of it). */
    totalRows: integer("total_rows").notNull(),
    headers: text("headers").notNull(),
    mapping: text("mapping").notNull(),
    options: text("options").notNull(),
    status: text("status").notNull().default("running"),
    nextRow: integer("next_row").notNull().default(2),
    /** Set by the statement claiming a batch; the batch's other statements apply only while it is set. */
    batchToken: text("batch_token"),
    donorsCreated: integer("donors_created").notNull().default(0),
    donorsUpdated: integer("donors_updated").notNull().default(0),
    donorsMatched: integer("donors_matched").notNull().default(0),
    giftsCreated: integer("gifts_created").notNull().default(0),
    campaignsCreated: integer("campaigns_created").notNull().default(0),
    rowsSkipped: integer("rows_skipped").notNull().default(0),
    rowsInvalid: integer("rows_invalid").notNull().default(0),
    createdBy: text("created_by"),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
    rolledBackAt: integer("rolled_back_at", { mode: "timestamp_ms" }),
    ...timestamps,
  },
  (t) => [
    index("data_import_org_created_idx").on(t.organizationId, t.createdAt),
    index("data_import_org_file_idx").on(t.organizationId, t.fileHash),
    check("data_import_kind_valid", sql`${t.kind} in ('donors','donations')`),
    check(
      "data_import_status_valid",
      sql`${t.status} in ('running','completed','rolling_back','rolled_back')`,
    ),
    check("data_import_next_row", sql`${t.nextRow} >= 2`),
  ],
);

/** The rows an import refused, with why: the downloadable CSV to fix and import again. */
export const importRejection = sqliteTable(
  "import_rejection",
  {
    importId: text("import_id")
      .notNull()
      .references(() => dataImport.id, { onDelete: "cascade" }),
    organizationId: orgId(),
    rowNumber: integer("row_number").notNull(),
    reason: text("reason").notNull(),
    /** The row's cells as the file had them (JSON array), so the download is the file's own row. */
    cells: text("cells").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);

export const importMappingPreset = sqliteTable(
  "import_mapping",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    /** JSON object: normalized header (core/import/mapping.ts normalizeHeader) → field. */
    fields: text("fields").notNull(),
    options: text("options").notNull(),
    createdBy: text("created_by"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("import_mapping_org_name_unique").on(t.organizationId, t.kind, sql`lower(${t.name})`),
    check("import_mapping_kind_valid", sql`${t.kind} in ('donors','donations')`),
    check("import_mapping_name_len", sql`length(trim(${t.name})) between 1 and 60`),
  ],
);

/** What happened to a plan, in order, with its yearly amount before and after: the plan rollups' source. */
export const planEvent = sqliteTable(
  "plan_event",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    planId: text("plan_id")
      .notNull()
      .references(() => recurringPlan.id, { onDelete: "cascade" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    kind: text("kind").notNull(),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    currency: text("currency").notNull(),
    annualBefore: integer("annual_before").notNull().default(0),
    annualAfter: integer("annual_after").notNull().default(0),
    reason: text("reason"),
    actorId: text("actor_id"),
  },
  (t) => [
    index("plan_event_plan_idx").on(t.planId, t.at),
    index("plan_event_org_at_idx").on(t.organizationId, t.at),
    check("plan_event_kind_valid", sql`${t.kind} in ('created','status','amount')`),
  ],
);

/** Plans entering and leaving recurring revenue per month, kept in each plan change's batch (decision 030).
 * Monthly recurring revenue at a month's end is the sum of the deltas up to it. */
export const planMonthly = sqliteTable(
  "plan_monthly",
  {
    organizationId: orgId(),
    month: text("month").notNull(),
    currency: text("currency").notNull(),
    newCount: integer("new_count").notNull().default(0),
    reactivatedCount: integer("reactivated_count").notNull().default(0),
    cancelledCount: integer("cancelled_count").notNull().default(0),
    lapsedCount: integer("lapsed_count").notNull().default(0),
    pausedCount: integer("paused_count").notNull().default(0),
    completedCount: integer("completed_count").notNull().default(0),
    annualDelta: integer("annual_delta").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.month, t.currency] }),
    check("plan_monthly_month", sql`${t.month} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'`),
  ],
);

/** Plans now, per currency and status, with their yearly amount: MRR and active plans in one read. */
export const planTotals = sqliteTable(
  "plan_totals",
  {
    organizationId: orgId(),
    currency: text("currency").notNull(),
    status: text("status").notNull(),
    planCount: integer("plan_count").notNull().default(0),
    annualMinor: integer("annual_minor").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.currency, t.status] })],
);

/** The zone plan_monthly was built in (as donation_daily_state, decision 013): writes keep the months only
 * while it names the organization's zone; without it, reads count from plan_event and the cron rebuilds. */
export const planRollupState = sqliteTable("plan_rollup_state", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  timeZone: text("time_zone").notNull(),
});

/** What receipts say beyond the profile, and how they go out (decision 031): one row per organization. */
export const receiptSettings = sqliteTable(
  "receipt_settings",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organization.id, { onDelete: "cascade" }),
    signatoryName: text("signatory_name"),
    signatoryTitle: text("signatory_title"),
    /** The paragraph printed under the amounts: what the law of the country asks a receipt to say. */
    taxStatement: text("tax_statement"),
    /** Printed before each receipt number ("R-" → R-000042); the numbers themselves never restart. */
    numberPrefix: text("number_prefix").notNull().default(""),
    language: text("language").notNull().default("en"),
    /** Receipts go out by e-mail on their own when a gift completes (else from the gift's page). */
    autoSend: integer("auto_send", { mode: "boolean" }).notNull().default(false),
    updatedBy: text("updated_by"),
    ...timestamps,
  },
  (t) => [
    check("receipt_settings_language_valid", sql`${t.language} in ('en','fr','de','es','nl','pt','ja')`),
    check("receipt_settings_prefix_len", sql`length(${t.numberPrefix}) <= 12`),
  ],
);

/** Tax receipts (decision 031), written in the gift change's batch (worker/ledger/receipt-issue.ts), numbered
 * from one sequence without gaps. Never edited: a refund or correction voids it and issues another. */
export const receipt = sqliteTable(
  "receipt",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    donationId: text("donation_id").references(() => donation.id, { onDelete: "set null" }),
    donorId: text("donor_id").references(() => donor.id, { onDelete: "set null" }),
    number: integer("number").notNull(),
    kind: text("kind").notNull(),
    replacesId: text("replaces_id"),
    status: text("status").notNull().default("issued"),
    currency: text("currency").notNull(),
    amountMinor: integer("amount_minor").notNull(),
    deductibleMinor: integer("deductible_minor").notNull(),
    donatedAt: integer("donated_at", { mode: "timestamp_ms" }).notNull(),
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
    voidedAt: integer("voided_at", { mode: "timestamp_ms" }),
    /** The staff's words (a refund's reason, or the change's action): internal, never printed. */
    voidReason: text("void_reason"),
    /** Why it is void, in the donor's words: 'replaced', 'refunded' or 'cancelled' (printed on the PDF). */
    voidCause: text("void_cause"),
    snapshot: text("snapshot").notNull(),
    /** Its e-mail (worker/receipts/delivery.ts): none → queued → sending (held since `deliveryAt`; a stale
     * hold is taken over) → sent | failed. */
    delivery: text("delivery").notNull().default("none"),
    deliveryAt: integer("delivery_at", { mode: "timestamp_ms" }),
    deliveryError: text("delivery_error"),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    sentTo: text("sent_to"),
    sendCount: integer("send_count").notNull().default(0),
  },
  (t) => [
    // The delivery sweep (cron and bulk steps) reads only the queued and stale ones.
    index("receipt_delivery_idx")
      .on(t.organizationId, t.deliveryAt)
      .where(sql`delivery IN ('queued','sending')`),
    check("receipt_delivery_valid", sql`${t.delivery} in ('none','queued','sending','sent','failed')`),
    uniqueIndex("receipt_org_number_unique").on(t.organizationId, t.number),
    // At most one issued receipt per gift: the ledger's "none issued yet" also holds under races.
    uniqueIndex("receipt_one_issued_per_gift")
      .on(t.donationId)
      .where(sql`status = 'issued' AND donation_id IS NOT NULL`),
    index("receipt_donation_idx").on(t.donationId, t.number),
    index("receipt_donor_idx").on(t.donorId, t.issuedAt),
    index("receipt_org_issued_idx").on(t.organizationId, t.issuedAt),
    // Year-end statements: the donors with issued receipts, in id order, and each one's in a period.
    index("receipt_statement_idx").on(t.organizationId, t.donorId, t.donatedAt).where(sql`status = 'issued'`),
    check("receipt_kind_valid", sql`${t.kind} in ('original','correction')`),
    check("receipt_status_valid", sql`${t.status} in ('issued','void')`),
    check("receipt_number_positive", sql`${t.number} > 0`),
    check(
      "receipt_deductible_valid",
      sql`${t.deductibleMinor} > 0 AND ${t.deductibleMinor} <= ${t.amountMinor}`,
    ),
    check("receipt_void_has_time", sql`(${t.status} = 'void') = (${t.voidedAt} IS NOT NULL)`),
  ],
);

/** Every thank-you, receipt and statement e-mailed to a donor; `sent_by` null: sent on its own. */
export const acknowledgement = sqliteTable(
  "acknowledgement",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    donorId: text("donor_id").references(() => donor.id, { onDelete: "set null" }),
    donationId: text("donation_id").references(() => donation.id, { onDelete: "set null" }),
    receiptId: text("receipt_id").references(() => receipt.id, { onDelete: "set null" }),
    /** receipt (the thank-you with the receipt attached), thanks (the thank-you alone), statement. */
    kind: text("kind").notNull(),
    period: text("period"),
    sentTo: text("sent_to").notNull(),
    sentBy: text("sent_by"),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("acknowledgement_donation_idx").on(t.donationId, t.sentAt),
    index("acknowledgement_donor_idx").on(t.donorId, t.sentAt),
    check("acknowledgement_kind_valid", sql`${t.kind} in ('receipt','thanks','statement')`),
  ],
);

/** The thank-you message: the organization's (campaign_id NULL) and campaigns' overrides (core/thanks.ts). */
export const thankYouTemplate = sqliteTable(
  "thank_you_template",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    campaignId: text("campaign_id").references(() => campaign.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    updatedBy: text("updated_by"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("thank_you_template_org_default").on(t.organizationId).where(sql`campaign_id IS NULL`),
    uniqueIndex("thank_you_template_org_campaign")
      .on(t.organizationId, t.campaignId)
      .where(sql`campaign_id IS NOT NULL`),
    check("thank_you_template_subject_len", sql`length(${t.subject}) BETWEEN 1 AND 200`),
    check("thank_you_template_body_len", sql`length(${t.body}) BETWEEN 1 AND 10000`),
  ],
);

/** A bulk run of year-end statements, donor by donor in resumable steps (worker/receipts/statements.ts). */
export const statementRun = sqliteTable(
  "statement_run",
  {
    id: text("id").primaryKey(),
    organizationId: orgId(),
    /** The year the period starts in: calendar 2026, or fiscal 2026/27 when it starts in 2026. */
    year: integer("year").notNull(),
    basis: text("basis").notNull(),
    periodStart: integer("period_start", { mode: "timestamp_ms" }).notNull(),
    periodEnd: integer("period_end", { mode: "timestamp_ms" }).notNull(),
    /** The last donor id handled: the next step starts after it. */
    cursor: text("cursor").notNull().default(""),
    total: integer("total").notNull(),
    sent: integer("sent").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    createdBy: text("created_by"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("statement_run_org_idx").on(t.organizationId, t.createdAt),
    check("statement_run_basis_valid", sql`${t.basis} in ('calendar','fiscal')`),
    check(
      "statement_run_counts_valid",
      sql`${t.sent} >= 0 AND ${t.skipped} >= 0 AND ${t.sent} + ${t.skipped} <= ${t.total}`,
    ),
  ],
);
