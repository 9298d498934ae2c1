// The benchmark's world, shared by `npm run bench` and scripts/bench-export.mjs: the demo seed,
// then, in Harbor Light, `campaigns` campaigns, `donors` donors (one in seven tagged) and
// `donations` gifts over two years, with rollups rebuilt as the API keeps them.
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
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
  // Donation n: a pseudo-random instant in the last two years and amount; every 29th refunded,
  // every 31st failed, every 5th monthly, every 4th by check.
  // Scrambled: a pseudo-random permutation of the gifts (the generator's own order is nearly in
  // date order already: consecutive gifts lie 63 s apart).
  const sql = `
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${campaigns})
INSERT INTO campaign (id, organization_id, title, slug, currency, goal_type, goal_amount_minor, status, suggested_amounts, created_at, updated_at)
SELECT 'bc' || n, '${orgId}', 'Bench campaign ' || n, 'bench-' || n, 'USD', 'amount', 10000000, 'active', '[]', ${T}, ${T} FROM s;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donors})
INSERT INTO donor (id, organization_id, type, first_name, last_name, email, created_at, updated_at)
SELECT 'bd' || n, '${orgId}', 'individual', 'Donor', 'Number' || n, 'donor' || n || '@bench.test', ${T} - n * 1000, ${T} FROM s;
INSERT INTO donor_tag (id, organization_id, name, color, created_at, updated_at) VALUES ('btag1', '${orgId}', 'Bench tag', '#0f766e', ${T}, ${T});
INSERT INTO donor_tag_assignment (donor_id, tag_id, organization_id) SELECT id, 'btag1', organization_id FROM donor WHERE organization_id = '${orgId}' AND id GLOB 'bd[0-9]*' AND substr(id, 3) NOT GLOB '*[^0-9]*' AND (CAST(substr(id, 3) AS INTEGER) % 7) = 0;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donations}),
  g AS (SELECT n, 100 + (n * 2654435761) % 49900 AS amt, ${T} - (n * 63113) % 63072000000 AS at FROM s)
INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, amount_minor, refunded_minor, currency, status, frequency, payment_method, source, mode, donated_at, created_at, updated_at)
SELECT 'bx' || n, '${orgId}', 100000 + row_number() OVER (ORDER BY ${order}), 'bd' || (1 + (n * 7919) % ${donors}), 'bc' || (1 + n % ${campaigns}), amt,
  CASE WHEN n % 29 = 0 THEN amt ELSE 0 END, 'USD',
  CASE WHEN n % 29 = 0 THEN 'refunded' WHEN n % 31 = 0 THEN 'failed' ELSE 'completed' END,
  CASE WHEN n % 5 = 0 THEN 'monthly' ELSE 'one_time' END, CASE WHEN n % 4 = 0 THEN 'check' ELSE 'card' END, 'online', 'live',
  at, at, at
FROM g ORDER BY ${order};
UPDATE org_counter SET value = ${100000 + donations} WHERE organization_id = '${orgId}' AND name = 'donation';
`;
  const { rollupSql } = await import("./seed-domain.mjs");
  execFiles(stateDir, [sql, rollupSql(orgId, "America/Los_Angeles").join("\n")]);
  return { orgId, T };
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
 * The bulk rows of `shape: "production"`, as the service writes them (worker/donations/write.ts,
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
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donations}),
  g AS (SELECT n, 100 + (n * 2654435761) % 49900 AS amt, ${T} - (n * 63113) % 63072000000 AS at FROM s)
INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, amount_minor, fee_covered_minor, processing_fee_minor, refunded_minor, currency, status, frequency, payment_method, gateway, gateway_transaction_id, source, mode, anonymous, message, tribute_type, tribute_name, internal_note, donated_at, created_by, created_at, updated_at, change_token)
SELECT ${id}, ${org}, 100000 + row_number() OVER (ORDER BY ${order}),
  CASE WHEN n % 25 = 0 THEN NULL ELSE (SELECT id FROM donor WHERE rowid = ${base} + 1 + (n * 7919) % ${donors}) END,
  (SELECT id FROM campaign WHERE rowid = ${base} + 1 + n % ${campaigns}),
  amt, CASE WHEN ${online} AND n % 3 = 0 THEN amt * 3 / 100 ELSE 0 END, CASE WHEN ${online} THEN amt * 29 / 1000 + 30 ELSE 0 END,
  CASE WHEN n % 29 = 0 THEN amt ELSE 0 END, 'USD',
  CASE WHEN n % 29 = 0 THEN 'refunded' WHEN n % 31 = 0 THEN 'failed' ELSE 'completed' END,
  CASE WHEN n % 5 = 0 THEN 'monthly' ELSE 'one_time' END,
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
`;
  const after = `UPDATE donor SET tier_id = CASE WHEN lifetime_minor >= 500000 THEN ${tiers[2]} WHEN lifetime_minor >= 50000 THEN ${tiers[1]} ELSE ${tiers[0]} END
 WHERE organization_id = ${org} AND donation_count > 0;`;
  return { sql, after };
}
