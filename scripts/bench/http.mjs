// The `http` part: one request at a time against the server: lists, plans, writes, the dashboard
// cold / warm / exact, retention, campaign analytics, items, a donor merge and SSR. It needs the
// `cron` part first: the general fund's analytics read the rollups the cron builds (decision 037).

import { addDays, localDay } from "../../core/time.ts";
import { COLD_SAMPLES, d1Read, input, loadDonorIds } from "./harness.mjs";

export async function http(h) {
  await lists(h);
  await plans(h);
  await writes(h);
  await dashboard(h);
  await campaigns(h);
  await items(h);
  await merge(h);
  await ssr(h, "/dashboard");
  await ssr(h, "/donations");
}

async function lists({ lat, from }) {
  await lat(
    "donations.list (completed, 30 d, sort amount)",
    `/api/trpc/donations.list${input({ status: ["completed"], from, sort: "amount" })}`,
    60,
    25,
  );
  await lat(
    "donations.list deepest allowed page (row 10 000, sort date)",
    `/api/trpc/donations.list${input({ page: 100, pageSize: 100 })}`,
    10,
  );
  await lat("donors.list with a tag filter", `/api/trpc/donors.list${input({ tagId: "btag1" })}`, 30);
}

/**
 * Recurring plans (issue 24): the list within the donations list's budget, the recurring revenue
 * summary (rollups, not cached) within the dashboard's.
 */
async function plans({ lat }) {
  await lat("plans.list (failing first, the default)", `/api/trpc/plans.list${input({})}`, 60, 25);
  await lat(
    "plans.list (active and past due, sort amount)",
    `/api/trpc/plans.list${input({ status: ["active", "past_due"], sort: "amount", desc: true })}`,
    30,
    25,
  );
  await lat("plans.summary (MRR, 12 months, 30-day share)", `/api/trpc/plans.summary${input({})}`, 30, 50);
}

/**
 * Writes at scale: a gift recorded by hand for a donor (its row, rollups, campaign delta, the
 * donor's stats and tier, the audit row and receipt: one batch), and a bulk status change of 100
 * gifts per call (decision 024). Both once walked every donor of the organization per gift for the
 * tier (worker/ledger/donor-stats.ts `tierSql`).
 */
async function writes({ writeLat, stateDir, orgId, T }) {
  const giftDonors = await loadDonorIds(stateDir);
  await writeLat("donations.create for a donor (a general fund or a campaign)", 30, 50, (i) => ({
    proc: "donations.create",
    json: {
      donorId: giftDonors[i % giftDonors.length],
      campaignId: i % 2 ? "bc1" : "bc7",
      amountMinor: 2_500 + i,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: T - 3_600_000,
    },
  }));
  const failed = (
    await d1Read(
      `SELECT id FROM donation WHERE organization_id = '${orgId}' AND status = 'failed' ORDER BY id LIMIT 1300`,
      stateDir,
    )
  ).map((r) => r.id);
  await writeLat(
    "donations.bulkUpdateStatus, 100 gifts a call (failed → pending), per call",
    10,
    1000,
    (i) => ({
      proc: "donations.bulkUpdateStatus",
      json: { ids: failed.slice(i * 100, i * 100 + 100), status: "pending" },
    }),
  );
}

/**
 * Cold at every range (issue 27, decision 032): from the rollups, p95 ≤ 50 ms; the exact answer
 * ("Show exact figures", every gift recounted) beside it for 30 days and all time. Warm: repeated
 * requests are served from the KV cache.
 */
async function dashboard({ lat, coldLat, T }) {
  const today = localDay(T, "America/Los_Angeles");
  const custom = { from: addDays(today, -400), to: addDays(today, -35) };
  for (const [label, period] of [
    ["7 days", { days: 7 }],
    ["30 days", { days: 30 }],
    ["90 days", { days: 90 }],
    ["12 months", { days: 365 }],
    ["all time", { days: 0 }],
    [`custom ${custom.from}..${custom.to}`, custom],
  ]) {
    await coldLat(
      `dashboard.summary ${label}, cold (computed)`,
      `/api/trpc/dashboard.summary${input(period)}`,
      COLD_SAMPLES,
      50,
    );
  }
  for (const [label, period] of [
    ["30 days", { days: 30 }],
    ["all time", { days: 0 }],
  ])
    await coldLat(
      `dashboard.summary ${label}, exact figures, cold`,
      `/api/trpc/dashboard.summary${input({ ...period, exact: true })}`,
      3,
    );
  await lat(
    "dashboard.summary 30 days, warm (cached)",
    `/api/trpc/dashboard.summary${input({ days: 30 })}`,
    30,
    50,
  );
  await coldLat(
    "dashboard.retention (separate card), cold (computed)",
    `/api/trpc/dashboard.retention`,
    COLD_SAMPLES,
    50,
  );
  await coldLat(
    "dashboard.retention, exact figures, cold",
    `/api/trpc/dashboard.retention${input({ exact: true })}`,
    3,
  );
  await lat(
    "dashboard.summary all time, warm (cached)",
    `/api/trpc/dashboard.summary${input({ days: 0 })}`,
    30,
    50,
  );
}

/**
 * Campaign analytics: a campaign of a few thousand gifts reads them; the general fund (bc1, one
 * gift in five) reads its own rollups (decision 037), built by the cron part. A gift into the
 * campaign before each answer.
 */
async function campaigns({ coldLat, stateDir }) {
  const giftsOf = async (id) =>
    (await d1Read(`SELECT donation_count AS n FROM campaign_stats WHERE campaign_id = '${id}'`, stateDir))[0]
      ?.n ?? 0;
  for (const id of ["bc2", "bc1"])
    for (const [label, period] of [
      ["30 days", { days: 30 }],
      ["12 months", { days: 365 }],
      ["all time", { days: 0 }],
    ])
      await coldLat(
        `campaigns.analytics ${label} (a campaign of ${(await giftsOf(id)).toLocaleString()} gifts), cold`,
        `/api/trpc/campaigns.analytics${input({ id, ...period })}`,
        COLD_SAMPLES,
        50,
        id,
      );
  for (const [label, period] of [
    ["30 days", { days: 30 }],
    ["all time", { days: 0 }],
  ])
    await coldLat(
      `campaigns.analytics ${label} (the general fund), exact figures, cold`,
      `/api/trpc/campaigns.analytics${input({ id: "bc1", ...period, exact: true })}`,
      3,
      undefined,
      "bc1",
    );
}

/**
 * A campaign with items: what each item funded is summed from its own gifts (donation_item_idx,
 * drizzle/0023); without the index each item read every gift (1.7 s for 3 items at 1 M).
 */
async function items({ lat, coldLat, stateDir, orgId }) {
  const [withItems] = await d1Read(
    `SELECT campaign_id AS id, COUNT(*) AS items FROM campaign_item WHERE organization_id = '${orgId}'
      GROUP BY campaign_id ORDER BY COUNT(*) DESC LIMIT 1`,
    stateDir,
  );
  if (!withItems) return;
  await lat(
    `campaigns.items.list (a campaign of ${withItems.items} items)`,
    `/api/trpc/campaigns.items.list${input({ campaignId: withItems.id })}`,
    30,
    50,
  );
  await coldLat(
    `campaigns.analytics 30 days (the campaign of ${withItems.items} items), cold`,
    `/api/trpc/campaigns.analytics${input({ id: withItems.id, days: 30 })}`,
    COLD_SAMPLES,
    50,
  );
}

/** A donor merge (dry run, then the real move) of two donors with ~10 gifts each. */
async function merge({ apiBase, cookie, row, pct }) {
  for (const dryRun of [true, false]) {
    const times = [];
    for (let i = 0; i < (dryRun ? 10 : 5); i++) {
      const t0 = performance.now();
      const res = await fetch(`${apiBase}/api/trpc/donors.merge`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: apiBase },
        body: JSON.stringify({
          json: { sourceId: `bd${1000 + i * 2}`, targetId: `bd${1001 + i * 2}`, dryRun },
        }),
      });
      await res.arrayBuffer();
      if (!res.ok) {
        times.length = 0;
        row("http", `donors.merge ${dryRun ? "dry run" : "real"}`, `HTTP ${res.status}`, "no 5xx", false);
        break;
      }
      times.push(performance.now() - t0);
    }
    if (times.length)
      row(
        "http",
        `donors.merge ${dryRun ? "dry run" : "real"} p50 / max`,
        `${pct(times, 50)} / ${pct(times, 100)} ms`,
      );
  }
}

/** SSR for a signed-in user: time to the first byte of the body and to its last, after 5 warm-ups. */
async function ssr({ base, cookie, row, pct }, path, n = 20) {
  const first = [];
  const whole = [];
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(base + path, { headers: { cookie } });
    const reader = res.body.getReader();
    let chunk = await reader.read();
    const t1 = performance.now();
    while (!chunk.done) chunk = await reader.read();
    if (!res.ok) {
      row("http", `SSR ${path}`, `HTTP ${res.status}`, "no 5xx", false);
      return;
    }
    if (i >= 5) {
      first.push(t1 - t0);
      whole.push(performance.now() - t0);
    }
  }
  row("http", `SSR ${path}: time to first byte p50 / p95`, `${pct(first, 50)} / ${pct(first, 95)} ms`);
  row("http", `SSR ${path}: whole page p50 / p95`, `${pct(whole, 50)} / ${pct(whole, 95)} ms`);
}
