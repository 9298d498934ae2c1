// Seeds a local D1 with the demo organization, the demo logins and (when the domain seed exists)
// realistic campaigns, donors and donations. `npm run seed` reseeds only an empty database unless
// --force is given. ALMONER_STATE_DIR points it at another local state folder (e2e, bench).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_PASSWORD, demoUsers, printDemoLogins } from "./demo-users.mjs";
import { d1ExecFile, d1Query, hashPassword, migrateLocal, newId, sqlString } from "./lib.mjs";

const stateDir = process.env.ALMONER_STATE_DIR || undefined;

export async function seed({ force = false, quiet = false } = {}) {
  const [{ n }] = d1Query("SELECT count(*) AS n FROM user", stateDir);
  if (n > 0 && !force) {
    if (!quiet)
      console.log(`Database already has ${n} users; not seeding (use --force to add the demo data anyway).`);
    return false;
  }
  const now = Date.now();
  const orgId = newId();
  const ids = Object.fromEntries(demoUsers.map((u) => [u.key, newId()]));
  const statements = [];
  if (force) {
    // --force starts over: organizations cascade to every business row, users to their sessions.
    for (const table of [
      "audit_event",
      "mail_outbox",
      "verification",
      "rate_limit",
      "organization",
      "user",
    ]) {
      statements.push(`DELETE FROM ${table};`);
    }
  }
  statements.push(
    `INSERT INTO organization (id, name, slug, legal_name, type, country, city, contact_email, website, mission, default_currency, time_zone, status, created_at, updated_at)
     VALUES (${[orgId, "Harbor Light Foundation", "harbor-light", "Harbor Light Foundation, Inc.", "nonprofit", "US", "Portland", "hello@harborlight.example", "https://harborlight.example", "Warm meals and safe beds for everyone on the waterfront.", "USD", "America/Los_Angeles", "active", now, now].map(sqlString).join(", ")});`,
  );
  for (const u of demoUsers) {
    const id = ids[u.key];
    statements.push(
      `INSERT INTO user (id, name, email, email_verified, role, created_at, updated_at) VALUES (${[id, u.name, u.email, 1, u.role, now, now].map(sqlString).join(", ")});`,
      `INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at) VALUES (${[newId(), id, "credential", id, hashPassword(DEMO_PASSWORD), now, now].map(sqlString).join(", ")});`,
    );
    if (u.membership) {
      statements.push(
        `INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (${[newId(), orgId, id, u.membership, now, now].map(sqlString).join(", ")});`,
      );
    }
  }
  try {
    const domain = await import("./seed-domain.mjs");
    statements.push(...domain.domainSeedSql({ orgId, adminId: ids.admin, organizerId: ids.organizer, now }));
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  }
  const dir = mkdtempSync(join(tmpdir(), "almoner-seed-"));
  const file = join(dir, "seed.sql");
  writeFileSync(file, statements.join("\n"));
  try {
    d1ExecFile(file, stateDir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!quiet) console.log(`Seeded ${statements.length} rows into the local database.`);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  migrateLocal(stateDir);
  const seeded = await seed({ force: process.argv.includes("--force") });
  if (seeded) printDemoLogins();
}
