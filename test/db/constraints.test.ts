/**
 * Tries to break every constraint the migrations declare, against the real local D1: each CHECK,
 * UNIQUE index, composite primary key and integrity trigger is hit once through INSERT and once
 * through UPDATE (SQLite checks both, and the triggers are separate code per statement). A valid row
 * is always written first, so a refusal can only come from the override under test. The inventory
 * test at the end reads the migrations themselves, so a constraint added later without a case here
 * fails the suite.
 */
import { AMOUNT_BUCKETS } from "@core/analytics";
import { beforeAll, describe, expect, it } from "vitest";
import { testEnv } from "../helpers";

// undefined only because an index into a Row may be; it is bound as NULL.
type Row = Record<string, string | number | null | undefined>;

let n = 0;
const uid = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
const T = 1_700_000_000_000;
const ts = { created_at: T, updated_at: T };
/** Users that membership rows name, created by flushUsers() before the rows are written. */
const pendingUsers: string[] = [];

function insert(table: string, row: Row) {
  const cols = Object.keys(row);
  return testEnv.DB.prepare(
    `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
  ).bind(...cols.map((c) => row[c] ?? null));
}

function update(table: string, rowid: number, set: Row) {
  const cols = Object.keys(set);
  return testEnv.DB.prepare(
    `UPDATE "${table}" SET ${cols.map((c) => `"${c}" = ?`).join(", ")} WHERE rowid = ?`,
  ).bind(...cols.map((c) => set[c] ?? null), rowid);
}

async function add(table: string, row: Row) {
  const res = await insert(table, row).run();
  return res.meta.last_row_id;
}

/** Two organizations with one of everything, so a case can point a row at the other tenant. */
interface World {
  orgA: string;
  orgB: string;
  user: string;
  campaignA: string;
  campaignA2: string;
  campaignB: string;
  itemA: string;
  itemA2: string;
  itemB: string;
  donorA: string;
  donorA2: string;
  donorB: string;
  tagA: string;
  tagB: string;
  tierA: string;
  tierB: string;
  importA: string;
  planA: string;
  planB: string;
  donationB: string;
}
let w: World;

const rows = {
  user: (): Row => ({ id: uid("u"), name: "Ada", email: `${uid("ada")}@example.test`, ...ts }),
  organization: (): Row => {
    const id = uid("org");
    return { id, name: "Harbor Light", slug: id, ...ts };
  },
  membership: (): Row => {
    // A fresh user per row, since (organization, user) is unique; flushUsers() creates it.
    const userId = uid("mu");
    pendingUsers.push(userId);
    return { id: uid("m"), organization_id: w.orgA, user_id: userId, role: "viewer", ...ts };
  },
  session: (): Row => ({
    id: uid("s"),
    token_hash: uid("h"),
    token_enc: "x",
    user_id: w.user,
    expires_at: T,
    ...ts,
  }),
  account: (): Row => ({
    id: uid("a"),
    account_id: uid("acc"),
    provider_id: "github",
    user_id: w.user,
    ...ts,
  }),
  verification: (): Row => ({ id: uid("v"), identifier: uid("reset:"), value: "x", expires_at: T, ...ts }),
  invitation: (): Row => ({
    id: uid("inv"),
    organization_id: w.orgA,
    email: `${uid("inv")}@example.test`,
    role: "organizer",
    expires_at: T,
    secret_hash: uid("hash"),
    ...ts,
  }),
  organization_badge: (): Row => ({ id: uid("b"), organization_id: w.orgA, badge: "transparent", ...ts }),
  campaign: (): Row => ({
    id: uid("c"),
    organization_id: w.orgA,
    title: "Winter Coats",
    slug: uid("winter"),
    currency: "USD",
    goal_type: "amount",
    goal_amount_minor: 100_000,
    ...ts,
  }),
  campaign_slug: (): Row => ({
    organization_id: w.orgA,
    slug: uid("old"),
    campaign_id: w.campaignA,
    created_at: T,
  }),
  campaign_item: (): Row => ({
    id: uid("i"),
    organization_id: w.orgA,
    campaign_id: w.campaignA,
    title: "A coat",
    unit_amount_minor: 4_500,
    quantity_needed: 10,
    ...ts,
  }),
  donor_tier: (): Row => ({
    id: uid("t"),
    organization_id: w.orgA,
    name: "Friend",
    min_minor: 0,
    max_minor: 10_000,
    ...ts,
  }),
  donor: (): Row => ({
    id: uid("d"),
    organization_id: w.orgA,
    first_name: "Grace",
    last_name: "Hopper",
    email: `${uid("grace")}@example.test`,
    import_key: uid("f:abc"),
    ...ts,
  }),
  donor_tag: (): Row => ({ id: uid("tag"), organization_id: w.orgA, name: uid("Tag"), ...ts }),
  donor_tag_assignment: (): Row => ({ donor_id: w.donorA, tag_id: newTagA(), organization_id: w.orgA }),
  donor_contact: (): Row => ({
    organization_id: w.orgA,
    donor_id: w.donorA,
    kind: "email",
    value: `${uid("other")}@example.test`,
    created_at: T,
  }),
  donor_note: (): Row => ({
    id: uid("note"),
    organization_id: w.orgA,
    donor_id: w.donorA,
    body: "Called.",
    ...ts,
  }),
  donation: (): Row => ({
    id: uid("dn"),
    organization_id: w.orgA,
    number: ++n,
    donor_id: w.donorA,
    campaign_id: w.campaignA,
    campaign_item_id: w.itemA,
    item_quantity: 1,
    amount_minor: 5_000,
    refunded_minor: 0,
    currency: "USD",
    status: "completed",
    gateway_transaction_id: uid("tx"),
    import_key: uid("x:gift"),
    donated_at: T,
    ...ts,
  }),
  campaign_stats: (): Row => ({ campaign_id: newCampaignA(), organization_id: w.orgA, updated_at: T }),
  org_daily: (): Row => ({
    organization_id: w.orgA,
    campaign_id: w.campaignA,
    day: uid("2026-01-01"),
    currency: "USD",
  }),
  rate_limit: (): Row => ({ key: uid("ip:1.2.3.4"), count: 1, window_start: T }),
  org_counter: (): Row => ({ organization_id: w.orgA, name: uid("donation"), value: 1 }),
  donation_totals: (): Row => ({
    organization_id: w.orgA,
    currency: uid("USD"),
    status: "completed",
    mode: "live",
    trashed: 0,
  }),
  analytics_version: (): Row => ({ organization_id: uid("org"), version: 1 }),
  donation_daily_totals: (): Row => ({
    organization_id: w.orgA,
    day: "2026-03-29",
    currency: uid("USD"),
    status: "completed",
    mode: "live",
    trashed: 0,
  }),
  donation_daily_state: (): Row => ({ organization_id: newOrg(), time_zone: "Europe/Berlin" }),
  donation_daily_build: (): Row => ({
    organization_id: newOrg(),
    time_zone: "Europe/Berlin",
    built_month: "2026-03",
    built_until: Date.UTC(2026, 2, 1) - 3600_000,
    started_at: 1,
  }),
  // Lower bounds above the migration's last (core/analytics.ts AMOUNT_BUCKETS), below 2^53.
  analytics_bucket: (): Row => ({ lo: (AMOUNT_BUCKETS.at(-1) as number) + ++n, bucket: 9_999 }),
  analytics_facet: (): Row => ({
    organization_id: w.orgA,
    currency: "USD",
    facet: "method",
    grain: "d",
    period: "2026-03-29",
    key: uid("card"),
  }),
  donor_period: (): Row => ({
    organization_id: w.orgA,
    currency: "USD",
    grain: "m",
    period: "2026-03",
    donor_id: uid("donor"),
    sketch: 1,
  }),
  campaign_rollup_state: (): Row => ({
    campaign_id: newCampaignA(),
    organization_id: w.orgA,
    time_zone: "Europe/Berlin",
    built_at: T,
  }),
  campaign_rollup_build: (): Row => ({
    campaign_id: newCampaignA(),
    organization_id: w.orgA,
    time_zone: "Europe/Berlin",
    built_month: "2026-03",
    built_until: Date.UTC(2026, 2, 1) - 3600_000,
    started_at: T,
  }),
  campaign_facet: (): Row => ({
    campaign_id: w.campaignA,
    currency: "USD",
    facet: "net",
    grain: "d",
    period: "2026-03-29",
    key: uid("bucket"),
  }),
  campaign_donor_period: (): Row => ({
    campaign_id: w.campaignA,
    currency: "USD",
    grain: "m",
    period: "2026-03",
    donor_id: uid("donor"),
    sketch: 1,
  }),
  data_import: (): Row => ({
    id: uid("imp"),
    organization_id: w.orgA,
    kind: "donations",
    file_name: "gifts.csv",
    file_hash: "a".repeat(64),
    file_size: 100,
    total_rows: 2,
    headers: "[]",
    mapping: "[]",
    options: "{}",
    ...ts,
  }),
  import_rejection: (): Row => ({
    import_id: w.importA,
    organization_id: w.orgA,
    row_number: 2 + ++n,
    reason: "No amount",
    cells: "[]",
  }),
  recurring_plan: (): Row => ({
    id: uid("plan"),
    organization_id: w.orgA,
    donor_id: w.donorA,
    campaign_id: w.campaignA,
    amount_minor: 2_500,
    currency: "USD",
    interval: "month",
    interval_day: 15,
    gateway_subscription_id: uid("sub"),
    started_at: T,
    status_changed_at: T,
    ...ts,
  }),
  plan_event: (): Row => ({
    id: uid("pe"),
    organization_id: w.orgA,
    plan_id: w.planA,
    at: T,
    kind: "created",
    to_status: "active",
    currency: "USD",
  }),
  plan_monthly: (): Row => ({ organization_id: w.orgA, month: "2026-03", currency: uid("USD") }),
  plan_totals: (): Row => ({ organization_id: w.orgA, currency: uid("USD"), status: "active" }),
  plan_rollup_state: (): Row => ({ organization_id: newOrg(), time_zone: "Europe/Berlin" }),
  receipt_settings: (): Row => ({ organization_id: newOrg(), number_prefix: "R-", ...ts }),
  receipt: (): Row => ({
    id: uid("rc"),
    organization_id: w.orgA,
    donation_id: newDonationA(),
    donor_id: w.donorA,
    number: ++n,
    kind: "original",
    status: "issued",
    currency: "USD",
    amount_minor: 1_000,
    deductible_minor: 1_000,
    donated_at: T,
    issued_at: T,
    snapshot: "{}",
  }),
  // 0020: receipts go out (decision 031)
  thank_you_template: (): Row => ({
    id: uid("ty"),
    organization_id: w.orgA,
    campaign_id: newCampaignA(),
    subject: "Thank you, {{donor.firstName}}",
    body: "Dear {{donor.name}},",
    ...ts,
  }),
  acknowledgement: (): Row => ({
    id: uid("ack"),
    organization_id: w.orgA,
    donor_id: w.donorA,
    kind: "thanks",
    sent_to: "grace@example.test",
    sent_at: T,
  }),
  statement_run: (): Row => ({
    id: uid("run"),
    organization_id: w.orgA,
    year: 2026,
    basis: "calendar",
    period_start: T,
    period_end: T + 1,
    total: 10,
    created_at: T,
  }),
  import_mapping: (): Row => ({
    id: uid("map"),
    organization_id: w.orgA,
    kind: "donors",
    name: uid("Old CRM"),
    fields: "{}",
    options: "{}",
    ...ts,
  }),
  organization_deletion: (): Row => {
    const id = uid("gone");
    return { organization_id: id, name: "Old Harbor", slug: id, requested_at: T };
  },
  ownership_offer: (): Row => {
    // Withdrawn, so that the one open offer of organization A (beforeAll) is the only open one.
    const to = uid("heir");
    pendingUsers.push(to);
    return {
      id: uid("offer"),
      organization_id: w.orgA,
      from_user_id: w.user,
      to_user_id: to,
      from_becomes: "admin",
      status: "withdrawn",
      expires_at: T,
      decided_at: T,
      ...ts,
    };
  },
  organization_request: (): Row => {
    const by = uid("asker");
    pendingUsers.push(by);
    return {
      id: uid("req"),
      user_id: by,
      name: "Harbor Light",
      country: "US",
      default_currency: "USD",
      time_zone: "America/New_York",
      fiscal_year_start_month: 1,
      status: "pending",
      ...ts,
    };
  },
} satisfies Record<string, () => Row>;
type Table = keyof typeof rows;

// Rows whose key is a parent id need a fresh parent per valid row.
const pendingTags: string[] = [];
const pendingCampaigns: string[] = [];
const pendingOrgs: string[] = [];
const pendingDonations: string[] = [];
function newDonationA() {
  const d = pendingDonations.shift();
  if (!d) throw new Error("prepare donations first");
  return d;
}
function newOrg() {
  const o = pendingOrgs.shift();
  if (!o) throw new Error("prepare organizations first");
  return o;
}
function newTagA() {
  const t = pendingTags.shift();
  if (!t) throw new Error("prepare tags first");
  return t;
}
function newCampaignA() {
  const c = pendingCampaigns.shift();
  if (!c) throw new Error("prepare campaigns first");
  return c;
}
async function prepareParents(table: Table) {
  for (let i = 0; i < 12; i++) {
    if (table === "donor_tag_assignment") {
      const tag = rows.donor_tag();
      await add("donor_tag", tag);
      pendingTags.push(String(tag.id));
    }
    if (
      table === "donation_daily_state" ||
      table === "donation_daily_build" ||
      table === "plan_rollup_state" ||
      table === "receipt_settings"
    ) {
      const o = rows.organization();
      await add("organization", o);
      pendingOrgs.push(String(o.id));
    }
    if (table === "receipt") {
      const d = rows.donation();
      await add("donation", d);
      pendingDonations.push(String(d.id));
    }
    if (
      table === "campaign_stats" ||
      table === "thank_you_template" ||
      table === "campaign_rollup_state" ||
      table === "campaign_rollup_build"
    ) {
      const c = rows.campaign();
      await add("campaign", c);
      pendingCampaigns.push(String(c.id));
    }
  }
}

interface Case {
  /** The constraint's name as the migration declares it. */
  name: string;
  table: Table;
  /** Overrides of a valid row that must each be refused; `first` is a valid row already stored. */
  bad: (first: Row) => Row[];
  /** Defaults to SQLite's CHECK message for `name` (the triggers raise the same shape). */
  error?: RegExp;
}

const UNIQUE = /UNIQUE constraint failed/;
const hugeNote = "x".repeat(5001);

const cases: Case[] = [
  // 0000: auth and tenancy
  { name: "user_email_lower", table: "user", bad: () => [{ email: "Ada@Example.test" }] },
  { name: "user_role_not_empty", table: "user", bad: () => [{ role: "" }] },
  { name: "user_email_unique", table: "user", bad: (f) => [{ email: f.email }], error: UNIQUE },
  {
    name: "session_token_hash_unique",
    table: "session",
    bad: (f) => [{ token_hash: f.token_hash }],
    error: UNIQUE,
  },
  {
    name: "account_provider_account_unique",
    table: "account",
    bad: (f) => [{ account_id: f.account_id }],
    error: UNIQUE,
  },
  {
    name: "verification_identifier_unique",
    table: "verification",
    bad: (f) => [{ identifier: f.identifier }],
    error: UNIQUE,
  },
  { name: "organization_status_valid", table: "organization", bad: () => [{ status: "deleted" }] },
  {
    name: "organization_fiscal_month",
    table: "organization",
    bad: () => [{ fiscal_year_start_month: 0 }, { fiscal_year_start_month: 13 }],
  },
  {
    name: "organization_currency_len",
    table: "organization",
    bad: () => [{ default_currency: "US" }, { default_currency: "USDX" }],
  },
  { name: "organization_slug_unique", table: "organization", bad: (f) => [{ slug: f.slug }], error: UNIQUE },
  { name: "rate_limit_pk", table: "rate_limit", bad: (f) => [{ key: f.key }], error: UNIQUE },
  { name: "membership_role_valid", table: "membership", bad: () => [{ role: "superuser" }] },
  {
    name: "membership_org_user_unique",
    table: "membership",
    bad: (f) => [{ user_id: f.user_id }],
    error: UNIQUE,
  },

  // 0001: business domain
  { name: "invitation_role_valid", table: "invitation", bad: () => [{ role: "root" }] },
  { name: "invitation_email_lower", table: "invitation", bad: () => [{ email: "Someone@Example.test" }] },
  // 0010: one invitation per link secret (decision 017)
  {
    name: "invitation_secret_hash_unique",
    table: "invitation",
    bad: (f) => [{ secret_hash: f.secret_hash }],
    error: UNIQUE,
  },
  { name: "organization_badge_known", table: "organization_badge", bad: () => [{ badge: "made_up" }] },
  {
    name: "campaign_status_valid",
    table: "campaign",
    bad: () => [{ status: "deleted" }, { status: "Active" }],
  },
  { name: "campaign_goal_type_valid", table: "campaign", bad: () => [{ goal_type: "hours" }] },
  {
    name: "campaign_goal_positive",
    table: "campaign",
    bad: () => [
      { goal_type: "amount", goal_amount_minor: 0 },
      { goal_type: "donations", goal_count: 0 },
      { goal_type: "donors", goal_count: -1 },
    ],
  },
  {
    // The CHECK above is NULL, hence passes, when the target is missing: a trigger covers that.
    name: "campaign_goal_set",
    table: "campaign",
    bad: () => [
      { goal_type: "amount", goal_amount_minor: null },
      { goal_type: "donations", goal_amount_minor: null, goal_count: null },
      { goal_type: "donors", goal_count: null },
    ],
  },
  {
    name: "campaign_title_len",
    table: "campaign",
    bad: () => [{ title: "ab" }, { title: "x".repeat(129) }],
  },
  { name: "campaign_currency_len", table: "campaign", bad: () => [{ currency: "EU" }, { currency: "EURO" }] },
  {
    name: "campaign_amount_range",
    table: "campaign",
    bad: () => [{ min_amount_minor: 0 }, { min_amount_minor: 500, max_amount_minor: 499 }],
  },
  {
    name: "campaign_dates",
    table: "campaign",
    bad: () => [
      { start_at: T, end_at: T },
      { start_at: T, end_at: T - 1 },
    ],
  },
  { name: "campaign_visibility_valid", table: "campaign", bad: () => [{ visibility: "secret" }] },
  { name: "campaign_org_slug_unique", table: "campaign", bad: (f) => [{ slug: f.slug }], error: UNIQUE },
  {
    name: "campaign_money_integer",
    table: "campaign",
    bad: () => [
      { goal_amount_minor: 100.5 },
      { goal_amount_minor: "lots" },
      { goal_type: "donations", goal_amount_minor: null, goal_count: 2.5 },
      { min_amount_minor: 1.5 },
      { max_amount_minor: "lots" },
    ],
  },
  { name: "campaign_slug_pk", table: "campaign_slug", bad: (f) => [{ slug: f.slug }], error: UNIQUE },
  { name: "campaign_slug_same_org", table: "campaign_slug", bad: () => [{ campaign_id: w.campaignB }] },
  {
    name: "campaign_item_unit_positive",
    table: "campaign_item",
    bad: () => [{ unit_amount_minor: 0 }, { unit_amount_minor: -100 }],
  },
  {
    name: "campaign_item_quantity_positive",
    table: "campaign_item",
    bad: () => [{ quantity_needed: 0 }, { quantity_needed: -3 }],
  },
  {
    name: "campaign_item_title_len",
    table: "campaign_item",
    bad: () => [{ title: "" }, { title: "x".repeat(129) }],
  },
  {
    name: "campaign_item_money_integer",
    table: "campaign_item",
    bad: () => [{ unit_amount_minor: 45.5 }, { unit_amount_minor: "coat" }, { quantity_needed: 1.5 }],
  },
  { name: "campaign_item_same_org", table: "campaign_item", bad: () => [{ campaign_id: w.campaignB }] },
  { name: "donor_tier_basis_valid", table: "donor_tier", bad: () => [{ basis: "forever" }] },
  {
    name: "donor_tier_range",
    table: "donor_tier",
    bad: () => [{ min_minor: -1 }, { min_minor: 500, max_minor: 500 }, { min_minor: 500, max_minor: 100 }],
  },
  {
    name: "donor_tier_money_integer",
    table: "donor_tier",
    bad: () => [{ min_minor: 0.5 }, { max_minor: 100.25 }, { max_minor: "lots" }],
  },
  { name: "donor_type_valid", table: "donor", bad: () => [{ type: "robot" }] },
  { name: "donor_email_lower", table: "donor", bad: () => [{ email: "Grace@Example.test" }] },
  {
    name: "donor_has_name",
    table: "donor",
    bad: () => [{ first_name: null, last_name: null, company: null, email: null }],
  },
  {
    name: "donor_stats_nonneg",
    table: "donor",
    bad: () => [{ lifetime_minor: -1 }, { donation_count: -1 }],
  },
  { name: "donor_org_email_unique", table: "donor", bad: (f) => [{ email: f.email }], error: UNIQUE },
  {
    name: "donor_stats_integer",
    table: "donor",
    bad: () => [{ lifetime_minor: 10.5 }, { donation_count: 1.5 }, { largest_gift_minor: "big" }],
  },
  {
    name: "donor_refs_same_org",
    table: "donor",
    bad: () => [{ tier_id: w.tierB }, { previous_tier_id: w.tierB }, { merged_into_id: w.donorB }],
  },
  {
    name: "donor_tag_name_len",
    table: "donor_tag",
    bad: () => [{ name: "" }, { name: "   " }, { name: "x".repeat(41) }],
  },
  {
    name: "donor_tag_org_name_unique",
    table: "donor_tag",
    bad: (f) => [
      { name: f.name },
      { name: String(f.name).toUpperCase() },
      { name: String(f.name).toLowerCase() },
    ],
    error: UNIQUE,
  },
  {
    name: "donor_tag_assignment_pk",
    table: "donor_tag_assignment",
    bad: (f) => [{ tag_id: f.tag_id }],
    error: UNIQUE,
  },
  {
    name: "donor_tag_assignment_same_org",
    table: "donor_tag_assignment",
    bad: () => [{ tag_id: w.tagB }, { donor_id: w.donorB }],
  },
  // 0031: a donor's other addresses (decision 052).
  { name: "donor_contact_kind_valid", table: "donor_contact", bad: () => [{ kind: "fax" }] },
  { name: "donor_contact_email_lower", table: "donor_contact", bad: () => [{ value: "Other@Example.test" }] },
  { name: "donor_contact_pk", table: "donor_contact", bad: (f) => [{ value: f.value }], error: UNIQUE },
  {
    // Another donor of the organization with the same address.
    name: "donor_contact_org_email_unique",
    table: "donor_contact",
    bad: (f) => [{ donor_id: w.donorA2, value: f.value }],
    error: UNIQUE,
  },
  { name: "donor_contact_same_org", table: "donor_contact", bad: () => [{ donor_id: w.donorB }] },
  { name: "donor_note_body_len", table: "donor_note", bad: () => [{ body: "" }, { body: hugeNote }] },
  { name: "donor_note_visibility_valid", table: "donor_note", bad: () => [{ visibility: "public" }] },
  { name: "donor_note_same_org", table: "donor_note", bad: () => [{ donor_id: w.donorB }] },
  {
    name: "donation_amount_positive",
    table: "donation",
    bad: () => [
      { amount_minor: 0, refunded_minor: 0 },
      { amount_minor: -500, refunded_minor: -600 },
    ],
  },
  {
    name: "donation_money_nonneg",
    table: "donation",
    bad: () => [
      { fee_covered_minor: -1 },
      { processing_fee_minor: -1 },
      { platform_fee_minor: -1 },
      { refunded_minor: -1 },
    ],
  },
  { name: "donation_refund_le_amount", table: "donation", bad: () => [{ refunded_minor: 5_001 }] },
  { name: "donation_currency_len", table: "donation", bad: () => [{ currency: "" }, { currency: "DOLLAR" }] },
  {
    name: "donation_status_valid",
    table: "donation",
    bad: () => [{ status: "paid" }, { status: "COMPLETED" }],
  },
  { name: "donation_frequency_valid", table: "donation", bad: () => [{ frequency: "weekly" }] },
  { name: "donation_mode_valid", table: "donation", bad: () => [{ mode: "sandbox" }] },
  { name: "donation_source_valid", table: "donation", bad: () => [{ source: "telepathy" }] },
  { name: "donation_item_quantity", table: "donation", bad: () => [{ item_quantity: -1 }] },
  {
    name: "donation_org_number_unique",
    table: "donation",
    bad: (f) => [{ number: f.number }],
    error: UNIQUE,
  },
  {
    name: "donation_gateway_tx_unique",
    table: "donation",
    bad: (f) => [{ gateway_transaction_id: f.gateway_transaction_id }],
    error: UNIQUE,
  },
  {
    name: "donation_money_integer",
    table: "donation",
    bad: () => [
      { amount_minor: 12.5 },
      // TEXT sorts above every number in SQLite, so 'abc' > 0 held before the trigger existed.
      { amount_minor: "abc" },
      { refunded_minor: 0.5 },
      { fee_covered_minor: 1.5 },
      { processing_fee_minor: 0.1 },
      { platform_fee_minor: 2.5 },
      { item_quantity: 1.5 },
      { number: 1.5 },
    ],
  },
  {
    name: "donation_refs_same_org",
    table: "donation",
    bad: () => [
      { donor_id: w.donorB },
      { campaign_id: w.campaignB, campaign_item_id: null },
      { campaign_item_id: w.itemB, campaign_id: null },
      // An item of another campaign of the same organization.
      { campaign_item_id: w.itemA2 },
    ],
  },
  {
    name: "campaign_stats_pk",
    table: "campaign_stats",
    bad: (f) => [{ campaign_id: f.campaign_id }],
    error: UNIQUE,
  },
  {
    name: "campaign_stats_integer",
    table: "campaign_stats",
    bad: () => [
      { raised_minor: 1.5 },
      { donation_count: "many" },
      { donor_count: 0.5 },
      { refunded_minor: 2.5 },
    ],
  },
  { name: "campaign_stats_same_org", table: "campaign_stats", bad: () => [{ campaign_id: w.campaignB }] },
  {
    name: "org_daily_pk",
    table: "org_daily",
    bad: (f) => [{ day: f.day }],
    error: UNIQUE,
  },
  {
    name: "org_daily_integer",
    table: "org_daily",
    bad: () => [{ raised_minor: 1.5 }, { donation_count: "x" }],
  },
  { name: "org_counter_pk", table: "org_counter", bad: (f) => [{ name: f.name }], error: UNIQUE },
  {
    name: "donation_totals_pk",
    table: "donation_totals",
    bad: (f) => [{ currency: f.currency }],
    error: UNIQUE,
  },
  { name: "donation_totals_trashed", table: "donation_totals", bad: () => [{ trashed: 2 }, { trashed: -1 }] },
  {
    name: "donation_daily_totals_pk",
    table: "donation_daily_totals",
    bad: (f) => [{ currency: f.currency }],
    error: UNIQUE,
  },
  {
    name: "donation_daily_totals_trashed",
    table: "donation_daily_totals",
    bad: () => [{ trashed: 2 }, { trashed: -1 }],
  },
  {
    name: "donation_daily_totals_day",
    table: "donation_daily_totals",
    // Local days as dayKey writes them, or the text order of days would not be the order of time.
    bad: () => [{ day: "2026-3-29" }, { day: "999-12-31" }, { day: "10000-01-01" }, { day: "2026-03-29T00" }],
  },
  {
    name: "donation_daily_state_pk",
    table: "donation_daily_state",
    bad: (f) => [{ organization_id: f.organization_id }],
    error: UNIQUE,
  },
  // 0026: a rebuild under way, one per organization (decision 038).
  {
    name: "donation_daily_build_pk",
    table: "donation_daily_build",
    bad: (f) => [{ organization_id: f.organization_id }],
    error: UNIQUE,
  },
  // 0021: the dashboard's rollups (decision 032).
  { name: "analytics_bucket_pk", table: "analytics_bucket", bad: (f) => [{ lo: f.lo }], error: UNIQUE },
  { name: "analytics_facet_pk", table: "analytics_facet", bad: (f) => [{ key: f.key }], error: UNIQUE },
  { name: "analytics_facet_grain", table: "analytics_facet", bad: () => [{ grain: "w" }, { grain: "D" }] },
  {
    name: "analytics_facet_facet",
    table: "analytics_facet",
    bad: () => [{ facet: "status" }, { facet: "" }],
  },
  { name: "donor_period_pk", table: "donor_period", bad: (f) => [{ donor_id: f.donor_id }], error: UNIQUE },
  { name: "donor_period_grain", table: "donor_period", bad: () => [{ grain: "y" }] },
  // 0024: a large campaign's own rollups (decision 037).
  {
    name: "campaign_rollup_state_pk",
    table: "campaign_rollup_state",
    bad: (f) => [{ campaign_id: f.campaign_id }],
    error: UNIQUE,
  },
  // 0026: a large campaign's build under way, one per campaign (decision 038).
  {
    name: "campaign_rollup_build_pk",
    table: "campaign_rollup_build",
    bad: (f) => [{ campaign_id: f.campaign_id }],
    error: UNIQUE,
  },
  { name: "campaign_facet_pk", table: "campaign_facet", bad: (f) => [{ key: f.key }], error: UNIQUE },
  { name: "campaign_facet_grain", table: "campaign_facet", bad: () => [{ grain: "w" }] },
  { name: "campaign_facet_facet", table: "campaign_facet", bad: () => [{ facet: "method" }, { facet: "" }] },
  {
    name: "campaign_donor_period_pk",
    table: "campaign_donor_period",
    bad: (f) => [{ donor_id: f.donor_id }],
    error: UNIQUE,
  },
  { name: "campaign_donor_period_grain", table: "campaign_donor_period", bad: () => [{ grain: "y" }] },
  {
    name: "analytics_version_pk",
    table: "analytics_version",
    bad: (f) => [{ organization_id: f.organization_id }],
    error: UNIQUE,
  },

  // 0015: CSV import (decision 028)
  {
    name: "donation_org_import_key_unique",
    table: "donation",
    bad: (f) => [{ import_key: f.import_key }],
    error: UNIQUE,
  },
  {
    name: "donor_org_import_key_unique",
    table: "donor",
    bad: (f) => [{ import_key: f.import_key }],
    error: UNIQUE,
  },
  { name: "data_import_kind_valid", table: "data_import", bad: () => [{ kind: "campaigns" }] },
  {
    name: "data_import_status_valid",
    table: "data_import",
    bad: () => [{ status: "paused" }, { status: "" }],
  },
  { name: "data_import_next_row", table: "data_import", bad: () => [{ next_row: 1 }, { next_row: 0 }] },
  {
    name: "import_rejection_pk",
    table: "import_rejection",
    bad: (f) => [{ row_number: f.row_number }],
    error: UNIQUE,
  },
  { name: "import_mapping_kind_valid", table: "import_mapping", bad: () => [{ kind: "gifts" }] },
  {
    name: "import_mapping_name_len",
    table: "import_mapping",
    bad: () => [{ name: "   " }, { name: "x".repeat(61) }],
  },
  // 0016: recurring plans (decision 030)
  {
    name: "recurring_plan_amount_positive",
    table: "recurring_plan",
    bad: () => [{ amount_minor: 0 }, { amount_minor: -500 }],
  },
  {
    name: "recurring_plan_currency_len",
    table: "recurring_plan",
    bad: () => [{ currency: "US" }, { currency: "USDX" }],
  },
  { name: "recurring_plan_interval_valid", table: "recurring_plan", bad: () => [{ interval: "week" }] },
  {
    name: "recurring_plan_day_valid",
    table: "recurring_plan",
    bad: () => [{ interval_day: 0 }, { interval_day: 32 }],
  },
  { name: "recurring_plan_status_valid", table: "recurring_plan", bad: () => [{ status: "failing" }] },
  { name: "recurring_plan_source_valid", table: "recurring_plan", bad: () => [{ source: "api" }] },
  {
    name: "recurring_plan_totals_nonneg",
    table: "recurring_plan",
    bad: () => [{ gift_count: -1 }, { given_minor: -1 }, { missed_count: -1 }],
  },
  {
    name: "recurring_plan_gateway_sub_unique",
    table: "recurring_plan",
    bad: (f) => [{ gateway_subscription_id: f.gateway_subscription_id }],
    error: UNIQUE,
  },
  {
    name: "recurring_plan_refs_same_org",
    table: "recurring_plan",
    bad: () => [{ donor_id: w.donorB }, { campaign_id: w.campaignB }],
  },
  {
    name: "recurring_plan_money_integer",
    table: "recurring_plan",
    bad: () => [{ amount_minor: 10.5 }, { given_minor: "lots" }, { gift_count: 1.5 }, { interval_day: 1.5 }],
  },
  { name: "donation_plan_same_org", table: "donation", bad: () => [{ plan_id: w.planB }] },
  { name: "plan_event_kind_valid", table: "plan_event", bad: () => [{ kind: "deleted" }] },
  {
    name: "plan_monthly_month",
    table: "plan_monthly",
    bad: () => [{ month: "2026-3" }, { month: "2026-03-01" }, { month: "999-12" }],
  },
  { name: "plan_monthly_pk", table: "plan_monthly", bad: (f) => [{ currency: f.currency }], error: UNIQUE },
  { name: "plan_totals_pk", table: "plan_totals", bad: (f) => [{ currency: f.currency }], error: UNIQUE },
  // 0018: receipt settings (decision 031)
  {
    name: "receipt_settings_language_valid",
    table: "receipt_settings",
    bad: () => [{ language: "xx" }, { language: "EN" }],
  },
  {
    name: "receipt_settings_prefix_len",
    table: "receipt_settings",
    bad: () => [{ number_prefix: "ABCDEFGHIJKLM" }],
  },
  // 0019: receipts (decision 031)
  { name: "receipt_kind_valid", table: "receipt", bad: () => [{ kind: "copy" }] },
  { name: "receipt_status_valid", table: "receipt", bad: () => [{ status: "sent" }] },
  { name: "receipt_number_positive", table: "receipt", bad: () => [{ number: 0 }, { number: -3 }] },
  {
    name: "receipt_deductible_valid",
    table: "receipt",
    bad: () => [{ deductible_minor: 0 }, { deductible_minor: 1_001 }],
  },
  {
    name: "receipt_void_has_time",
    table: "receipt",
    bad: () => [{ status: "void" }, { voided_at: T }],
  },
  { name: "receipt_org_number_unique", table: "receipt", bad: (f) => [{ number: f.number }], error: UNIQUE },
  {
    name: "receipt_one_issued_per_gift",
    table: "receipt",
    bad: (f) => [{ donation_id: f.donation_id }],
    error: UNIQUE,
  },
  {
    name: "receipt_settings_pk",
    table: "receipt_settings",
    bad: (f) => [{ organization_id: f.organization_id }],
    error: UNIQUE,
  },
  {
    name: "plan_rollups_integer",
    table: "plan_totals",
    bad: () => [{ plan_count: 1.5 }, { annual_minor: "many" }],
  },
  {
    name: "plan_rollup_state_pk",
    table: "plan_rollup_state",
    bad: (f) => [{ organization_id: f.organization_id }],
    error: UNIQUE,
  },
  // 0020: receipts go out (decision 031)
  { name: "receipt_delivery_valid", table: "receipt", bad: () => [{ delivery: "lost" }, { delivery: "" }] },
  {
    name: "receipt_refs_same_org",
    table: "receipt",
    bad: () => [{ donor_id: w.donorB }, { donation_id: w.donationB }],
  },
  {
    name: "thank_you_template_subject_len",
    table: "thank_you_template",
    bad: () => [{ subject: "" }, { subject: "x".repeat(201) }],
  },
  {
    name: "thank_you_template_body_len",
    table: "thank_you_template",
    bad: () => [{ body: "" }, { body: "x".repeat(10_001) }],
  },
  {
    // One organization message: organization A's is written in beforeAll.
    name: "thank_you_template_org_default",
    table: "thank_you_template",
    bad: () => [{ campaign_id: null }],
    error: UNIQUE,
  },
  {
    name: "thank_you_template_org_campaign",
    table: "thank_you_template",
    bad: (f) => [{ campaign_id: f.campaign_id }],
    error: UNIQUE,
  },
  {
    name: "thank_you_template_campaign_same_org",
    table: "thank_you_template",
    bad: () => [{ campaign_id: w.campaignB }],
  },
  { name: "acknowledgement_kind_valid", table: "acknowledgement", bad: () => [{ kind: "letter" }] },
  {
    name: "acknowledgement_refs_same_org",
    table: "acknowledgement",
    bad: () => [{ donor_id: w.donorB }, { donation_id: w.donationB }],
  },
  { name: "statement_run_basis_valid", table: "statement_run", bad: () => [{ basis: "weekly" }] },
  {
    name: "statement_run_counts_valid",
    table: "statement_run",
    bad: () => [{ sent: -1 }, { skipped: -1 }, { sent: 6, skipped: 5 }],
  },
  {
    name: "import_mapping_org_name_unique",
    table: "import_mapping",
    bad: (f) => [{ name: String(f.name).toUpperCase() }],
    error: UNIQUE,
  },
  // 0028: ownership offers and deleted organizations (decisions 046, 047).
  {
    name: "organization_deletion_pk",
    table: "organization_deletion",
    bad: (f) => [{ organization_id: f.organization_id }],
    error: UNIQUE,
  },
  { name: "ownership_offer_from_becomes", table: "ownership_offer", bad: () => [{ from_becomes: "viewer" }] },
  { name: "ownership_offer_status_valid", table: "ownership_offer", bad: () => [{ status: "pending" }] },
  {
    name: "ownership_offer_not_self",
    table: "ownership_offer",
    bad: (f) => [{ to_user_id: f.from_user_id }],
  },
  // Organization A already has an open offer (beforeAll): a second one is refused.
  {
    name: "ownership_offer_one_open",
    table: "ownership_offer",
    bad: () => [{ status: "open" }],
    error: UNIQUE,
  },
  // 0030: organizations on request (decision 045).
  {
    name: "organization_request_status_valid",
    table: "organization_request",
    bad: () => [{ status: "cancelled" }],
  },
  {
    name: "organization_request_decided",
    table: "organization_request",
    bad: () => [
      { decided_at: T },
      { status: "approved" },
      { status: "declined", decided_at: T, reason: null },
    ],
  },
  {
    name: "organization_request_fiscal_month",
    table: "organization_request",
    bad: () => [{ fiscal_year_start_month: 0 }, { fiscal_year_start_month: 13 }],
  },
  {
    name: "organization_request_currency_len",
    table: "organization_request",
    bad: () => [{ default_currency: "US" }, { default_currency: "USDX" }],
  },
  {
    name: "organization_request_one_pending",
    table: "organization_request",
    bad: (f) => [{ user_id: f.user_id }],
    error: UNIQUE,
  },
];

beforeAll(async () => {
  const orgA = rows.organization();
  const orgB = rows.organization();
  const user = rows.user();
  await testEnv.DB.batch([insert("organization", orgA), insert("organization", orgB), insert("user", user)]);
  const partial = { orgA: String(orgA.id), orgB: String(orgB.id), user: String(user.id) };
  w = partial as World;
  const inB = { organization_id: w.orgB };
  const make = async (table: Table, extra: Row = {}) => {
    const row: Row = { ...rows[table](), ...extra };
    await add(table, row);
    return String(row.id);
  };
  w.campaignA = await make("campaign");
  w.campaignA2 = await make("campaign");
  w.campaignB = await make("campaign", inB);
  w.itemA = await make("campaign_item");
  w.itemA2 = await make("campaign_item", { campaign_id: w.campaignA2 });
  w.itemB = await make("campaign_item", { ...inB, campaign_id: w.campaignB });
  w.tierA = await make("donor_tier");
  w.tierB = await make("donor_tier", inB);
  w.donorA = await make("donor", { tier_id: w.tierA });
  w.donorA2 = await make("donor");
  w.donorB = await make("donor", inB);
  w.tagA = await make("donor_tag");
  w.tagB = await make("donor_tag", inB);
  w.importA = await make("data_import");
  w.planA = await make("recurring_plan");
  w.planB = await make("recurring_plan", { ...inB, donor_id: w.donorB, campaign_id: w.campaignB });
  w.donationB = await make("donation", {
    ...inB,
    donor_id: w.donorB,
    campaign_id: w.campaignB,
    campaign_item_id: w.itemB,
  });
  // Organization A's one open ownership offer, which ownership_offer_one_open keeps alone.
  pendingUsers.push(uid("heir"));
  const heir = pendingUsers[pendingUsers.length - 1] as string;
  await flushUsers();
  await add("ownership_offer", {
    ...rows.ownership_offer(),
    to_user_id: heir,
    status: "open",
    decided_at: null,
  });
  await flushUsers();
  // Organization A's own thank-you message: a second one is what thank_you_template_org_default refuses.
  await add("thank_you_template", {
    id: uid("ty"),
    organization_id: w.orgA,
    campaign_id: null,
    subject: "Thank you",
    body: "Thank you.",
    ...ts,
  });
});

async function flushUsers() {
  for (const id of pendingUsers.splice(0)) {
    await add("user", { id, name: "Member", email: `${id}@example.test`, ...ts });
  }
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return "accepted";
}

describe("every constraint refuses what it forbids", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    await prepareParents(c.table);
    const make = () => rows[c.table]();
    const first = make();
    const second = make();
    await flushUsers();
    const firstRowid = await add(c.table, first);
    const secondRowid = await add(c.table, second);
    expect(firstRowid).toBeGreaterThan(0);
    const error = c.error ?? new RegExp(`CHECK constraint failed: ${c.name}\\b`);
    for (const override of c.bad(first)) {
      const fresh = { ...make(), ...override };
      await flushUsers();
      expect(await refusal(insert(c.table, fresh).run()), `INSERT ${JSON.stringify(override)}`).toMatch(
        error,
      );
      expect(
        await refusal(update(c.table, secondRowid, override).run()),
        `UPDATE ${JSON.stringify(override)}`,
      ).toMatch(error);
    }
    // The refused UPDATEs left the second row as it was.
    const keys = Object.keys(second);
    const stored = await testEnv.DB.prepare(
      `SELECT ${keys.map((k) => `"${k}"`).join(", ")} FROM "${c.table}" WHERE rowid = ?`,
    )
      .bind(secondRowid)
      .first<Row>();
    expect(stored).toEqual(second);
  });

  it("has a case for every constraint and trigger the migrations declare", () => {
    const queries = testEnv.TEST_MIGRATIONS.flatMap((m) => m.queries);
    const sql = queries.join("\n");
    const declared = new Set([
      ...[...sql.matchAll(/CONSTRAINT "([a-z0-9_]+)" CHECK/g)].map((m) => m[1]),
      ...[...sql.matchAll(/CREATE UNIQUE INDEX `([a-z0-9_]+)`/g)].map((m) => m[1]),
      ...[...sql.matchAll(/RAISE\(ABORT, 'CHECK constraint failed: ([a-z0-9_]+)'\)/g)].map((m) => m[1]),
      // Primary keys other than a lone `id` carry no name in SQL: "<table>_pk" stands for them.
      ...queries.flatMap((q) => {
        const table = /CREATE TABLE `([a-z0-9_]+)`/.exec(q)?.[1];
        const naturalKey = q.includes("PRIMARY KEY(") || /`(?!id`)[a-z0-9_]+` \w+ PRIMARY KEY/.test(q);
        return table && naturalKey ? [`${table}_pk`] : [];
      }),
    ]);
    const tested = new Set(cases.map((c) => c.name));
    expect([...declared].filter((d) => d && !tested.has(d)).sort()).toEqual([]);
    expect([...tested].filter((t) => !declared.has(t)).sort()).toEqual([]);
  });
});

describe("what the constraints allow", () => {
  it("scopes uniqueness to the organization and lets NULLs repeat", async () => {
    const email = `${uid("same")}@example.test`;
    const slug = uid("same-slug");
    const tx = uid("same-tx");
    const tag = uid("Same");
    const number = 900_000 + n;
    for (const org of [w.orgA, w.orgB]) {
      const donorRow: Row = { ...rows.donor(), organization_id: org, email };
      await add("donor", donorRow);
      await add("campaign", { ...rows.campaign(), organization_id: org, slug });
      await add("donor_tag", { ...rows.donor_tag(), organization_id: org, name: tag });
      await add("donation", {
        ...rows.donation(),
        organization_id: org,
        donor_id: donorRow.id,
        campaign_id: null,
        campaign_item_id: null,
        number,
        gateway_transaction_id: tx,
      });
    }
    // Donors without e-mail and manual gifts without a gateway id are many per organization.
    for (let i = 0; i < 2; i++) {
      await add("donor", { ...rows.donor(), email: null });
      await add("donation", { ...rows.donation(), gateway_transaction_id: null });
    }
  });

  it("stores money typed as 100.0 or '100' as the integer 100", async () => {
    for (const amount of [100.0, "100"]) {
      const row: Row = { ...rows.donation(), amount_minor: amount };
      await add("donation", row);
      const got = await testEnv.DB.prepare(
        "SELECT amount_minor, typeof(amount_minor) AS t FROM donation WHERE id = ?",
      )
        .bind(row.id)
        .first();
      expect(got).toEqual({ amount_minor: 100, t: "integer" });
    }
  });

  it("refuses references to missing rows", async () => {
    expect(await refusal(insert("donation", { ...rows.donation(), donor_id: "nobody" }).run())).toMatch(
      /FOREIGN KEY constraint failed/,
    );
    expect(
      await refusal(insert("campaign", { ...rows.campaign(), organization_id: "no-org" }).run()),
    ).toMatch(/FOREIGN KEY constraint failed/);
  });

  it("writes nothing from a batch whose last statement is refused", async () => {
    const donorRow = rows.donor();
    const donationRow: Row = { ...rows.donation(), donor_id: donorRow.id };
    const refused = refusal(
      testEnv.DB.batch([
        insert("donor", donorRow),
        insert("donation", donationRow),
        insert("donation", { ...rows.donation(), amount_minor: 0.5 }),
      ]),
    );
    expect(await refused).toMatch(/donation_money_integer/);
    const left = await testEnv.DB.prepare(
      "SELECT (SELECT count(*) FROM donor WHERE id = ?) + (SELECT count(*) FROM donation WHERE id = ?) AS n",
    )
      .bind(donorRow.id, donationRow.id)
      .first();
    expect(left).toEqual({ n: 0 });
  });

  it("lets deletes cascade and null out references without tripping the tenancy triggers", async () => {
    const org = rows.organization();
    await add("organization", org);
    const o = { organization_id: String(org.id) };
    const camp: Row = { ...rows.campaign(), ...o };
    await add("campaign", camp);
    const item: Row = { ...rows.campaign_item(), ...o, campaign_id: camp.id };
    await add("campaign_item", item);
    const tier: Row = { ...rows.donor_tier(), ...o };
    await add("donor_tier", tier);
    const donorRow: Row = { ...rows.donor(), ...o, tier_id: tier.id };
    await add("donor", donorRow);
    const gift: Row = {
      ...rows.donation(),
      ...o,
      donor_id: donorRow.id,
      campaign_id: camp.id,
      campaign_item_id: item.id,
    };
    await add("donation", gift);
    await add("campaign_stats", { campaign_id: String(camp.id), ...o, updated_at: T });

    // ON DELETE SET NULL rewrites the donation: the UPDATE triggers must let it through.
    await testEnv.DB.prepare("DELETE FROM campaign WHERE id = ?").bind(camp.id).run();
    await testEnv.DB.prepare("DELETE FROM donor WHERE id = ?").bind(donorRow.id).run();
    expect(
      await testEnv.DB.prepare("SELECT donor_id, campaign_id, campaign_item_id FROM donation WHERE id = ?")
        .bind(gift.id)
        .first(),
    ).toEqual({ donor_id: null, campaign_id: null, campaign_item_id: null });
    expect(
      await testEnv.DB.prepare("SELECT count(*) AS n FROM campaign_stats WHERE campaign_id = ?")
        .bind(camp.id)
        .first(),
    ).toEqual({ n: 0 });

    // Deleting the organization takes every business row with it.
    await testEnv.DB.prepare("DELETE FROM organization WHERE id = ?").bind(org.id).run();
    const tables = ["campaign", "campaign_item", "donor", "donor_tier", "donation"];
    for (const t of tables) {
      const left = await testEnv.DB.prepare(`SELECT count(*) AS n FROM "${t}" WHERE organization_id = ?`)
        .bind(org.id)
        .first();
      expect(left, t).toEqual({ n: 0 });
    }
  });
});
