// drizzle tells the truth (issue 19): the schema in worker/db/ describes exactly the database the
// migrations in drizzle/ build, and `npm run db:generate` on an unchanged schema writes nothing.
//
// 1. The migrations (what wrangler applies in dev, tests and production) run in one empty SQLite
//    database; the SQL drizzle-kit generates from the schema, from scratch, in another. Their
//    tables, columns, indexes, foreign keys and CHECK constraints must be the same. (Triggers have
//    no drizzle form: they are listed, and the schema's comments name them.)
// 2. drizzle-kit generate runs against a copy of drizzle/ (its meta snapshot included): it must
//    find no change. A schema edit without its migration, or a migration written by hand without
//    refreshing drizzle/meta, fails here.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { root } from "./lib.mjs";

// Inside the project: drizzle-kit reads `out` as relative to the working directory (an absolute
// path comes out as ".//tmp/…").
const work = join(root, ".drizzle-check", String(process.pid));
mkdirSync(work, { recursive: true });
const problems = [];

function drizzleKit(out) {
  const config = join(root, `.drizzle-check-${process.pid}.config.ts`);
  writeFileSync(
    config,
    `import { defineConfig } from "drizzle-kit";\nexport default defineConfig({ dialect: "sqlite", schema: "./worker/db/schema.ts", out: ${JSON.stringify(`./${relative(root, out)}`)} });\n`,
  );
  try {
    const res = spawnSync("npx", ["drizzle-kit", "generate", "--config", config], {
      cwd: root,
      encoding: "utf8",
    });
    if (res.status !== 0 || /\bError\b/.test(res.stderr))
      throw new Error(`drizzle-kit generate failed:\n${res.stdout}\n${res.stderr}`);
    return res.stdout;
  } finally {
    rmSync(config, { force: true });
  }
}

const sqlFiles = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => join(dir, f));

function build(files) {
  const db = new DatabaseSync(":memory:");
  for (const f of files) db.exec(readFileSync(f, "utf8").replaceAll("--> statement-breakpoint", ""));
  return db;
}

const norm = (s) =>
  String(s ?? "")
    .replace(/[`"]/g, "")
    .replace(/\s+/g, " ")
    .replace(/\( /g, "(")
    .replace(/ \)/g, ")")
    .trim()
    .toLowerCase();

/** Everything the schema can say about a database, as comparable lines. */
function describe(db) {
  const lines = [];
  const objects = db
    .prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all();
  for (const t of objects.filter((o) => o.type === "table" && o.name !== "d1_migrations")) {
    for (const c of db.prepare(`PRAGMA table_xinfo("${t.name}")`).all())
      lines.push(
        `column ${t.name}.${c.name} ${c.type} notnull=${c.notnull} default=${norm(c.dflt_value)} pk=${c.pk}`,
      );
    for (const f of db.prepare(`PRAGMA foreign_key_list("${t.name}")`).all())
      lines.push(
        `fk ${t.name}.${f.from} -> ${f.table}.${f.to} on delete ${f.on_delete} on update ${f.on_update}`,
      );
    for (const m of (t.sql ?? "").matchAll(/CONSTRAINT\s+[`"]?(\w+)[`"]?\s+CHECK\s*\(/gi)) {
      // The CHECK's expression up to its balanced closing parenthesis.
      let depth = 1;
      let i = (m.index ?? 0) + m[0].length;
      const start = i;
      while (depth && i < t.sql.length) {
        if (t.sql[i] === "(") depth++;
        if (t.sql[i] === ")") depth--;
        i++;
      }
      // drizzle qualifies columns with the table name ("donation"."status"); hand-written SQL may not.
      lines.push(`check ${t.name}.${m[1]} ${norm(t.sql.slice(start, i - 1)).replaceAll(`${t.name}.`, "")}`);
    }
    for (const ix of db.prepare(`PRAGMA index_list("${t.name}")`).all()) {
      if (ix.origin === "pk") continue;
      const cols = db
        .prepare(`PRAGMA index_xinfo("${ix.name}")`)
        .all()
        .filter((c) => c.key)
        .map((c) => `${c.name ?? "<expr>"}${c.desc ? " desc" : ""}`);
      const sql = objects.find((o) => o.name === ix.name)?.sql ?? "";
      const where = /\bWHERE\b(.*)$/is.exec(sql)?.[1];
      const name = ix.origin === "u" ? `(unique constraint on ${cols.join(",")})` : ix.name;
      lines.push(
        `index ${t.name} ${name} unique=${ix.unique} (${cols.join(", ")})${where ? ` where ${norm(where)}` : ""}`,
      );
    }
  }
  const triggers = objects.filter((o) => o.type === "trigger").map((o) => o.name);
  return { lines: lines.sort(), triggers };
}

try {
  // 1. Migrations against the schema, built from scratch.
  const fresh = join(work, "fresh");
  drizzleKit(fresh);
  const migrated = describe(build(sqlFiles(join(root, "drizzle"))));
  const generated = describe(build(sqlFiles(fresh)));
  const only = (a, b) => a.lines.filter((l) => !b.lines.includes(l));
  for (const l of only(migrated, generated)) problems.push(`the migrations have, the schema does not: ${l}`);
  for (const l of only(generated, migrated)) problems.push(`the schema has, the migrations do not: ${l}`);

  // 2. db:generate on the unchanged schema writes nothing.
  const copy = join(work, "drizzle");
  cpSync(join(root, "drizzle"), copy, { recursive: true });
  const before = readdirSync(copy).sort().join("\n");
  const out = drizzleKit(copy);
  const after = readdirSync(copy).sort().join("\n");
  if (before !== after)
    problems.push(
      `npm run db:generate on the unchanged schema would write a migration:\n${out.split("\n").slice(-6).join("\n")}`,
    );

  if (problems.length) {
    console.error("worker/db/ and drizzle/ disagree:");
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(
    `schema ≡ migrations: ${migrated.lines.length} columns, keys, checks and indexes; db:generate writes nothing; triggers outside drizzle: ${migrated.triggers.join(", ")}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
