// The benchmark's world, shared by `npm run bench` and scripts/bench-export.mjs: the demo seed,
// then, in Harbor Light, `campaigns` campaigns, `donors` donors (one in seven tagged) and
// `donations` gifts over two years, with rollups rebuilt as the API keeps them.
//
// Gifts are inserted in the order they were given (number and rowid follow the date), as a live
// table fills: webhooks and manual entries write gifts as they happen. `layout: "scrambled"`
// inserts the same rows in a pseudo-random order instead (every gift's neighbours by date lie
// anywhere in the table), the worst case of an import of history in random order; the export
// bench reports both (docs/performance.md).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { d1ExecFile, d1Query, migrateLocal, run } from "./lib.mjs";

/**
 * Seeds `stateDir` (migrations, demo world, bulk rows). Returns Harbor Light's id and the seed's
 * reference instant `T` (donations fall in the two years before it).
 */
export async function seedBench(
  stateDir,
  env,
  { donations, donors, campaigns, layout = "date", now = Date.now() },
) {
  migrateLocal(stateDir);
  run(process.execPath, ["scripts/seed.mjs", "--now", String(now)], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const [{ id: orgId }] = d1Query("SELECT id FROM organization WHERE slug = 'harbor-light'", stateDir);
  const T = now;
  // Donation n: a pseudo-random instant in the last two years and amount; every 29th refunded,
  // every 31st failed, every 5th monthly, every 4th by check.
  // Scrambled: a pseudo-random permutation of the gifts (the generator's own order is nearly in
  // date order already: consecutive gifts lie 63 s apart).
  const order = layout === "scrambled" ? "(n * 2654435761) % 4294967296" : "at, n";
  const sql = `
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${campaigns})
INSERT INTO campaign (id, organization_id, title, slug, currency, goal_type, goal_amount_minor, status, suggested_amounts, created_at, updated_at)
SELECT 'bc' || n, '${orgId}', 'Bench campaign ' || n, 'bench-' || n, 'USD', 'amount', 10000000, 'active', '[]', ${T}, ${T} FROM s;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donors})
INSERT INTO donor (id, organization_id, type, first_name, last_name, email, created_at, updated_at)
SELECT 'bd' || n, '${orgId}', 'individual', 'Donor', 'Number' || n, 'donor' || n || '@bench.test', ${T} - n * 1000, ${T} FROM s;
INSERT INTO donor_tag (id, organization_id, name, color, created_at, updated_at) VALUES ('btag1', '${orgId}', 'Bench tag', '#0f766e', ${T}, ${T});
INSERT INTO donor_tag_assignment (donor_id, tag_id, organization_id) SELECT id, 'btag1', organization_id FROM donor WHERE organization_id = '${orgId}' AND id GLOB 'bd[0-9]*' AND substr(id, 3) NOT GLOB '*[^0-9]*' AND (CAST(substr(id, 3) AS INTEGER) % 7) = 0;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${donations}),
  g AS (SELECT n, 100 + (n * 2654435761) % 49900 AS amt, ${T} - (n * 63113) % 63072000000 AS at FROM s)
INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, amount_minor, refunded_minor, currency, status, frequency, payment_method, source, mode, donated_at, created_at, updated_at)
SELECT 'bx' || n, '${orgId}', 100000 + row_number() OVER (ORDER BY ${order}), 'bd' || (1 + (n * 7919) % ${donors}), 'bc' || (1 + n % ${campaigns}), amt,
  CASE WHEN n % 29 = 0 THEN amt ELSE 0 END, 'USD',
  CASE WHEN n % 29 = 0 THEN 'refunded' WHEN n % 31 = 0 THEN 'failed' ELSE 'completed' END,
  CASE WHEN n % 5 = 0 THEN 'monthly' ELSE 'one_time' END, CASE WHEN n % 4 = 0 THEN 'check' ELSE 'card' END, 'online', 'live',
  at, at, at
FROM g ORDER BY ${order};
UPDATE org_counter SET value = ${100000 + donations} WHERE organization_id = '${orgId}' AND name = 'donation';
`;
  const { rollupSql } = await import("./seed-domain.mjs");
  const dir = mkdtempSync(join(tmpdir(), "almoner-bench-sql-"));
  try {
    writeFileSync(join(dir, "bulk.sql"), sql);
    writeFileSync(join(dir, "rollups.sql"), rollupSql(orgId, "America/Los_Angeles").join("\n"));
    d1ExecFile(join(dir, "bulk.sql"), stateDir);
    d1ExecFile(join(dir, "rollups.sql"), stateDir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { orgId, T };
}
