/**
 * The names of the records a page of audit rows mentions (decision 052): one query per kind for the
 * page, an organization's records from its database and the rest from the directory, never joined
 * across the two (decision 027).
 */
import type { Database } from "../../db/databases";
import { donorName } from "../../donors/present";
import type { RefKind } from "./sentences";

export interface Named {
  name: string;
  /** The record's currency (campaigns, donations, plans; an organization's default). */
  currency?: string;
  /** An organization's time zone. */
  timeZone?: string;
}

/** Kind → id → name; a kind or an id that is missing was not found (the record is gone). */
export type NameBook = Map<RefKind, Map<string, Named>>;

/** Ids wanted per kind; strings only (an id in an audit value may be anything). */
export class Wanted {
  readonly ids = new Map<RefKind, Set<string>>();
  add(kind: RefKind, value: unknown) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v !== "string" || !v || v.length > 100) continue;
      const set = this.ids.get(kind) ?? new Set<string>();
      this.ids.set(kind, set);
      set.add(v);
    }
  }
}

const DONOR_COLUMNS = "first_name, last_name, company, email, anonymized_at";

/** The one query of each kind; ?1 is the JSON array of ids, ?2 the organization (or null: any). */
const ORGANIZATION_SQL: Partial<Record<RefKind, string>> = {
  donor: `SELECT id, ${DONOR_COLUMNS} FROM donor WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)`,
  campaign:
    "SELECT id, title AS name, currency FROM campaign WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)",
  item: "SELECT id, title AS name FROM campaign_item WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)",
  tag: "SELECT id, name FROM donor_tag WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)",
  tier: "SELECT id, name FROM donor_tier WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)",
  donation:
    "SELECT id, '#' || number AS name, currency FROM donation WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)",
  plan: `SELECT p.id, p.currency, ${DONOR_COLUMNS.split(", ")
    .map((c) => `d.${c}`)
    .join(", ")} FROM recurring_plan p LEFT JOIN donor d ON d.id = p.donor_id
          WHERE p.id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR p.organization_id = ?2)`,
  import:
    "SELECT id, file_name AS name FROM data_import WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)",
};

const DIRECTORY_SQL: Partial<Record<RefKind, string>> = {
  user: "SELECT id, name FROM user WHERE id IN (SELECT value FROM json_each(?1))",
  invitation:
    "SELECT id, email AS name FROM invitation WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)",
  organization:
    "SELECT id, name, default_currency AS currency, time_zone AS timeZone FROM organization WHERE id IN (SELECT value FROM json_each(?1))",
};

type NameRow = {
  id: string;
  name?: string | null;
  currency?: string | null;
  timeZone?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  email?: string | null;
  anonymized_at?: number | null;
};

function named(kind: RefKind, r: NameRow): Named {
  const name =
    kind === "donor" || kind === "plan"
      ? r.anonymized_at
        ? "an anonymized donor"
        : donorName({
            first_name: r.first_name ?? null,
            last_name: r.last_name ?? null,
            company: r.company ?? null,
            email: r.email ?? null,
            anonymized_at: null,
          })
      : (r.name ?? "");
  return { name, currency: r.currency ?? undefined, timeZone: r.timeZone ?? undefined };
}

async function readKinds(
  db: Database,
  sql: Partial<Record<RefKind, string>>,
  wanted: Wanted,
  orgId: string | null,
  book: NameBook,
) {
  const kinds = [...wanted.ids.keys()].filter((k) => sql[k]);
  if (!kinds.length) return;
  const results = await db.batch(
    kinds.map((k) => {
      const text = sql[k] as string;
      const ids = JSON.stringify([...(wanted.ids.get(k) ?? [])]);
      return text.includes("?2") ? db.prepare(text).bind(ids, orgId) : db.prepare(text).bind(ids);
    }),
  );
  kinds.forEach((k, i) => {
    const rows = (results[i]?.results ?? []) as NameRow[];
    book.set(k, new Map(rows.map((r) => [r.id, named(k, r)])));
  });
}

/**
 * The names of `wanted`: the organization's records from `db` (its database), the rest from the
 * directory. `orgId` null reads records of any organization in `db` (a platform admin's view of
 * one person across organizations).
 */
export async function resolveNames(
  directory: Database,
  db: Database,
  wanted: Wanted,
  orgId: string | null,
): Promise<NameBook> {
  const book: NameBook = new Map();
  await Promise.all([
    readKinds(db, ORGANIZATION_SQL, wanted, orgId, book),
    readKinds(directory, DIRECTORY_SQL, wanted, orgId, book),
  ]);
  return book;
}
