/**
 * Issue 26, "Input that answers 500 or breaks pages later": each finding as the role and request
 * that found it. The rules live in one pure module, core/schemas.ts (calendar days,
 * currencies, amounts, instants, http(s) URLs, bounded arrays), used by every router, the webhook,
 * the exports and the auth API; docs/decisions/019-shared-input-schemas.md explains the ranges.
 */

import { MAX_AMOUNT_MINOR } from "@core/money";
import {
  CALENDAR_DAY_MAX,
  CALENDAR_DAY_MIN,
  calendarDay,
  currencyCode,
  giftInstant,
  instant,
} from "@core/schemas";
import { campaignStatuses, donationStatuses } from "@core/status";
import { TRPCError } from "@trpc/server";
import { describe, expect, it, vi } from "vitest";
import { buildDonorCsv } from "../../src/features/donors/export";
import { appRouter } from "../../worker/api-router";
import { facts } from "../../worker/ledger/donation-change";
import { rollupStatements } from "../../worker/ledger/rollups";
import { changeTokenGuard } from "../../worker/lib/guard";
import { CookieJar, makeAdmin, PASSWORD, signUp, uniqueEmail } from "../auth/jar";
import { deliver, platformAdmin, webhookEvent } from "../donations/brute";
import { gift, newDonor } from "../donors/helpers";
import { makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, call, codeOf, testEnv } from "../helpers";

/** The input fields a refusal names (zod issues → `data.fieldErrors` over HTTP; the cause here). */
async function refusedFields(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  if (!(e instanceof TRPCError)) return `not refused: ${String(e)}`;
  if (e.code !== "BAD_REQUEST") return e.code;
  const issues = (e.cause as unknown as { issues?: { path: PropertyKey[] }[] } | undefined)?.issues ?? [];
  return [...new Set(issues.map((i) => i.path.map(String).join(".")))].sort().join(",");
}

async function donationCount(org: string) {
  return (
    (await testEnv.DB.prepare("SELECT count(*) AS n FROM donation WHERE organization_id = ?")
      .bind(org)
      .first<{ n: number }>()) as { n: number }
  ).n;
}

const many = <T>(value: T, n = 150) => Array.from({ length: n }, () => value);

/* ------------------------------------------------------------------ schema walking */

type Def = {
  type: string;
  shape?: Record<string, Schema>;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  options?: Schema[];
  left?: Schema;
  right?: Schema;
  element?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  items?: Schema[];
  rest?: Schema | null;
  getter?: () => Schema;
  entries?: Record<string, string>;
  checks?: { _zod: { def: { check: string; maximum?: number; length?: number } } }[];
};
type Schema = { _zod: { def: Def } };

/** The shared schemas: checked by identity, not walked into. */
const SHARED = new Set<unknown>([calendarDay, currencyCode, instant, giftInstant]);

/** Every schema reachable from `s`, with the path of object keys that leads to it. */
function* walk(s: Schema, path: string[] = [], seen = new Set<Schema>()): Generator<[string[], Schema]> {
  if (seen.has(s)) return;
  seen.add(s);
  yield [path, s];
  if (SHARED.has(s)) return;
  const d = s._zod.def;
  if (d.shape) for (const [k, v] of Object.entries(d.shape)) yield* walk(v, [...path, k], seen);
  for (const inner of [d.innerType, d.in, d.out, d.left, d.right, d.element, d.keyType, d.valueType])
    if (inner) yield* walk(inner, path, seen);
  for (const o of [...(d.options ?? []), ...(d.items ?? []), ...(d.rest ? [d.rest] : [])])
    yield* walk(o, path, seen);
  if (d.type === "lazy" && d.getter) yield* walk(d.getter(), path, seen);
}

/** The largest length an array schema allows (Infinity without a bound). */
function maxLength(s: Schema) {
  let max = Number.POSITIVE_INFINITY;
  for (const c of s._zod.def.checks ?? []) {
    const def = c._zod.def;
    if (def.check === "max_length" && def.maximum !== undefined) max = Math.min(max, def.maximum);
    if (def.check === "length_equals" && def.length !== undefined) max = Math.min(max, def.length);
  }
  return max;
}

/** `s` without optional/nullable/default/catch wrappers. */
function unwrap(s: Schema): Schema {
  let x = s;
  while (x._zod.def.innerType && x._zod.def.type !== "array") x = x._zod.def.innerType;
  return x;
}

type Proc = { _def: { type: string; meta?: { guard?: string }; inputs?: Schema[] } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>);

/* ------------------------------------------------------------------ list filters */

describe("list filters (issue 26: arrays without a maximum, dates outside the calendar)", () => {
  it("campaigns.list and donations.list with a status or phase array of 150 entries answer 400, not 500 'too many SQL variables' (org owner)", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    for (const [path, input] of [
      ["campaigns.list", { status: many("active") }],
      ["campaigns.list", { phase: many("live") }],
      ["donations.list", { status: many("completed") }],
      ["donations.list", { status: many("completed", 120) }],
    ] as const)
      expect(await refusedFields(call(caller, path, input)), `${path} ${Object.keys(input)}`).toBe(
        Object.keys(input)[0],
      );
    // Each value at most once: the whole set is a filter, a repeated value is the same filter.
    expect(await codeOf(caller.campaigns.list({ status: [...campaignStatuses] }))).toBe("OK");
    expect(await codeOf(caller.donations.list({ status: [...donationStatuses] }))).toBe("OK");
    expect(await refusedFields(caller.donations.list({ status: [...donationStatuses, "completed"] }))).toBe(
      "status",
    );
    await caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 1_000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 1000,
    });
    const once = await caller.donations.list({ status: ["completed"] });
    const twice = await caller.donations.list({ status: ["completed", "completed"] });
    expect(twice.total).toBe(1);
    expect(twice.totalsByCurrency).toEqual(once.totalsByCurrency);
  });

  it("date filters 0000-01-01 and 9999-12-31 on donations, campaigns, donors and the donors export answer 400 with the field, not 500 'Invalid time value' (org owner)", async () => {
    const org = await makeOrg({ timeZone: "America/New_York" });
    const { caller, jar } = await member(org, "owner");
    const days = [
      "0000-01-01",
      "9999-12-31",
      "0999-12-31",
      "2026-02-30",
      "2026-13-01",
      "20260101",
      "+02026-01-01",
    ];
    const cases: [string, string][] = [
      ["donations.list", "from"],
      ["donations.list", "to"],
      ["campaigns.list", "from"],
      ["campaigns.list", "to"],
      ["donors.list", "lastGiftFrom"],
      ["donors.list", "lastGiftTo"],
      ["donors.exportPage", "lastGiftFrom"],
      ["donors.exportPage", "lastGiftTo"],
    ];
    for (const [path, field] of cases) {
      for (const day of days)
        expect(await refusedFields(call(caller, path, { [field]: day })), `${path} ${field}=${day}`).toBe(
          field,
        );
      // The first and last days of the range answer.
      for (const day of [CALENDAR_DAY_MIN, CALENDAR_DAY_MAX])
        expect(await codeOf(call(caller, path, { [field]: day })), `${path} ${field}=${day}`).toBe("OK");
    }
    // The CSV export parses its query string with the same schema.
    for (const query of ["from=0000-01-01", "to=9999-12-31", "from=2026-02-30"]) {
      const res = await appFetch(`/api/export/donations.csv?${query}`, { headers: { cookie: jar.header() } });
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ code: "BAD_REQUEST" });
    }
  });

  /**
   * Enum arrays indexed by position, not sets: an import's mapping has one entry per file column
   * (at most 200), null for a column not imported; a field appears at most once (its own refine,
   * core/import/fields.ts importMapping), the nulls as often as the file has such columns.
   */
  const POSITIONAL = new Set(["imports.check mapping", "imports.start mapping"]);

  it("no procedure input has an array without a maximum; enum arrays hold each value at most once; every day, currency and instant is the shared schema", () => {
    const unbounded: string[] = [];
    const enumTooLong: string[] = [];
    const days: string[] = [];
    const currencies: string[] = [];
    const instants: string[] = [];
    for (const [name, p] of procedures)
      for (const input of p._def.inputs ?? [])
        for (const [path, s] of walk(input)) {
          const where = `${name} ${path.join(".")}`;
          const d = s._zod.def;
          if (d.type === "array") {
            const max = maxLength(s);
            if (!Number.isFinite(max)) unbounded.push(where);
            const el = unwrap(d.element as Schema)._zod.def;
            if (el.type === "enum" && max > Object.keys(el.entries ?? {}).length && !POSITIONAL.has(where))
              enumTooLong.push(where);
          }
          const key = path.at(-1) ?? "";
          const leaf = unwrap(s);
          if (leaf !== s) continue;
          // Keys that name a calendar day, a currency or an instant must use the shared schema.
          if (/^(from|to|day)$|[a-z](From|To|Day)$/.test(key) && s !== calendarDay) days.push(where);
          if (/^currency$|Currency$/.test(key) && s !== currencyCode) currencies.push(where);
          if (/[a-z]At$/.test(key) && s !== instant && s !== giftInstant) instants.push(where);
        }
    expect(unbounded).toEqual([]);
    expect(enumTooLong).toEqual([]);
    expect(days).toEqual([]);
    expect(currencies).toEqual([]);
    expect(instants).toEqual([]);
  });

  it("every list and analytics procedure, fuzzed with 150-entry arrays, extreme days and numbers, answers OK or 400 and never 500 (org owner, platform admin)", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Kiritimati" });
    const owner = await member(org, "owner");
    const admin = await platformAdmin(org);
    const extremeDays = [
      "0000-01-01",
      "9999-12-31",
      CALENDAR_DAY_MIN,
      CALENDAR_DAY_MAX,
      "2026-02-29",
      "2024-02-29",
    ];
    const big = [Number.MAX_SAFE_INTEGER, 1e21, -1, 0.5];
    const table: [string, Record<string, unknown>[]][] = [
      [
        "donations.list",
        [
          { status: many("pending") },
          ...extremeDays.flatMap((d) => [{ from: d }, { to: d }, { from: CALENDAR_DAY_MIN, to: d }]),
          ...big.flatMap((n) => [{ minAmountMinor: n }, { maxAmountMinor: n }]),
          { currency: "ZZ!" },
          { sort: "amount", status: ["completed"], from: CALENDAR_DAY_MIN, to: CALENDAR_DAY_MAX },
        ],
      ],
      [
        "campaigns.list",
        [
          { status: many("draft") },
          { phase: many("ended") },
          ...extremeDays.flatMap((d) => [{ from: d }, { to: d }]),
        ],
      ],
      [
        "donors.list",
        [
          ...extremeDays.flatMap((d) => [{ lastGiftFrom: d }, { lastGiftTo: d }]),
          ...big.flatMap((n) => [{ minLifetimeMinor: n }, { maxLifetimeMinor: n }]),
        ],
      ],
      ["donors.exportPage", extremeDays.flatMap((d) => [{ lastGiftFrom: d }, { lastGiftTo: d }])],
      [
        "dashboard.summary",
        [{ days: 3650 }, { days: 0 }, { days: 1e9 }, { currency: "ZZ!" }, { currency: "XYZ" }],
      ],
      ["campaigns.analytics", [{ id: "nope", days: 1e9 }]],
      ["donors.tags.assign", [{ donorIds: many("x", 501), tagIds: ["t"], mode: "add" }]],
      ["campaigns.items.reorder", [{ campaignId: "c", ids: many("x", 501) }]],
      ["organizers.list", [{ status: many("active") }]],
      ["organizers.exportPage", [{ status: many("active") }]],
      ["dashboard.platform", [{ days: 1e9 }]],
    ];
    const wrong: string[] = [];
    for (const [path, inputs] of table)
      for (const input of inputs)
        for (const caller of [owner.caller, admin.caller]) {
          const code = await codeOf(call(caller, path, input));
          if (!["OK", "BAD_REQUEST", "NOT_FOUND", "FORBIDDEN"].includes(code))
            wrong.push(`${path} ${JSON.stringify(input).slice(0, 80)}: ${code}`);
        }
    expect(wrong).toEqual([]);
  });
});

describe("text searches and slugs (D1 refuses a LIKE pattern past 50 bytes)", () => {
  it("every list answers a search of 49 to 200 characters, wildcards and accents included, and never a 500 (org owner, platform admin)", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await platformAdmin(org);
    const searches = ["x".repeat(49), "y".repeat(200), `${"%_\\".repeat(20)}é`, "é".repeat(60)];
    const lists = [
      "donations.list",
      "donations.matchingIds",
      "donors.list",
      "donors.matchingIds",
      "campaigns.list",
      "campaigns.matchingIds",
      "plans.list",
      "reports.lapsed",
      "organizers.list",
    ];
    const wrong: string[] = [];
    for (const path of lists)
      for (const q of searches)
        for (const caller of [owner.caller, admin.caller]) {
          const code = await codeOf(call(caller, path, { q }));
          if (!["OK", "FORBIDDEN"].includes(code)) wrong.push(`${path} ${q.slice(0, 12)}…: ${code}`);
        }
    expect(wrong).toEqual([]);
    const res = await admin.jar.get(
      `/api/auth/admin/list-users?${new URLSearchParams({ searchValue: "z".repeat(120), searchOperator: "ends_with" })}`,
    );
    expect(res.status).toBe(200);
  });

  it("creates campaigns whose titles make slugs past 50 characters, numbering a repeated one (org owner)", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    // Another campaign first: SQLite tests a slug pattern only against rows it reaches.
    await caller.campaigns.create({ title: "Spring gala", currency: "USD", goalType: "none" });
    const title = "Annual appeal for the renovation of the north wing roof 2027";
    const first = await caller.campaigns.create({ title, currency: "USD", goalType: "none" });
    const second = await caller.campaigns.create({ title, currency: "USD", goalType: "none" });
    expect(first.slug).toBe("annual-appeal-for-the-renovation-of-the-north-wing-roof-2027");
    expect(second.slug).toBe(`${first.slug.slice(0, 54)}-2`);
  });

  it("matches literally, ASCII letters' case aside: a percent sign, an accented name, a donor's company in the donations list (org owner)", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const donor = async (data: Record<string, string>) => {
      const id = await newDonor(caller, { email: uniqueEmail("search"), ...data });
      await gift(caller, id, 1_000);
      return id;
    };
    const elodie = await donor({ firstName: "Élodie", lastName: "Ünver" });
    const acme = await donor({ firstName: "Sam", lastName: "Reyes", company: "Acme 100% Fund" });
    await donor({ firstName: "Other", lastName: "Person" });
    const donorsFound = async (q: string) => (await caller.donors.list({ q })).rows.map((r) => r.id);
    const giftsOf = async (q: string) => (await caller.donations.list({ q })).rows.map((r) => r.donorId);
    expect(await donorsFound("ODIE Ü")).toEqual([elodie]);
    expect(await donorsFound("100%")).toEqual([acme]);
    expect(await donorsFound("%")).toEqual([acme]);
    expect(await giftsOf("acme 100% fund")).toEqual([acme]);
    expect(await giftsOf("élodie ünver")).toEqual([]);
    expect((await caller.donations.list({ q: "acme" })).total).toBe(1);
  });
});

/* ------------------------------------------------------------------ money, currencies, instants */

describe("money, currencies and instants (issue 26: the webhook stores what pages cannot show)", () => {
  it("the webhook refuses amount 1e21, '1e21', amounts over the processor cap, currencies 'ZZ!' and 'XYZ', year-9999 and year-0000 dates with 4xx, and stores none of them", async () => {
    const org = await makeOrg();
    const refused: [Record<string, unknown>, number][] = [
      [{ amount: 1e21 }, 400],
      [{ amount: "1e21" }, 400],
      [{ amount: "1000000000000000000000" }, 422],
      [{ amount: "1000000.00" }, 422],
      [{ amount: "999999.991" }, 400],
      [{ amount: "0.99" }, 422],
      [{ amount: "0" }, 422],
      [{ amount: "-5.00" }, 400],
      [{ currency: "ZZ!" }, 422],
      [{ currency: "XYZ" }, 422],
      [{ currency: "US" }, 422],
      [{ currency: "jpy", amount: "100000000" }, 422],
      [{ currency: "KWD", amount: "100000.000" }, 422],
      [{ donatedAt: "9999-12-31T00:00:00Z" }, 422],
      [{ donatedAt: "0000-01-01T00:00:00Z" }, 422],
      [{ donatedAt: "1969-12-31T23:59:59Z" }, 422],
      [{ donatedAt: new Date(Date.now() + 3600_000).toISOString() }, 422],
      [{ donatedAt: "2026-02-30T00:00:00Z" }, 400],
      [{ refundedAmount: "50.00" }, 422],
      [{ processingFee: "1000000000000000000000" }, 422],
    ];
    let n = 0;
    for (const [data, status] of refused) {
      n += 1;
      const res = await deliver(webhookEvent(org, `tx-bad-${n}`, "donation.succeeded", data));
      const body = (await res.json()) as { code: string; message: string };
      expect(res.status, JSON.stringify(data)).toBe(status);
      expect(body.code, JSON.stringify(data)).toBe(status === 400 ? "BAD_REQUEST" : "UNPROCESSABLE_CONTENT");
      expect(body.message.length).toBeGreaterThan(5);
    }
    const currency = await deliver(webhookEvent(org, "tx-xyz", "donation.succeeded", { currency: "XYZ" }));
    expect(await currency.json()).toMatchObject({ message: "Currency XYZ is not supported" });
    expect(await donationCount(org)).toBe(0);
    // The cap is eight digits of minor units in every currency (decision 019): its edge is taken.
    for (const [currency, amount] of [
      ["usd", "999999.99"],
      ["JPY", "99999999"],
      ["KWD", "99999.999"],
      ["EUR", "1.00"],
    ]) {
      const res = await deliver(
        webhookEvent(org, `tx-edge-${currency}`, "donation.succeeded", { currency, amount }),
      );
      expect(res.status, `${currency} ${amount}`).toBe(201);
    }
    const stored = await testEnv.DB.prepare(
      "SELECT currency, amount_minor FROM donation WHERE organization_id = ? ORDER BY currency",
    )
      .bind(org)
      .all();
    expect(stored.results).toEqual([
      { currency: "EUR", amount_minor: 100 },
      { currency: "JPY", amount_minor: MAX_AMOUNT_MINOR },
      { currency: "KWD", amount_minor: MAX_AMOUNT_MINOR },
      { currency: "USD", amount_minor: MAX_AMOUNT_MINOR },
    ]);
  });

  it("manual gifts, campaigns, badges and filters refuse currencies, amounts and instants outside the shared ranges (org owner, platform admin)", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const gift = {
      donorId: null,
      campaignId: null,
      amountMinor: 1_000,
      currency: "USD" as const,
      paymentMethod: "cash" as const,
      donatedAt: Date.now() - 1000,
    };
    for (const [patch, field] of [
      [{ currency: "ZZ!" }, "currency"],
      [{ currency: "XYZ" }, "currency"],
      [{ amountMinor: 1e15 }, "amountMinor"],
      [{ amountMinor: MAX_AMOUNT_MINOR + 1 }, "amountMinor"],
      [{ amountMinor: 99 }, "amountMinor"],
      [{ donatedAt: 8.64e15 + 1 }, "donatedAt"],
      [{ donatedAt: Date.UTC(9999, 11, 31) }, "donatedAt"],
      [{ donatedAt: -1 }, "donatedAt"],
      [{ donatedAt: Date.now() + 3600_000 }, "donatedAt"],
      [{ donatedAt: Number.NaN }, "donatedAt"],
    ] as const)
      expect(
        await refusedFields(caller.donations.create({ ...gift, ...patch } as typeof gift)),
        JSON.stringify(patch),
      ).toBe(field);
    expect(
      await codeOf(
        caller.donations.create({ ...gift, currency: "jpy" as "JPY", amountMinor: MAX_AMOUNT_MINOR }),
      ),
    ).toBe("OK");
    const campaign = { title: "Winter appeal", currency: "USD" as const };
    for (const [patch, field] of [
      [{ currency: "ZZ!" }, "currency"],
      [{ startAt: 8.64e15 + 1 }, "startAt"],
      [{ endAt: Date.UTC(9999, 0, 1) }, "endAt"],
      [{ startAt: -86_400_000 }, "startAt"],
      [{ maxAmountMinor: 1e15 }, "maxAmountMinor"],
      [{ minAmountMinor: 1 }, "minAmountMinor"],
      [{ suggestedAmounts: [1e15] }, "suggestedAmounts,suggestedAmounts.0"],
      [{ goalType: "amount", goalAmountMinor: 1e21 }, "goalAmountMinor"],
    ] as const)
      expect(
        await refusedFields(caller.campaigns.create({ ...campaign, ...patch } as typeof campaign)),
        JSON.stringify(patch),
      ).toBe(field);
    expect(await refusedFields(caller.dashboard.summary({ currency: "ZZ!" }))).toBe("currency");
    expect(await refusedFields(caller.donations.list({ currency: "XYZ" }))).toBe("currency");
    expect(await codeOf(caller.donations.list({ currency: "eur" }))).toBe("OK");
    const admin = await platformAdmin(org);
    expect(
      await refusedFields(
        admin.caller.badges.grant({
          organizationId: org,
          badge: "verified_organization",
          expiresAt: 8.64e15 + 1,
        } as never),
      ),
    ).toBe("expiresAt");
  });

  it("rows stored before the fix (currency 'ZZ!', a year-9999 gift, donated_at past the Date range, amount 1e15) leave the dashboard, lists, detail pages, analytics and exports answering (org owner)", async () => {
    const org = await makeOrg({ timeZone: "Europe/Paris" });
    const owner = await member(org, "owner");
    const { caller } = owner;
    const c = await caller.campaigns.create({ title: "Harbor", currency: "USD" });
    await caller.campaigns.setStatus({ id: c.id, action: "publish" });
    await caller.donations.create({
      donorId: null,
      campaignId: c.id,
      amountMinor: 2_500,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 60_000,
    });
    const donor = `dn-bad-${org}`;
    const now = Date.now();
    await testEnv.DB.prepare(
      "INSERT INTO donor (id, organization_id, first_name, email, created_at, updated_at) VALUES (?, ?, 'Bad', ?, ?, ?)",
    )
      .bind(donor, org, `bad-${org}@example.test`, now, now)
      .run();
    // As the webhook stored them (rollups included), and one row written by hand past the Date range.
    const bad: [string, number, string, number, boolean][] = [
      ["bad-currency", 1_234, "ZZ!", now - 3_600_000, true],
      ["bad-year-9999", 4_200, "USD", Date.UTC(9999, 11, 31, 12), true],
      ["bad-amount", 1e15, "USD", now - 7_200_000, true],
      ["bad-range", 5_000, "USD", 8.64e15 + 1, false],
    ];
    let number = 100;
    for (const [id, amount, currency, at, rollups] of bad) {
      number += 1;
      const row = {
        id: `${id}-${org}`,
        organization_id: org,
        donor_id: donor,
        campaign_id: c.id,
        status: "completed",
        mode: "live",
        trashed_at: null,
        amount_minor: amount,
        refunded_minor: 0,
        currency,
        donated_at: at,
        // The columns' defaults, which the INSERT below leaves to the table.
        payment_method: "card",
        frequency: "one_time",
      };
      await testEnv.DB.batch([
        testEnv.DB.prepare(
          `INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, amount_minor, currency, status, source, mode, donated_at, created_at, updated_at, change_token)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'completed', 'webhook', 'live', ?, ?, ?, ?)`,
        ).bind(row.id, org, number, donor, c.id, amount, currency, at, now, now, row.id),
        // Rollup deltas apply only under the change token the row carries (decision 020).
        ...(rollups
          ? rollupStatements(
              testEnv.DB,
              null,
              facts(row as never),
              "Europe/Paris",
              changeTokenGuard(row.id, row.id),
            )
          : []),
      ]);
    }
    const answers: string[] = [];
    const check = async (label: string, p: Promise<unknown>) => answers.push(`${label}: ${await codeOf(p)}`);
    await check("dashboard.summary 30", caller.dashboard.summary({ days: 30 }));
    await check("dashboard.summary all", caller.dashboard.summary({ days: 0 }));
    await check("dashboard.retention", caller.dashboard.retention());
    await check("donations.list", caller.donations.list({}));
    await check("donations.list amount", caller.donations.list({ sort: "amount", status: ["completed"] }));
    await check("donations.list dated", caller.donations.list({ from: "2020-01-01", to: CALENDAR_DAY_MAX }));
    for (const [id] of bad)
      await check(`donations.byId ${id}`, caller.donations.byId({ id: `${id}-${org}` }));
    await check("campaigns.list", caller.campaigns.list({}));
    await check("campaigns.byId", caller.campaigns.byId({ id: c.id }));
    await check("campaigns.analytics 30", caller.campaigns.analytics({ id: c.id, days: 30 }));
    await check("campaigns.analytics all", caller.campaigns.analytics({ id: c.id, days: 0 }));
    await check("campaigns.public", caller.campaigns.public({ organizationSlug: org, slug: c.slug }));
    await check("donors.list", caller.donors.list({}));
    await check("donors.byId", caller.donors.byId({ id: donor }));
    await check("donors.exportPage", caller.donors.exportPage({}));
    // A change to such a row (its rollups move) and the time-zone change that rebuilds them all.
    await check("donations.delete", caller.donations.delete({ id: `bad-range-${org}` }));
    await check("donations.restore", caller.donations.restore({ id: `bad-range-${org}` }));
    await check(
      "organization.update (new time zone: every rollup rebuilt)",
      caller.organization.update({
        name: "Harbor",
        type: "charity",
        defaultCurrency: "USD",
        timeZone: "Asia/Tokyo",
        fiscalYearStartMonth: 1,
      }),
    );
    await check("dashboard.summary after", caller.dashboard.summary({ days: 0 }));
    expect(answers.filter((a) => !a.endsWith(": OK"))).toEqual([]);
    const cookie = { cookie: owner.jar.header() };
    const csv = await appFetch("/api/export/donations.csv", { headers: cookie });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    for (const [id] of bad) expect(text).toContain(`${id}-${org}`);
    expect(text).toContain("ZZ!");
    // The donors CSV is built from donors.exportPage pages (core/exports/donors.ts).
    const donors = await buildDonorCsv((after) => caller.donors.exportPage({ after }), "UTC");
    expect(donors.parts.join("")).toContain(`bad-${org}@example.test`);
  });
});

/* ------------------------------------------------------------------ URLs */

const NOT_HTTP = [
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  "JavaScript:alert(document.cookie)",
  " javascript:alert(1)",
  "\t\n javascript:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "ftp://example.test/x",
  "//evil.example/x",
  "https//example.test",
];

describe("URLs (issue 26: javascript: accepted for the organization website and the user image)", () => {
  it("organization.update refuses a javascript:, data: or other non-http(s) website with 400 on the field (org owner)", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const profile = {
      name: "Harbor Food Bank",
      type: "charity" as const,
      defaultCurrency: "EUR" as const,
      timeZone: "Europe/Lisbon",
      fiscalYearStartMonth: 4,
    };
    for (const website of NOT_HTTP)
      expect(
        await refusedFields(caller.organization.update({ ...profile, website })),
        JSON.stringify(website),
      ).toBe("website");
    for (const website of ["https://harbor.example/about?x=1", "http://harbor.example", ""]) {
      expect(await codeOf(caller.organization.update({ ...profile, website })), website).toBe("OK");
    }
    const row = await testEnv.DB.prepare("SELECT website FROM organization WHERE id = ?")
      .bind(org)
      .first<{ website: string | null }>();
    expect(row?.website).toBeNull();
  });

  it("sign-up, update-user and the admin's update-user refuse such an image with 400 VALIDATION_ERROR 'Invalid body parameters'", async () => {
    const expectRefused = async (res: Response, label: string) => {
      expect(res.status, label).toBe(400);
      expect(await res.json(), label).toEqual({
        code: "VALIDATION_ERROR",
        message: "Invalid body parameters",
      });
    };
    const me = await signUp(new CookieJar());
    const admin = await makeAdmin();
    for (const image of NOT_HTTP) {
      const label = JSON.stringify(image);
      await expectRefused(
        await new CookieJar().post("/api/auth/sign-up/email", {
          name: "Ima Ge",
          email: uniqueEmail("img"),
          password: PASSWORD,
          image,
        }),
        `sign-up ${label}`,
      );
      await expectRefused(await me.jar.post("/api/auth/update-user", { image }), `update-user ${label}`);
      await expectRefused(
        await admin.jar.post("/api/auth/admin/update-user", { userId: me.user.id, data: { image } }),
        `admin update-user ${label}`,
      );
    }
    const row = () =>
      testEnv.DB.prepare("SELECT image FROM user WHERE id = ?")
        .bind(me.user.id)
        .first<{ image: string | null }>();
    expect((await row())?.image).toBeNull();
    expect((await me.jar.post("/api/auth/update-user", { image: "https://cdn.example/me.png" })).status).toBe(
      200,
    );
    expect((await row())?.image).toBe("https://cdn.example/me.png");
    expect((await me.jar.post("/api/auth/update-user", { image: null })).status).toBe(200);
    const res = await new CookieJar().post("/api/auth/sign-up/email", {
      name: "Ima Ge",
      email: uniqueEmail("img"),
      password: PASSWORD,
      image: "http://cdn.example/a.png",
    });
    expect(res.status).toBe(200);
  });

  it("ban-user refuses an expiry past the instants pages show, so list-users keeps answering (platform admin)", async () => {
    const admin = await makeAdmin();
    const target = await signUp(new CookieJar());
    const res = await admin.jar.post("/api/auth/admin/ban-user", {
      userId: target.user.id,
      banExpiresIn: 1e13,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
    expect((await admin.jar.get("/api/auth/admin/list-users?limit=5")).status).toBe(200);
    const week = await admin.jar.post("/api/auth/admin/ban-user", {
      userId: target.user.id,
      banExpiresIn: 604_800,
    });
    expect(week.status).toBe(200);
  });

  it("a javascript: website stored before the fix is not handed to the browser (org viewer)", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "viewer");
    for (const [stored, shown] of [
      ["javascript:alert(1)", null],
      [" JAVASCRIPT:alert(1)", null],
      ["https://harbor.example/", "https://harbor.example/"],
    ] as const) {
      await testEnv.DB.prepare("UPDATE organization SET website = ? WHERE id = ?").bind(stored, org).run();
      expect((await caller.organization.current()).website).toBe(shown);
    }
  });
});

/* ------------------------------------------------------------------ LIKE */

describe("list-users (issue 26: filterOperator=contains does not escape % and _)", () => {
  it("answers only literal matches for '%' and '_' in every LIKE the admin API builds (platform admin)", async () => {
    const admin = await makeAdmin();
    const tag = Date.now().toString(36);
    await signUp(new CookieJar(), uniqueEmail("pct"), `Ann%${tag}`);
    await signUp(new CookieJar(), `under_score-${tag}@example.test`, `Bob_${tag}`);
    await signUp(new CookieJar(), uniqueEmail("plain"), `Carl ${tag}`);
    await signUp(new CookieJar(), uniqueEmail("plain"), `Dora ${tag}`);
    const list = async (query: Record<string, string>) => {
      const res = await admin.jar.get(
        `/api/auth/admin/list-users?${new URLSearchParams({ limit: "1000", ...query })}`,
      );
      expect(res.status, JSON.stringify(query)).toBe(200);
      return ((await res.json()) as { users: { name: string; email: string }[] }).users;
    };
    for (const value of ["%", "_", "\\"]) {
      for (const [field, key] of [
        ["name", "name"],
        ["email", "email"],
      ] as const) {
        const filtered = await list({ filterField: field, filterOperator: "contains", filterValue: value });
        expect(
          filtered.every((u) => u[key].includes(value)),
          `filter ${field} ${value}`,
        ).toBe(true);
        for (const op of ["contains", "starts_with", "ends_with"]) {
          const found = await list({ searchField: field, searchOperator: op, searchValue: value });
          expect(
            found.every((u) => u[key].includes(value)),
            `search ${field} ${op} ${value}`,
          ).toBe(true);
        }
      }
    }
    expect(
      (await list({ filterField: "name", filterOperator: "contains", filterValue: "%" })).map((u) => u.name),
    ).toEqual([`Ann%${tag}`]);
    expect(
      (await list({ filterField: "name", filterOperator: "contains", filterValue: "_" })).map((u) => u.name),
    ).toEqual([`Bob_${tag}`]);
    expect(
      (await list({ filterField: "email", filterOperator: "contains", filterValue: "_" })).map((u) => u.name),
    ).toEqual([`Bob_${tag}`]);
    expect(
      (await list({ filterField: "name", filterOperator: "contains", filterValue: `n%${tag}` })).map(
        (u) => u.name,
      ),
    ).toEqual([`Ann%${tag}`]);
    expect(
      (await list({ searchField: "name", searchOperator: "starts_with", searchValue: "Ann%" })).map(
        (u) => u.name,
      ),
    ).toEqual([`Ann%${tag}`]);
    expect(
      (await list({ searchField: "name", searchOperator: "ends_with", searchValue: `_${tag}` })).map(
        (u) => u.name,
      ),
    ).toEqual([`Bob_${tag}`]);
    // Still a contains filter: a literal part of a name finds it, and equality still compares exactly.
    expect(
      (await list({ filterField: "name", filterOperator: "contains", filterValue: `ora ${tag}` })).map(
        (u) => u.name,
      ),
    ).toEqual([`Dora ${tag}`]);
    expect(
      (await list({ filterField: "name", filterOperator: "eq", filterValue: `Carl ${tag}` })).map(
        (u) => u.name,
      ),
    ).toEqual([`Carl ${tag}`]);
  });

  it("builds no LIKE from input: every LIKE in worker/ is a quoted constant (searches use instr, worker/lib/list.ts)", () => {
    const sources = import.meta.glob(["/worker/**/*.ts", "!/worker/**/*.test.ts"], {
      query: "?raw",
      import: "default",
      eager: true,
    }) as Record<string, string>;
    expect(Object.keys(sources).length).toBeGreaterThan(30);
    const bound = new Set<string>();
    for (const [path, src] of Object.entries(sources))
      src.split("\n").forEach((line, i) => {
        if (/^\s*(\/\*|\*|\/\/)/.test(line)) return;
        // D1 refuses a LIKE pattern past 50 bytes with a 500, and a pattern from input needs its
        // wildcards escaped: only a quoted literal may follow LIKE (e.g. 'donor.%'), never a
        // placeholder, a numbered one ("?7", `${q}`) or an operator chosen from input.
        for (const m of line.matchAll(/\bLIKE\b(.{0,16})/g))
          if (!/^ '[^'?]*'/.test(m[1] ?? "")) bound.add(`${path}:${i + 1} ${line.trim()}`);
        if (/["']LIKE["']/.test(line)) bound.add(`${path}:${i + 1} ${line.trim()}`);
      });
    expect([...bound]).toEqual([]);
  });
});

/* ------------------------------------------------------------------ every input, hostile */

/**
 * Issue 53, "no 5xx for any input we sent": every procedure's input, built valid from its schema
 * (each leaf the first plausible value its schema takes), then each leaf in turn replaced by a
 * hostile value — lone surrogates, very long strings, numbers past every range, NaN and Infinity
 * as numbers and as strings, years 0001 and 9999, wrong types — and the whole input too. A
 * platform admin (every rung lets them in) sends them; a refusal is fine, a 500 is not.
 */
const LONG = "a".repeat(20_000);
/** Hostile values by what the leaf takes: its own type at every edge, and one wrong type or two. */
const HOSTILE: Record<"string" | "number" | "other", unknown[]> = {
  string: ["\ud800", "x\udc00y", LONG, "1e309", "", "0001-01-01", "9999-12-31T23:59:59.999Z", 1e308, null],
  number: [
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e308,
    -1,
    0.5,
    -62_135_596_800_000, // 0001-01-01
    8.64e15 + 1,
    "NaN",
    null,
  ],
  other: ["\ud800", 1e308, null, {}],
};
const WHOLE: unknown[] = [undefined, null, "\ud800", { unexpected: LONG }];

/** Plausible values, tried in order against a leaf's schema: the first it takes is the leaf's. */
const CANDIDATES: unknown[] = [
  "x",
  "Pacific/Kiritimati",
  "US",
  "abc",
  "abcdefgh",
  "2026-01-15",
  "USD",
  "donor@example.test",
  "https://example.test/a.png",
  "#2255aa",
  "2026-01-15T12:00:00.000Z",
  "abcdefghijklmnop1234",
  1,
  5,
  100,
  1_000,
  Date.UTC(2026, 0, 15),
  2026,
  true,
];

const OMITTED = new Set(["optional", "default", "prefault"]);
const WRAPPERS = new Set([...OMITTED, "nullable", "catch", "readonly", "nonoptional"]);

/** The organization's own rows, so a baseline names real ones: ids by key, `id` by procedure. */
type Ids = Record<string, string>;
const ID_KEYS: Record<string, string> = {
  donorId: "donor",
  sourceId: "donor",
  targetId: "otherDonor",
  campaignId: "campaign",
  campaignItemId: "item",
  planId: "plan",
  tagId: "tag",
  tierId: "tier",
  donationId: "donation",
  userId: "user",
  organizationId: "org",
  membershipId: "membership",
  donorIds: "donor",
  tagIds: "tag",
  campaignIds: "campaign",
};
function idOf(procedure: string): string | null {
  for (const [prefix, entity] of [
    ["campaigns.items.", "item"],
    ["campaigns.", "campaign"],
    ["donors.tags.", "tag"],
    ["donors.notes.", "note"],
    ["donors.tiers.", "tier"],
    ["donors.", "donor"],
    ["donations.", "donation"],
    ["plans.", "plan"],
  ] as const)
    if (procedure.startsWith(prefix)) return entity;
  return null;
}

const accepts = (s: Schema, v: unknown) =>
  (s as unknown as { safeParse(v: unknown): { success: boolean } }).safeParse(v).success;

/**
 * A value `s` takes: objects with their required keys (an optional key is a leaf the hostile values
 * try, not part of the baseline), a real row's id where the key names one, else the first
 * candidate the schema accepts.
 */
function plausible(s: Schema, ids: Ids, procedure: string, key = ""): unknown {
  const d = s._zod.def;
  const entity = ID_KEYS[key] ?? (key === "id" || key === "ids" ? idOf(procedure) : null);
  const real = entity ? ids[entity] : undefined;
  if (real !== undefined) {
    if (accepts(s, real)) return real;
    if (accepts(s, [real])) return [real];
    if (entity === "donor" && ids.otherDonor && accepts(s, [real, ids.otherDonor]))
      return [real, ids.otherDonor];
  }
  if (WRAPPERS.has(d.type) && d.innerType) return plausible(d.innerType, ids, procedure, key);
  if (d.type === "object") {
    const entries = Object.entries(d.shape ?? {})
      .filter(([, v]) => !OMITTED.has(v._zod.def.type))
      .map(([k, v]) => [k, plausible(v, ids, procedure, k)] as const);
    return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
  }
  if (d.type === "lazy" && d.getter) return plausible(d.getter(), ids, procedure, key);
  if (d.type === "enum") return Object.values(d.entries ?? {})[0];
  if (d.type === "literal") return (d as unknown as { values: unknown[] }).values[0];
  if (d.type === "array") return [];
  if (d.type === "record") return {};
  const found = CANDIDATES.find((v) => accepts(s, v));
  if (found !== undefined) return found;
  for (const o of d.options ?? []) {
    const v = plausible(o, ids, procedure, key);
    if (v !== undefined && accepts(s, v)) return v;
  }
  if (d.type === "pipe" && d.in) return plausible(d.in, ids, procedure, key);
  return undefined;
}

/** Rows of `org` for the baselines to name, made through the procedures as a person would. */
async function rowsOf(
  org: string,
  caller: Awaited<ReturnType<typeof platformAdmin>>["caller"],
  owner: { user: { id: string } },
) {
  const campaign = await caller.campaigns.create({
    title: "Hostile appeal",
    currency: "USD",
    goalType: "none",
  });
  await caller.campaigns.setStatus({ id: campaign.id, action: "publish" });
  const item = await caller.campaigns.items.create({
    campaignId: campaign.id,
    title: "Coats",
    unitAmountMinor: 1_000,
    allowOverfunding: true,
  });
  const donor = createdDonor(
    await caller.donors.create({
      data: { firstName: "Hos", lastName: "Tile", email: `hostile-${org}@example.test` },
    }),
  );
  const otherDonor = createdDonor(
    await caller.donors.create({
      data: { firstName: "Oth", lastName: "Er", email: `other-${org}@example.test` },
    }),
  );
  const donation = await caller.donations.create({
    donorId: donor,
    campaignId: campaign.id,
    amountMinor: 5_000,
    currency: "USD",
    paymentMethod: "cash",
    donatedAt: Date.now() - 86_400_000,
  });
  const plan = await caller.plans.create({
    donorId: donor,
    amountMinor: 2_000,
    currency: "USD",
    interval: "month",
    startDay: "2026-01-15",
  });
  const tag = await caller.donors.tags.create({ name: "Hostile", color: "#2255aa" });
  const note = await caller.donors.notes.create({
    donorId: donor,
    body: "Note",
    visibility: "internal",
    pinned: false,
  });
  const tier = (await caller.donors.tiers.list()).tiers[0]?.id ?? "x";
  return {
    org,
    campaign: campaign.id,
    item: item.id,
    donor,
    otherDonor,
    donation: donation.id,
    plan: plan.id,
    tag: tag.id,
    note: note.id,
    tier,
    user: owner.user.id,
    membership: `m-${owner.user.id}`,
  };
}

function createdDonor(d: { created: boolean; id?: string }) {
  if (!d.created || !d.id) throw new Error("expected a new donor");
  return d.id;
}

/** Changes that take a row away run after the rest, so the others still find the rows. */
const LAST =
  /\.(delete|remove|removeMember|removeOrgMember|leave|anonymize|merge|bulkArchive|rollback|setMemberRole|revoke\w*)$/;

/** Every leaf of an object input with its schema (objects walked into, anything else a leaf). */
function leaves(s: Schema, path: string[] = [], depth = 0): [string[], Schema][] {
  const d = unwrap(s)._zod.def;
  if (d.type !== "object" || depth > 4) return path.length ? [[path, s]] : [];
  const inner = Object.entries(d.shape ?? {}).flatMap(([k, v]) => leaves(v, [...path, k], depth + 1));
  return path.length ? [[path, s], ...inner] : inner;
}

function withValue(base: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const obj =
    base && typeof base === "object" && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  return { ...obj, [head]: withValue(obj[head], rest, value) };
}

/** Runs `jobs` `width` at a time. */
async function inLanes<T>(jobs: (() => Promise<T>)[], width = 8): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await (jobs[i] as () => Promise<T>)();
      }
    }),
  );
  return out;
}

describe("hostile input to every procedure and every plain HTTP endpoint (issue 53: no 5xx)", () => {
  it("a name outside Latin-1 (Łukasz, 田中, an emoji) signs up, signs in and gets the cookie cache better-auth writes: UTF-8, base64url (the fuzz's 500)", async () => {
    for (const name of ["Łukasz Żółć", "田中 太郎", "Ana 😀"]) {
      const label = JSON.stringify(name);
      const email = uniqueEmail("utf8");
      const jar = new CookieJar();
      const res = await jar.post("/api/auth/sign-up/email", { name, email, password: PASSWORD });
      expect(res.status, label).toBe(200);
      expect(((await res.json()) as { user: { name: string } }).user.name, label).toBe(name);
      for (const step of ["sign-up", "sign-in"]) {
        if (step === "sign-in") {
          jar.cookies.clear();
          expect(
            (await jar.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status,
            name,
          ).toBe(200);
        }
        const raw = jar.cookies.get("better-auth.session_data") ?? "";
        expect(raw, `${step} ${label}`).not.toBe("");
        // As better-auth 1.3.34 reads it (@better-auth/utils: base64url, then UTF-8).
        const padded = raw.replace(/-/g, "+").replace(/_/g, "/");
        const bytes = Uint8Array.from(atob(padded + "=".repeat((4 - (padded.length % 4)) % 4)), (c) =>
          c.charCodeAt(0),
        );
        const cache = JSON.parse(new TextDecoder().decode(bytes)) as { session: { user: { name: string } } };
        expect(cache.session.user.name, `${step} ${label}`).toBe(name);
        const session = await jar.get("/api/auth/get-session");
        expect(session.status, `${step} ${label}`).toBe(200);
        expect(((await session.json()) as { user: { name: string } }).user.name).toBe(name);
      }
      const renamed = await jar.post("/api/auth/update-user", { name: `${name} ✓` });
      expect(renamed.status, label).toBe(200);
    }
  });

  it("a report filter KV cannot name (a lone surrogate) is cached under its hash; the fill no longer fails (org owner)", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (let i = 0; i < 2; i++) {
        await caller.reports.lapsed({ paymentMethod: "card\ud800" });
        await caller.reports.lapsed({ paymentMethod: "plain" });
      }
      const failed = errors.mock.calls.filter((c) => String(c[0]).includes("cache fill failed"));
      expect(failed).toEqual([]);
    } finally {
      errors.mockRestore();
    }
    const keys = (await testEnv.KV.list({ prefix: `analytics:${org}:` })).keys.map((k) => k.name);
    expect(keys.filter((k) => /:#[0-9a-f]{64}$/.test(k))).toHaveLength(1);
    expect(keys.some((k) => k.includes(":plain:"))).toBe(true);
  });

  it("every tRPC procedure answers each hostile leaf and each hostile whole input with a result or a 4xx, never a 500 (platform admin)", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Kiritimati" });
    const owner = await member(org, "owner");
    const admin = await platformAdmin(org);
    const ids = await rowsOf(org, admin.caller, owner);
    const jobs: (() => Promise<string | null>)[] = [];
    const ordered = [...procedures].sort(([a], [b]) => Number(LAST.test(a)) - Number(LAST.test(b)));
    for (const [name, p] of ordered) {
      const schema = p._def.inputs?.[0];
      const inputs: unknown[] = [...WHOLE];
      if (schema) {
        const base = plausible(schema, ids, name);
        inputs.push(base);
        for (const [path, leaf] of leaves(schema)) {
          const at = plausible(leaf, ids, name, path.at(-1));
          const kind = typeof at === "string" ? "string" : typeof at === "number" ? "number" : "other";
          for (const h of HOSTILE[kind]) inputs.push(withValue(base, path, h));
        }
      }
      for (const input of inputs)
        jobs.push(async () => {
          const code = await codeOf(call(admin.caller, name, input));
          return code === "INTERNAL_SERVER_ERROR" || code.startsWith("THREW")
            ? `${name} ${JSON.stringify(input)?.slice(0, 120)}: ${code}`
            : null;
        });
    }
    expect(jobs.length).toBeGreaterThan(procedures.length * 10);
    const wrong = (await inLanes(jobs)).filter((w): w is string => w !== null);
    expect([...new Set(wrong)]).toEqual([]);
  }, 600_000);

  it("the plain HTTP endpoints, the webhook and tRPC over HTTP answer hostile queries, paths and bodies with a result or a 4xx, never a 5xx (org owner, platform admin)", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Kiritimati" });
    const owner = await member(org, "owner");
    const admin = await platformAdmin(org);
    const ids = await rowsOf(org, admin.caller, owner);
    const receipt =
      (await owner.caller.receipts.forDonation({ donationId: ids.donation })).receipts[0]?.id ?? "abcdefgh12";
    const wrong: string[] = [];
    const send = async (label: string, path: string, init: RequestInit = {}) => {
      const res = await appFetch(path, { redirect: "manual", ...init });
      if (res.status >= 500) wrong.push(`${label}: ${res.status} ${(await res.text()).slice(0, 160)}`);
      else await res.arrayBuffer();
    };
    const QUERY = [
      "%ED%A0%80",
      "%",
      "%zz",
      "a".repeat(8_000),
      "NaN",
      "Infinity",
      "1e309",
      "-1",
      "0.5",
      "0001-01-01",
      "9999-12-31",
      "%5B%5D",
      "%00",
      "",
    ];
    const asOwner = { cookie: owner.jar.header() };
    const post = (cookie: string, body: BodyInit, type = "application/json") => ({
      method: "POST",
      headers: { cookie, origin: BASE_URL, "content-type": type },
      body,
    });
    // The donations export's filters, each hostile.
    for (const key of [
      "from",
      "to",
      "status",
      "campaignId",
      "donorId",
      "q",
      "currency",
      "minAmountMinor",
      "maxAmountMinor",
      "sort",
      "desc",
      "mode",
      "source",
      "paymentMethod",
      "frequency",
      "trashed",
      "segment",
    ])
      for (const v of QUERY)
        await send(`donations.csv ${key}=${v.slice(0, 12)}`, `/api/export/donations.csv?${key}=${v}`, {
          headers: asOwner,
        });
    // Documents: a statement's year and basis, a receipt's download flag.
    for (const v of QUERY) {
      await send(`statement year=${v.slice(0, 12)}`, `/api/donors/${ids.donor}/statement.pdf?year=${v}`, {
        headers: asOwner,
      });
      await send(
        `statement basis=${v.slice(0, 12)}`,
        `/api/donors/${ids.donor}/statement.pdf?year=2026&basis=${v}`,
        { headers: asOwner },
      );
      await send(`receipt download=${v.slice(0, 12)}`, `/api/receipts/${receipt}.pdf?download=${v}`, {
        headers: asOwner,
      });
      await send(`my-memberships ?x=${v.slice(0, 12)}`, `/api/organizations/my-memberships?x=${v}`, {
        headers: asOwner,
      });
    }
    // Paths no route takes, or takes with a hostile segment.
    for (const path of [
      `/api/receipts/${"a".repeat(64)}.pdf`,
      "/api/donors/%ED%A0%80/statement.pdf",
      `/api/donors/${"a".repeat(64)}/statement.pdf`,
      "/api/media/%ED%A0%80",
      `/api/media/${"a".repeat(5_000)}`,
      `/api/invitations/${"a".repeat(64)}`,
      "/api/invitations/%ED%A0%80%ED%A0%80%ED%A0%80%ED%A0%80/accept",
      "/api/%ED%A0%80",
      "/api/export/donations.csv/%00",
      "/api/trpc/%ED%A0%80",
      "/api/trpc/organization.current,donations.list,%00",
    ])
      for (const method of ["GET", "POST"])
        await send(
          `${method} ${path.slice(0, 60)}`,
          path,
          method === "GET" ? { headers: asOwner } : post(asOwner.cookie, "{}"),
        );
    // Bodies: invitation answers, an upload, tRPC envelopes.
    const BODIES: [string, string][] = [
      ["{", "application/json"],
      ['{"json":', "application/json"],
      [`${"[".repeat(5_000)}${"]".repeat(5_000)}`, "application/json"],
      [`{"json":${'{"a":'.repeat(2_000)}1${"}".repeat(2_000)}}`, "application/json"],
      ['{"json":"\\ud800"}', "application/json"],
      ['{"json":{"id":"\\ud800"},"meta":{"values":{"id":["Date"]}}}', "application/json"],
      ['{"json":1e309}', "application/json"],
      ['{"json":null,"meta":{"values":["bigint"]}}', "application/json"],
      ['{"0":{"json":{"id":"x"}},"1":"\\ud800"}', "application/json"],
      [JSON.stringify({ json: { q: "a".repeat(200_000) } }), "application/json"],
      ["file=\u0000", "application/x-www-form-urlencoded"],
      [
        '--x\r\nContent-Disposition: form-data; name="file"; filename="\u0000.png"\r\n\r\n\u0089PNG\r\n--x--',
        "multipart/form-data; boundary=x",
      ],
    ];
    for (const [body, type] of BODIES) {
      const label = body.slice(0, 30);
      await send(
        `accept ${label}`,
        `/api/invitations/${"b".repeat(20)}/accept`,
        post(asOwner.cookie, body, type),
      );
      await send(`media ${label}`, "/api/media", post(asOwner.cookie, body, type));
      for (const procedure of [
        "donations.update",
        "organization.update",
        "campaigns.items.reorder",
        "donations.list",
      ])
        await send(
          `tRPC ${procedure} ${label}`,
          `/api/trpc/${procedure}`,
          post(admin.jar.header(), body, type),
        );
      await send(
        `tRPC batch ${label}`,
        "/api/trpc/donations.byId,donations.list?batch=1",
        post(admin.jar.header(), body, type),
      );
    }
    for (const input of [
      "%ED%A0%80",
      "%7B",
      encodeURIComponent('{"json":{"id":"\\ud800"}}'),
      encodeURIComponent("[".repeat(5_000)),
      "a".repeat(8_000),
    ]) {
      await send(`tRPC GET input=${input.slice(0, 20)}`, `/api/trpc/donations.byId?input=${input}`, {
        headers: { cookie: admin.jar.header() },
      });
      await send(
        `tRPC GET batch input=${input.slice(0, 20)}`,
        `/api/trpc/donations.byId,campaigns.byId?batch=1&input=${input}`,
        { headers: { cookie: admin.jar.header() } },
      );
    }
    // The processor's webhook, signed: each field of a gift and of a plan event hostile.
    const VALUES: unknown[] = [
      "\ud800",
      "a".repeat(20_000),
      "",
      "NaN",
      "1e309",
      "-1",
      "0001-01-01T00:00:00Z",
      "9999-12-31T23:59:59Z",
      1e308,
      Number.MAX_SAFE_INTEGER,
      -1,
      null,
      true,
      [],
      {},
    ];
    const giftFields = [
      "amount",
      "currency",
      "donatedAt",
      "gatewayTransactionId",
      "donor",
      "campaignSlug",
      "subscriptionId",
      "frequency",
      "mode",
      "refundedAmount",
      "processingFee",
      "paymentMethod",
      "gateway",
      "message",
      "anonymous",
      "organization",
    ];
    let n = 0;
    for (const field of giftFields)
      for (const v of VALUES) {
        n += 1;
        const event = webhookEvent(org, `tx-hostile-${n}`, "donation.succeeded", {
          subscriptionId: `sub-h-${n % 3}`,
          [field]: v,
        });
        const res = await deliver(event);
        if (res.status >= 500)
          wrong.push(`webhook ${field}=${JSON.stringify(v).slice(0, 20)}: ${res.status}`);
      }
    const plan = (type: string, sub: string, data: Record<string, unknown>) => ({
      id: `evt-${type}-${++n}`,
      type,
      data: {
        organization: org,
        subscriptionId: sub,
        amount: "12.00",
        currency: "usd",
        interval: "month",
        ...data,
      },
    });
    await deliver(plan("plan.created", "sub-h-live", {}));
    for (const field of [
      "amount",
      "currency",
      "interval",
      "intervalDay",
      "startedAt",
      "at",
      "subscriptionId",
      "campaignSlug",
      "donor",
      "reason",
      "paymentMethod",
    ])
      for (const v of VALUES)
        for (const [type, sub] of [
          ["plan.created", `sub-h-new-${n}`],
          ["plan.updated", "sub-h-live"],
          ["plan.paused", "sub-h-live"],
          ["plan.resumed", "sub-h-live"],
        ] as const) {
          const res = await deliver(plan(type, sub, { [field]: v }));
          if (res.status >= 500)
            wrong.push(`webhook ${type} ${field}=${JSON.stringify(v).slice(0, 20)}: ${res.status}`);
        }
    for (const body of [
      null,
      [],
      "\ud800",
      1e308,
      { type: "plan.created", data: "\ud800" },
      { type: ["plan."] },
    ])
      if ((await deliver(body)).status >= 500) wrong.push(`webhook body ${JSON.stringify(body)}`);
    expect(wrong).toEqual([]);
  }, 600_000);

  it("the auth API answers each hostile body field and query parameter of every endpoint with a result or a 4xx, never a 5xx (a user, a platform admin)", async () => {
    const me = await signUp(new CookieJar(), uniqueEmail("hostile-me"));
    const admin = await makeAdmin();
    const victim = await signUp(new CookieJar(), uniqueEmail("hostile-victim"));
    const wrong: string[] = [];
    const BODY: unknown[] = ["\ud800", LONG, "", 1e308, -1, null, {}, [], true, "0001-01-01T00:00:00Z"];
    const QUERY = [
      "%ED%A0%80",
      "%",
      "%zz",
      "a".repeat(8_000),
      "NaN",
      "1e309",
      "-1",
      "0001-01-01",
      "9999-12-31",
      "%5B%5D",
      "%00",
      "",
    ];
    const plausibleField = (field: string): unknown =>
      ({
        name: "Hostile Name",
        email: victim.email,
        password: "wrong-password-1",
        image: "https://example.test/a.png",
        callbackURL: "/dashboard",
        errorCallbackURL: "/error",
        newUserCallbackURL: "/welcome",
        redirectTo: "/reset-password",
        rememberMe: false,
        token: "not-a-token",
        currentPassword: "wrong-password-1",
        newPassword: "another-password-2",
        revokeOtherSessions: false,
        newEmail: uniqueEmail("hostile-new"),
        providerId: "credential",
        accountId: "x",
        provider: "github",
        idToken: { token: "x" },
        scopes: ["email"],
        loginHint: "x",
        requestSignUp: false,
        disableRedirect: true,
        userId: victim.user.id,
        role: "user",
        data: { name: "Renamed" },
        banReason: "x",
        banExpiresIn: 60,
        sessionToken: "x",
        permission: { user: ["list"] },
        permissions: { user: ["list"] },
        reason: "x",
      })[field];
    // Each POST endpoint with the fields it reads (worker/auth/endpoints.ts, admin.ts, social/routes.ts);
    // sign-out and the session revocations last, since they end the caller's session.
    const POSTS: [string, "me" | "admin" | "nobody", string[]][] = [
      ["/sign-up/email", "nobody", ["name", "email", "password", "image", "callbackURL", "rememberMe"]],
      ["/sign-in/email", "nobody", ["email", "password", "callbackURL", "rememberMe"]],
      ["/update-user", "me", ["name", "image"]],
      ["/change-password", "me", ["currentPassword", "newPassword", "revokeOtherSessions"]],
      ["/send-verification-email", "me", ["email", "callbackURL"]],
      ["/request-password-reset", "nobody", ["email", "redirectTo"]],
      ["/forget-password", "nobody", ["email", "redirectTo"]],
      ["/reset-password", "nobody", ["newPassword", "token"]],
      ["/change-email", "me", ["newEmail", "callbackURL"]],
      ["/unlink-account", "me", ["providerId", "accountId"]],
      ["/revoke-session", "me", ["token"]],
      [
        "/sign-in/social",
        "nobody",
        [
          "provider",
          "callbackURL",
          "errorCallbackURL",
          "newUserCallbackURL",
          "idToken",
          "scopes",
          "loginHint",
          "requestSignUp",
          "disableRedirect",
        ],
      ],
      ["/link-social", "me", ["provider", "callbackURL", "idToken", "scopes"]],
      ["/get-access-token", "me", ["providerId", "accountId", "userId"]],
      ["/refresh-token", "me", ["providerId", "accountId", "userId"]],
      ["/account-info", "me", ["accountId"]],
      ["/admin/create-user", "admin", ["email", "password", "name", "role", "data"]],
      ["/admin/update-user", "admin", ["userId", "data"]],
      ["/admin/set-role", "admin", ["userId", "role"]],
      ["/admin/ban-user", "admin", ["userId", "banReason", "banExpiresIn"]],
      ["/admin/unban-user", "admin", ["userId"]],
      ["/admin/list-user-sessions", "admin", ["userId"]],
      ["/admin/revoke-user-session", "admin", ["sessionToken"]],
      ["/admin/revoke-user-sessions", "admin", ["userId"]],
      ["/admin/set-user-password", "admin", ["userId", "newPassword"]],
      ["/admin/has-permission", "admin", ["userId", "role", "permission", "permissions"]],
      ["/admin/impersonate-user", "admin", ["userId", "reason"]],
      ["/admin/stop-impersonating", "admin", []],
      ["/admin/remove-user", "admin", ["userId"]],
      ["/delete-user", "me", ["callbackURL", "password", "token"]],
      ["/revoke-other-sessions", "me", []],
      ["/revoke-sessions", "me", []],
      ["/sign-out", "me", []],
    ];
    const cookieOf = { me: me.jar.header(), admin: admin.jar.header(), nobody: "" };
    const send = async (label: string, path: string, who: keyof typeof cookieOf, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (cookieOf[who]) headers.set("cookie", cookieOf[who]);
      headers.set("origin", BASE_URL);
      const res = await appFetch(path, { redirect: "manual", ...init, headers });
      if (res.status >= 500) wrong.push(`${label}: ${res.status} ${(await res.text()).slice(0, 160)}`);
      else await res.arrayBuffer();
    };
    // The GET endpoints first, with each query parameter hostile.
    const GETS: [string, "me" | "admin" | "nobody", string[]][] = [
      ["/get-session", "me", ["disableCookieCache", "disableRefresh"]],
      ["/list-sessions", "me", ["x"]],
      ["/list-accounts", "me", ["x"]],
      ["/verify-email", "nobody", ["token", "callbackURL"]],
      [`/reset-password/${"t".repeat(24)}`, "nobody", ["callbackURL"]],
      ["/reset-password/%ED%A0%80", "nobody", ["callbackURL"]],
      ["/delete-user/callback", "me", ["token", "callbackURL"]],
      ["/error", "nobody", ["error", "error_description"]],
      ["/social/providers", "nobody", ["x"]],
      ["/callback/github", "nobody", ["code", "state", "error", "error_description", "user"]],
      [
        "/admin/list-users",
        "admin",
        [
          "searchValue",
          "searchField",
          "searchOperator",
          "limit",
          "offset",
          "sortBy",
          "sortDirection",
          "filterField",
          "filterValue",
          "filterOperator",
        ],
      ],
      ["/admin/get-user", "admin", ["id"]],
    ];
    for (const [path, who, keys] of GETS)
      for (const key of keys)
        for (const v of QUERY)
          await send(`GET ${path} ${key}=${v.slice(0, 12)}`, `/api/auth${path}?${key}=${v}`, who);
    for (const [path, who, fields] of POSTS) {
      const base = () =>
        Object.fromEntries(
          fields.map((f) => [
            f,
            f === "email" && /sign-up|create-user/.test(path) ? uniqueEmail("hostile") : plausibleField(f),
          ]),
        );
      const bodies: [string, string][] = [
        ["{", "application/json"],
        ["\ud800", "text/plain"],
        [`${"[".repeat(5_000)}${"]".repeat(5_000)}`, "application/json"],
        [JSON.stringify("\ud800"), "application/json"],
        [JSON.stringify([]), "application/json"],
        [
          new URLSearchParams(base() as Record<string, string>).toString(),
          "application/x-www-form-urlencoded",
        ],
      ];
      for (const field of fields)
        for (const v of BODY) bodies.push([JSON.stringify({ ...base(), [field]: v }), "application/json"]);
      for (const [body, type] of bodies)
        await send(`POST ${path} ${body.slice(0, 60)}`, `/api/auth${path}`, who, {
          method: "POST",
          headers: { "content-type": type },
          body,
        });
    }
    expect(wrong).toEqual([]);
  }, 600_000);
});
