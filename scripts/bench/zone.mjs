// The `zone` part: a time-zone change and back, the rollups rebuilt by the cron. It needs the
// `cron` part first: the general fund's rollups are rebuilt in the new zone too, not built anew.

import { DatabaseSync } from "node:sqlite";
import { localD1File } from "../lib.mjs";

/**
 * A time-zone change at 1 M gifts (decision 038): the owner's request, then the 15-minute cron run
 * again and again until the per-day rollups are built in the new zone, a stretch of days a batch
 * (decision 043). The build's progress row (its instant) is read beside the server every 100 ms:
 * the time between two moves is one stretch's batch (with its two small reads), the longest of
 * them how long the build held D1's writer at once (the rebuild in one batch: ≈ 44 s in
 * node:sqlite). The zone goes back the same way after.
 *
 * Local workerd runs D1 in its own process and thread: while a chain of D1 calls runs (the cron's
 * build), the Worker accepts no new connection, so a request's latency here would measure that
 * harness, not a deployed D1 (a network service), and the bench takes none during the build.
 */
export async function zoneChange(h) {
  const { apiBase, cookie, mf, row } = h;
  const call = async (path, json) => {
    const t0 = performance.now();
    const res = await fetch(`${apiBase}/api/trpc/${path}`, {
      method: json ? "POST" : "GET",
      headers: { cookie, "content-type": "application/json", origin: apiBase },
      ...(json ? { body: JSON.stringify({ json }) } : {}),
    });
    const body = await res.json().catch(() => null);
    return { ok: res.ok, status: res.status, ms: performance.now() - t0, data: body?.result?.data?.json };
  };
  const current = await call("organization.current");
  if (!current.ok) return row("zone", "time-zone change", `HTTP ${current.status}`, "no 5xx", false);
  const o = current.data;
  const update = (timeZone) =>
    call("organization.update", {
      name: o.name,
      type: o.type,
      defaultCurrency: o.defaultCurrency,
      timeZone,
      fiscalYearStartMonth: o.fiscalYearStartMonth,
    });
  const worker = await mf.getWorker("almoner");
  for (const zone of ["Europe/Berlin", o.timeZone]) await changeTo(h, zone, update, worker);
}

/** The change to `zone` (`update(zone)`), then the cron until the rollups are built in it. */
async function changeTo({ row, stateDir, orgId }, zone, update, worker) {
  const state = () => buildState(stateDir, orgId);
  // When the build moved: each time its progress row changes.
  const moves = [];
  let seen = null;
  const watch = setInterval(() => {
    const { built, until } = state();
    const now = built === zone ? "built" : String(until ?? "");
    if (now !== seen) {
      moves.push(performance.now());
      seen = now;
    }
  }, 100);
  const started = performance.now();
  const change = await update(zone);
  row(
    "zone",
    `time-zone change to ${zone}: the owner's request`,
    change.ok ? `${(change.ms / 1000).toFixed(1)} s` : `HTTP ${change.status}`,
    "answers",
    change.ok,
  );
  // The cron as a deployed Worker runs it, one run after the other (each builds for up to 20 s).
  let runs = 0;
  while (state().built !== zone && runs < 20) {
    runs++;
    await worker.scheduled({ cron: "*/15 * * * *", scheduledTime: new Date() });
  }
  await new Promise((r) => setTimeout(r, 300));
  clearInterval(watch);
  const built = state().built === zone;
  const gaps = moves.slice(1).map((t, i) => t - (moves[i] ?? t));
  row(
    "zone",
    `  per-day rollups rebuilt in ${zone}: time (cron runs)`,
    built ? `${((performance.now() - started) / 1000).toFixed(0)} s (${runs})` : "not built",
    "built",
    built,
  );
  row(
    "zone",
    "  its batches: how many, the longest (progress read every 100 ms)",
    `${gaps.length}; ${(Math.max(0, ...gaps) / 1000).toFixed(1)} s`,
    "≤ 30 s (D1's limit for a query)",
    Math.max(0, ...gaps) <= 30_000,
  );
}

/** The per-day rollups' zone and the build's progress, read beside the server (node:sqlite). */
function buildState(stateDir, orgId) {
  const file = new DatabaseSync(localD1File(stateDir), { readOnly: true });
  try {
    return {
      built: file
        .prepare("SELECT time_zone AS z FROM donation_daily_state WHERE organization_id = ?")
        .get(orgId)?.z,
      // The progress instant: a stretch inside one month leaves built_month as it was.
      until: file
        .prepare("SELECT built_until AS u FROM donation_daily_build WHERE organization_id = ?")
        .get(orgId)?.u,
    };
  } catch {
    return {}; // a write under way: read again at the next tick
  } finally {
    file.close();
  }
}
