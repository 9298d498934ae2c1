// The demo world, generated deterministically from a seed number: the same seed and the same
// `now` give the same organizations, people, campaigns, donors and donations (ids included).
// `generateDomain` yields rows ({ table, row }); scripts/seed.mjs writes them to the local D1
// file (node:sqlite, any size) or to a SQL file of multi-row INSERTs for a remote D1.

import { annualMinor, duesPassed, FREQUENCY_OF, nextDue } from "../core/plans.ts";
import { planMonthlyRebuildSql } from "../worker/ledger/plan-rollups-sql.ts";
import { dailyRebuildSql, dailySpans, PERIOD_FIRST, PERIOD_LAST } from "../worker/ledger/rollup-sql.ts";

/** mulberry32: a small, fast, well-distributed 32-bit PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// biome-ignore format: a word list
const FIRST = [
  "Ava", "Liam", "Mia", "Noah", "Zoe", "Eli", "Ivy", "Leo", "Ada", "Kai", "Nia", "Omar", "Rosa", "Sam",
  "Tess", "Yuki", "Ines", "Raj", "Lena", "Theo", "Amara", "Bruno", "Chloé", "Dmitri", "Esther", "Farah",
  "Gustav", "Hana", "Ibrahim", "Jonas", "Keiko", "Lucía", "Malik", "Nora", "Olu", "Priya", "Quentin",
  "Rania", "Sven", "Tariq", "Ursula", "Viktor", "Wen", "Ximena", "Yara", "Zaid",
];
// biome-ignore format: a word list
const LAST = [
  "Nguyen", "Garcia", "Okafor", "Smith", "Kowalski", "Haddad", "Silva", "Chen", "Murphy", "Larsen", "Patel",
  "Brown", "Ito", "Moreau", "Novak", "O'Brien", "Dubois", "Schmidt", "Rossi", "Tanaka", "Mensah", "Kim",
  "Andersson", "Costa", "Fischer", "Yilmaz", "Hughes", "Jansen", "Leclerc", "Müller",
];

/**
 * The organizations of the demo. The first is the demo logins' organization (slug harbor-light,
 * which the e2e tests and the benchmark look up); the others give several currencies and zones.
 */
export const ORGANIZATIONS = [
  {
    key: "harbor",
    name: "Harbor Light Foundation",
    slug: "harbor-light",
    legal: "Harbor Light Foundation, Inc.",
    type: "nonprofit",
    country: "US",
    city: "Portland",
    region: "OR",
    email: "hello@harborlight.example",
    website: "https://harborlight.example",
    mission: "Warm meals and safe beds for everyone on the waterfront.",
    currency: "USD",
    zone: "America/Los_Angeles",
    fiscal: 7,
    registration: "EIN 93-1234567",
    receipts: {
      signatory: ["Dana Whitfield", "Executive Director"],
      statement:
        "No goods or services were provided in exchange for this contribution. Harbor Light Foundation, Inc. is a tax-exempt organization under section 501(c)(3) of the Internal Revenue Code.",
      prefix: "HL-",
      language: "en",
    },
    badges: ["verified_organization", "registered_charity", "transparent"],
    scale: 1,
  },
  {
    key: "lumiere",
    name: "Fondation Lumière",
    slug: "fondation-lumiere",
    legal: "Fondation Lumière pour l'enfance",
    type: "foundation",
    country: "FR",
    city: "Lyon",
    region: "Auvergne-Rhône-Alpes",
    email: "contact@lumiere.example",
    website: "https://lumiere.example",
    mission: "Des livres et des ateliers pour chaque enfant.",
    currency: "EUR",
    zone: "Europe/Paris",
    fiscal: 1,
    registration: "RNA W691234567",
    receipts: {
      signatory: ["Claire Moreau", "Présidente"],
      statement:
        "Reçu délivré au titre des articles 200 et 238 bis du code général des impôts : ce don ouvre droit à une réduction d'impôt.",
      prefix: "FL-",
      language: "fr",
    },
    badges: ["verified_organization"],
    scale: 0.15,
  },
  {
    key: "thames",
    name: "Thames Reading Trust",
    slug: "thames-reading",
    legal: "Thames Reading Trust CIO",
    type: "charity",
    country: "GB",
    city: "London",
    region: "Greater London",
    email: "info@thamesreading.example",
    website: "https://thamesreading.example",
    mission: "Reading volunteers in every primary school along the river.",
    currency: "GBP",
    zone: "Europe/London",
    fiscal: 4,
    registration: "Charity 1187654",
    receipts: {
      signatory: ["Priya Shah", "Treasurer"],
      statement: "Thank you: no goods or services were provided in return for this gift.",
      prefix: "TR/",
      language: "en",
    },
    badges: ["registered_charity"],
    scale: 0.1,
  },
  {
    key: "koyo",
    name: "Kōyō Disaster Relief",
    slug: "koyo-relief",
    legal: "NPO Kōyō Disaster Relief",
    type: "nonprofit",
    country: "JP",
    city: "Sendai",
    region: "Miyagi",
    email: "office@koyo.example",
    website: "https://koyo.example",
    mission: "Ready kits and shelters before the next earthquake.",
    currency: "JPY",
    zone: "Asia/Tokyo",
    fiscal: 4,
    registration: "NPO 3700-05-012345",
    receipts: {
      signatory: ["佐藤 花子", "理事長"],
      statement: "この寄附金は、租税特別措置法の規定により寄附金控除の対象となります。",
      prefix: "KY-",
      language: "ja",
    },
    badges: [],
    scale: 0.1,
  },
];

/** Minor units per major unit, and the gift ladder in major units, per currency. */
const CURRENCY = {
  USD: { minor: 100, gifts: [10, 25, 25, 50, 50, 100, 100, 250, 500, 1000, 2500] },
  EUR: { minor: 100, gifts: [10, 20, 30, 50, 50, 100, 150, 300, 500, 1000] },
  GBP: { minor: 100, gifts: [5, 10, 20, 25, 50, 100, 250, 500] },
  JPY: { minor: 1, gifts: [1000, 3000, 5000, 10000, 10000, 30000, 50000, 100000] },
};

// biome-ignore format: a table
const CAMPAIGNS = {
  harbor: [
    ["Winter Shelter 2026", "winter-shelter-2026", "Warm beds and meals through the cold months.", "active", 50_000, -120, 60, [["Warm blanket", 25, 400], ["Night in a shelter bed", 40, 600], ["Hot meal", 8, null]]],
    ["Harbor Kitchen Renovation", "harbor-kitchen", "A new kitchen to serve 400 meals a day.", "active", 120_000, -700, null, [["Commercial oven", 6_000, 2], ["Set of pans", 150, 20]]],
    ["Back to School Kits", "school-kits", "Backpacks and supplies for 300 children.", "completed", 15_000, -500, -300, [["School kit", 45, 300]]],
    ["Summer Reading Camp", "summer-reading", "Two weeks of books and boats for 60 kids.", "paused", 20_000, -200, 120, []],
    ["Gala 2025", "gala-2025", "Our annual waterfront gala.", "archived", 40_000, -420, -360, []],
    ["Spring Clean-up Day", "spring-clean-up", "Draft for next spring.", "draft", null, null, null, []],
  ],
  lumiere: [
    ["Bibliothèques de quartier", "bibliotheques", "Une bibliothèque dans chaque quartier.", "active", 80_000, -600, null, [["Étagère", 120, 50]]],
    ["Ateliers d'été", "ateliers-ete", "Ateliers d'écriture pour l'été.", "completed", 10_000, -400, -330, []],
    ["Rentrée 2027", "rentree-2027", "En préparation.", "draft", 25_000, null, null, []],
  ],
  thames: [
    ["Volunteer Readers 2026", "volunteer-readers", "Training 200 reading volunteers.", "active", 30_000, -300, 90, []],
    ["Book Boat", "book-boat", "A floating library on the Thames.", "paused", 60_000, -500, null, [["Shelf of books", 75, 80]]],
  ],
  koyo: [
    ["Earthquake Ready Kits", "ready-kits", "A kit for every household on the coast.", "active", 5_000_000, -650, null, [["Family kit", 8_000, 500]]],
    ["Shelter Beds 2025", "shelter-beds-2025", "Folding beds for the school gyms.", "archived", 2_000_000, -700, -500, []],
  ],
};

const DAY = 86_400_000;
const STATUS_WEIGHTS = [
  ["completed", 0.84],
  ["failed", 0.03],
  ["refunded", 0.02],
  ["partially_refunded", 0.02],
  ["cancelled", 0.015],
  ["processing", 0.01],
  ["disputed", 0.005],
  ["pending", 0.06], // becomes abandoned when older than 72 h, as the cron would make it
];

/**
 * @param {{ seed?: number, now?: number, donations?: number, donors?: number, campaigns?: number,
 *   users: Record<string, string>, memberships: Array<{ org: string, user: string, role: string }> }} o
 */
export function* generateDomain(o) {
  const r = rng(o.seed ?? 1);
  const now = o.now ?? Date.now();
  const pick = (a) => a[Math.floor(r() * a.length)];
  const hex = (n = 24) => {
    let s = "";
    while (s.length < n) s += Math.floor(r() * 2 ** 32).toString(36);
    return s.slice(0, n);
  };
  const weighted = (pairs) => {
    let x = r();
    for (const [v, w] of pairs) {
      x -= w;
      if (x < 0) return v;
    }
    return pairs[pairs.length - 1][0];
  };
  const totalDonations = o.donations ?? 20_000;
  const totalDonors = o.donors ?? 2_500;
  const extraCampaigns = Math.max(0, (o.campaigns ?? 0) - CAMPAIGNS.harbor.length);
  const orgIds = {};

  for (const org of ORGANIZATIONS) {
    const orgId = o.orgIds?.[org.key] ?? hex();
    orgIds[org.key] = orgId;
    const created = now - 800 * DAY;
    const cur = CURRENCY[org.currency];
    yield {
      table: "organization",
      row: {
        id: orgId,
        name: org.name,
        slug: org.slug,
        legal_name: org.legal,
        type: org.type,
        registration_id: org.registration,
        country: org.country,
        city: org.city,
        region: org.region,
        contact_email: org.email,
        website: org.website,
        mission: org.mission,
        description: `${org.mission} Founded by neighbours, run by volunteers, funded by people like you.`,
        default_currency: org.currency,
        time_zone: org.zone,
        fiscal_year_start_month: org.fiscal,
        status: "active",
        created_at: created,
        updated_at: created,
      },
    };
    for (const m of o.memberships.filter((x) => x.org === org.key)) {
      yield {
        table: "membership",
        row: {
          id: hex(),
          organization_id: orgId,
          user_id: o.users[m.user],
          role: m.role,
          created_at: created,
          updated_at: created,
        },
      };
    }
    for (const badge of org.badges) {
      yield {
        table: "organization_badge",
        row: {
          id: hex(),
          organization_id: orgId,
          badge,
          granted_by: o.users.admin,
          reason:
            badge === "registered_charity"
              ? `Registration ${org.registration} checked`
              : "Documents reviewed",
          expires_at: badge === "verified_organization" ? now + 300 * DAY : null,
          created_at: now - 200 * DAY,
          updated_at: now - 200 * DAY,
        },
      };
    }
    const pendingInvite = org.key === "harbor";
    if (pendingInvite) {
      yield {
        table: "invitation",
        row: {
          id: hex(32),
          organization_id: orgId,
          email: "new.volunteer@example.org",
          role: "organizer",
          invited_by: o.users.admin,
          expires_at: now + 5 * DAY,
          created_at: now - 2 * DAY,
          updated_at: now - 2 * DAY,
        },
      };
    }

    // Tiers (lifetime ladder in the org's currency) and tags.
    const m = cur.minor;
    const tiers = [
      ["Friend", 0, 500 * m, "#64748b"],
      ["Supporter", 500 * m, 5_000 * m, "#0f766e"],
      ["Major donor", 5_000 * m, null, "#b45309"],
    ].map(([name, min, max, color], i) => ({ id: hex(), name, min, max, color, i }));
    for (const t of tiers) {
      yield {
        table: "donor_tier",
        row: {
          id: t.id,
          organization_id: orgId,
          name: t.name,
          basis: "lifetime",
          min_minor: t.min,
          max_minor: t.max,
          color: t.color,
          sort_order: t.i,
          created_at: created,
          updated_at: created,
        },
      };
    }
    const tags = ["Board", "Volunteer", "Monthly giver", "Gala guest", "Corporate", "Newsletter"].map(
      (name, i) => ({
        id: hex(),
        name,
        color: ["#0f766e", "#7c3aed", "#db2777", "#2563eb", "#b45309", "#475569"][i],
      }),
    );
    for (const t of tags) {
      yield {
        table: "donor_tag",
        row: {
          id: t.id,
          organization_id: orgId,
          name: t.name,
          color: t.color,
          created_at: created,
          updated_at: created,
        },
      };
    }

    // Campaigns in every status, with items.
    const specs = [...CAMPAIGNS[org.key]];
    if (org.key === "harbor") {
      for (let i = 1; i <= extraCampaigns; i++)
        specs.push([
          `Neighbourhood appeal ${i}`,
          `appeal-${i}`,
          "A local appeal.",
          "active",
          10_000,
          -Math.floor(r() * 700),
          null,
          [],
        ]);
    }
    const campaigns = [];
    const items = [];
    for (const [title, slug, short, status, goal, startDays, endDays, itemSpecs] of specs) {
      const c = {
        id: hex(),
        status,
        start: startDays === null ? null : now + startDays * DAY,
        end: endDays === null ? null : now + endDays * DAY,
        items: [],
      };
      campaigns.push(c);
      yield {
        table: "campaign",
        row: {
          id: c.id,
          organization_id: orgId,
          title,
          slug,
          short_description: short,
          description: `${short} Every gift goes straight to the program, and we publish what it bought.`,
          currency: org.currency,
          goal_type: goal ? "amount" : "none",
          goal_amount_minor: goal ? goal * m : null,
          start_at: c.start,
          end_at: c.end,
          // Each amount once (core/campaign.ts refuses a repeated one; the gift lists repeat for weight).
          suggested_amounts: JSON.stringify([...new Set(cur.gifts)].slice(1, 4).map((g) => g * m)),
          allow_recurring: 1,
          visibility: "public",
          status,
          created_by: o.users.organizer,
          published_at: status === "draft" ? null : c.start,
          archived_at: status === "archived" ? now - 30 * DAY : null,
          created_at: c.start ?? now - 10 * DAY,
          updated_at: now - DAY,
        },
      };
      for (const [k, [itemTitle, unit, need]] of itemSpecs.entries()) {
        const it = { id: hex(), unit: unit * m };
        c.items.push(it);
        items.push(it);
        yield {
          table: "campaign_item",
          row: {
            id: it.id,
            organization_id: orgId,
            campaign_id: c.id,
            title: itemTitle,
            unit_amount_minor: it.unit,
            quantity_needed: need,
            allow_overfunding: need ? 0 : 1,
            sort_order: k + 1,
            created_at: c.start ?? now,
            updated_at: c.start ?? now,
          },
        };
      }
    }

    // Donors with tags, notes and a few locked tiers.
    const donorCount = Math.max(10, Math.round(totalDonors * org.scale));
    const donors = [];
    for (let i = 0; i < donorCount; i++) {
      const corp = r() < 0.08;
      const first = pick(FIRST);
      const last = pick(LAST);
      const d = { id: hex(), corp };
      donors.push(d);
      const email = corp
        ? `giving${i}@${last.toLowerCase().replace(/[^a-z]/g, "")}-co.example`
        : `${first}.${last}.${i}@example.org`
            .toLowerCase()
            .normalize("NFKD")
            .replace(/[^a-z0-9.@-]/g, "");
      const since = now - Math.floor(r() * 760) * DAY;
      yield {
        table: "donor",
        row: {
          id: d.id,
          organization_id: orgId,
          type: corp ? "organization" : "individual",
          first_name: corp ? null : first,
          last_name: corp ? null : last,
          company: corp ? `${last} & Partners` : null,
          email,
          phone: r() < 0.4 ? `+1 503 555 ${String(1000 + i).slice(-4)}` : null,
          city: org.city,
          region: org.region,
          postal_code: `${97200 + (i % 90)}`,
          country: org.country,
          email_opt_in: r() < 0.6 ? 1 : 0,
          phone_opt_in: r() < 0.2 ? 1 : 0,
          mail_opt_in: r() < 0.3 ? 1 : 0,
          tier_locked: i % 97 === 5 ? 1 : 0,
          tier_id: i % 97 === 5 ? tiers[2].id : null,
          created_by: o.users.admin,
          created_at: since,
          updated_at: since,
        },
      };
      const tagged = new Set();
      while (r() < 0.45 && tagged.size < 3) tagged.add(pick(tags).id);
      for (const tagId of tagged)
        yield {
          table: "donor_tag_assignment",
          row: { donor_id: d.id, tag_id: tagId, organization_id: orgId },
        };
      if (r() < 0.12) {
        yield {
          table: "donor_note",
          row: {
            id: hex(),
            organization_id: orgId,
            donor_id: d.id,
            author_id: pick([o.users.admin, o.users.organizer]),
            body: pick([
              "Prefers a phone call before the gala.",
              "Interested in the kitchen project; ask about a matching gift.",
              "Thanked in person at the open day.",
              "Asked to receive the annual report by post.",
              "Volunteer on Saturdays since 2024.",
            ]),
            visibility: r() < 0.2 ? "shared" : "internal",
            pinned: r() < 0.15 ? 1 : 0,
            created_at: since + DAY,
            updated_at: since + DAY,
          },
        };
      }
    }

    // Recurring plans (issue 24): about one donor in eight gives on a schedule. Their gifts are a
    // fifth of the organization's, and the one-off gifts below make up the rest.
    const donationCount = Math.max(20, Math.round(totalDonations * org.scale));
    const planGifts = yield* generatePlans({
      orgId,
      org,
      cur,
      m,
      now,
      r,
      pick,
      hex,
      weighted,
      donors,
      campaigns,
      organizer: o.users.organizer,
      budget: Math.round(donationCount * 0.2),
    });
    let n = 0;
    for (const g of planGifts) yield { table: "donation", row: { ...g, number: ++n } };

    // One-off donations over two years, every status, several methods.
    const live = campaigns.filter((c) => c.status !== "draft");
    for (n = n + 1; n <= donationCount; n++) {
      const c = pick(live);
      const from = c.start ?? now - 730 * DAY;
      const to = Math.min(c.end ?? now, now);
      // Recent days are busier: a square bias toward `to`.
      const at = Math.floor(to - (1 - Math.sqrt(r())) * (to - from));
      const donor = r() < 0.04 ? null : pick(donors);
      const gift = pick(cur.gifts) * m * (donor?.corp ? 5 : 1);
      let status = weighted(STATUS_WEIGHTS);
      if (status === "pending" && at < now - 3 * DAY) status = "abandoned";
      const refunded =
        status === "refunded" ? gift : status === "partially_refunded" ? Math.floor(gift / 4) : 0;
      const item = c.items.length && r() < 0.4 ? pick(c.items) : null;
      const online = r() < 0.8;
      const method = online
        ? pick(["card", "card", "card", "paypal", "bank_transfer"])
        : pick(["cash", "check", "bank_transfer"]);
      yield {
        table: "donation",
        row: {
          id: hex(),
          organization_id: orgId,
          number: n,
          donor_id: donor?.id ?? null,
          campaign_id: c.id,
          campaign_item_id: item?.id ?? null,
          item_quantity: item ? Math.max(1, Math.floor(gift / item.unit)) : 0,
          amount_minor: gift,
          fee_covered_minor: online && r() < 0.3 ? Math.round(gift * 0.03) : 0,
          processing_fee_minor: online ? Math.round(gift * 0.029) + 30 * (m === 1 ? 0 : 1) : 0,
          platform_fee_minor: 0,
          refunded_minor: refunded,
          currency: org.currency,
          status,
          frequency: "one_time",
          payment_method: method,
          gateway: online ? (method === "paypal" ? "paypal" : "stripe") : null,
          gateway_transaction_id: online ? `${method === "paypal" ? "PAY" : "ch"}_${hex(20)}` : null,
          source: online ? "online" : "manual",
          mode: r() < 0.01 ? "test" : "live",
          anonymous: r() < 0.08 ? 1 : 0,
          message:
            r() < 0.12
              ? pick([
                  "Keep up the good work!",
                  "In memory of my father.",
                  "For the kids.",
                  "=SUM(A1) is not a formula here",
                ])
              : null,
          tribute_type: r() < 0.03 ? "in_memory" : null,
          tribute_name: null,
          donated_at: at,
          trashed_at: r() < 0.005 ? now - DAY : null,
          created_by: online ? null : o.users.organizer,
          created_at: at,
          updated_at: at,
        },
      };
    }
    yield {
      table: "org_counter",
      row: { organization_id: orgId, name: "donation", value: n - 1 },
    };
    // The demo's history was receipted before Almoner (decision 031): its gifts get no receipt, also
    // when edited; gifts recorded from now on do.
    yield {
      table: "org_counter",
      row: { organization_id: orgId, name: "receipts_from", value: now },
    };
    // What its receipts say beyond the profile (sent from the gift's page: not automatically).
    yield {
      table: "receipt_settings",
      row: {
        organization_id: orgId,
        signatory_name: org.receipts.signatory[0],
        signatory_title: org.receipts.signatory[1],
        tax_statement: org.receipts.statement,
        number_prefix: org.receipts.prefix,
        language: org.receipts.language,
        auto_send: 0,
        updated_by: null,
        created_at: now,
        updated_at: now,
      },
    };
  }
  return orgIds;
}

const PAUSE_REASONS = [
  "Between jobs for a few months",
  "Travelling until spring",
  "Asked to skip the summer",
];
const CANCEL_REASONS = [
  "Moved away",
  "Gives through their employer now",
  "Card expired; did not renew",
  "Asked by e-mail",
];

/**
 * One organization's recurring plans (issue 24, decision 030) and their history, as the running
 * service would have written them: each plan's gifts on its schedule in the organization's zone
 * (core/plans.ts nextDue), until now or until the plan stopped; a plan whose gift is late is past
 * due after 7 days and lapsed after 60 (app.config.ts defaults), with the events the watch would
 * have written. Yields the plans and their events; returns their gifts (rows of `donation`
 * without a number) for the caller to number and yield. `budget` caps the gifts.
 */
function* generatePlans(o) {
  const { orgId, org, cur, m, now, r, pick, hex, weighted } = o;
  const tz = org.zone;
  const ongoing = o.campaigns.filter((c) => c.status === "active" && (c.end === null || c.end > now));
  const gifts = [];
  const people = o.donors.filter(() => r() < 0.14);
  for (const donor of people) {
    if (gifts.length >= o.budget) break;
    const interval = weighted([
      ["month", 0.82],
      ["quarter", 0.08],
      ["year", 0.1],
    ]);
    // Started any time in the last two years, for a campaign running then or for the general fund.
    const start = Math.floor(now - 720 * DAY + r() * 700 * DAY);
    const running = ongoing.filter((c) => (c.start ?? 0) <= start);
    const campaign = running.length && r() < 0.6 ? pick(running) : null;
    const day = Number(new Date(start).toISOString().slice(8, 10));
    // The schedule: the first gift on the start, then one per interval (local noon) up to now.
    const dues = [start];
    for (let d = nextDue(start, interval, day, tz); d <= now; d = nextDue(d, interval, day, tz)) dues.push(d);
    const amount =
      pick(cur.gifts.slice(0, 5)) * m * (interval === "year" ? 6 : interval === "quarter" ? 3 : 1);
    const annual = annualMinor(amount, interval);
    let fate = weighted([
      ["active", 0.68],
      ["past_due", 0.08],
      ["lapsed", 0.05],
      ["paused", 0.05],
      ["cancelled", 0.12],
      ["completed", 0.02],
    ]);
    // Late: the newest due date at least 8 (or 61) days old goes unpaid, and every one after it.
    const lateFrom = (days) => dues.findLastIndex((d) => now - d > days * DAY);
    let paid = dues.length;
    let stoppedAt = null;
    if (fate === "past_due" || fate === "lapsed") {
      // Past due: the newest gift is missing. Lapsed: gone quiet at some point long enough ago.
      const latest = lateFrom(fate === "past_due" ? 8 : 61);
      const i = fate === "past_due" || latest < 1 ? latest : 1 + Math.floor(r() * latest);
      if (i >= 1) paid = i;
      else fate = "active";
      if (fate === "past_due" && now - dues[i] > 60 * DAY) fate = "lapsed";
    } else if (fate === "paused" || fate === "cancelled" || fate === "completed") {
      if (dues.length < 3) fate = "active";
      else {
        paid = fate === "completed" ? Math.min(dues.length, 12) : 1 + Math.floor(r() * (dues.length - 1));
        stoppedAt = Math.min(now, dues[paid - 1] + Math.floor(r() * 20 + 1) * DAY);
      }
    }
    // A few long-standing plans paused once and came back (the months' reactivations).
    let gap = null;
    if (fate === "active" && paid >= 8 && r() < 0.25) gap = 2 + Math.floor(r() * Math.min(4, paid - 6));
    const online = r() < 0.75;
    const method = online ? "card" : pick(["bank_transfer", "check"]);
    const planId = hex();
    const next =
      fate === "cancelled" || fate === "completed"
        ? null
        : (dues[paid] ?? nextDue(dues[paid - 1], interval, day, tz));
    const events = [{ at: start, kind: "created", from: null, to: "active", before: 0, after: annual }];
    let status = "active";
    const move = (at, to, reason = null, kind = "status") => {
      const counts = (x) => (x === "active" || x === "past_due" ? annual : 0);
      events.push({ at, kind, from: status, to, before: counts(status), after: counts(to), reason });
      status = to;
    };
    const paidDues = dues.slice(0, paid);
    if (gap) {
      const from = 3 + Math.floor(r() * (paid - gap - 4));
      move(paidDues[from - 1] + 5 * DAY, "paused", pick(PAUSE_REASONS));
      move(paidDues[from + gap] - 3 * DAY, "active");
      paidDues.splice(from, gap);
    }
    if (fate === "past_due" || fate === "lapsed") {
      move(next + 7 * DAY, "past_due", "No gift 7 days after it was due");
      if (fate === "lapsed") move(next + 60 * DAY, "lapsed", "No gift 60 days after it was due");
    }
    if (fate === "paused") move(stoppedAt, "paused", pick(PAUSE_REASONS));
    if (fate === "cancelled") move(stoppedAt, "cancelled", pick(CANCEL_REASONS));
    if (fate === "completed") move(stoppedAt, "completed", "Pledge fulfilled");
    const planGifts = paidDues.map((at) => ({
      id: hex(),
      organization_id: orgId,
      plan_id: planId,
      donor_id: donor.id,
      campaign_id: campaign?.id ?? null,
      campaign_item_id: null,
      item_quantity: 0,
      amount_minor: amount,
      fee_covered_minor: 0,
      processing_fee_minor: online ? Math.round(amount * 0.029) + 30 * (m === 1 ? 0 : 1) : 0,
      platform_fee_minor: 0,
      refunded_minor: 0,
      currency: org.currency,
      status: "completed",
      frequency: FREQUENCY_OF[interval],
      payment_method: method,
      gateway: online ? "stripe" : null,
      gateway_transaction_id: online ? `ch_${hex(20)}` : null,
      source: online ? "online" : "manual",
      mode: "live",
      anonymous: 0,
      message: null,
      tribute_type: null,
      tribute_name: null,
      donated_at: at,
      trashed_at: null,
      created_by: online ? null : o.organizer,
      created_at: at,
      updated_at: at,
    }));
    gifts.push(...planGifts);
    const last = planGifts.at(-1)?.donated_at ?? null;
    yield {
      table: "recurring_plan",
      row: {
        id: planId,
        organization_id: orgId,
        donor_id: donor.id,
        campaign_id: campaign?.id ?? null,
        amount_minor: amount,
        currency: org.currency,
        interval,
        interval_day: day,
        status,
        source: online ? "webhook" : "manual",
        gateway: online ? "stripe" : null,
        gateway_subscription_id: online ? `sub_${hex(20)}` : null,
        payment_method: method,
        started_at: start,
        next_expected_at: next,
        ended_at: status === "cancelled" || status === "completed" ? stoppedAt : null,
        status_changed_at: events.at(-1).at,
        gift_count: planGifts.length,
        given_minor: planGifts.length * amount,
        last_gift_at: last,
        missed_count:
          status === "past_due" || status === "lapsed" ? duesPassed(next, interval, day, tz, now) : 0,
        change_token: hex(32),
        created_by: online ? null : o.organizer,
        created_at: start,
        updated_at: events.at(-1).at,
      },
    };
    for (const e of events)
      yield {
        table: "plan_event",
        row: {
          id: hex(),
          organization_id: orgId,
          plan_id: planId,
          at: e.at,
          kind: e.kind,
          from_status: e.from,
          to_status: e.to,
          currency: org.currency,
          annual_before: e.before,
          annual_after: e.after,
          reason: e.reason ?? null,
          actor_id: e.kind === "created" || e.to === "past_due" || e.to === "lapsed" ? null : o.organizer,
        },
      };
  }
  return gifts;
}

/** Rebuilds rollups, donor stats and tiers in SQL (the seed bypasses the API). */
export function rollupSql(orgId, timeZone) {
  const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
  // The per-day rollups (org_daily, donation_daily_totals, analytics_facet, donor_period) exactly as
  // worker/ledger/rollups.ts buildDailyRollups builds them (decisions 013, 038), as one stretch
  // with both ends open: the zone's offsets over 2000–2040 as JSON spans; a seeded gift outside them
  // fails the seed on the state's NOT NULL.
  const spans = JSON.stringify(dailySpans(Date.UTC(2000, 0, 1), Date.UTC(2040, 0, 1), timeZone));
  const bound = {
    org: q(orgId),
    spans: q(spans),
    tz: q(timeZone),
    dayFrom: q(PERIOD_FIRST),
    dayUntil: q(PERIOD_LAST),
    monthFrom: q(PERIOD_FIRST),
    monthUntil: q(PERIOD_LAST),
  };
  const daily = dailyRebuildSql({ last: true }).map(
    ({ sql, args }) => `${sql.replace(/\?(\d)/g, (_, i) => bound[args[Number(i) - 1]])};`,
  );
  // The plan rollups as worker/ledger/plan-rollups.ts rebuildPlanRollups builds them (org_daily's plan
  // columns are counted with the rest of org_daily above).
  const named = { org: bound.org, spans: bound.spans, tz: bound.tz };
  const plans = [
    `DELETE FROM plan_totals WHERE organization_id = ${q(orgId)};`,
    `INSERT INTO plan_totals (organization_id, currency, status, plan_count, annual_minor)
     SELECT organization_id, currency, status, COUNT(*), SUM(amount_minor * CASE interval WHEN 'month' THEN 12 WHEN 'quarter' THEN 4 ELSE 1 END)
       FROM recurring_plan WHERE organization_id = ${q(orgId)} GROUP BY 1, 2, 3;`,
    ...planMonthlyRebuildSql().map(
      ({ sql }) => `${sql.replace(/\?(\d)/g, (_, i) => named[["org", "spans", "tz"][Number(i) - 1]])};`,
    ),
  ];
  const counted =
    "d.status IN ('completed','partially_refunded') AND d.mode = 'live' AND d.trashed_at IS NULL";
  return [
    // Totals by currency × status × mode × trash (the unfiltered donations list).
    `DELETE FROM donation_totals WHERE organization_id = ${q(orgId)};`,
    `INSERT INTO donation_totals (organization_id, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
     SELECT organization_id, currency, status, mode, trashed_at IS NOT NULL, COUNT(*), SUM(amount_minor), SUM(refunded_minor)
       FROM donation WHERE organization_id = ${q(orgId)} GROUP BY 1, 2, 3, 4, 5;`,
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
    ...daily,
    ...plans,
    `UPDATE donor SET tier_id = (SELECT t.id FROM donor_tier t WHERE t.organization_id = donor.organization_id AND t.min_minor <= donor.lifetime_minor AND (t.max_minor IS NULL OR t.max_minor > donor.lifetime_minor) ORDER BY t.min_minor DESC LIMIT 1)
     WHERE organization_id = ${q(orgId)} AND tier_locked = 0;`,
  ];
}
