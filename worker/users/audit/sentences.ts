/**
 * What each audited action says in words (decision 052): the one registry of audit actions.
 * worker/lib/audit.ts takes only its keys, so an action without a sentence does not compile, and
 * test/audit/sentences.test.ts fails on one written in the code (SQL too) that is missing here. A
 * sentence names records through `w.name` and values through `w.money` / `w.date`, never raw.
 */
import { BADGES } from "@core/badges";
import { PLAN_INTERVAL_LABELS, PLAN_STATUS_LABELS } from "@core/plans";

/** The kinds of records a row names by id, each resolved in one query for a page (./names.ts). */
const refKinds = [
  "donor",
  "campaign",
  "item",
  "tag",
  "tier",
  "donation",
  "plan",
  "import",
  "user",
  "invitation",
  "organization",
] as const;
export type RefKind = (typeof refKinds)[number];

/** One audit row as a sentence reads it: before/after parsed, their keys camelCased. */
export interface Facts {
  action: string;
  entityType: string;
  entityId: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  reason: string | null;
}

/** What a sentence may ask for: records by name, values in people's words. */
export interface Words {
  /** The row's own record: "this campaign" on its own page, "campaign Spring Meal Drive" elsewhere. */
  subject: string;
  /** A record's name ("Rosa Delgado", "#1042"), or `fallback` when it is gone. */
  name: (kind: RefKind, id: unknown, fallback?: unknown) => string;
  /** Several records' names: "Spring 2027 and Gala". */
  names: (kind: RefKind, ids: unknown) => string;
  /** An amount in minor units, in `currency` or the row's own currency: "$150.00". */
  money: (minor: unknown, currency?: unknown) => string;
  /** An instant in the organization's zone: "Dec 1, 2026, 9:30 AM PST". */
  date: (ms: unknown) => string;
}

interface ActionWords {
  say: (f: Facts, w: Words) => string;
  /** Ids the sentence names besides the row's own record, resolved before `say` runs. */
  refs?: (f: Facts) => [RefKind, unknown][];
  /** Whether the changed fields are listed under the sentence (an edit's before and after). */
  changes?: boolean;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const plural = (n: unknown, one: string, many = `${one}s`) => {
  const v = num(n) ?? 0;
  return `${v.toLocaleString("en-US")} ${v === 1 ? one : many}`;
};
/** "partially_refunded" → "partially refunded": a status inside a sentence. */
const statusWords = (s: unknown) => (str(s) ?? "unknown").replace(/_/g, " ");
const planStatus = (s: unknown) =>
  (PLAN_STATUS_LABELS as Record<string, string | undefined>)[String(s)]?.toLowerCase() ?? statusWords(s);
/** Organization roles as the members list names them. */
const roleWords = (r: unknown) => {
  const s = str(r);
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : "a member";
};
const badgeName = (k: unknown) =>
  (BADGES as Record<string, { name: string } | undefined>)[String(k)]?.name ?? statusWords(k);
const provider = (p: unknown) => {
  const s = str(p) ?? "another provider";
  return s.charAt(0).toUpperCase() + s.slice(1);
};
/** The lapsed-donor reports (core/report-filters.ts LAPSED_KINDS) by the names /reports gives them. */
const REPORT_NAMES: Record<string, string> = {
  lybunt: "lapsed donors (LYBUNT)",
  sybunt: "lapsed donors (SYBUNT)",
};
const edit = (): ActionWords => ({ say: (_f, w) => `Changed ${w.subject}`, changes: true });
const fixed =
  (text: string): ActionWords["say"] =>
  () =>
    text;
const does =
  (verb: string): ActionWords["say"] =>
  (_f, w) =>
    `${verb} ${w.subject}`;

/** "to Spring Meal Drive" or "to the general fund". */
const toCampaign = (f: Facts, w: Words) =>
  f.after.campaignId ? `to ${w.name("campaign", f.after.campaignId)}` : "to the general fund";

const donationStatusSay = (f: Facts, w: Words) => {
  const to = str(f.after.status);
  const refunded = (num(f.after.refundedMinor) ?? 0) - (num(f.before.refundedMinor) ?? 0);
  if (to === "partially_refunded" && refunded > 0) return `Refunded ${w.money(refunded)} of ${w.subject}`;
  if (to === "refunded") return `Refunded ${w.subject} in full`;
  return `Marked ${w.subject} ${statusWords(to)}`;
};

const tagSay = (f: Facts, w: Words) => {
  const ids = Array.isArray(f.after.tagIds) ? f.after.tagIds : [];
  const tags = `${ids.length === 1 ? "tag" : "tags"} ${w.names("tag", ids)}`;
  if (f.action === "tag.remove") return `Removed ${tags} from ${w.subject}`;
  if (f.action === "tag.replace")
    return ids.length
      ? `Set the tags of ${w.subject} to ${w.names("tag", ids)}`
      : `Removed every tag from ${w.subject}`;
  return `Added ${tags} to ${w.subject}`;
};
const tagRefs = (f: Facts): [RefKind, unknown][] => [
  ["tag", f.after.tagIds],
  ["tag", f.before.tagIds],
];

const planStatusSay = (verb: string) => (_f: Facts, w: Words) => `${verb} ${w.subject}`;
const processorPlan = (verb: string) => (_f: Facts, w: Words) => `The payment processor ${verb} ${w.subject}`;

/** Every audited action (grep the code for `action: "`; test/audit/sentences.test.ts does). */
export const AUDIT_SENTENCES = {
  // Campaigns and their items.
  "campaign.create": { say: does("Created") },
  "campaign.update": edit(),
  "campaign.delete": { say: does("Deleted") },
  "campaign.publish": { say: does("Published") },
  "campaign.pause": { say: does("Paused") },
  "campaign.resume": { say: does("Resumed") },
  "campaign.toggle": {
    say: (f, w) => `${f.after.status === "paused" ? "Paused" : "Resumed"} ${w.subject}`,
  },
  "campaign.complete": { say: (_f, w) => `Marked ${w.subject} completed` },
  "campaign.archive": { say: does("Archived") },
  "campaign.unarchive": { say: (_f, w) => `Took ${w.subject} out of the archive, back to draft` },
  "campaign_item.create": {
    say: (f, w) =>
      `Added item ${str(f.after.title) ?? "(untitled)"} (${w.money(f.after.unitAmountMinor)}) to ${w.subject}`,
  },
  "campaign_item.update": {
    say: (f, w) =>
      `Changed item ${w.name("item", f.after.id ?? f.before.id, f.before.title)} of ${w.subject}`,
    refs: (f) => [["item", f.after.id ?? f.before.id]],
    changes: true,
  },
  "campaign_item.delete": {
    say: (f, w) => `Deleted item ${w.name("item", f.before.id, "(deleted)")} from ${w.subject}`,
    refs: (f) => [["item", f.before.id]],
  },
  "campaign_item.reorder": { say: (_f, w) => `Reordered the items of ${w.subject}` },

  // Donations.
  "donation.create": {
    say: (f, w) =>
      `Recorded ${w.subject}: ${w.money(f.after.amountMinor, f.after.currency)} from ${
        f.after.donorId ? w.name("donor", f.after.donorId) : "no named donor"
      } ${toCampaign(f, w)}`,
    refs: (f) => [
      ["donor", f.after.donorId],
      ["campaign", f.after.campaignId],
    ],
  },
  "donation.update": edit(),
  "donation.status": { say: donationStatusSay, changes: true },
  "donation.correction": {
    say: (f, w) =>
      `Corrected the status of ${w.subject} from ${statusWords(f.before.status)} to ${statusWords(f.after.status)}`,
    changes: true,
  },
  "donation.webhook_create": {
    say: (f, w) => `Received ${w.subject} from the payment processor (${statusWords(f.after.status)})`,
  },
  "donation.webhook_status": {
    say: (f, w) => `The payment processor marked ${w.subject} ${statusWords(f.after.status)}`,
  },
  "donation.abandon": { say: (_f, w) => `Marked ${w.subject} abandoned: it stayed pending too long` },
  "donation.trash": { say: (_f, w) => `Moved ${w.subject} to the trash` },
  "donation.restore": { say: (_f, w) => `Restored ${w.subject} from the trash` },
  "donation.purge": { say: (_f, w) => `Deleted ${w.subject} for good` },
  "donation.thank": {
    say: (f, w) => `Sent the thank-you for ${w.subject}${str(f.after.to) ? ` to ${str(f.after.to)}` : ""}`,
  },
  "donation.export": { say: fixed("Exported donations to a CSV file") },
  "receipt.send": {
    say: (f) =>
      `E-mailed receipt ${str(f.after.number) ?? ""}${str(f.after.to) ? ` to ${str(f.after.to)}` : ""}`.replace(
        "  ",
        " ",
      ),
  },
  "statement.test": {
    say: (f) =>
      `Sent a test year-end statement for ${str(f.after.period) ?? "a year"}${str(f.after.to) ? ` to ${str(f.after.to)}` : ""}`,
  },
  "receipts.settings": { say: fixed("Changed the receipt settings"), changes: true },
  "statement.run": {
    say: (f) =>
      `Started sending year-end statements for ${str(f.after.period) ?? "a year"} to ${plural(f.after.donors, "donor")}`,
  },
  "thanks.template_save": {
    say: (f, w) =>
      f.entityType === "organization"
        ? "Changed the thank-you message"
        : `Changed the thank-you message of ${w.subject}`,
    changes: true,
  },
  "thanks.template_delete": {
    say: (_f, w) => `Removed the thank-you message of ${w.subject}; the organization's is sent instead`,
  },

  // Donors, their tags, tiers and notes.
  "donor.create": { say: does("Added") },
  "donor.update": edit(),
  "donor.delete": { say: does("Deleted") },
  "donor.anonymize": { say: does("Anonymized") },
  "donor.merge": {
    say: (f, w) =>
      `Merged ${w.name("donor", f.after.sourceId, "another donor")} into ${w.subject}: ${plural(f.after.donations, "donation")}, ${plural(f.after.notes, "note")} and ${plural(f.after.tags, "tag")} moved${
        str(f.after.alternateEmail) ? `; ${str(f.after.alternateEmail)} kept as another e-mail` : ""
      }`,
    refs: (f) => [["donor", f.after.sourceId]],
  },
  "donor.merged_into": {
    say: (f, w) => `Merged ${w.subject} into ${w.name("donor", f.after.targetId, "another donor")}`,
    refs: (f) => [["donor", f.after.targetId]],
  },
  "donor.export": { say: fixed("Exported donors to a CSV file") },
  "donor.tier_lock": {
    say: (f, w) =>
      f.after.tierId
        ? `Locked ${w.subject} in tier ${w.name("tier", f.after.tierId, "(deleted)")}`
        : `Locked ${w.subject} out of every tier`,
    refs: (f) => [["tier", f.after.tierId]],
  },
  "donor.tier_unlock": { say: (_f, w) => `Unlocked the tier of ${w.subject}: giving decides it again` },
  "tag.add": { say: tagSay, refs: tagRefs },
  "tag.remove": { say: tagSay, refs: tagRefs },
  "tag.replace": { say: tagSay, refs: tagRefs },
  "tag.create": { say: (f) => `Created tag ${str(f.after.name) ?? ""}`.trim() },
  "tag.update": {
    say: (f, w) =>
      str(f.before.name) && f.before.name !== f.after.name
        ? `Renamed tag ${str(f.before.name)} to ${str(f.after.name)}`
        : `Changed ${w.subject}`,
    changes: true,
  },
  "tag.delete": {
    say: (f) =>
      `Deleted tag ${str(f.before.name) ?? ""}${num(f.before.donors) ? `, removing it from ${plural(f.before.donors, "donor")}` : ""}`,
  },
  "tier.create": { say: (f) => `Created tier ${str(f.after.name) ?? ""}`.trim() },
  "tier.update": { say: (f, w) => `Changed tier ${str(f.before.name) ?? w.subject}`, changes: true },
  "tier.delete": {
    say: (f, w) =>
      `Deleted tier ${str(f.before.name) ?? ""}: ${
        f.after.donors === "move"
          ? `its ${plural(f.after.moved, "donor")} moved to ${w.name("tier", f.after.tierId, "another tier")}`
          : `its ${plural(f.after.moved, "donor")} placed again by their giving`
      }`,
    refs: (f) => [["tier", f.after.tierId]],
  },
  "note.create": {
    say: (f, w) =>
      `Added ${f.after.visibility === "shared" ? "a shared" : "an internal"} note to ${w.subject}`,
  },
  "note.update": { say: (_f, w) => `Edited a note on ${w.subject}` },
  "note.delete": { say: (_f, w) => `Deleted a note from ${w.subject}` },

  // Imports.
  "import.start": {
    say: (f) =>
      `Started importing ${str(f.after.fileName) ?? "a file"}: ${plural(f.after.rows, "row")} of ${f.after.kind === "donors" ? "donors" : "donations"}`,
  },
  "import.batch": {
    say: (f, w) => {
      const rows = Array.isArray(f.after.rows) ? f.after.rows.map(num) : [];
      const parts = [
        num(f.after.giftsCreated) ? plural(f.after.giftsCreated, "donation") : null,
        num(f.after.donorsCreated) ? `${plural(f.after.donorsCreated, "new donor")}` : null,
        num(f.after.donorsUpdated) ? `${plural(f.after.donorsUpdated, "donor")} updated` : null,
        num(f.after.rowsInvalid) ? `${plural(f.after.rowsInvalid, "row")} refused` : null,
      ].filter(Boolean);
      const span = rows[0] !== null && rows[1] ? `rows ${rows[0]}–${rows[1]} of ` : "";
      return `Imported ${span}${w.subject}${parts.length ? `: ${parts.join(", ")}` : ""}`;
    },
  },
  "import.complete": {
    say: (f, w) =>
      `Finished ${w.subject}: ${plural(f.after.giftsCreated, "donation")}, ${plural(f.after.donorsCreated, "new donor")}, ${plural(f.after.rowsInvalid, "row")} refused`,
  },
  "import.rollback_start": { say: (_f, w) => `Started undoing ${w.subject}` },
  "import.rollback_batch": {
    say: (f, w) =>
      num(f.after.gifts) !== null
        ? `Removed ${plural(f.after.gifts, "donation")} of ${w.subject}`
        : `Removed ${plural(f.after.donors, "donor")} of ${w.subject}`,
  },
  "import.rollback": { say: (_f, w) => `Undid ${w.subject}` },
  "import.mapping_save": { say: (f) => `Saved the column mapping ${str(f.after.name) ?? ""}`.trim() },
  "import.mapping_delete": { say: fixed("Deleted a saved column mapping") },
  "media.upload": { say: (f) => `Uploaded an image${str(f.after.name) ? ` (${str(f.after.name)})` : ""}` },

  // Members, invitations, the organization.
  "member.add": {
    say: (f, w) => `Added ${w.subject} to the organization as ${roleWords(f.after.role)}`,
  },
  "member.invite": { say: (f) => `Invited ${str(f.after.email) ?? "someone"} as ${roleWords(f.after.role)}` },
  "member.resend_invitation": {
    say: (f, w) => `Sent ${w.subject} again; it now expires ${w.date(f.after.expiresAt)}`,
  },
  "member.revoke_invitation": {
    say: (f, w) => `Revoked the invitation of ${str(f.before.email) ?? w.subject}`,
  },
  "member.accept_invitation": {
    say: (f) => `Accepted the invitation and joined as ${roleWords(f.after.role)}`,
  },
  "member.set_role": {
    say: (f, w) =>
      `Changed the role of ${w.subject} from ${roleWords(f.before.role)} to ${roleWords(f.after.role)}`,
  },
  "member.remove": { say: (_f, w) => `Removed ${w.subject} from the organization` },
  "member.leave": { say: fixed("Left the organization") },
  "organization.update": { say: fixed("Changed the organization's profile"), changes: true },
  "organization.export": { say: fixed("Downloaded all of the organization's data") },
  "organization.create": {
    say: (f) => `Created the organization ${str(f.after.name) ?? ""}`.trim(),
  },
  "organization.delete": {
    say: (f) => `Deleted the organization ${str(f.before.name) ?? ""}`.trim(),
  },
  "organization.purge": { say: fixed("Erased the deleted organization's data") },
  "organization_request.create": {
    say: (f) => `Asked for a new organization${str(f.after.name) ? `, ${str(f.after.name)}` : ""}`,
  },
  "organization_request.approve": {
    say: (f, w) =>
      `Approved the request for ${w.name("organization", f.after.organizationId, "a new organization")}`,
    refs: (f) => [["organization", f.after.organizationId]],
  },
  "organization_request.decline": { say: fixed("Declined a request for a new organization") },
  "member.decline_invitation": {
    say: (f) => `Declined the invitation to join as ${roleWords(f.before.role)}`,
  },
  "ownership.offer": {
    say: (f, w) =>
      `Offered ownership of the organization to ${w.subject}${
        str(f.after.fromBecomes) === "admin" ? ", to step down to Admin once accepted" : ""
      }`,
  },
  "ownership.withdraw": { say: (_f, w) => `Withdrew the offer of ownership to ${w.subject}` },
  "ownership.accept": {
    say: (f, w) =>
      `Accepted ownership of the organization${
        str(f.after.offeredByBecomes) === "admin"
          ? `; ${w.name("user", f.after.offeredBy, "the previous owner")} stepped down to Admin`
          : ""
      }`,
    refs: (f) => [["user", f.after.offeredBy]],
  },
  "ownership.decline": { say: fixed("Declined the offer of ownership of the organization") },
  "ownership.expire": { say: (_f, w) => `The offer of ownership to ${w.subject} expired` },
  "organizer.export": { say: fixed("Exported organizers to a CSV file") },
  "badge.grant": {
    say: (f, w) =>
      `Granted the ${badgeName(f.after.badge)} badge${num(f.after.expiresAt) ? ` until ${w.date(f.after.expiresAt)}` : ""}`,
  },
  "badge.revoke": { say: (f) => `Revoked the ${badgeName(f.before.badge)} badge` },
  "report.export": {
    say: (f) =>
      REPORT_NAMES[f.entityId]
        ? `Exported the ${REPORT_NAMES[f.entityId]} report to a CSV file`
        : "Exported a report to a CSV file",
  },

  // Recurring plans.
  "plan.create": {
    say: (f, w) =>
      `Started ${w.subject}: ${w.money(f.after.amountMinor, f.after.currency)} ${
        (PLAN_INTERVAL_LABELS as Record<string, string | undefined>)[
          String(f.after.interval)
        ]?.toLowerCase() ?? ""
      }`.trim(),
  },
  "plan.amount": {
    say: (f, w) =>
      `Changed the amount of ${w.subject} from ${w.money(f.before.amountMinor)} to ${w.money(f.after.amountMinor)}`,
  },
  "plan.pause": { say: planStatusSay("Paused") },
  "plan.resume": { say: planStatusSay("Resumed") },
  "plan.cancel": { say: planStatusSay("Cancelled") },
  "plan.past_due": { say: (_f, w) => `Marked ${w.subject} past due: its donation is late` },
  "plan.lapsed": { say: (_f, w) => `Marked ${w.subject} lapsed: no donation for too long` },
  "plan.gift_recovered": { say: (_f, w) => `A donation brought ${w.subject} back to active` },
  "plan.webhook_create": { say: processorPlan("started") },
  "plan.webhook_update": {
    say: (f, w) =>
      `The payment processor changed ${w.subject} to ${w.money(f.after.amountMinor)} ${
        (PLAN_INTERVAL_LABELS as Record<string, string | undefined>)[
          String(f.after.interval)
        ]?.toLowerCase() ?? ""
      }`.trim(),
  },
  "plan.webhook_recovered": {
    say: (_f, w) => `A donation from the payment processor brought ${w.subject} back to active`,
  },
  "plan.webhook_paused": { say: processorPlan("paused") },
  "plan.webhook_resumed": { say: processorPlan("resumed") },
  "plan.webhook_cancelled": { say: processorPlan("cancelled") },
  "plan.webhook_payment_failed": {
    say: (f, w) =>
      `The payment processor reported a failed payment: ${w.subject} is ${planStatus(f.after.status)}`,
  },
  "plan.export": { say: fixed("Exported recurring plans to a CSV file") },

  // Accounts (the auth API's admin and sign-in events).
  "user.set_role": {
    say: (f, w) =>
      `Changed the platform role of ${w.subject} from ${str(f.after.before) ?? "user"} to ${str(f.after.role) ?? "user"}`,
  },
  "user.ban": {
    say: (f, w) =>
      `Banned ${w.subject}${num(f.after.banExpires) ? ` until ${w.date(f.after.banExpires)}` : ""}`,
  },
  "user.unban": { say: does("Lifted the ban on") },
  "user.remove": { say: (_f, w) => `Deleted the account of ${w.subject}` },
  "user.set_password": { say: (_f, w) => `Set a new password for ${w.subject}` },
  "user.impersonate": { say: does("Started impersonating") },
  "user.stop_impersonating": { say: does("Stopped impersonating") },
  "user.sign_up_social": { say: (f) => `Signed up with ${provider(f.after.providerId)}` },
  "account.link": { say: (f) => `Linked a ${provider(f.after.providerId)} sign-in` },
} satisfies Record<string, ActionWords>;

/** An action the audit trail knows: every writer names one (worker/lib/audit.ts). */
export type AuditAction = keyof typeof AUDIT_SENTENCES;

export const isAuditAction = (a: string): a is AuditAction => Object.hasOwn(AUDIT_SENTENCES, a);

/**
 * A row whose action this release does not know: its verb in words and its record, "Transfer
 * ownership: this organization", with the changed fields listed.
 */
const unknownAction: ActionWords = {
  say: (f, w) => {
    const verb = f.action.split(".").slice(1).join(" ") || f.action;
    const words = verb.replace(/[_.-]+/g, " ").trim() || "changed";
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}: ${w.subject}`;
  },
  changes: true,
};

export const wordsFor = (action: string): ActionWords =>
  isAuditAction(action) ? AUDIT_SENTENCES[action] : unknownAction;
