/**
 * What one batch of an import does, decided in memory from the rows and what the database holds
 * (docs/decisions/028-csv-import.md): per row the outcome (new, matched, skipped, invalid, with the
 * reason), and the donors, donor changes, campaigns and gifts to write. No I/O: the service reads
 * the look-ups first (queries.ts `batchLookups`) and writes what this returns; a dry run shows it.
 */

import { importKey } from "@core/import/batch";
import type { ImportKind, ImportOutcome, MatchPolicy } from "@core/import/fields";
import {
  campaignInCurrency,
  type DonorColumn,
  type RowDonor,
  type RowGift,
  type RowRefund,
  type RowResult,
} from "@core/import/row";

/** A donor as the matching reads it: the columns a row may fill, and what decides whether it may. */
export interface DonorRecord {
  id: string;
  merged_into_id: string | null;
  anonymized_at: number | null;
  import_id: string | null;
  import_key: string | null;
  type: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  email: string | null;
  phone: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  email_opt_in: number;
  phone_opt_in: number;
  mail_opt_in: number;
  external_id: string | null;
  /** When the record was created: an import writes the old system's "Date Added" here (decision 052). */
  created_at: number | null;
}

export interface CampaignRecord {
  id: string;
  title: string;
  slug: string;
  currency: string;
}

/** What the database holds that a batch's rows may name (queries.ts `batchLookups`). */
export interface Lookups {
  giftKeys: Set<string>;
  transactions: Set<string>;
  donorKeys: Set<string>;
  donorsByEmail: Map<string, DonorRecord>;
  donorsByPostal: Map<string, DonorRecord[]>;
  donorsByExternalId: Map<string, DonorRecord[]>;
  /** Donors that matched donors were merged into (merges may chain once: a merge target is never merged). */
  mergeTargets: Map<string, DonorRecord>;
  /** Existing donors an earlier batch of this import gave gifts to (already counted matched). */
  giftedBefore: Set<string>;
  /** By lower-case title and by slug. */
  campaigns: Map<string, CampaignRecord>;
}

type MatchedBy = "email" | "name_postal_code" | "external_id";

interface RowReport {
  row: number;
  outcome: ImportOutcome;
  reason?: string;
  /** A remark that does not stop the row: "Same donor as row 12", "Matched by e-mail". */
  note?: string;
  donor?: {
    id: string;
    isNew: boolean;
    matchedBy?: MatchedBy;
    /** The earlier row of the same file that brought this donor (created or first matched it). */
    sameAsRow?: number;
    changes?: DonorColumn[];
    /** A donor the organization had before this import: who, so the preview can show the match. */
    existing?: { name: string | null };
  };
  campaign?: { id: string; title: string; isNew: boolean };
}

export interface NewDonor {
  row: number;
  /** The donor to insert (later rows of the batch that match it may have filled it further). */
  record: DonorRecord;
}

export interface DonorChange {
  id: string;
  /** Column → [value read, value wanted]; the write sets a column only if it still holds the value read. */
  set: Partial<Record<DonorColumn, [unknown, unknown]>>;
  /** An older "Date Added" the file gives: the record's creation moves back to it, never forward. */
  since?: number;
}

export interface NewCampaign {
  id: string;
  title: string;
  currency: string;
}

interface PlannedGift {
  id: string;
  row: number;
  importKey: string;
  donorId: string | null;
  campaignId: string | null;
  gift: RowGift;
}

export interface BatchPlan {
  reports: RowReport[];
  newDonors: NewDonor[];
  donorChanges: DonorChange[];
  /** Donors the batch gives gifts or creates: their stats and tier are recounted. */
  touchedDonors: string[];
  newCampaigns: NewCampaign[];
  gifts: PlannedGift[];
  rejections: { row: number; reason: string; cells: string[] }[];
  counts: {
    donorsCreated: number;
    donorsUpdated: number;
    donorsMatched: number;
    giftsCreated: number;
    campaignsCreated: number;
    rowsSkipped: number;
    rowsInvalid: number;
  };
}

interface PlanInput {
  kind: ImportKind;
  /** The import the batch belongs to (null: a dry run before the import exists). */
  importId: string | null;
  fileHash: string;
  policy: MatchPolicy;
  /** Rows the user said not to match: their donor is created anew (options.newDonorRows). */
  newDonorRows?: ReadonlySet<number>;
  rows: { row: number; cells: string[]; result: RowResult }[];
  lookups: Lookups;
  newId: () => string;
}

const lower = (s: string | null | undefined) => (s ?? "").trim().toLowerCase();

/** The name + postal code key both the file's rows and stored donors are matched by. */
export const namePostalKey = (
  first: string | null | undefined,
  last: string | null | undefined,
  postal: string,
) => `${lower(first)}|${lower(last)}|${postal.trim().toUpperCase().replace(/\s+/g, "")}`;

/** Who a stored donor is, as the preview names them. */
const donorName = (r: DonorRecord) =>
  [r.first_name, r.last_name].filter(Boolean).join(" ") || r.company || r.email || null;

/** The stored value of a donor column a row gives, as the donor table holds it. */
function columnValue(d: RowDonor, c: DonorColumn): unknown {
  const v = d.data;
  switch (c) {
    case "type":
      return v.type;
    case "first_name":
      return v.firstName ?? null;
    case "last_name":
      return v.lastName ?? null;
    case "company":
      return v.company ?? null;
    case "email":
      return v.email || null;
    case "phone":
      return v.phone ?? null;
    case "address_line1":
      return v.addressLine1 ?? null;
    case "address_line2":
      return d.addressLine2;
    case "city":
      return v.city ?? null;
    case "region":
      return v.region ?? null;
    case "postal_code":
      return v.postalCode ?? null;
    case "country":
      return v.country || null;
    case "email_opt_in":
      return v.emailOptIn ? 1 : 0;
    case "phone_opt_in":
      return v.phoneOptIn ? 1 : 0;
    case "mail_opt_in":
      return v.mailOptIn ? 1 : 0;
    case "external_id":
      return v.externalId ?? null;
  }
}

/** Consents are never "empty" (false is an answer): filling leaves them, overwriting sets them. */
const CONSENTS: readonly DonorColumn[] = ["email_opt_in", "phone_opt_in", "mail_opt_in", "type"];

/** The columns a matched donor takes from the row under `policy`, as [read, wanted] pairs. */
function donorChangesFor(
  current: DonorRecord,
  d: RowDonor,
  policy: MatchPolicy,
): Partial<Record<DonorColumn, [unknown, unknown]>> {
  const set: Partial<Record<DonorColumn, [unknown, unknown]>> = {};
  if (policy === "skip") return set;
  for (const c of d.given) {
    const was = current[c];
    const want = columnValue(d, c);
    if (want === null || want === was) continue;
    const empty = was === null || was === "";
    if (policy === "fill" && (!empty || CONSENTS.includes(c))) continue;
    set[c] = [was, want];
  }
  return set;
}

/** One batch's plan. Rows come in file order; a row may match a donor an earlier row created. */
export function planBatch(input: PlanInput): BatchPlan {
  const { lookups: db, kind, policy } = input;
  const plan: BatchPlan = {
    reports: [],
    newDonors: [],
    donorChanges: [],
    touchedDonors: [],
    newCampaigns: [],
    gifts: [],
    rejections: [],
    counts: {
      donorsCreated: 0,
      donorsUpdated: 0,
      donorsMatched: 0,
      giftsCreated: 0,
      campaignsCreated: 0,
      rowsSkipped: 0,
      rowsInvalid: 0,
    },
  };
  // Donors this batch created or matched, by each key a later row may match them by, with the row
  // that first brought them (an in-file duplicate is reported against it).
  type Known = { record: DonorRecord; row: number; isNew: boolean };
  const byEmail = new Map<string, Known>();
  const byNamePostal = new Map<string, Known>();
  const byExternal = new Map<string, Known>();
  const changed = new Map<string, DonorChange>();
  const campaignsByKey = new Map<string, CampaignRecord & { isNew: boolean }>();
  const keysSeen = new Set<string>();
  const transactionsSeen = new Set<string>();
  const touched = new Set<string>();
  const counted = new Set<string>();

  const remember = (k: Known) => {
    const r = k.record;
    if (r.email) byEmail.set(r.email, k);
    if (r.postal_code && (r.first_name || r.last_name))
      byNamePostal.set(namePostalKey(r.first_name, r.last_name, r.postal_code), k);
    if (r.external_id) byExternal.set(r.external_id, k);
  };

  const live = (r: DonorRecord) => (r.merged_into_id ? (db.mergeTargets.get(r.merged_into_id) ?? r) : r);

  /** The row that created a donor of this import in an earlier batch (its import key names it). */
  const createdAtRow = (r: DonorRecord): number | null => {
    if (!input.importId || r.import_id !== input.importId || !r.import_key) return null;
    const m = /:(\d+)$/.exec(r.import_key);
    return m ? Number(m[1]) : null;
  };

  function match(d: RowDonor): { known: Known; by: MatchedBy } | null {
    const v = d.data;
    const email = v.email || null;
    if (email) {
      const k = byEmail.get(email);
      if (k) return { known: k, by: "email" };
      const r = db.donorsByEmail.get(email);
      if (r) return { known: { record: live(r), row: createdAtRow(r) ?? 0, isNew: false }, by: "email" };
    }
    if (v.postalCode && (v.firstName || v.lastName)) {
      const key = namePostalKey(v.firstName, v.lastName, v.postalCode);
      const k = byNamePostal.get(key);
      if (k) return { known: k, by: "name_postal_code" };
      const r = (db.donorsByPostal.get(v.postalCode.trim().toUpperCase().replace(/\s+/g, "")) ?? []).find(
        (c) => namePostalKey(c.first_name, c.last_name, c.postal_code ?? "") === key,
      );
      if (r)
        return {
          known: { record: live(r), row: createdAtRow(r) ?? 0, isNew: false },
          by: "name_postal_code",
        };
    }
    if (v.externalId) {
      const k = byExternal.get(v.externalId);
      if (k) return { known: k, by: "external_id" };
      const r = db.donorsByExternalId.get(v.externalId)?.[0];
      if (r)
        return { known: { record: live(r), row: createdAtRow(r) ?? 0, isNew: false }, by: "external_id" };
    }
    return null;
  }

  const skip = (row: number, reason: string) => {
    plan.counts.rowsSkipped++;
    plan.reports.push({ row, outcome: "skipped", reason });
  };
  const reject = (row: number, cells: string[], reason: string) => {
    plan.counts.rowsInvalid++;
    plan.rejections.push({ row, reason, cells });
    plan.reports.push({ row, outcome: "invalid", reason });
  };

  /**
   * The campaign a gift names: the organization's, this batch's new one, or a new one; in another
   * currency than that campaign's, its sibling in the gift's currency (core/import/row.ts).
   */
  function campaignFor(
    name: string,
    currency: string,
    sibling = false,
  ): (CampaignRecord & { isNew: boolean }) | string {
    const key = lower(name);
    const known =
      campaignsByKey.get(key) ??
      (db.campaigns.get(key) ? { ...(db.campaigns.get(key) as CampaignRecord), isNew: false } : null);
    if (known) {
      if (known.currency !== currency)
        return sibling
          ? `This campaign collects ${known.currency}`
          : campaignFor(campaignInCurrency(name, currency), currency, true);
      campaignsByKey.set(key, known);
      return known;
    }
    const created = { id: input.newId(), title: name, slug: "", currency, isNew: true };
    campaignsByKey.set(key, created);
    plan.newCampaigns.push({ id: created.id, title: name, currency });
    plan.counts.campaignsCreated++;
    return created;
  }

  // Refund rows wait for the whole batch: the gift they refund may come before or after them.
  const refunds: { row: number; cells: string[]; refund: RowRefund }[] = [];
  for (const { row, cells, result } of input.rows) {
    if (!result.ok) {
      reject(row, cells, result.problem);
      continue;
    }
    if (result.skip) {
      skip(row, result.skip);
      continue;
    }
    if (result.refund) {
      refunds.push({ row, cells, refund: result.refund });
      continue;
    }
    const { donor, gift } = result;
    let key: string;
    if (kind === "donations" && gift) {
      key = importKey(input.fileHash, row, gift.externalId);
      if (db.giftKeys.has(key) || keysSeen.has(key)) {
        skip(row, gift.externalId ? `Already imported (donation ${gift.externalId})` : "Already imported");
        continue;
      }
      if (
        gift.transactionId &&
        (db.transactions.has(gift.transactionId) || transactionsSeen.has(gift.transactionId))
      ) {
        skip(row, `Already recorded (transaction ${gift.transactionId})`);
        continue;
      }
    } else {
      key = importKey(input.fileHash, row);
      if (db.donorKeys.has(key) || keysSeen.has(key)) {
        skip(row, "Already imported");
        continue;
      }
    }

    // The campaign before the donor: a row refused for its campaign creates no donor either.
    let campaign: (CampaignRecord & { isNew: boolean }) | null = null;
    if (gift?.campaign) {
      const c = campaignFor(gift.campaign, gift.currency);
      if (typeof c === "string") {
        reject(row, cells, c);
        continue;
      }
      campaign = c;
    }

    const report: RowReport = { row, outcome: "new" };
    let donorId: string | null = null;
    if (donor) {
      const m = input.newDonorRows?.has(row) ? null : match(donor);
      if (m) {
        const r = m.known.record;
        if (r.anonymized_at) {
          if (kind === "donations") reject(row, cells, "An anonymized donor cannot receive new donations");
          else skip(row, "Matches an anonymized donor");
          continue;
        }
        donorId = r.id;
        const earlier = m.known.row;
        if (kind === "donors" && earlier) report.note = `Same donor as row ${earlier}`;
        const set = donorChangesFor(r, donor, policy);
        // The old system knew the donor before this record was created here.
        const since =
          policy !== "skip" && donor.since !== null && (r.created_at === null || donor.since < r.created_at)
            ? donor.since
            : null;
        // Matched by another address a merge kept (decision 052): that address is already the
        // donor's; it does not replace the main one.
        if (m.by === "email" && r.email && r.email !== (donor.data.email || null)) delete set.email;
        const columns = Object.keys(set) as DonorColumn[];
        if (columns.length || since !== null) {
          const c = changed.get(r.id) ?? { id: r.id, set: {} };
          if (since !== null) {
            c.since = Math.min(c.since ?? since, since);
            r.created_at = c.since;
          }
          for (const col of columns) {
            const [was, want] = set[col] as [unknown, unknown];
            // A column an earlier row of this batch already changed keeps the value first read.
            const first = c.set[col];
            c.set[col] = [first ? first[0] : was, want];
            (r as unknown as Record<string, unknown>)[col] = want;
          }
          if (!changed.has(r.id) && !m.known.isNew) {
            changed.set(r.id, c);
            plan.donorChanges.push(c);
          }
        }
        // A donor of the organization's, not one this import created (in this batch or an earlier one).
        const existing = !m.known.isNew && (input.importId === null || r.import_id !== input.importId);
        // Matched, even when an earlier row of this file created the donor: this row creates none.
        report.donor = {
          id: r.id,
          isNew: false,
          matchedBy: m.by,
          ...(earlier ? { sameAsRow: earlier } : {}),
          ...(columns.length ? { changes: columns } : {}),
          ...(existing ? { existing: { name: donorName(r) } } : {}),
        };
        remember({ ...m.known, row: m.known.row || row });
        if (kind === "donations") {
          // A donor the organization had (not one this import created), once per import.
          if (existing && !counted.has(r.id) && !db.giftedBefore.has(r.id)) {
            counted.add(r.id);
            plan.counts.donorsMatched++;
            if (columns.length || since !== null) plan.counts.donorsUpdated++;
          }
          touched.add(r.id);
        } else {
          if (policy === "skip") {
            skip(row, `Matched an existing donor by ${MATCHED_BY[m.by]}; left unchanged`);
            continue;
          }
          report.outcome = "matched";
          if (m.known.isNew) plan.counts.donorsMatched++;
          else if (columns.length || since !== null) plan.counts.donorsUpdated++;
          else plan.counts.donorsMatched++;
        }
      } else {
        const id = input.newId();
        const v = donor.data;
        const record: DonorRecord = {
          id,
          merged_into_id: null,
          anonymized_at: null,
          import_id: input.importId,
          import_key: importKey(input.fileHash, row),
          type: v.type,
          first_name: v.firstName ?? null,
          last_name: v.lastName ?? null,
          company: v.company ?? null,
          email: v.email || null,
          phone: v.phone ?? null,
          address_line1: v.addressLine1 ?? null,
          address_line2: donor.addressLine2,
          city: v.city ?? null,
          region: v.region ?? null,
          postal_code: v.postalCode ?? null,
          country: v.country || null,
          email_opt_in: v.emailOptIn ? 1 : 0,
          phone_opt_in: v.phoneOptIn ? 1 : 0,
          mail_opt_in: v.mailOptIn ? 1 : 0,
          external_id: v.externalId ?? null,
          created_at: donor.since,
        };
        remember({ record, row, isNew: true });
        plan.newDonors.push({ row, record });
        plan.counts.donorsCreated++;
        donorId = id;
        report.donor = { id, isNew: true };
        touched.add(id);
      }
    }
    keysSeen.add(key);
    if (gift) {
      if (gift.transactionId) transactionsSeen.add(gift.transactionId);
      plan.gifts.push({
        id: input.newId(),
        row,
        importKey: key,
        donorId,
        campaignId: campaign?.id ?? null,
        gift,
      });
      plan.counts.giftsCreated++;
      if (campaign) report.campaign = { id: campaign.id, title: campaign.title, isNew: campaign.isNew };
    }
    plan.reports.push(report);
  }
  applyRefunds(plan, refunds, db, { skip, reject });
  plan.reports.sort((a, b) => a.row - b.row);
  plan.touchedDonors = [...touched];
  return plan;
}

const REFUNDABLE: readonly string[] = ["completed", "partially_refunded", "refunded"];

/**
 * Each refund row onto the gift of this batch it names (by donation or transaction ID): the gift is
 * written refunded, so totals never count the money twice. A refund that names no gift, or one this
 * batch does not hold, is skipped with the reason: never a gift, never refused for it.
 */
function applyRefunds(
  plan: BatchPlan,
  refunds: { row: number; cells: string[]; refund: RowRefund }[],
  db: Lookups,
  out: {
    skip: (row: number, reason: string) => void;
    reject: (row: number, cells: string[], reason: string) => void;
  },
) {
  const byId = new Map<string, PlannedGift>();
  for (const g of plan.gifts)
    for (const id of [g.gift.externalId, g.gift.transactionId]) if (id && !byId.has(id)) byId.set(id, g);
  for (const { row, cells, refund: f } of refunds) {
    if (!f.of) {
      out.skip(row, "A refund that does not say which donation it refunds: not applied");
      continue;
    }
    const g = byId.get(f.of);
    if (!g) {
      const before = db.giftKeys.has(importKey("", 0, f.of)) || db.transactions.has(f.of);
      out.skip(
        row,
        before
          ? `Refund of donation ${f.of}, imported before: not applied again`
          : `Refund of donation ${f.of}, which is not among the rows imported with it: not applied`,
      );
      continue;
    }
    const gift = g.gift;
    if (gift.currency !== f.currency) {
      out.reject(row, cells, `The refund is in ${f.currency}, donation ${f.of} in ${gift.currency}`);
      continue;
    }
    if (!REFUNDABLE.includes(gift.status)) {
      out.skip(row, `Donation ${f.of} is ${gift.status.replace("_", " ")}: nothing to refund`);
      continue;
    }
    const refunded = gift.refundedMinor + f.amountMinor;
    if (refunded > gift.amountMinor) {
      // Its row already said so (a "Refunded" flag or amount): the money is not taken back twice.
      out.skip(row, `Donation ${f.of} is already refunded (row ${g.row})`);
      continue;
    }
    g.gift = {
      ...gift,
      refundedMinor: refunded,
      status: refunded === gift.amountMinor ? "refunded" : "partially_refunded",
    };
    plan.reports.push({ row, outcome: "matched", note: `Refund of donation ${f.of} (row ${g.row})` });
  }
}

export const MATCHED_BY: Readonly<Record<MatchedBy, string>> = {
  email: "e-mail",
  name_postal_code: "name and postal code",
  external_id: "donor ID",
};
