import { applyD1Migrations, env } from "cloudflare:test";
import { shiftClock } from "../worker/lib/shifted-clock";

shiftClock(env.TEST_TODAY);

interface Row {
  [column: string]: unknown;
}
type Snapshot = Map<string, Row[]>;
const seen = globalThis as unknown as { __migratedRows?: Record<string, Snapshot> };

const KEEP = /^(d1_migrations|sqlite_\w+|_cf_\w+)$/;

async function tablesOf(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all<{ name: string }>();
  return results.map((r) => r.name).filter((n) => !KEEP.test(n));
}

/**
 * Empties every table but the rows the migrations themselves write (lookup tables such as the
 * amount buckets), which are put back as they were when this workerd first migrated.
 */
async function asMigrated(db: D1Database, name: string) {
  const tables = await tablesOf(db);
  seen.__migratedRows ??= {};
  let snapshot = seen.__migratedRows[name];
  if (!snapshot) {
    // The first file in this workerd: the database is freshly migrated.
    snapshot = new Map();
    for (const t of tables) {
      const { results } = await db.prepare(`SELECT * FROM "${t}"`).all<Row>();
      if (results.length) snapshot.set(t, results);
    }
    seen.__migratedRows[name] = snapshot;
    return;
  }
  // A lookup table is put back only when a file changed its row count (none edits one in place).
  const changed = new Set<string>();
  for (const [t, rows] of snapshot) {
    const n = await db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).first<number>("n");
    if (n !== rows.length) changed.add(t);
  }
  const statements = [db.prepare("PRAGMA defer_foreign_keys = on")];
  for (const t of tables)
    if (!snapshot.has(t) || changed.has(t)) statements.push(db.prepare(`DELETE FROM "${t}"`));
  for (const t of changed)
    for (const row of snapshot.get(t) ?? []) {
      const columns = Object.keys(row);
      statements.push(
        db
          .prepare(
            `INSERT INTO "${t}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
          )
          .bind(...columns.map((c) => row[c] ?? null)),
      );
    }
  await db.batch(statements);
}

async function clearKv(kv: KVNamespace) {
  let cursor: string | undefined;
  do {
    const page = await kv.list(cursor ? { cursor } : {});
    await Promise.all(page.keys.map((k) => kv.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}

// Files share a workerd (vitest.config.ts, `isolate: false`): each starts on the database the
// migrations leave, as if alone. Idempotent: applyD1Migrations records what it applied.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Every database runs the same migrations (docs/scaling.md).
await applyD1Migrations(env.DB_TWO, env.TEST_MIGRATIONS);
await asMigrated(env.DB, "DB");
await asMigrated(env.DB_TWO, "DB_TWO");
// UPGRADE_DB stays: only test/migrations/upgrade.test.ts uses it, once per workerd.
await clearKv(env.KV);
