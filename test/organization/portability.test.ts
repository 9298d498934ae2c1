/**
 * Issue 22, data portability: GET /api/export/organization.zip gives an organization's owner all
 * of its data, one CSV per table in one ZIP (worker/organization/portability/), streamed, audited,
 * and refused to every other role, to guests and to impersonated sessions. The archive is written
 * by fflate inside workerd and read back here with fflate's unzip, also inside workerd.
 */

import { csvRow } from "@core/csv";
import { EXPORT_REFUSAL_MESSAGE, ORGANIZATION_EXPORT_REFUSAL_MESSAGE } from "@core/permissions";
import { localDay } from "@core/time";
import { getTableColumns, getTableName, is, Table } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../worker/db/schema";
import { ARCHIVE_TABLES, isInstantColumn, OMITTED } from "../../worker/organization/portability/queries";
import { organizationArchive } from "../../worker/organization/portability/service";
import { makeAdmin, signUp } from "../auth/jar";
import { parseCsv } from "../csv";
import { makeOrg, member } from "../fixtures";
import { appFetch, testEnv } from "../helpers";

const PATH = "/api/export/organization.zip";
const db = testEnv.DB;

/** A PNG's signature and some bytes: what an upload stores (the export does not look inside). */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 250, 251, 252]);
const EVIL_NAME = '=HYPERLINK("http://evil.example","click")';
const NOTE_BODY = 'Called back, said "yes",\r\nthen: -2+3';

/** Rows in every table of the archive for `org`, each id prefixed with the organization's id. */
async function seed(org: string, owner: { user: { id: string } }, donations = 3) {
  const now = Date.now();
  const p = (s: string) => `${org}-${s}`;
  const run = (sql: string, ...values: unknown[]) => db.prepare(sql).bind(...values);
  await db.batch([
    run(
      "UPDATE organization SET mission = ?, contact_phone = '+1 503 555 0100' WHERE id = ?",
      "@mission: feed everyone",
      org,
    ),
    run(
      "INSERT INTO invitation (id, organization_id, email, role, invited_by, expires_at, secret_hash, created_at, updated_at) VALUES (?, ?, ?, 'viewer', ?, ?, ?, ?, ?)",
      p("inv"),
      org,
      `${p("invited")}@example.test`.toLowerCase(),
      owner.user.id,
      now + 86_400_000,
      p("SECRET-HASH"),
      now,
      now,
    ),
    run(
      "INSERT INTO organization_badge (id, organization_id, badge, granted_by, created_at, updated_at) VALUES (?, ?, 'verified_organization', ?, ?, ?)",
      p("badge"),
      org,
      owner.user.id,
      now,
      now,
    ),
    run(
      "INSERT INTO campaign (id, organization_id, title, slug, currency, created_at, updated_at) VALUES (?, ?, 'Winter Coats', ?, 'USD', ?, ?)",
      p("camp"),
      org,
      p("winter"),
      now,
      now,
    ),
    run(
      "INSERT INTO campaign_slug (organization_id, slug, campaign_id, created_at) VALUES (?, ?, ?, ?)",
      org,
      p("old-winter"),
      p("camp"),
      now,
    ),
    run(
      "INSERT INTO campaign_item (id, organization_id, campaign_id, title, unit_amount_minor, created_at, updated_at) VALUES (?, ?, ?, 'A coat', 4500, ?, ?)",
      p("item"),
      org,
      p("camp"),
      now,
      now,
    ),
    run(
      "INSERT INTO donor_tier (id, organization_id, name, min_minor, created_at, updated_at) VALUES (?, ?, 'Friends', 0, ?, ?)",
      p("tier"),
      org,
      now,
      now,
    ),
    run(
      "INSERT INTO donor (id, organization_id, first_name, last_name, email, phone, tier_id, created_at, updated_at) VALUES (?, ?, ?, 'Mallory', ?, '+1 503 555 0100', ?, ?, ?)",
      p("donor-1"),
      org,
      EVIL_NAME,
      `${p("mallory")}@example.test`.toLowerCase(),
      p("tier"),
      now,
      now,
    ),
    run(
      "INSERT INTO donor (id, organization_id, first_name, last_name, created_at, updated_at) VALUES (?, ?, 'Ada', 'Lovelace', ?, ?)",
      p("donor-2"),
      org,
      now,
      now + 1,
    ),
    run(
      "INSERT INTO donor_tag (id, organization_id, name, created_at, updated_at) VALUES (?, ?, 'Monthly', ?, ?)",
      p("tag"),
      org,
      now,
      now,
    ),
    run(
      "INSERT INTO donor_tag_assignment (donor_id, tag_id, organization_id) VALUES (?, ?, ?)",
      p("donor-1"),
      p("tag"),
      org,
    ),
    run(
      "INSERT INTO donor_contact (organization_id, donor_id, kind, value, created_at) VALUES (?, ?, 'email', ?, ?)",
      org,
      p("donor-1"),
      `${p("old")}@example.test`,
      now,
    ),
    run(
      "INSERT INTO donor_note (id, organization_id, donor_id, author_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      p("note"),
      org,
      p("donor-1"),
      owner.user.id,
      NOTE_BODY,
      now,
      now,
    ),
    run(
      "INSERT INTO media (id, organization_id, content_type, byte_size, sha256, bytes, created_by, created_at) VALUES (?, ?, 'image/png', ?, 'abc', ?, ?, ?)",
      p("media"),
      org,
      PNG.length,
      PNG,
      owner.user.id,
      now,
    ),
    run(
      `INSERT INTO data_import (id, organization_id, kind, file_name, file_hash, file_size, total_rows, headers, mapping, options, batch_token, created_by, created_at, updated_at)
       VALUES (?, ?, 'donors', 'donors.csv', ?, 10, 2, '["Name"]', '["name"]', '{}', ?, ?, ?, ?)`,
      p("import"),
      org,
      "f".repeat(64),
      p("BATCH-TOKEN"),
      owner.user.id,
      now,
      now,
    ),
    run(
      "INSERT INTO import_rejection (import_id, organization_id, row_number, reason, cells) VALUES (?, ?, 3, 'No name, company or e-mail', '[\"\"]')",
      p("import"),
      org,
    ),
    run(
      "INSERT INTO import_mapping (id, organization_id, kind, name, fields, options, created_at, updated_at) VALUES (?, ?, 'donors', ?, '{}', '{}', ?, ?)",
      p("mapping"),
      org,
      p("Old CRM"),
      now,
      now,
    ),
    run(
      `INSERT INTO recurring_plan (id, organization_id, donor_id, amount_minor, currency, interval, interval_day, started_at, status_changed_at, change_token, created_at, updated_at)
       VALUES (?, ?, ?, 2500, 'USD', 'month', 15, ?, ?, ?, ?, ?)`,
      p("plan"),
      org,
      p("donor-1"),
      now,
      now,
      p("PLAN-TOKEN"),
      now,
      now,
    ),
    run(
      "INSERT INTO plan_event (id, organization_id, plan_id, at, kind, to_status, currency, annual_after) VALUES (?, ?, ?, ?, 'created', 'active', 'USD', 30000)",
      p("plan-event"),
      org,
      p("plan"),
      now,
    ),
    run(
      "INSERT INTO receipt (id, organization_id, donor_id, number, kind, status, currency, amount_minor, deductible_minor, donated_at, issued_at, snapshot) VALUES (?, ?, ?, 1, 'original', 'issued', 'USD', 2500, 2500, ?, ?, '{}')",
      p("receipt"),
      org,
      p("donor-1"),
      now,
      now,
    ),
    run(
      "INSERT INTO acknowledgement (id, organization_id, donor_id, receipt_id, kind, sent_to, sent_by, sent_at) VALUES (?, ?, ?, ?, 'receipt', 'donor@example.test', ?, ?)",
      p("ack"),
      org,
      p("donor-1"),
      p("receipt"),
      owner.user.id,
      now,
    ),
    run(
      "INSERT INTO receipt_settings (organization_id, signatory_name, tax_statement, number_prefix, created_at, updated_at) VALUES (?, 'Ada Treasurer', 'No goods or services were provided.', 'R-', ?, ?)",
      org,
      now,
      now,
    ),
    run(
      "INSERT INTO thank_you_template (id, organization_id, campaign_id, subject, body, updated_by, created_at, updated_at) VALUES (?, ?, ?, 'Thank you, {{donor.firstName}}', ?, ?, ?, ?)",
      p("thanks"),
      org,
      p("camp"),
      "Dear {{donor.name}},\n\nYour coat keeps a child warm.",
      owner.user.id,
      now,
      now,
    ),
    run(
      "INSERT INTO audit_event (id, organization_id, actor_id, action, entity_type, entity_id, after, ip, at) VALUES (?, ?, ?, 'donor.create', 'donor', ?, ?, '203.0.113.9', ?)",
      p("audit"),
      org,
      owner.user.id,
      p("donor-1"),
      JSON.stringify({ firstName: EVIL_NAME }),
      now,
    ),
  ]);
  await seedDonations(org, 1, donations, now);
}

/** Gifts numbered from…to (500 to a batch). */
async function seedDonations(org: string, from: number, to: number, now = Date.now()) {
  for (let start = from; start <= to; start += 500) {
    const batch: D1PreparedStatement[] = [];
    for (let n = start; n < Math.min(start + 500, to + 1); n++)
      batch.push(
        db
          .prepare(
            "INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, amount_minor, currency, status, message, donated_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'USD', 'completed', ?, ?, ?, ?)",
          )
          .bind(
            `${org}-gift-${n}`,
            org,
            n,
            `${org}-donor-${(n % 2) + 1}`,
            `${org}-camp`,
            100 * n,
            n % 3 ? null : "+SUM(A1:A9)",
            now - n * 60_000,
            now,
            now,
          ),
      );
    await db.batch(batch);
  }
}

async function download(cookie?: string) {
  return appFetch(PATH, { headers: cookie ? { cookie } : {} });
}

/** The archive's files: name → bytes. */
async function unzip(res: Response) {
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(strFromU8(bytes.subarray(0, 4), true)).toBe("PK\u0003\u0004");
  return unzipSync(bytes);
}

/** A CSV file of the archive as rows (BOM checked and dropped), the header first. */
function csvOf(files: Record<string, Uint8Array>, name: string) {
  const bytes = files[name] as Uint8Array;
  expect([...bytes.subarray(0, 3)], `${name} starts with a BOM`).toEqual([0xef, 0xbb, 0xbf]);
  // TextDecoder drops the BOM.
  const rows = parseCsv(new TextDecoder().decode(bytes));
  expect(rows.length, `${name} has a header`).toBeGreaterThan(0);
  return rows as [header: string[], ...rows: string[][]];
}

/** The organization's rows in each table, counted in the database. */
async function rowCounts(org: string) {
  const counts: Record<string, number> = {};
  for (const t of ARCHIVE_TABLES) {
    const where = t.table === "organization" ? "id = ?" : "organization_id = ?";
    const row = await db
      .prepare(`SELECT count(*) AS n FROM ${t.table} WHERE ${where}`)
      .bind(org)
      .first<{ n: number }>();
    counts[t.file] = row?.n ?? 0;
  }
  return counts;
}

const exportAudits = (org: string) =>
  db
    .prepare(
      "SELECT actor_id AS actor, entity_type AS type, entity_id AS entity, ip FROM audit_event WHERE organization_id = ? AND action = 'organization.export'",
    )
    .bind(org)
    .all<{ actor: string; type: string; entity: string; ip: string | null }>()
    .then((r) => r.results);

describe("the organization archive", () => {
  let org: string;
  let other: string;
  let owner: Awaited<ReturnType<typeof member>>;
  let otherOwner: Awaited<ReturnType<typeof member>>;
  let files: Record<string, Uint8Array>;
  let response: Response;

  beforeAll(async () => {
    org = await makeOrg({ timeZone: "Pacific/Kiritimati" });
    other = await makeOrg();
    owner = await member(org, "owner");
    await member(org, "viewer");
    otherOwner = await member(other, "owner");
    await seed(org, owner);
    await seed(other, otherOwner);
    response = await appFetch(PATH, {
      headers: { cookie: owner.jar.header(), "cf-connecting-ip": "198.51.100.7" },
    });
    expect(response.status).toBe(200);
    files = await unzip(response);
  });

  it("is a ZIP download named after the organization and its local day", async () => {
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("cache-control")).toBe("no-store");
    // UTC+14: the organization's day, not the server's.
    const day = localDay(Date.now(), "Pacific/Kiritimati");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${org}-${day}.zip"`);
  });

  it("holds README.txt, one CSV per table, the images and manifest.csv", () => {
    expect(Object.keys(files)).toEqual([
      "README.txt",
      ...ARCHIVE_TABLES.flatMap((t) => (t.table === "media" ? [t.file, `media/${org}-media.png`] : [t.file])),
      "manifest.csv",
    ]);
    expect(files[`media/${org}-media.png`]).toEqual(PNG);
    const readme = strFromU8(files["README.txt"] as Uint8Array);
    for (const t of ARCHIVE_TABLES) expect(readme).toContain(t.file);
  });

  it("has every row of the organization in each file, headed by the table's columns, counted in the manifest", async () => {
    const counts = await rowCounts(org);
    // Not vacuous: every table has rows (the export's own audit row among them).
    for (const [file, n] of Object.entries(counts)) expect(n, file).toBeGreaterThan(0);
    expect(counts["members.csv"]).toBe(2);
    expect(counts["donations.csv"]).toBe(3);
    for (const t of ARCHIVE_TABLES) {
      const [header, ...rows] = csvOf(files, t.file);
      expect(header, t.file).toEqual([...t.columns]);
      expect(rows.length, t.file).toBe(counts[t.file]);
      // The ids are the database's, every one once.
      if (t.columns[0] === "id") {
        const ids = rows.map((r) => r[0]);
        expect(new Set(ids).size, t.file).toBe(ids.length);
      }
    }
    const [head, ...manifest] = csvOf(files, "manifest.csv");
    expect(head).toEqual(["file", "rows", "about"]);
    expect(manifest.map(([file, rows]) => [file, Number(rows)])).toEqual([
      ...ARCHIVE_TABLES.flatMap((t) =>
        t.table === "media"
          ? [
              [t.file, counts[t.file]],
              ["media/", 1],
            ]
          : [[t.file, counts[t.file]]],
      ),
    ]);
  });

  it("names members with their e-mail and role, and writes instants as ISO 8601 UTC", () => {
    const [header, ...rows] = csvOf(files, "members.csv");
    const byEmail = new Map(rows.map((r) => [r[header.indexOf("email")], r]));
    const mine = byEmail.get(owner.email);
    expect(mine?.[header.indexOf("role")]).toBe("owner");
    expect(mine?.[header.indexOf("user_id")]).toBe(owner.user.id);
    expect(mine?.[header.indexOf("created_at")]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const [dHeader, ...donations] = csvOf(files, "donations.csv");
    const first = donations.find((r) => r[dHeader.indexOf("number")] === "1");
    expect(first?.[dHeader.indexOf("amount_minor")]).toBe("100");
    expect(first?.[dHeader.indexOf("donor_id")]).toBe(`${org}-donor-2`);
    expect(Date.parse(first?.[dHeader.indexOf("donated_at")] ?? "")).toBeGreaterThan(0);
    expect(first?.[dHeader.indexOf("trashed_at")]).toBe("");
  });

  it("guards formula cells as every export does (core/csv.ts) and keeps quoted text whole", () => {
    const [header, ...donors] = csvOf(files, "donors.csv");
    const mallory = donors.find((r) => r[0] === `${org}-donor-1`);
    expect(mallory?.[header.indexOf("first_name")]).toBe(`'${EVIL_NAME}`);
    // A phone number is data, not a formula.
    expect(mallory?.[header.indexOf("phone")]).toBe("+1 503 555 0100");
    const [, note] = csvOf(files, "donor_notes.csv");
    expect(note?.[3]).toBe(NOTE_BODY);
    const [dHeader, ...donations] = csvOf(files, "donations.csv");
    const third = donations.find((r) => r[dHeader.indexOf("number")] === "3");
    expect(third?.[dHeader.indexOf("message")]).toBe("'+SUM(A1:A9)");
    const [oHeader, profile] = csvOf(files, "organization.csv");
    expect(profile?.[oHeader.indexOf("mission")]).toBe("'@mission: feed everyone");
    // The raw line, as a spreadsheet would meet it: quoted, the guard inside the quotes.
    expect(strFromU8(files["donors.csv"] as Uint8Array)).toContain(csvRow([`'${EVIL_NAME}`]).trim());
  });

  it("carries nothing of another organization", async () => {
    for (const [name, bytes] of Object.entries(files)) {
      const text = strFromU8(bytes, true);
      expect(text.includes(other), name).toBe(false);
      expect(text.includes(otherOwner.email), name).toBe(false);
      expect(text.includes(otherOwner.user.id), name).toBe(false);
    }
  });

  it("carries no secret: no secret column, no password hash, session token or invitation secret", async () => {
    const secrets = [
      "secret_hash",
      "password",
      "token_hash",
      "token_enc",
      "access_token",
      "refresh_token",
      "id_token",
      "change_token",
      "batch_token",
      "bytes",
    ];
    for (const t of ARCHIVE_TABLES) {
      const [header] = csvOf(files, t.file);
      for (const s of secrets) expect(header, t.file).not.toContain(s);
    }
    const values = [
      `${org}-SECRET-HASH`,
      `${org}-BATCH-TOKEN`,
      `${org}-PLAN-TOKEN`,
      ...(
        await db
          .prepare(
            "SELECT password AS v FROM account WHERE user_id = ?1 AND password IS NOT NULL UNION ALL SELECT token_hash FROM session WHERE user_id = ?1 UNION ALL SELECT token_enc FROM session WHERE user_id = ?1 UNION ALL SELECT change_token FROM donation WHERE organization_id = ?2 AND change_token IS NOT NULL",
          )
          .bind(owner.user.id, org)
          .all<{ v: string }>()
      ).results.map((r) => r.v),
    ];
    expect(values.length).toBeGreaterThan(3);
    for (const [name, bytes] of Object.entries(files)) {
      const text = strFromU8(bytes, true);
      for (const v of values) expect(text.includes(v), `${name} holds a secret`).toBe(false);
    }
  });

  it("is recorded: who took the organization's data, from where", async () => {
    expect(await exportAudits(org)).toEqual([
      { actor: owner.user.id, type: "organization", entity: org, ip: "198.51.100.7" },
    ]);
    // The record is in the archive's own history.
    const [header, ...events] = csvOf(files, "audit_events.csv");
    expect(events.some((e) => e[header.indexOf("action")] === "organization.export")).toBe(true);
  });

  it("gives the same files read two rows a page as a thousand a page", async () => {
    const small = unzipSync(
      new Uint8Array(
        await new Response(
          organizationArchive(testEnv, { id: org, name: "Org", slug: org }, { pageSize: 2 }),
        ).arrayBuffer(),
      ),
    );
    for (const t of ARCHIVE_TABLES)
      expect(strFromU8(small[t.file] as Uint8Array), t.file).toBe(strFromU8(files[t.file] as Uint8Array));
    expect(small[`media/${org}-media.png`]).toEqual(PNG);
    expect(strFromU8(small["manifest.csv"] as Uint8Array)).toBe(
      strFromU8(files["manifest.csv"] as Uint8Array),
    );
  });
});

describe("the archive's columns", () => {
  const tables = new Map<string, Table>(
    (Object.values(schema) as unknown[])
      .filter((v): v is Table => is(v, Table))
      .map((t) => [getTableName(t), t]),
  );

  it("are each table's own columns minus the ones left out on purpose", () => {
    expect(ARCHIVE_TABLES.length).toBe(25);
    for (const t of ARCHIVE_TABLES) {
      const table = tables.get(t.table);
      expect(table, t.table).toBeDefined();
      const own = t.columns.filter((c) => !t.select?.[c]);
      const left = { ...OMITTED["*"], ...OMITTED[t.table] };
      const schemaColumns = Object.values(getTableColumns(table as Table)).map((c) => c.name);
      // members.csv is the membership with the user's name and e-mail.
      expect([...own].sort(), t.table).toEqual(schemaColumns.filter((c) => !(c in left)).sort());
    }
  });

  it("follow the schema, so no column that looks like a secret reaches a file unless left out by name", () => {
    // The files take every new column (ownColumns); one named like a secret must be a decision.
    const secretLike = /secret|token|hash|password|key|salt|otp/;
    // Not secrets: an imported row's key in its file, and the file's content hash (decision 028).
    const allowed = new Set(["import_key", "file_hash"]);
    for (const t of ARCHIVE_TABLES)
      for (const c of t.columns) expect(secretLike.test(c) && !allowed.has(c), `${t.table}.${c}`).toBe(false);
    // The names the pattern catches in the schema are each left out on purpose.
    const caught = [...tables.values()].flatMap((table) =>
      Object.values(getTableColumns(table))
        .map((c) => `${getTableName(table)}.${c.name}`)
        .filter((n) => secretLike.test(n.split(".")[1] ?? "")),
    );
    expect(caught.length).toBeGreaterThan(3);
  });

  it("write instants as dates exactly where the schema stores a timestamp", () => {
    for (const t of ARCHIVE_TABLES) {
      const columns = getTableColumns(tables.get(t.table) as Table);
      for (const column of Object.values(columns)) {
        if (!t.columns.includes(column.name) || t.select?.[column.name]) continue;
        expect(isInstantColumn(column.name), `${t.table}.${column.name}`).toBe(
          column.columnType === "SQLiteTimestamp",
        );
      }
    }
  });
});

describe("who may download the archive", () => {
  it("refuses admins, organizers, viewers, users without an organization, guests and impersonators; records nothing", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    // Plain words (decision 052): an admin or organizer may export, but not everything at once.
    const refused = { code: "FORBIDDEN", message: EXPORT_REFUSAL_MESSAGE };
    const notAll = { code: "FORBIDDEN", message: ORGANIZATION_EXPORT_REFUSAL_MESSAGE };
    for (const role of ["admin", "organizer", "viewer"] as const) {
      const m = await member(org, role);
      const res = await download(m.jar.header());
      expect(res.status, role).toBe(403);
      expect(await res.json(), role).toEqual(role === "viewer" ? refused : notAll);
    }
    const outsider = await signUp();
    const lost = await download(outsider.jar.header());
    expect(lost.status).toBe(403);
    expect(await lost.json()).toEqual(refused);

    const guest = await download();
    expect(guest.status).toBe(401);
    expect(await guest.json()).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });

    const admin = await makeAdmin();
    const started = await admin.jar.post("/api/auth/admin/impersonate-user", {
      userId: owner.user.id,
      reason: "issue 22 portability",
    });
    expect(started.status).toBe(200);
    const impersonated = await download(admin.jar.header());
    expect(impersonated.status).toBe(403);
    expect(await impersonated.json()).toEqual({
      code: "FORBIDDEN",
      message: "Exports are not available while impersonating",
    });
    expect(await exportAudits(org)).toEqual([]);

    // The owner, signed in as themselves, gets it.
    const ok = await download(owner.jar.header());
    expect(ok.status).toBe(200);
    expect(Object.keys(await unzip(ok))).toContain("organization.csv");
    expect((await exportAudits(org)).map((a) => a.actor)).toEqual([owner.user.id]);
  });

  it("refuses an owner who was demoted at once, past the cached session (decision 018)", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    await member(org, "owner");
    expect((await download(owner.jar.header())).status).toBe(200);
    await db.prepare("UPDATE membership SET role = 'admin' WHERE user_id = ?").bind(owner.user.id).run();
    expect((await download(owner.jar.header())).status).toBe(403);
  });

  it("lets a platform admin take the organization they act in (decision 017: admins hold every right)", async () => {
    const org = await makeOrg();
    const admin = await makeAdmin();
    await db
      .prepare("UPDATE user SET active_organization_id = ? WHERE id = ?")
      .bind(org, admin.user.id)
      .run();
    const res = await download(admin.jar.header());
    expect(res.status).toBe(200);
    const [, profile] = csvOf(await unzip(res), "organization.csv");
    expect(profile?.[0]).toBe(org);
  });
});

describe("a large organization", () => {
  it("streams 3 000 donations complete across pages, read while the client downloads", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    await seed(org, owner, 0);
    await seedDonations(org, 1, 3000);
    const res = await download(owner.jar.header());
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    chunks.push(first.value as Uint8Array);
    // Read as the client takes it, not before the response: a gift added once the first bytes
    // have left is in the file.
    await seedDonations(org, 3001, 3001);
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.length).toBeGreaterThan(5);
    const files = unzipSync(new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer()));
    const [header, ...rows] = csvOf(files, "donations.csv");
    const numbers = rows.map((r) => Number(r[header.indexOf("number")]));
    expect(numbers).toEqual(Array.from({ length: 3001 }, (_, i) => i + 1));
    const [, ...manifest] = csvOf(files, "manifest.csv");
    expect(manifest.find(([file]) => file === "donations.csv")?.[1]).toBe("3001");
  });

  it("stops reading when the client goes away mid-download, and serves the next download whole", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    await seed(org, owner, 0);
    await seedDonations(org, 1, 2500);
    const res = await download(owner.jar.header());
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    const again = await unzip(await download(owner.jar.header()));
    const [, ...rows] = csvOf(again, "donations.csv");
    expect(rows.length).toBe(2500);
  });
});
