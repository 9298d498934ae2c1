/**
 * The business domain (DESIGN §4). Every business row carries organization_id; money is integer
 * minor units with an ISO 4217 currency; instants are UTC epoch ms. Indexes lead with
 * organization_id because every list and every analytic is tenant-scoped.
 *
 * Triggers have no drizzle form; the migrations create them and `npm run db:check` lists them:
 * - `*_same_org_insert/update` (drizzle/0003): a row's references belong to its organization;
 * - `*_money_integer_*`, `*_stats_integer_*`, `campaign_goal_set_*` (0003): money and counts are
 *   integers, a goal type has its goal;
 * - `audit_event_bumps_analytics_version` (0006): every audited change invalidates the dashboard
 *   cache (decision 011);
 * - `donation_change_token_renewed` (0013): any update of a donation renews its change token
 *   (decision 020).
 *
 * Over 400 lines on purpose: it is the one drizzle schema of every business table (the single source
 * `npm run db:check` compares with the migrations); splitting it by table gains nothing.
 */
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
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    /** SHA-256 (hex) of the mailed link's secret (decision 017); null on rows from before 0010. */
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
    /** The import that created the campaign (a donations file named it), for its undo (issue 23). */
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
    /**
     * The import that created the donor, and the row's import key (the file's external id, or the
     * file's hash and row number): a file imported twice creates its donors once (issue 23).
     */
    importId: text("import_id"),
    importKey: text("import_key"),
    /**
     * A uniform random integer in [0, 2^52), set once by the trigger donor_sketch_on_insert
     * (drizzle/0021): distinct-donor estimates sample the donors with the smallest values
     * (core/analytics.ts estimateDistinct, decision 032).
     */
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

/**
 * A recurring plan (issue 24, docs/decisions/030-recurring-plans.md): a donor's promise to give an
 * amount every month, quarter or year, its status on the machine of core/plans.ts, when the next
 * gift is due, and its totals — kept in the same batch as each gift that belongs to it. Every change
 * is conditional on the change token read (decision 020) and writes its plan_event.
 */
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
    /** How the donor pays, as the processor describes it ("Visa •••• 4242"). */
    paymentMethod: text("payment_method"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    nextExpectedAt: integer("next_expected_at", { mode: "timestamp_ms" }),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    statusChangedAt: integer("status_changed_at", { mode: "timestamp_ms" }).notNull(),
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
    // One index per sort of /recurring (worker/plans/queries.ts PLAN_SORTS, the same expressions),
    // each ending in the status so a status filter is checked inside the index: a page of 25 reads
    // 25 rows, not the organization's plans sorted in a temporary b-tree (performance.md K → L).
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
    /**
     * Random per write: statements later in the same batch apply only if this write won a race, and
     * every write is conditional on the token it read (decisions 006, 020). Renewed on any other
     * update by the trigger `donation_change_token_renewed` (drizzle/0013).
     */
    changeToken: text("change_token"),
    /**
     * The import that created the gift and the row's import key (the file's gift id, or the file's
     * hash and row number), unique per organization: a file imported twice creates nothing new.
     */
    importId: text("import_id"),
    importKey: text("import_key"),
    /** The recurring plan the gift belongs to (issue 24, decision 030). */
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
    // Covering list indexes and the counted-gifts index (drizzle/0005_list_indexes_and_totals.sql).
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
    // Gifts by amount, with the list's index-only filters (status among them), so the amount
    // window reads no rows (drizzle/0009, one index since 0022: each gift's amount index entries
    // land on a page of their own, the import's largest write after the gift itself).
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
    // A campaign's gifts in date order, covering what campaign analytics from the gifts (its latest
    // gifts too), the campaign's stats recount and its rollups' build read (drizzle/0025).
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
    // What an item has funded (items list, public page, campaign analytics, the overfunding check
    // in a gift's write) reads the item's gifts alone; without it each item scanned every gift
    // (1.7 s at 1 M). Partial: gifts without an item (every imported one) write no entry (0023).
    index("donation_item_idx")
      .on(t.campaignItemId, t.status, t.mode, t.trashedAt, t.itemQuantity, t.id)
      .where(sql`campaign_item_id IS NOT NULL`),
    index("donation_donor_idx").on(t.donorId, t.donatedAt),
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
    /** The part of raised_minor and donation_count given through recurring plans (issue 24). */
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

/**
 * donation_totals by local day in the organization's time zone (date-filtered list totals), and
 * the zone it was built in; without a state row the list totals from the donations (decision 013).
 */
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

/**
 * A rebuild of the organization's per-day rollups under way (decisions 038, 043): org_daily,
 * donation_daily_totals, analytics_facet and donor_period rebuilt in stretches of local days of
 * `time_zone`, one batch each, by the cron or a time-zone change. Gifts dated before `built_until`
 * (the local start of the first day not built) are counted, in their days' rows and their months'
 * alike, and kept by every change meanwhile; later ones are not. The last batch writes
 * donation_daily_state and deletes this row.
 */
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

/**
 * The dashboard's breakdowns of counted gifts (decision 032), by local day (grain 'd', period
 * 'YYYY-MM-DD') and by month (grain 'm', 'YYYY-MM'): `method` (payment method), `kind` (one_time /
 * recurring), `net` (the histogram of net amounts by core/analytics.ts amountBucket, for the ≈
 * median), `campaign` (the top campaigns of any range) and `refund` (every live gift
 * not in the trash with a refund, counted or not: count and refunded amount). Kept and rebuilt with
 * donation_daily_totals under donation_daily_state: without a state row in the organization's zone
 * the dashboard reads the donations instead.
 */
export const analyticsFacet = sqliteTable(
  "analytics_facet",
  { organizationId: orgId(), ...facetColumns() },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.currency, t.facet, t.grain, t.period, t.key] }),
    check("analytics_facet_grain", sql`${t.grain} IN ('d', 'm')`),
    check("analytics_facet_facet", sql`${t.facet} IN ('method', 'kind', 'net', 'campaign', 'refund')`),
  ],
);

/**
 * Each donor's counted gifts per currency and local day (grain 'd') or month ('m'), with the
 * donor's sketch value (decision 032): distinct donors over any range sample the smallest sketch
 * values of its months and edge days (donor_period_sketch_idx), top donors start from each
 * period's largest (donor_period_amount_idx). Rows exist only while gift_count > 0.
 */
/** The columns of a donor rollup after its owner: donor_period's and campaign_donor_period's. */
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
/**
 * A donor rollup's key and indexes, named after its table, led by its owner. Covering: a sample
 * and the top donors read the sketch and amount indexes only (decision 032); a merge and a gift's
 * emptied rows go by donor.
 */
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

/**
 * A large campaign's analytics rollups (decision 037), kept like the organization's (decision 032)
 * but only for campaigns that have one: the row names the zone they are built in. Written by the
 * cron's build (worker/campaigns/analytics/rollups.ts) for campaigns past campaignRollupsFrom (10 000)
 * counted gifts; a change's deltas apply only while it names the zone the change computed its days
 * in, and a change in another zone deletes it. Without it campaign analytics reads the gifts.
 */
export const campaignRollupState = sqliteTable(
  "campaign_rollup_state",
  {
    campaignId: campaignRef().primaryKey(),
    organizationId: orgId(),
    timeZone: text("time_zone").notNull(),
    builtAt: integer("built_at").notNull(),
  },
  // A gift set asks once whether its organization has any built campaign (worker/donations/rollups.ts).
  (t) => [index("campaign_rollup_state_org_idx").on(t.organizationId, t.timeZone)],
);

/**
 * A large campaign's rollup build under way (decisions 038, 043, as donation_daily_build for the
 * organization's): gifts dated before `built_until` are counted in `time_zone` and kept by every
 * change; the last batch writes campaign_rollup_state and deletes this.
 */
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

/**
 * analytics_facet for one campaign (decision 037): the histogram of net amounts (`net`, key the
 * amount bucket) and refunds (`refund`, key ''), by local day and month.
 */
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

/**
 * Uploaded images (campaign covers, organization logos), stored in D1 (decision 008). Type (by
 * magic bytes), size (1 byte to 1 MiB) and hash are established before the insert; rows are
 * immutable once written (the URL is cached for a year). drizzle/0004_media.sql.
 */
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

/**
 * A CSV import of donors or donations (issue 23, docs/decisions/028-csv-import.md): the file it
 * reads (by hash, for a resume), how its columns map and its rows are read, how far it got
 * (`next_row`: the file's row number its next batch starts at; the header is row 1) and what it did.
 * Every batch moves `next_row` and the counts in the same D1 batch as the rows it writes.
 */
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
    /**
     * Set by the statement that claims a batch (the row moves `next_row` only from where the batch
     * starts); every other statement of that batch applies only while the import carries it.
     */
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

/** A saved column mapping (header → field) and its reading options, reused for the next file. */
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

/**
 * What happened to a plan, in order: its creation, each status change and amount change, with its
 * yearly amount before and after. The plan's timeline, and the source the plan rollups are rebuilt
 * from (a brute-force recount of plan_monthly and plan_totals reads these).
 */
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

/**
 * Plans entering and leaving recurring revenue per month of the organization (issue 24): new,
 * reactivated (back from paused or lapsed), and each way out (cancelled, lapsed, paused, completed),
 * with the change of the yearly amount counted — kept in the same batch as each plan change
 * (decision 030). Monthly recurring revenue at a month's end is the sum of the deltas up to it.
 */
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

/**
 * The zone plan_monthly was built in (as donation_daily_state is for the daily totals, decision
 * 013): writes keep the months only while it names the organization's zone; without it, reads
 * count from plan_event and the cron rebuilds (drizzle/0016 creates plans without building months:
 * SQL knows no time zones).
 */
export const planRollupState = sqliteTable("plan_rollup_state", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  timeZone: text("time_zone").notNull(),
});

/**
 * What an organization's tax receipts say beyond its profile, and how they go out (issue 25,
 * decision 031): one row per organization, written by owners and admins from /organization. The
 * legal name, registration and tax numbers, address and logo are the profile's (organization).
 */
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

/**
 * Tax receipts (issue 25, decision 031): written in the batch of the gift change that calls for one
 * (worker/receipts/ledger.ts), numbered from the organization's one sequence (org_counter
 * 'receipt'): no gaps, no duplicates. A receipt is never edited: a refund or a correction voids it
 * and issues another that names the one it replaces. `snapshot` is what it says (names, address,
 * amounts, the organization's identity and settings) as of its issue.
 */
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
    voidReason: text("void_reason"),
    snapshot: text("snapshot").notNull(),
    /**
     * Its e-mail (worker/receipts/delivery.ts): 'none' until sent or queued; 'queued' by the
     * ledger when receipts go out on their own, or by a bulk send; 'sending' while a delivery
     * holds it (since `deliveryAt`; a stale hold is taken over); then 'sent' or 'failed'.
     */
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

/**
 * Every thank-you, receipt and year-end statement e-mailed to a donor (issue 25): the gift's and
 * the donor's page show them, and who sent them (null: sent on its own).
 */
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
    /** A statement's period, e.g. "2026" or "FY 2026/27". */
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

/**
 * The thank-you message (issue 25): the organization's (campaign_id NULL) and one per campaign that
 * overrides it, with merge fields (core/thanks.ts). Owners and admins write them on /organization.
 */
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

/**
 * A bulk run of year-end statements (issue 25): one per organization, year and basis at a time,
 * walked donor by donor in steps (worker/receipts/statements.ts), so it shows progress and resumes
 * where it stopped after an interruption.
 */
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
