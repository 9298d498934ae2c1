// The benchmark's world, shared by `npm run bench` and scripts/bench-export.mjs: the demo seed,
// then, in Harbor Light, `campaigns` campaigns, `donors` donors (one in seven tagged) and
// `donations` gifts over two years, with rollups rebuilt as the API keeps them. The first
// campaign is a general fund: one gift in five goes to it (≈ 200 000 at 1 M,
// past campaignRollupsFrom (10 000): its own rollups, decision 037), the rest spread over the others.
//
// Gifts are inserted in the order they were given (number and rowid follow the date), as a live
// table fills: webhooks and manual entries write gifts as they happen. `layout: "scrambled"`
// inserts the same rows in a pseudo-random order instead (every gift's neighbours by date lie
// anywhere in the table), the worst case of an import of history in random order; the export
// bench reports both (docs/performance.md).
//
// `shape: "production"` (npm run scale:measure, docs/scaling.md) fills rows as the running service
// writes them instead of the bench's short stand-ins: its own organization, 32-character ids as
// generateId makes them, gateway and change tokens, fees, messages, notes, addresses, tiers, and the
// audit rows every recorded gift writes (productionSql below).
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { d1ExecFile, d1Query, migrateLocal, run } from "./lib.mjs";

/**
 * Seeds `stateDir` (migrations, demo world, bulk rows). Returns Harbor Light's id and the seed's
 * reference instant `T` (donations fall in the two years before it).
 */
export async function seedBench(
  stateDir,
  env,
  { donations, donors, campaigns, layout = "date", now = Date.now(), shape = "bench" },
) {
  migrateLocal(stateDir);
  run(process.execPath, ["scripts/seed.mjs", "--now", String(now)], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const T = now;
  const order = layout === "scrambled" ? "(n * 2654435761) % 4294967296" : "at, n";
  if (shape === "production") {
    const orgId = randomBytes(16).toString("hex");
    const { sql, after } = productionSql({ orgId, T, donations, donors, campaigns, order });
    const { rollupSql } = await import("./seed-domain.mjs");
    execFiles(stateDir, [sql, rollupSql(orgId, "America/Los_Angeles").join("\n"), after]);
    return { orgId, T };
  }
  const [{ id: orgId }] = d1Query("SELECT id FROM organization WHERE slug = 'harbor-light'", stateDir);
  const plans = planSql({
    org: `'${orgId}'`,
    T,
    donations,
    newId: (k) => `'bp' || ${k}`,
    donorOf: (k) => `'bd' || (1 + (${k} * 7919) % ${donors})`,
    campaignOf: (k) => `'bc' || (1 + ${k} % ${campaigns})`,
  });
  // Donation n: a pseudo-random instant in the last two years and amount; every 29th refunded,
  // every 31st failed, every 4th by check; every 5th a gift of a recurring plan (planSql: its
  // donor, campaign, amount and a date on the plan's schedule).
  // Scrambled: a pseudo-random permutation of the gifts (the generator's own order is nearly in
  // date order already: consecutive gifts lie 63 s apart).
  const g = plans.gift;
  const sql = `
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${campaigns})
INSERT INTO campaign (id, organization_id, title, slug, currency, goal_type, goal_amount_minor, status, suggested_amounts, created_at, updated_at)
SELECT 'bc' || n, '${orgId}', 'Bench campaign ' || n, 'bench-' || n, 'USD', 'amount', 10000000, 'active', '[]', ${T}, ${T} FROM s;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donors})
INSERT INTO donor (id, organization_id, type, first_name, last_name, email, created_at, updated_at)
SELECT 'bd' || n, '${orgId}', 'individual', 'Donor', 'Number' || n, 'donor' || n || '@bench.test', ${T} - n * 1000, ${T} FROM s;
INSERT INTO donor_tag (id, organization_id, name, color, created_at, updated_at) VALUES ('btag1', '${orgId}', 'Bench tag', '#0f766e', ${T}, ${T});
INSERT INTO donor_tag_assignment (donor_id, tag_id, organization_id) SELECT id, 'btag1', organization_id FROM donor WHERE organization_id = '${orgId}' AND id GLOB 'bd[0-9]*' AND substr(id, 3) NOT GLOB '*[^0-9]*' AND (CAST(substr(id, 3) AS INTEGER) % 7) = 0;
${plans.before}
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donations}),
  g AS (SELECT n, k AS plan_k, ${g.amount("100 + (n * 2654435761) % 49900")} AS amt, ${g.at(`${T} - (n * 63113) % 63072000000`)} AS at
          FROM (SELECT n, ${g.plan} AS k FROM s))
INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, plan_id, amount_minor, refunded_minor, currency, status, frequency, payment_method, source, mode, donated_at, created_at, updated_at)
SELECT 'bx' || n, '${orgId}', 100000 + row_number() OVER (ORDER BY ${order}),
  CASE WHEN plan_k IS NULL THEN 'bd' || (1 + (n * 7919) % ${donors}) ELSE ${plans.donorOf("plan_k")} END,
  CASE WHEN plan_k IS NOT NULL THEN ${plans.campaignOf("plan_k")} WHEN n % 5 = 1 THEN 'bc1' ELSE 'bc' || (2 + n % ${Math.max(1, campaigns - 1)}) END,
  ${plans.planOf("plan_k")}, amt,
  CASE WHEN n % 29 = 0 THEN amt ELSE 0 END, 'USD',
  CASE WHEN n % 29 = 0 THEN 'refunded' WHEN n % 31 = 0 THEN 'failed' ELSE 'completed' END,
  ${g.frequency("plan_k")}, CASE WHEN n % 4 = 0 THEN 'check' ELSE 'card' END, 'online', 'live',
  at, at, at
FROM g ORDER BY ${order};
UPDATE org_counter SET value = ${100000 + donations} WHERE organization_id = '${orgId}' AND name = 'donation';
${plans.after}
`;
  const { rollupSql } = await import("./seed-domain.mjs");
  execFiles(stateDir, [sql, rollupSql(orgId, "America/Los_Angeles").join("\n")]);
  return { orgId, T };
}

/**
 * The bench world's recurring plans (issue 24): one per 50 gifts (20 000 at 1M), each with every
 * fifth gift's share — ten gifts, monthly (one plan in ten quarterly), on the plan's day, the
 * newest in the last four weeks — so that most are active, one in 13 is past due (its gifts 45 days
 * earlier), one in 29 lapsed (100 days), one in 25 cancelled and one in 31 paused after its last
 * gift, each with the events the service would have written. `before` inserts the plans (rowid
 * PLAN_ROWID + k), `gift` gives the gift columns of gift n, `after` counts each plan's gifts, dates
 * and status and writes its history; the rollups are rebuilt with the rest (seed-domain.mjs).
 */
function planSql({ org, T, donations, newId, donorOf, campaignOf }) {
  const P = Math.max(1, Math.floor(donations / 50));
  const DAY = 86_400_000;
  const MONTH = 2_629_746_000;
  const PB = 10_000_000;
  const months = (k) => `(CASE WHEN ${k} % 10 = 0 THEN 3 ELSE 1 END)`;
  const late = (k) => `(CASE WHEN ${k} % 29 = 0 THEN 100 WHEN ${k} % 13 = 0 THEN 45 ELSE 0 END)`;
  const amount = (k) => `((5 + (${k} * 2654435761) % 96) * 100 * ${months(k)})`;
  const annual = (k) => `(${amount(k)} * 12 / ${months(k)})`;
  const planOf = (k) => `(SELECT id FROM recurring_plan WHERE rowid = ${PB} + ${k})`;
  const k = `(rowid - ${PB})`;
  const mine = `organization_id = ${org} AND rowid >= ${PB}`;
  const counted = "status IN ('completed','partially_refunded') AND mode = 'live' AND trashed_at IS NULL";
  const event = (at, kind, from, to, before, after, reason) =>
    `INSERT INTO plan_event (id, organization_id, plan_id, at, kind, from_status, to_status, currency, annual_before, annual_after, reason)
SELECT lower(hex(randomblob(16))), organization_id, id, ${at}, '${kind}', ${from}, '${to}', currency, ${before}, ${after}, ${reason}`;
  return {
    donorOf,
    campaignOf,
    planOf: (col) => `CASE WHEN ${col} IS NOT NULL THEN ${planOf(col)} END`,
    gift: {
      plan: `CASE WHEN n % 5 = 0 THEN (n / 5) % ${P} END`,
      amount: (other) => `CASE WHEN k IS NULL THEN ${other} ELSE ${amount("k")} END`,
      at: (other) =>
        `CASE WHEN k IS NULL THEN ${other} ELSE ${T} - ((n / 5) / ${P}) * ${months("k")} * ${MONTH} - (k % 28 + ${late("k")}) * ${DAY} - 3600000 END`,
      frequency: (col) =>
        `CASE WHEN ${col} IS NULL THEN 'one_time' WHEN ${col} % 10 = 0 THEN 'quarterly' ELSE 'monthly' END`,
    },
    before: `WITH RECURSIVE s(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM s WHERE k < ${P - 1})
INSERT INTO recurring_plan (rowid, id, organization_id, donor_id, campaign_id, amount_minor, currency, interval, interval_day, status, source, gateway, gateway_subscription_id, payment_method, started_at, status_changed_at, change_token, created_at, updated_at)
SELECT ${PB} + k, ${newId("k")}, ${org}, ${donorOf("k")}, ${campaignOf("k")}, ${amount("k")}, 'USD',
  CASE WHEN k % 10 = 0 THEN 'quarter' ELSE 'month' END,
  CAST(strftime('%d', (${T} - (k % 28 + ${late("k")}) * ${DAY} - 3600000) / 1000, 'unixepoch') AS INTEGER),
  'active', 'webhook', 'stripe', 'sub_' || lower(hex(randomblob(10))), 'card', ${T}, ${T}, lower(hex(randomblob(16))), ${T}, ${T} FROM s;`,
    after: `UPDATE recurring_plan SET
  started_at = COALESCE((SELECT MIN(donated_at) FROM donation WHERE plan_id = recurring_plan.id), ${T}),
  gift_count = (SELECT COUNT(*) FROM donation WHERE plan_id = recurring_plan.id AND ${counted}),
  given_minor = COALESCE((SELECT SUM(amount_minor - refunded_minor) FROM donation WHERE plan_id = recurring_plan.id AND ${counted}), 0),
  last_gift_at = (SELECT MAX(donated_at) FROM donation WHERE plan_id = recurring_plan.id AND ${counted})
 WHERE ${mine};
UPDATE recurring_plan SET created_at = started_at, next_expected_at = COALESCE(last_gift_at, started_at) + ${months(k)} * ${MONTH} WHERE ${mine};
UPDATE recurring_plan SET
  status = CASE WHEN ${k} % 25 = 0 THEN 'cancelled' WHEN ${k} % 31 = 0 THEN 'paused'
                WHEN ${T} <= next_expected_at + 7 * ${DAY} THEN 'active' WHEN ${T} <= next_expected_at + 60 * ${DAY} THEN 'past_due' ELSE 'lapsed' END,
  status_changed_at = CASE WHEN ${k} % 25 = 0 OR ${k} % 31 = 0 THEN COALESCE(last_gift_at, started_at) + 5 * ${DAY}
                WHEN ${T} <= next_expected_at + 7 * ${DAY} THEN started_at WHEN ${T} <= next_expected_at + 60 * ${DAY} THEN next_expected_at + 7 * ${DAY}
                ELSE next_expected_at + 60 * ${DAY} END
 WHERE ${mine};
UPDATE recurring_plan SET
  ended_at = CASE WHEN status = 'cancelled' THEN status_changed_at END,
  next_expected_at = CASE WHEN status = 'cancelled' THEN NULL ELSE next_expected_at END,
  missed_count = CASE WHEN status IN ('past_due','lapsed') THEN 1 + (${T} - next_expected_at) / (${months(k)} * ${MONTH}) ELSE 0 END,
  updated_at = status_changed_at
 WHERE ${mine};
${event("started_at", "created", "NULL", "active", "0", annual(k), "NULL")} FROM recurring_plan WHERE ${mine};
${event(`next_expected_at + 7 * ${DAY}`, "status", "'active'", "past_due", annual(k), annual(k), "'No gift 7 days after it was due'")} FROM recurring_plan WHERE ${mine} AND status IN ('past_due','lapsed');
${event(`next_expected_at + 60 * ${DAY}`, "status", "'past_due'", "lapsed", annual(k), "0", "'No gift 60 days after it was due'")} FROM recurring_plan WHERE ${mine} AND status = 'lapsed';
${event("status_changed_at", "status", "'active'", "paused", annual(k), "0", "'Asked to skip a few months'")} FROM recurring_plan WHERE ${mine} AND status = 'paused';
${event("status_changed_at", "status", "'active'", "cancelled", annual(k), "0", "'Moved away'")} FROM recurring_plan WHERE ${mine} AND status = 'cancelled';`,
  };
}

/** Runs each SQL text against the local D1 in `stateDir`, in order, one `wrangler d1 execute` each. */
function execFiles(stateDir, texts) {
  const dir = mkdtempSync(join(tmpdir(), "almoner-bench-sql-"));
  try {
    texts.forEach((text, i) => {
      const file = join(dir, `${i}.sql`);
      writeFileSync(file, text);
      d1ExecFile(file, stateDir);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// biome-ignore format: a word list
const FIRST = ["Margaret", "James", "Olivia", "Robert", "Sofia", "Michael", "Emma", "David", "Ava", "William",
  "Isabella", "Daniel", "Charlotte", "Joseph", "Amelia", "Thomas", "Harper", "Christopher", "Evelyn", "Anthony",
  "Abigail", "Mark", "Elizabeth", "Steven", "Grace", "Andrew", "Chloe", "Kenneth", "Zoe", "Kevin", "Nora",
  "Brian", "Lily", "George", "Hannah", "Edward", "Layla", "Ronald", "Aaliyah", "Timothy", "Priya", "Jason",
  "Mei", "Omar", "Lucia", "Tariq", "Ingrid"];
// biome-ignore format: a word list
const LAST = ["Smith", "Johnson", "Williams", "Brown", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
  "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Nguyen",
  "Okafor", "Kowalski", "Haddad", "Fitzgerald", "Yamamoto", "Schneider", "Andersson", "Christensen",
  "Mensah", "Papadopoulos", "Oyelaran", "Patel", "Kim", "Chen", "O'Brien", "Novak", "Rossi", "Dubois",
  "Fischer", "Costa", "Larsen", "Murphy", "Silva", "Jansen"];
// biome-ignore format: a word list
const STREETS = ["Northeast Alder Street", "SE Hawthorne Boulevard", "Maple Avenue", "North Williams Avenue",
  "Oak Street", "SW Vista Avenue", "Division Street", "Lincoln Way", "Burnside Road", "Fremont Drive"];
const CITIES = ["Portland", "Beaverton", "Gresham", "Hillsboro", "Lake Oswego", "Vancouver", "Tigard"];
const DOMAINS = ["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "hotmail.com", "comcast.net"];
const MESSAGES = [
  "Keep up the good work!",
  "In memory of my father, who volunteered here for twenty years.",
  "For the kids' breakfast program.",
  "Happy holidays to all the volunteers.",
  "Thank you for everything you do for our neighbours.",
];
const TRIBUTES = ["Eleanor Whitfield", "Grandpa Joe", "Maria and Luis Ortega", "Dr. Samuel Adeyemi"];
const NOTES = [
  "Prefers a phone call before the gala.",
  "Interested in the kitchen project; ask about a matching gift from her employer.",
  "Thanked in person at the open day.",
  "Asked to receive the annual report by post, not e-mail.",
];

/**
 * The bulk rows of `shape: "production"`, as the service writes them (worker/ledger/donation-change.ts,
 * webhook.ts, service.ts; worker/lib/audit.ts), and what runs after the rollups (`after`: tiers).
 *
 * - Ids: 32 characters, as generateId (worker/auth/crypto.ts) makes them, random, so the id indexes
 *   fill as they do live. Gifts, donors and campaigns of one organization of its own.
 * - Donors: one in twelve an organization (company name), the rest first and last name; e-mail
 *   first.last.n@provider; phone on 2 in 5; a street address on 11 in 20, city, region, postal code
 *   and country on all; opt-ins; one in seven tagged, one in eight with a note; a tier once they gave.
 * - Gifts: three in four online through the processor's webhook (source webhook, gateway stripe or
 *   paypal, a 27–28 character transaction id, processing fee, one in three covering the fee), one in
 *   four a check entered by hand (created_by, one in five with an internal note); a change token on
 *   every row; a message on one in eight, a tribute on one in 33, anonymous one in twelve; status,
 *   frequency, amount and date as the bench's (every 29th refunded, every 31st failed).
 * - Audit rows: one per gift (webhook: donation.webhook_create with the transaction id and status
 *   and the event id as reason; by hand: donation.create with the input as JSON and the IP), and one
 *   more per refund (donation.webhook_status / donation.status).
 */
function productionSql({ orgId, T, donations, donors, campaigns, order }) {
  const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
  const pick = (list, expr) =>
    `json_extract(${q(JSON.stringify(list))}, '$[' || ((${expr}) % ${list.length}) || ']')`;
  const id = "lower(hex(randomblob(16)))";
  const org = q(orgId);
  const staff = q(randomBytes(16).toString("hex")); // the organizer who enters checks and writes notes
  const tiers = [0, 1, 2].map(() => q(randomBytes(16).toString("hex")));
  const DAY = 86_400_000;
  const base = 10_000_000; // rowids of the bulk donors and campaigns: base + n (demo rows sit far below)
  const online = "n % 4 != 0";
  const plans = planSql({
    org,
    T,
    donations,
    newId: () => id,
    donorOf: (k) => `(SELECT id FROM donor WHERE rowid = ${base} + 1 + (${k} * 7919) % ${donors})`,
    campaignOf: (k) => `(SELECT id FROM campaign WHERE rowid = ${base} + 1 + ${k} % ${campaigns})`,
  });
  const g = plans.gift;
  const sql = `
INSERT INTO organization (id, name, slug, legal_name, type, registration_id, tax_id, country, address_line1, city, region, postal_code, contact_email, contact_phone, website, mission, description, default_currency, time_zone, status, created_at, updated_at)
VALUES (${org}, 'Riverside Community Food Network', 'riverside-food', 'Riverside Community Food Network, Inc.', 'nonprofit', 'OR-2011-004417', '93-1234567', 'US', '1200 NE Broadway Street', 'Portland', 'OR', '97232', 'hello@riversidefood.example', '+1 503 555 0100', 'https://riversidefood.example', 'Hot meals and groceries for every family on the east side.', 'Founded by neighbours in 2011; two kitchens, one pantry, four hundred volunteers.', 'USD', 'America/Los_Angeles', 'active', ${T - 800 * DAY}, ${T});
INSERT INTO org_counter (organization_id, name, value) VALUES (${org}, 'donation', ${100000 + donations});
INSERT INTO donor_tier (id, organization_id, name, basis, min_minor, max_minor, color, sort_order, created_at, updated_at) VALUES
  (${tiers[0]}, ${org}, 'Friend', 'lifetime', 0, 50000, '#64748b', 0, ${T}, ${T}),
  (${tiers[1]}, ${org}, 'Supporter', 'lifetime', 50000, 500000, '#0f766e', 1, ${T}, ${T}),
  (${tiers[2]}, ${org}, 'Major donor', 'lifetime', 500000, NULL, '#b45309', 2, ${T}, ${T});
INSERT INTO donor_tag (id, organization_id, name, color, created_at, updated_at) VALUES (${id}, ${org}, 'Monthly giver', '#0f766e', ${T}, ${T});
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${campaigns})
INSERT INTO campaign (rowid, id, organization_id, title, slug, short_description, description, currency, goal_type, goal_amount_minor, suggested_amounts, status, created_by, published_at, created_at, updated_at)
SELECT ${base} + n, ${id}, ${org}, 'Neighbourhood meals appeal ' || n, 'meals-appeal-' || n, 'Hot meals for families on the east side this winter.',
  'Every gift goes straight to the kitchens: ingredients, fuel and the vans that bring meals to people who cannot come to us. We publish what each appeal bought.',
  'USD', 'amount', 10000000, '[2500,5000,10000]', 'active', ${staff}, ${T - 760 * DAY}, ${T - 760 * DAY}, ${T} FROM s;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donors}),
  p AS (SELECT n, n % 12 = 0 AS corp, ${pick(FIRST, "n")} AS first, ${pick(LAST, "n / 47")} AS last FROM s)
INSERT INTO donor (rowid, id, organization_id, type, first_name, last_name, company, email, phone, address_line1, city, region, postal_code, country, email_opt_in, phone_opt_in, mail_opt_in, created_at, updated_at)
SELECT ${base} + n, ${id}, ${org}, CASE WHEN corp THEN 'organization' ELSE 'individual' END,
  CASE WHEN corp THEN NULL ELSE first END, CASE WHEN corp THEN NULL ELSE last END,
  CASE WHEN corp THEN last || ' & Partners LLC' END,
  lower(CASE WHEN corp THEN 'giving.' || replace(last, '''', '') || n || '@' || replace(last, '''', '') || '-partners.com'
        ELSE first || '.' || replace(last, '''', '') || '.' || n || '@' || ${pick(DOMAINS, "n / 7")} END),
  CASE WHEN n % 5 < 2 THEN '+1 503 555 ' || printf('%04d', n % 10000) END,
  CASE WHEN n % 20 < 11 THEN (100 + n % 9800) || ' ' || ${pick(STREETS, "n / 3")} END,
  ${pick(CITIES, "n / 11")}, 'OR', '97' || printf('%03d', n % 300), 'US',
  n % 5 < 3, n % 5 = 0, n % 10 < 3, ${T} - n * 1000, ${T} FROM p;
INSERT INTO donor_tag_assignment (donor_id, tag_id, organization_id)
SELECT d.id, t.id, d.organization_id FROM donor d, donor_tag t
 WHERE d.organization_id = ${org} AND t.organization_id = ${org} AND d.rowid % 7 = 0;
INSERT INTO donor_note (id, organization_id, donor_id, author_id, body, visibility, pinned, created_at, updated_at)
SELECT ${id}, ${org}, id, ${staff}, ${pick(NOTES, "rowid / 8")}, CASE WHEN rowid % 5 = 0 THEN 'shared' ELSE 'internal' END, rowid % 7 = 0, created_at, created_at
  FROM donor WHERE organization_id = ${org} AND rowid % 8 = 0;
${plans.before}
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donations}),
  g AS (SELECT n, k AS plan_k, ${g.amount("100 + (n * 2654435761) % 49900")} AS amt, ${g.at(`${T} - (n * 63113) % 63072000000`)} AS at
          FROM (SELECT n, ${g.plan} AS k FROM s))
INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, plan_id, amount_minor, fee_covered_minor, processing_fee_minor, refunded_minor, currency, status, frequency, payment_method, gateway, gateway_transaction_id, source, mode, anonymous, message, tribute_type, tribute_name, internal_note, donated_at, created_by, created_at, updated_at, change_token)
SELECT ${id}, ${org}, 100000 + row_number() OVER (ORDER BY ${order}),
  CASE WHEN plan_k IS NOT NULL THEN ${plans.donorOf("plan_k")} WHEN n % 25 = 0 THEN NULL ELSE (SELECT id FROM donor WHERE rowid = ${base} + 1 + (n * 7919) % ${donors}) END,
  CASE WHEN plan_k IS NOT NULL THEN ${plans.campaignOf("plan_k")} ELSE (SELECT id FROM campaign WHERE rowid = ${base} + 1 + n % ${campaigns}) END,
  ${plans.planOf("plan_k")}, amt, CASE WHEN ${online} AND n % 3 = 0 THEN amt * 3 / 100 ELSE 0 END, CASE WHEN ${online} THEN amt * 29 / 1000 + 30 ELSE 0 END,
  CASE WHEN n % 29 = 0 THEN amt ELSE 0 END, 'USD',
  CASE WHEN n % 29 = 0 THEN 'refunded' WHEN n % 31 = 0 THEN 'failed' ELSE 'completed' END,
  ${g.frequency("plan_k")},
  CASE WHEN NOT (${online}) THEN 'check' WHEN n % 10 = 3 THEN 'paypal' WHEN n % 10 = 7 THEN 'bank_transfer' ELSE 'card' END,
  CASE WHEN NOT (${online}) THEN NULL WHEN n % 10 = 3 THEN 'paypal' ELSE 'stripe' END,
  CASE WHEN NOT (${online}) THEN NULL WHEN n % 10 = 3 THEN 'PAYID-' || upper(hex(randomblob(11))) ELSE 'pi_' || lower(hex(randomblob(12))) END,
  CASE WHEN ${online} THEN 'webhook' ELSE 'manual' END, 'live', n % 12 = 0,
  CASE WHEN n % 8 = 0 THEN ${pick(MESSAGES, "n / 8")} END,
  CASE WHEN n % 33 = 0 THEN 'in_memory' END, CASE WHEN n % 33 = 0 THEN ${pick(TRIBUTES, "n / 33")} END,
  CASE WHEN NOT (${online}) AND n % 5 = 0 THEN 'Check #' || (1000 + n % 9000) || ' received at the front desk, deposited on Monday.' END,
  at, CASE WHEN NOT (${online}) THEN ${staff} END, at, at, ${id}
FROM g ORDER BY ${order};
INSERT INTO audit_event (id, organization_id, actor_id, impersonator_id, action, entity_type, entity_id, before, after, reason, ip, at)
SELECT ${id}, organization_id, created_by, NULL,
  CASE WHEN source = 'manual' THEN 'donation.create' ELSE 'donation.webhook_create' END, 'donation', id, NULL,
  CASE WHEN source = 'manual' THEN json_object('donorId', donor_id, 'campaignId', campaign_id, 'itemQuantity', 0, 'amountMinor', amount_minor,
         'currency', currency, 'paymentMethod', payment_method, 'status', 'completed', 'frequency', frequency, 'donatedAt', donated_at,
         'anonymous', json(CASE WHEN anonymous THEN 'true' ELSE 'false' END), 'message', message, 'tributeType', tribute_type,
         'tributeName', tribute_name, 'internalNote', internal_note, 'mode', mode)
       ELSE json_object('gatewayTransactionId', gateway_transaction_id, 'status', CASE WHEN status = 'refunded' THEN 'completed' ELSE status END) END,
  CASE WHEN source = 'manual' THEN NULL ELSE 'webhook event evt_' || lower(hex(randomblob(12))) END,
  CASE WHEN source = 'manual' THEN '203.0.113.' || (rowid % 250) END, created_at
FROM donation WHERE organization_id = ${org} ORDER BY rowid;
INSERT INTO audit_event (id, organization_id, actor_id, impersonator_id, action, entity_type, entity_id, before, after, reason, ip, at)
SELECT ${id}, organization_id, created_by, NULL,
  CASE WHEN source = 'manual' THEN 'donation.status' ELSE 'donation.webhook_status' END, 'donation', id,
  CASE WHEN source = 'manual' THEN json_object('status', 'completed', 'refundedMinor', 0) ELSE json_object('status', 'completed') END,
  CASE WHEN source = 'manual' THEN json_object('status', 'refunded', 'refundedMinor', refunded_minor) ELSE json_object('status', 'refunded') END,
  CASE WHEN source = 'manual' THEN 'Donor asked for the gift back' ELSE 'webhook event evt_' || lower(hex(randomblob(12))) END,
  CASE WHEN source = 'manual' THEN '203.0.113.' || (rowid % 250) END, created_at + ${3 * DAY}
FROM donation WHERE organization_id = ${org} AND status = 'refunded' ORDER BY rowid;
${plans.after}
`;
  const after = `UPDATE donor SET tier_id = CASE WHEN lifetime_minor >= 500000 THEN ${tiers[2]} WHEN lifetime_minor >= 50000 THEN ${tiers[1]} ELSE ${tiers[0]} END
 WHERE organization_id = ${org} AND donation_count > 0;`;
  return { sql, after };
}

/**
 * A bench step run alone (scripts/bench-import.mjs, bench-statements.mjs): the build (unless
 * --no-build) and a seeded world of BENCH_DONATIONS gifts in `state`, or in a fresh temporary
 * folder named after the step (removed by `done` unless `state` was given).
 */
export async function standaloneWorld(name, { build = true, state } = {}) {
  const { ensureDevVars, quietEnv } = await import("./lib.mjs");
  const DONATIONS = Number(process.env.BENCH_DONATIONS ?? 200_000);
  const stateDir = state ?? mkdtempSync(join(tmpdir(), `almoner-bench-${name}-`));
  const env = { ...quietEnv, ALMONER_STATE_DIR: stateDir };
  ensureDevVars();
  if (build) {
    console.log("Building…");
    run("npx", ["vite", "build", "--logLevel", "warn"], { env });
  }
  const seeded = existsSync(join(stateDir, "v3", "d1")) && readdirSync(join(stateDir, "v3", "d1")).length > 0;
  if (!seeded) {
    mkdirSync(stateDir, { recursive: true });
    console.log(`Seeding ${DONATIONS.toLocaleString()} donations into ${stateDir}…`);
    await seedBench(stateDir, env, {
      donations: DONATIONS,
      donors: Math.round(DONATIONS / 10),
      campaigns: 500,
    });
  }
  return {
    stateDir,
    env,
    done: () => {
      if (!state) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
