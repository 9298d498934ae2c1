// Rollups built in stretches of local days, one D1 batch each (decisions 038, 043): the organization's
// per-day rollups and a large campaign's (decision 037), with the build's progress in a row.
import {
  addDays,
  DAY_KEY_AFTER,
  DAY_KEY_BEFORE,
  DAY_KEY_FROM_MS,
  DAY_KEY_UNTIL_MS,
  dayKey,
  offsetSpans,
  startOfLocalDay,
} from "@core/time";
import type { Database } from "../db/databases";
import type { Guard } from "../lib/guard";
import {
  campaignRebuildSql,
  type DaySpan,
  dailyRebuildSql,
  PERIOD_FIRST,
  PERIOD_LAST,
  type RebuildValue,
} from "./rollup-sql";

const DAY_MS = 86_400_000;
/** Longest stretch of local days a rebuild probes the zone for (a few ms per year). */
const MAX_SPAN_MS = 300 * 365 * DAY_MS;
/** Before the first stretch of a build: no day built, no instant. */
const NOTHING_BUILT = { month: "", until: -Number.MAX_SAFE_INTEGER };

/** Gifts per batch of a build (decision 043); a day with more gifts is one batch alone. */
export const REBUILD_BATCH_GIFTS = 10_000;

/** Each owner's state row (built, naming the zone) and build row (how far a build has come). */
export const BUILD_TABLES = {
  organization_id: { state: "donation_daily_state", build: "donation_daily_build" },
  campaign_id: { state: "campaign_rollup_state", build: "campaign_rollup_build" },
} as const;
export type RollupOwner = keyof typeof BUILD_TABLES;

/** Both rows of `owner`'s kind: a change computed in another zone deletes them alike. */
export const zoneRows = (owner: RollupOwner) =>
  [BUILD_TABLES[owner].state, BUILD_TABLES[owner].build] as const;

/** Per-day rollups built, or being built, in a zone other than `timeZone` stop counting as built and the cron
 * rebuilds them (decisions 013, 038); with `guard`, only if the change landed. */
export function dropOtherZones(db: Database, organizationId: string, timeZone: string, guard?: Guard) {
  return zoneRows("organization_id").map((table) =>
    db
      .prepare(
        `DELETE FROM ${table} WHERE organization_id = ?1 AND time_zone != ?2${guard ? ` AND ${guard.sql(3)}` : ""}`,
      )
      .bind(organizationId, timeZone, ...(guard?.args ?? [])),
  );
}

interface BuildTarget {
  organizationId: string;
  /** The rollups' owner: the organization itself, or one of its campaigns. */
  owner: { column: RollupOwner; id: string };
  /** One stretch's statements (rollup-sql.ts), the last one writing the state row. */
  statements: (last: boolean) => { sql: string; args: RebuildValue[] }[];
}

/** Whose rollups: the organization's per-day ones, or one large campaign's own (decision 037). */
export interface RollupsOf {
  organizationId: string;
  campaignId?: string;
}

const targetOf = ({ organizationId, campaignId }: RollupsOf): BuildTarget =>
  campaignId
    ? {
        organizationId,
        owner: { column: "campaign_id", id: campaignId },
        statements: (last) => campaignRebuildSql({ last }),
      }
    : {
        organizationId,
        owner: { column: "organization_id", id: organizationId },
        statements: (last) => dailyRebuildSql({ last }),
      };

export interface BuildOptions {
  /** Stop between batches once past this instant (ms): the next call resumes. */
  deadline?: number;
  maxBatches?: number;
  restart?: boolean;
  batchGifts?: number;
}

type BuildRow = { time_zone: string; built_until: number };

/** Builds `target`'s rollups in `timeZone` stretch by stretch, resuming a build in that zone or starting one.
 * Each batch is guarded by what it read (a build restarted or moved on meanwhile fails on a NOT NULL); the
 * last writes the state row only if every gift is counted. Returns whether the rollups are built. */
export async function buildInStretches(
  db: Database,
  of: RollupsOf,
  timeZone: string,
  opts: BuildOptions = {},
): Promise<boolean> {
  const target = targetOf(of);
  const { owner } = target;
  const { state, build } = BUILD_TABLES[owner.column];
  const batchGifts = opts.batchGifts ?? REBUILD_BATCH_GIFTS;
  let restart = !!opts.restart;
  let batches = 0;
  // A guard or final count that fails is tried again; three failures end the call.
  for (let failures = 0; failures < 3; ) {
    const [built, progress] = await db.batch([
      db.prepare(`SELECT time_zone FROM ${state} WHERE ${owner.column} = ?`).bind(owner.id),
      db.prepare(`SELECT time_zone, built_until FROM ${build} WHERE ${owner.column} = ?`).bind(owner.id),
    ]);
    const done = built?.results[0] as { time_zone: string } | undefined;
    const row = progress?.results[0] as BuildRow | undefined;
    if (!restart && done?.time_zone === timeZone) return true;
    if (restart || row?.time_zone !== timeZone) {
      await db.batch(startStatements(db, target, timeZone));
      restart = false;
      continue;
    }
    const late = opts.deadline !== undefined && Date.now() >= opts.deadline;
    if (late || batches >= (opts.maxBatches ?? Number.POSITIVE_INFINITY)) return false;
    batches++;
    const stretch = await nextStretch(db, target, timeZone, row, batchGifts);
    if (!stretch) {
      await db.prepare(`DELETE FROM ${build} WHERE ${owner.column} = ?`).bind(owner.id).run();
      return false;
    }
    const last = stretch.day === null;
    // The stretch's days are deleted and counted again; its months only from their first day on
    // (a month begun in an earlier stretch keeps that stretch's days and takes this one's).
    const dayFrom =
      row.built_until === NOTHING_BUILT.until ? PERIOD_FIRST : dayKey(row.built_until, timeZone);
    const values: Record<RebuildValue, unknown> = {
      org: target.organizationId,
      spans: JSON.stringify(stretch.spans),
      dayFrom,
      dayUntil: stretch.day ?? PERIOD_LAST,
      monthFrom: dayFrom === PERIOD_FIRST ? PERIOD_FIRST : firstMonthFrom(dayFrom),
      monthUntil: stretch.day ? firstMonthFrom(stretch.day) : PERIOD_LAST,
      tz: timeZone,
      campaign: owner.id,
      now: Date.now(),
    };
    try {
      await db.batch([
        // First: the build is still the one this call read, where it read it; else a NULL fails the batch
        // (a missing row is inserted without its zone, a moved one gets no month).
        db
          .prepare(
            `INSERT INTO ${build} (${owner.column}) SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM ${build} WHERE ${owner.column} = ?1)`,
          )
          .bind(owner.id),
        db
          .prepare(
            `UPDATE ${build} SET built_month = CASE WHEN time_zone = ?2 AND built_until = ?3 THEN ?4 END,
               built_until = ?5 WHERE ${owner.column} = ?1`,
          )
          .bind(owner.id, timeZone, row.built_until, stretch.day?.slice(0, 7) ?? PERIOD_LAST, stretch.until),
        ...target.statements(last).map((q) => db.prepare(q.sql).bind(...q.args.map((a) => values[a]))),
        ...(last ? [db.prepare(`DELETE FROM ${build} WHERE ${owner.column} = ?`).bind(owner.id)] : []),
      ]);
      if (last) return true;
    } catch (e) {
      if (!String(e).includes("NOT NULL")) throw e;
      failures++;
      // The final count failed: a gift dated before the first stretch's spans; count all again.
      if (last) restart = true;
    }
  }
  return false;
}

/** A build's first statements: the rollups are no longer built; nothing of `timeZone` is yet. */
function startStatements(db: Database, target: BuildTarget, timeZone: string) {
  const { owner, organizationId } = target;
  const { state, build } = BUILD_TABLES[owner.column];
  // A campaign's row names its organization too (a gift set asks for the organization's builds).
  const ids = owner.column === "campaign_id" ? [owner.id, organizationId] : [organizationId];
  const columns = owner.column === "campaign_id" ? "campaign_id, organization_id" : "organization_id";
  const values = [...ids, timeZone, NOTHING_BUILT.month, NOTHING_BUILT.until, Date.now()];
  return [
    db.prepare(`DELETE FROM ${state} WHERE ${owner.column} = ?`).bind(owner.id),
    db
      .prepare(
        `INSERT OR REPLACE INTO ${build} (${columns}, time_zone, built_month, built_until, started_at)
         VALUES (${values.map((_, i) => `?${i + 1}`).join(", ")})`,
      )
      .bind(...values),
  ];
}

/** The next stretch: from the first local day not built to the day holding the `batchGifts`-th gift from
 * there, as the zone's spans over exactly those instants (`day` null: the last). Null past MAX_SPAN_MS. */
async function nextStretch(
  db: Database,
  target: BuildTarget,
  timeZone: string,
  row: BuildRow,
  batchGifts: number,
): Promise<{ spans: DaySpan[]; day: string | null; until: number } | null> {
  const [range, nth] = await db.batch([
    db
      .prepare("SELECT MIN(donated_at) AS lo, MAX(donated_at) AS hi FROM donation WHERE organization_id = ?")
      .bind(target.organizationId),
    db
      .prepare(
        `SELECT donated_at AS at FROM donation WHERE ${target.owner.column} = ? AND donated_at >= ? ORDER BY donated_at LIMIT 1 OFFSET ?`,
      )
      .bind(target.owner.id, row.built_until, batchGifts),
  ]);
  const { lo, hi } = (range?.results[0] ?? {}) as { lo: number | null; hi: number | null };
  const at = (nth?.results[0] as { at: number } | undefined)?.at;
  const now = Date.now();
  const from = Math.max(DAY_KEY_FROM_MS, Math.min(lo ?? now, now) - 2 * DAY_MS);
  const until = Math.min(DAY_KEY_UNTIL_MS, Math.max(hi ?? now, now) + 400 * DAY_MS);
  if (until - from > MAX_SPAN_MS) return null;
  const first = row.built_until === NOTHING_BUILT.until;
  const start = first ? from : row.built_until;
  const startDay = dayKey(start, timeZone);
  // The day holding the nth gift ends the stretch (one day at least): whole local days only.
  let day: string | null = null;
  if (at !== undefined && at < until) {
    const d = dayKey(Math.max(at, start), timeZone);
    day = d > startDay ? d : addDays(startDay, 1);
  }
  let end = day === null ? until : startOfLocalDay(day, timeZone);
  if (end >= until) {
    day = null;
    end = until;
  }
  const spans: DaySpan[] = offsetSpans(start, end, timeZone).map(([b, e, o]): DaySpan => [b, e, o, null]);
  if (first) spans.unshift([-Number.MAX_SAFE_INTEGER, DAY_KEY_FROM_MS, 0, DAY_KEY_BEFORE]);
  if (day === null) spans.push([DAY_KEY_UNTIL_MS, Number.MAX_SAFE_INTEGER, 0, DAY_KEY_AFTER]);
  return { spans, day, until: day === null ? Number.MAX_SAFE_INTEGER : end };
}

function firstMonthFrom(day: string) {
  if (day.endsWith("-01")) return day.slice(0, 7);
  const [y, m] = day.split("-").map(Number) as [number, number];
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  return m === 12 ? `${pad(y + 1, 4)}-01` : `${pad(y, 4)}-${pad(m + 1, 2)}`;
}
