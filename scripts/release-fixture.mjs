// `npm run release:fixture -- [--release NAME]`: run after a release is deployed. It writes
// test/migrations/previous-release.sql: a small demo world (seed 7, a fixed "now") as SQL for the
// released schema, headed by the name of the release's last migration. test/migrations/upgrade.test.ts
// applies the migrations up to that one, loads this data, applies every later migration, and checks
// that rows and totals survive and the schema ends as a fresh install's.
// NAME defaults to the newest migration in drizzle/ (the release being cut).
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { root, run } from "./lib.mjs";

const { values } = parseArgs({ options: { release: { type: "string" } } });
const migrations = readdirSync(join(root, "drizzle"))
  .filter((f) => /^\d{4}_.*\.sql$/.test(f))
  .sort();
const release = values.release ?? migrations.at(-1)?.replace(/\.sql$/, "");
if (!release || !migrations.includes(`${release}.sql`)) {
  console.error(`No migration named ${release} in drizzle/`);
  process.exit(1);
}
const tmp = join(tmpdir(), `almoner-release-${process.pid}.sql`);
run(process.execPath, [
  "scripts/seed.mjs",
  "--sql",
  tmp,
  ...["--seed", "7", "--now", "1795000000000", "--donations", "400", "--donors", "120", "--campaigns", "2"],
]);
const out = join(root, "test/migrations/previous-release.sql");
writeFileSync(
  out,
  `-- release: ${release}\n-- Written by \`npm run release:fixture\` (scripts/release-fixture.mjs); do not edit by hand.\n${readFileSync(tmp, "utf8")}`,
);
rmSync(tmp);
console.log(`Wrote ${out} for the release ending at ${release}.`);
