// Realistic demo data for the demo organization: tiers, tags, campaigns with items, donors and
// ~18 months of donations (with refunds, a test-mode gift and a trashed one), plus the rollups.
import { randomBytes } from "node:crypto";
import { sqlString as q } from "./lib.mjs";

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const id = () => randomBytes(12).toString("hex");
const FIRST = [
  "Ava",
  "Liam",
  "Mia",
  "Noah",
  "Zoe",
  "Eli",
  "Ivy",
  "Leo",
  "Ada",
  "Kai",
  "Nia",
  "Omar",
  "Rosa",
  "Sam",
  "Tess",
  "Yuki",
  "Ines",
  "Raj",
  "Lena",
  "Theo",
];
const LAST = [
  "Nguyen",
  "Garcia",
  "Okafor",
  "Smith",
  "Kowalski",
  "Haddad",
  "Silva",
  "Chen",
  "Murphy",
  "Larsen",
  "Patel",
  "Brown",
  "Ito",
  "Moreau",
  "Novak",
];

export function domainSeedSql({
  orgId,
  adminId,
  organizerId,
  now = Date.now(),
  donors: donorCount = 40,
  donations: donationCount = 220,
  seed = 7,
}) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const out = [];
  const tiers = [
    { id: id(), name: "General", min: 0, max: 50_000, color: "#64748b" },
    { id: id(), name: "Mid-level", min: 50_000, max: 500_000, color: "#0f766e" },
    { id: id(), name: "Major", min: 500_000, max: null, color: "#b45309" },
  ];
  for (const [i, t] of tiers.entries()) {
    out.push(
      `INSERT INTO donor_tier (id, organization_id, name, basis, min_minor, max_minor, color, sort_order, created_at, updated_at) VALUES (${[t.id, orgId, t.name, "lifetime", t.min, t.max, t.color, i, now, now].map(q).join(",")});`,
    );
  }
  const tags = ["Board", "Volunteer", "Monthly giver", "Gala 2026", "Corporate"].map((name, i) => ({
    id: id(),
    name,
    color: ["#0f766e", "#7c3aed", "#db2777", "#2563eb", "#b45309"][i],
  }));
  for (const t of tags)
    out.push(
      `INSERT INTO donor_tag (id, organization_id, name, color, created_at, updated_at) VALUES (${[t.id, orgId, t.name, t.color, now, now].map(q).join(",")});`,
    );
  const day = 86400_000;
  const campaigns = [
    {
      id: id(),
      title: "Winter Shelter 2026",
      slug: "winter-shelter-2026",
      short: "Warm beds and meals through the cold months.",
      goal: 5_000_000,
      status: "active",
      start: now - 120 * day,
      end: now + 60 * day,
    },
    {
      id: id(),
      title: "Harbor Kitchen Renovation",
      slug: "harbor-kitchen",
      short: "A new kitchen to serve 400 meals a day.",
      goal: 12_000_000,
      status: "active",
      start: now - 400 * day,
      end: null,
    },
    {
      id: id(),
      title: "Back to School Kits",
      slug: "school-kits",
      short: "Backpacks and supplies for 300 children.",
      goal: 1_500_000,
      status: "completed",
      start: now - 500 * day,
      end: now - 300 * day,
    },
    {
      id: id(),
      title: "Spring Clean-up Day",
      slug: "spring-clean-up",
      short: "Draft for next spring.",
      goal: null,
      status: "draft",
      start: null,
      end: null,
    },
  ];
  const items = [];
  for (const c of campaigns) {
    out.push(
      `INSERT INTO campaign (id, organization_id, title, slug, short_description, description, currency, goal_type, goal_amount_minor, start_at, end_at, suggested_amounts, status, created_by, published_at, created_at, updated_at) VALUES (${[c.id, orgId, c.title, c.slug, c.short, `${c.short} Every gift goes straight to the program.`, "USD", c.goal ? "amount" : "none", c.goal, c.start, c.end, "[2500,5000,10000]", c.status, organizerId, c.status === "draft" ? null : c.start, c.start ?? now, now].map(q).join(",")});`,
    );
  }
  for (const [i, [title, unit, need]] of [
    ["Warm blanket", 2_500, 400],
    ["Night in a shelter bed", 4_000, 600],
    ["Hot meal", 800, null],
  ].entries()) {
    const it = { id: id(), campaignId: campaigns[0].id, unit };
    items.push(it);
    out.push(
      `INSERT INTO campaign_item (id, organization_id, campaign_id, title, unit_amount_minor, quantity_needed, sort_order, created_at, updated_at) VALUES (${[it.id, orgId, it.campaignId, title, unit, need, i + 1, now, now].map(q).join(",")});`,
    );
  }
  const donors = [];
  for (let i = 0; i < donorCount; i++) {
    const corp = i % 9 === 8;
    const first = pick(FIRST);
    const last = pick(LAST);
    const d = { id: id(), corp };
    donors.push(d);
    const email = corp ? `giving${i}@company${i}.example` : `${first}.${last}.${i}@example.org`.toLowerCase();
    out.push(
      `INSERT INTO donor (id, organization_id, type, first_name, last_name, company, email, city, postal_code, country, email_opt_in, created_by, created_at, updated_at) VALUES (${[d.id, orgId, corp ? "organization" : "individual", corp ? null : first, corp ? null : last, corp ? `${last} & Co.` : null, email, pick(["Portland", "Seattle", "Eugene", "Salem"]), `97${String(200 + i).padStart(3, "0")}`, "US", r() < 0.6 ? 1 : 0, adminId, now - Math.floor(r() * 540) * day, now].map(q).join(",")});`,
    );
    if (r() < 0.5)
      out.push(
        `INSERT OR IGNORE INTO donor_tag_assignment (donor_id, tag_id, organization_id) VALUES (${[d.id, pick(tags).id, orgId].map(q).join(",")});`,
      );
  }
  out.push(
    `INSERT INTO donor_note (id, organization_id, donor_id, author_id, body, visibility, pinned, created_at, updated_at) VALUES (${[id(), orgId, donors[0].id, adminId, "Prefers a phone call before the gala. Interested in the kitchen project.", "internal", 1, now, now].map(q).join(",")});`,
  );
  for (let n = 1; n <= donationCount; n++) {
    const c = pick(campaigns.slice(0, 3));
    const donor = pick(donors);
    const at =
      c.id === campaigns[2].id
        ? now - (300 + Math.floor(r() * 200)) * day
        : now - Math.floor(r() * (c.id === campaigns[0].id ? 120 : 400)) * day - Math.floor(r() * day);
    const amount =
      pick([2_500, 5_000, 5_000, 10_000, 10_000, 25_000, 50_000, 100_000, 250_000]) +
      (donor.corp ? 200_000 : 0);
    let status = r() < 0.88 ? "completed" : pick(["pending", "failed", "refunded", "partially_refunded"]);
    if (status === "pending" && at < now - 3 * day) status = "abandoned";
    const refunded =
      status === "refunded" ? amount : status === "partially_refunded" ? Math.floor(amount / 4) : 0;
    const item = c.id === campaigns[0].id && r() < 0.4 ? pick(items) : null;
    out.push(
      `INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, campaign_item_id, item_quantity, amount_minor, refunded_minor, processing_fee_minor, currency, status, frequency, payment_method, source, mode, anonymous, message, donated_at, trashed_at, created_at, updated_at) VALUES (${[id(), orgId, n, donor.id, c.id, item?.id ?? null, item ? Math.max(1, Math.floor(amount / item.unit)) : 0, amount, refunded, Math.round(amount * 0.029) + 30, "USD", status, r() < 0.2 ? "monthly" : "one_time", pick(["card", "card", "card", "bank_transfer", "check", "cash"]), pick(["online", "online", "manual"]), n === donationCount ? "test" : "live", r() < 0.1 ? 1 : 0, r() < 0.15 ? pick(["Keep up the good work!", "In memory of my father.", "For the kids."]) : null, at, n === donationCount - 1 ? now : null, at, at].map(q).join(",")});`,
    );
  }
  out.push(
    `INSERT INTO org_counter (organization_id, name, value) VALUES (${q(orgId)}, 'donation', ${donationCount});`,
  );
  out.push(...rollupSql(orgId, "America/Los_Angeles"));
  return out;
}

/** Rebuilds rollups, donor stats and tiers in SQL (the seed bypasses the API). */
export function rollupSql(orgId, timeZone) {
  const counted =
    "d.status IN ('completed','partially_refunded') AND d.mode = 'live' AND d.trashed_at IS NULL";
  // Local day via the zone's UTC offset: the demo zone's offset is applied per row from a small table.
  const offsets = [];
  const start = Date.UTC(2024, 0, 1);
  for (let t = start; t < Date.UTC(2028, 0, 1); t += 86400_000) {
    const local = new Date(new Date(t).toLocaleString("en-US", { timeZone }));
    const utc = new Date(new Date(t).toLocaleString("en-US", { timeZone: "UTC" }));
    offsets.push([new Date(t).toISOString().slice(0, 10), local.getTime() - utc.getTime()]);
  }
  const values = offsets.map(([d, o]) => `('${d}',${o})`).join(",");
  return [
    `DELETE FROM org_daily WHERE organization_id = ${q(orgId)};`,
    `WITH tz(day, off) AS (VALUES ${values})
     INSERT INTO org_daily (organization_id, campaign_id, day, currency, raised_minor, donation_count)
     SELECT d.organization_id, COALESCE(d.campaign_id, ''), strftime('%Y-%m-%d', (d.donated_at + COALESCE(tz.off, 0)) / 1000, 'unixepoch'), d.currency, SUM(d.amount_minor - d.refunded_minor), COUNT(*)
       FROM donation d LEFT JOIN tz ON tz.day = strftime('%Y-%m-%d', d.donated_at / 1000, 'unixepoch')
      WHERE d.organization_id = ${q(orgId)} AND ${counted}
      GROUP BY 1, 2, 3, 4;`,
    // Organization-wide rows (campaign_id '*'), what the dashboard reads.
    `INSERT INTO org_daily (organization_id, campaign_id, day, currency, raised_minor, donation_count)
     SELECT organization_id, '*', day, currency, SUM(raised_minor), SUM(donation_count) FROM org_daily
      WHERE organization_id = ${q(orgId)} AND campaign_id != '*' GROUP BY organization_id, day, currency;`,
    `INSERT OR REPLACE INTO campaign_stats (campaign_id, organization_id, raised_minor, donation_count, donor_count, refunded_minor, updated_at)
     SELECT c.id, c.organization_id,
       COALESCE((SELECT SUM(d.amount_minor - d.refunded_minor) FROM donation d WHERE d.campaign_id = c.id AND ${counted}), 0),
       (SELECT COUNT(*) FROM donation d WHERE d.campaign_id = c.id AND ${counted}),
       (SELECT COUNT(DISTINCT d.donor_id) FROM donation d WHERE d.campaign_id = c.id AND ${counted}),
       COALESCE((SELECT SUM(d.refunded_minor) FROM donation d WHERE d.campaign_id = c.id AND d.mode = 'live' AND d.trashed_at IS NULL), 0),
       ${Date.now()}
     FROM campaign c WHERE c.organization_id = ${q(orgId)};`,
    `UPDATE donor SET
       lifetime_minor = COALESCE((SELECT SUM(d.amount_minor - d.refunded_minor) FROM donation d WHERE d.donor_id = donor.id AND ${counted}), 0),
       donation_count = (SELECT COUNT(*) FROM donation d WHERE d.donor_id = donor.id AND ${counted}),
       largest_gift_minor = COALESCE((SELECT MAX(d.amount_minor - d.refunded_minor) FROM donation d WHERE d.donor_id = donor.id AND ${counted}), 0),
       first_gift_at = (SELECT MIN(d.donated_at) FROM donation d WHERE d.donor_id = donor.id AND ${counted}),
       last_gift_at = (SELECT MAX(d.donated_at) FROM donation d WHERE d.donor_id = donor.id AND ${counted})
     WHERE organization_id = ${q(orgId)};`,
    `UPDATE donor SET tier_id = (SELECT t.id FROM donor_tier t WHERE t.organization_id = donor.organization_id AND t.min_minor <= donor.lifetime_minor AND (t.max_minor IS NULL OR t.max_minor > donor.lifetime_minor) ORDER BY t.min_minor DESC LIMIT 1)
     WHERE organization_id = ${q(orgId)} AND tier_locked = 0;`,
  ];
}
