/**
 * Audit rows as the History panels show them (decision 052): a sentence, the edited fields in words,
 * who did it and when; the IP address only to platform admins.
 */
import { formatDateTime } from "@core/date-format";
import { formatMoney } from "@core/money";
import type { Database } from "../../db/databases";
import { describeChanges, fieldRefs } from "./changes";
import { type NameBook, resolveNames, Wanted } from "./names";
import type { AuditEventRow } from "./queries";
import { type Facts, type RefKind, type Words, wordsFor } from "./sentences";

/** What each kind of record is called, and which names resolve it (null: it has no name). */
const SUBJECTS: Record<string, { kind: RefKind | null; noun: string }> = {
  campaign: { kind: "campaign", noun: "campaign" },
  donor: { kind: "donor", noun: "donor" },
  donation: { kind: "donation", noun: "donation" },
  // A thank-you is filed under its gift's id.
  acknowledgement: { kind: "donation", noun: "donation" },
  tag: { kind: "tag", noun: "tag" },
  donor_tier: { kind: "tier", noun: "tier" },
  plan: { kind: "plan", noun: "recurring plan" },
  import: { kind: "import", noun: "import" },
  user: { kind: "user", noun: "user" },
  invitation: { kind: "invitation", noun: "invitation" },
  organization: { kind: "organization", noun: "organization" },
  receipt: { kind: null, noun: "receipt" },
  media: { kind: null, noun: "image" },
  statement_run: { kind: null, noun: "statement run" },
  import_mapping: { kind: null, noun: "column mapping" },
  report: { kind: null, noun: "report" },
  organizer: { kind: null, noun: "organizer list" },
};

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A stored before/after value as an object with camelCase keys (rows are stored snake_case). */
function values(s: string | null): Record<string, unknown> {
  if (!s) return {};
  try {
    const v = JSON.parse(s) as unknown;
    if (!v || typeof v !== "object" || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [camel(k), x]));
  } catch {
    return {};
  }
}

/** A row with what a sentence needs: its record, and its organization (a person's page spans several). */
type SayableRow = AuditEventRow & {
  entityType: string;
  entityId: string;
  organizationId?: string | null;
};

interface PresentOptions {
  /** The record whose page shows the rows: it reads "this campaign". */
  here: { entityType: string; entityId: string } | null;
  /** The organization whose records `db` holds (null: any, a platform admin's view of a person). */
  organizationId: string | null;
  /** The organization's zone and currency, when the rows are one organization's. */
  timeZone?: string;
  currency?: string;
  canSeeIp: boolean;
}

const listOf = (names: string[]) =>
  names.length <= 1
    ? (names[0] ?? "none")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

function facts(r: SayableRow): Facts {
  return {
    action: r.action,
    entityType: r.entityType,
    entityId: r.entityId,
    before: values(r.before),
    after: values(r.after),
    reason: r.reason,
  };
}

/** Every id the rows' sentences and changes name, with the people behind them. */
function wantedBy(rows: { r: SayableRow; f: Facts }[]) {
  const wanted = new Wanted();
  for (const { r, f } of rows) {
    const s = SUBJECTS[r.entityType];
    if (s?.kind) wanted.add(s.kind, r.entityId);
    if (r.organizationId) wanted.add("organization", r.organizationId);
    wanted.add("user", r.actorId);
    wanted.add("user", r.impersonatorId);
    const w = wordsFor(r.action);
    for (const [kind, id] of w.refs?.(f) ?? []) wanted.add(kind, id);
    if (w.changes)
      for (const [k, v] of [...Object.entries(f.before), ...Object.entries(f.after)])
        for (const [kind, id] of fieldRefs(k, v)) wanted.add(kind, id);
  }
  return wanted;
}

function wordsOf(r: SayableRow, f: Facts, book: NameBook, o: PresentOptions): Words {
  const find = (kind: RefKind, id: unknown) => (typeof id === "string" ? book.get(kind)?.get(id) : undefined);
  const org = r.organizationId ? find("organization", r.organizationId) : undefined;
  const s = SUBJECTS[r.entityType] ?? { kind: null, noun: r.entityType.replace(/_/g, " ") };
  const own = s.kind ? find(s.kind, r.entityId) : undefined;
  const currency =
    [f.after.currency, f.before.currency, own?.currency, o.currency, org?.currency].find(
      (c): c is string => typeof c === "string" && c.length === 3,
    ) ?? "USD";
  const timeZone = o.timeZone ?? org?.timeZone ?? "UTC";
  const gone = (kind: RefKind) => (kind === "donation" ? "a deleted donation" : `a deleted ${kind}`);
  const name = (kind: RefKind, id: unknown, fallback?: unknown) =>
    find(kind, id)?.name ||
    (typeof fallback === "string" && fallback ? fallback : kind === "user" ? "a former user" : gone(kind));
  const here = o.here && o.here.entityType === r.entityType && o.here.entityId === r.entityId;
  const hint = [f.before.title, f.before.name, f.after.title, f.after.name].find(
    (x): x is string => typeof x === "string" && !!x,
  );
  let subject: string;
  if (here) subject = `this ${s.noun}`;
  else if (!s.kind) subject = `the ${s.noun}`;
  else {
    const n = own?.name || hint;
    if (!n) subject = `a deleted ${s.noun}`;
    else if (s.kind === "user" || s.kind === "organization") subject = n;
    else if (s.kind === "plan") subject = `the recurring plan of ${n}`;
    else if (s.kind === "import") subject = `the import of ${n}`;
    else if (s.kind === "invitation") subject = `the invitation of ${n}`;
    else subject = `${s.noun} ${n}`;
  }
  return {
    subject,
    name,
    names: (kind, ids) => listOf((Array.isArray(ids) ? ids : [ids]).map((id) => name(kind, id))),
    money: (minor, c) =>
      typeof minor === "number"
        ? formatMoney(minor, typeof c === "string" && c.length === 3 ? c : currency)
        : "—",
    date: (ms) => (typeof ms === "number" ? formatDateTime(ms, timeZone) : "—"),
  };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Rows of one database as people read them. `directory` holds people, invitations and
 * organizations; `db` the rows' own records.
 */
export async function presentAuditRows(
  directory: Database,
  db: Database,
  rows: SayableRow[],
  o: PresentOptions,
) {
  const all = rows.map((r) => ({ r, f: facts(r) }));
  const book = await resolveNames(directory, db, wantedBy(all), o.organizationId);
  return all.map(({ r, f }) => {
    const words = wordsFor(r.action);
    const w = wordsOf(r, f, book, o);
    const person = (id: string | null) => (id ? (book.get("user")?.get(id)?.name ?? "A former user") : null);
    const org = r.organizationId ? book.get("organization")?.get(r.organizationId) : undefined;
    return {
      id: r.id,
      action: r.action,
      at: r.at,
      sentence: capital(words.say(f, w)),
      changes: words.changes ? describeChanges(f.before, f.after, w) : [],
      reason: r.reason,
      actor: person(r.actorId),
      impersonator: person(r.impersonatorId),
      organizationName: org?.name ?? null,
      ip: o.canSeeIp ? r.ip : null,
    };
  });
}
