// `npm run seed`: the demo world on the local D1 — four organizations (USD, EUR, GBP, JPY) with
// profiles, badges and members, campaigns in every status with items, donors with tags, notes and
// tiers, and donations over two years in every status — deterministic from a seed number.
//
//   npm run seed -- [--force] [--seed 1] [--now <ms>] [--donations 20000] [--donors 2500]
//                   [--campaigns N] [--sql file.sql]
//
// Reseeds only an empty database unless --force is given (which starts over). The same --seed and
// --now give the same data, ids included. --donations 1000000 seeds at benchmark scale (rows go
// straight into the local D1 file through node:sqlite, in one transaction). --sql writes the same
// world as multi-row INSERTs of at most 100 values each (D1's bound-parameter limit) for a remote
// D1: `npx wrangler d1 execute DB --remote --file file.sql`. ALMONER_STATE_DIR points at another
// local state folder (e2e, bench).
import { writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { DEMO_PASSWORD, demoUsers, printDemoLogins } from "./demo-users.mjs";
import { hashPassword, localD1File, migrateLocal, sqlString } from "./lib.mjs";
import { generateDomain, ORGANIZATIONS, rng, rollupSql } from "./seed-domain.mjs";

const stateDir = process.env.ALMONER_STATE_DIR || undefined;

/** Every row of the demo world, in insertion order (parents before children). */
export function* demoRows({ seed = 1, now = Date.now(), donations, donors, campaigns } = {}) {
  const r = rng(seed ^ 0x9e3779b9);
  const id = () =>
    Math.floor(r() * 2 ** 52)
      .toString(36)
      .padStart(11, "0") + Math.floor(r() * 2 ** 52).toString(36);
  const users = {};
  const password = hashPassword(DEMO_PASSWORD); // one scrypt hash (salted once) serves every demo login
  for (const u of demoUsers) {
    users[u.key] = id();
    yield {
      table: "user",
      row: {
        id: users[u.key],
        name: u.name,
        email: u.email,
        email_verified: 1,
        role: u.role,
        created_at: now,
        updated_at: now,
      },
    };
    yield {
      table: "account",
      row: {
        id: id(),
        account_id: users[u.key],
        provider_id: "credential",
        user_id: users[u.key],
        password,
        created_at: now,
        updated_at: now,
      },
    };
  }
  const memberships = demoUsers
    .filter((u) => u.org)
    .map((u) => ({ org: u.org, user: u.key, role: u.membership }));
  const orgIds = yield* generateDomain({ seed, now, donations, donors, campaigns, users, memberships });
  for (const org of ORGANIZATIONS) yield { table: null, sql: rollupSql(orgIds[org.key], org.zone) };
}

function insertSql(table, columns) {
  return `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES `;
}

/** Writes straight into the local D1 file: prepared statements in one transaction, any size. */
function writeLocal(rows, { force }) {
  const db = new DatabaseSync(localD1File(stateDir));
  const statements = new Map();
  let count = 0;
  try {
    db.exec("PRAGMA foreign_keys = ON; BEGIN");
    if (force)
      for (const t of [
        "audit_event",
        "mail_outbox",
        "verification",
        "rate_limit",
        "session",
        "organization",
        "user",
      ])
        db.exec(`DELETE FROM "${t}"`);
    for (const item of rows) {
      if (!item.table) {
        for (const sql of item.sql) db.exec(sql);
        continue;
      }
      const columns = Object.keys(item.row);
      const key = `${item.table}:${columns.join(",")}`;
      let st = statements.get(key);
      if (!st) {
        st = db.prepare(`${insertSql(item.table, columns)}(${columns.map(() => "?").join(", ")})`);
        statements.set(key, st);
      }
      st.run(...columns.map((c) => item.row[c] ?? null));
      count++;
    }
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  } finally {
    db.close();
  }
  return count;
}

/** The same rows as multi-row INSERT statements, each with at most 100 values. */
function writeSqlFile(rows, file) {
  const out = [];
  let batch = null;
  const flush = () => {
    if (batch) out.push(`${insertSql(batch.table, batch.columns)}${batch.values.join(", ")};`);
    batch = null;
  };
  let count = 0;
  for (const item of rows) {
    if (!item.table) {
      flush();
      out.push(...item.sql);
      continue;
    }
    const columns = Object.keys(item.row);
    const key = `${item.table}:${columns.join(",")}`;
    if (!batch || batch.key !== key || (batch.values.length + 1) * columns.length > 100) {
      flush();
      batch = { key, table: item.table, columns, values: [] };
    }
    batch.values.push(`(${columns.map((c) => sqlString(item.row[c])).join(", ")})`);
    count++;
  }
  flush();
  writeFileSync(file, `${out.join("\n")}\n`);
  return count;
}

function countUsers() {
  const db = new DatabaseSync(localD1File(stateDir), { readOnly: true });
  try {
    return Number(db.prepare("SELECT count(*) AS n FROM user").get().n);
  } finally {
    db.close();
  }
}

export async function seed({ force = false, quiet = false, ...options } = {}) {
  if (options.sql) {
    const n = writeSqlFile(demoRows(options), options.sql);
    if (!quiet) console.log(`Wrote ${n.toLocaleString()} rows to ${options.sql}.`);
    return true;
  }
  const users = countUsers();
  if (users > 0 && !force) {
    if (!quiet) console.log(`Database already has ${users} users; not seeding (use --force to start over).`);
    return false;
  }
  const started = performance.now();
  const n = writeLocal(demoRows(options), { force });
  if (!quiet)
    console.log(
      `Seeded ${n.toLocaleString()} rows in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      force: { type: "boolean", default: false },
      seed: { type: "string", default: "1" },
      now: { type: "string" },
      donations: { type: "string" },
      donors: { type: "string" },
      campaigns: { type: "string" },
      sql: { type: "string" },
    },
  });
  const int = (v, name) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got ${v}`);
    return n;
  };
  if (!values.sql) migrateLocal(stateDir);
  const seeded = await seed({
    force: values.force,
    seed: int(values.seed, "seed"),
    now: int(values.now, "now"),
    donations: int(values.donations, "donations"),
    donors: int(values.donors, "donors"),
    campaigns: int(values.campaigns, "campaigns"),
    sql: values.sql,
  });
  if (seeded && !values.sql) printDemoLogins();
}
