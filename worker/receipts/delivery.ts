/**
 * Receipts go out (decision 031): the thank-you with the receipt as a PDF, or alone. A receipt's
 * `delivery`: 'queued' by the ledger when sending is automatic, 'sending' while one delivery holds it
 * (taken by one conditional UPDATE, so two never both send; a hold older than STALE_MS is taken over),
 * then 'sent' or 'failed'. Queued receipts go right after their change (waitUntil) and by the cron.
 * Each send is one batch: the receipt's state, an acknowledgement row and the audit row.
 */

import { formatMoney } from "@core/money";
import { formatReceiptNumber, whyNoSend } from "@core/receipts";
import { renderThankYou, type ThankYouData, thankYouDonorName } from "@core/thanks";
import { type Database, orgDb } from "../db/databases";
import type { ReceiptSnapshot } from "../ledger/receipt-snapshot";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { generateId } from "../lib/ids";
import { logError } from "../lib/request-log";
import { escapeHtml, getMailer, type MailAttachment } from "../mail";
import { thankYouTemplateFor } from "../thanks/service";
import { attachedLine, changeMailWords } from "./mail-words";
import type { ReceiptPdfInput } from "./pdf";
import { GIFT_FACTS, type GiftFacts, whyNone } from "./service";

/** A hold older than this is a delivery that died: another may take the receipt over. */
const STALE_MS = 10 * 60_000;

export interface SendCtx {
  env: Env;
  org: { id: string };
  /** null: sent on its own (automatically, or by the cron). */
  user: { id: string } | null;
  impersonatorId?: string | null;
  ip?: string | null;
}

interface DeliveryRow {
  id: string;
  number: number;
  kind: "original" | "correction";
  status: "issued" | "void";
  currency: string;
  amount_minor: number;
  deductible_minor: number;
  issued_at: number;
  void_cause: "replaced" | "refunded" | "cancelled" | null;
  voided_at: number | null;
  snapshot: string;
  delivery: string;
  delivery_at: number | null;
  donation_id: string | null;
  donor_id: string | null;
  replaces_number: number | null;
  replaces_snapshot_prefix: string | null;
  replaces_deductible: number | null;
  replaces_amount: number | null;
  replaced_by_number: number | null;
  replaced_by_prefix: string | null;
  donor_email: string | null;
  donor_first_name: string | null;
  donor_last_name: string | null;
  donor_company: string | null;
  donor_anonymized_at: number | null;
  campaign_id: string | null;
  gift_number: number | null;
  payment_method: string | null;
}

const DELIVERY_SELECT = `SELECT r.id, r.number, r.kind, r.status, r.currency, r.amount_minor, r.deductible_minor, r.issued_at,
       r.void_cause, r.voided_at, r.snapshot, r.delivery, r.delivery_at, r.donation_id, r.donor_id,
       p.number AS replaces_number, json_extract(p.snapshot, '$.settings.numberPrefix') AS replaces_snapshot_prefix,
       p.deductible_minor AS replaces_deductible, p.amount_minor AS replaces_amount,
       rb.number AS replaced_by_number, json_extract(rb.snapshot, '$.settings.numberPrefix') AS replaced_by_prefix,
       dn.email AS donor_email, dn.first_name AS donor_first_name, dn.last_name AS donor_last_name,
       dn.company AS donor_company, dn.anonymized_at AS donor_anonymized_at,
       d.campaign_id, d.number AS gift_number, d.payment_method
  FROM receipt r
  LEFT JOIN receipt p ON p.id = r.replaces_id
  LEFT JOIN receipt rb ON rb.id = (SELECT id FROM receipt WHERE replaces_id = r.id ORDER BY number LIMIT 1)
  LEFT JOIN donor dn ON dn.id = r.donor_id
  LEFT JOIN donation d ON d.id = r.donation_id`;

function readReceipt(db: Database, orgId: string, receiptId: string) {
  return db
    .prepare(`${DELIVERY_SELECT} WHERE r.organization_id = ? AND r.id = ?`)
    .bind(orgId, receiptId)
    .first<DeliveryRow>();
}

const prefixOf = (s: ReceiptSnapshot) => s.settings.numberPrefix ?? "";

/** The PDF's input from the receipt as stored (its snapshot is what it says). */
function receiptPdfInput(row: DeliveryRow): ReceiptPdfInput {
  const snapshot = JSON.parse(row.snapshot) as ReceiptSnapshot;
  return {
    snapshot,
    number: formatReceiptNumber(prefixOf(snapshot), row.number),
    kind: row.kind,
    replacesNumber:
      row.replaces_number === null
        ? null
        : formatReceiptNumber(row.replaces_snapshot_prefix ?? "", row.replaces_number),
    status: row.status,
    issuedAt: row.issued_at,
    amountMinor: row.amount_minor,
    deductibleMinor: row.deductible_minor,
    currency: row.currency,
    voidCause: row.void_cause,
    replacedBy:
      row.replaced_by_number === null
        ? null
        : formatReceiptNumber(row.replaced_by_prefix ?? "", row.replaced_by_number),
  };
}

/** A receipt as a PDF file, for the gift page's download and the e-mail's attachment. */
export async function receiptPdf(ctx: Pick<SendCtx, "env" | "org">, receiptId: string) {
  const row = await readReceipt(orgDb(ctx), ctx.org.id, receiptId);
  if (!row) fail("NOT_FOUND", "Receipt not found");
  const input = receiptPdfInput(row);
  const { renderReceiptPdf } = await import("./pdf");
  return { bytes: await renderReceiptPdf(ctx.env, input), filename: `receipt-${fileSafe(input.number)}.pdf` };
}

/** File names keep letters, digits, - and _ (a prefix may hold / or .). */
export const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "-");

/** What the thank-you's merge fields read for a gift (and its receipt, when there is one). */
function thankYouData(
  row: Pick<
    DeliveryRow,
    "donor_first_name" | "donor_last_name" | "donor_company" | "gift_number" | "payment_method"
  >,
  gift: { amountMinor: number; currency: string; donatedAt: number; tributeName: string | null },
  s: { campaign: string | null; orgName: string; timeZone: string; locale: string },
  receiptNumber: string,
): ThankYouData {
  return {
    donor: {
      firstName: row.donor_first_name ?? "",
      lastName: row.donor_last_name ?? "",
      name: thankYouDonorName({
        firstName: row.donor_first_name,
        lastName: row.donor_last_name,
        company: row.donor_company,
      }),
      company: row.donor_company ?? "",
    },
    gift: {
      amount: formatMoney(gift.amountMinor, gift.currency, s.locale),
      date: new Intl.DateTimeFormat(s.locale, {
        dateStyle: "long",
        timeZone: s.timeZone,
      }).format(gift.donatedAt),
      number: row.gift_number === null ? "" : String(row.gift_number),
      method: row.payment_method ?? "",
    },
    campaign: { title: s.campaign ?? "" },
    organization: { name: s.orgName },
    receipt: { number: receiptNumber },
    tribute: { name: gift.tributeName ?? "" },
  };
}

/** The e-mail around a rendered thank-you: the same plain shell as the account e-mails. */
function thankYouMail(to: string, t: { subject: string; text: string; html: string }, footer: string | null) {
  return {
    to,
    subject: t.subject,
    text: footer ? `${t.text}\n\n${footer}` : t.text,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">${t.html}${
      footer ? `<p style="color:#475569">${escapeHtml(footer)}</p>` : ""
    }</body></html>`,
  };
}

type Hold = "manual" | "queued";

/**
 * Takes the receipt for one delivery: a manual send takes it unless another delivery holds it
 * now; the queue takes only queued ones (and holds gone stale). Returns whether it was taken.
 */
async function hold(db: Database, orgId: string, receiptId: string, how: Hold, now: number) {
  const which =
    how === "manual"
      ? "status = 'issued' AND NOT (delivery = 'sending' AND delivery_at > ?4)"
      : // A void receipt goes out only as the notice its full refund queued (worker/ledger/receipt-issue.ts).
        "(status = 'issued' OR void_cause = 'refunded') AND (delivery = 'queued' OR (delivery = 'sending' AND delivery_at <= ?4))";
  const res = await db
    .prepare(
      `UPDATE receipt SET delivery = 'sending', delivery_at = ?3
        WHERE organization_id = ?1 AND id = ?2 AND ${which}`,
    )
    .bind(orgId, receiptId, now, now - STALE_MS)
    .run();
  return res.meta.changes > 0;
}

/**
 * What a receipt's e-mail says (decision 049): an original goes as the thank-you, a correction says
 * what changed, a void receipt goes only as its full refund's notice; a resend says the same again.
 */
type ReceiptMail = "thanks" | "partial" | "corrected" | "full";

export function receiptMailOf(
  row: Pick<
    DeliveryRow,
    | "status"
    | "kind"
    | "replaces_number"
    | "amount_minor"
    | "deductible_minor"
    | "replaces_amount"
    | "replaces_deductible"
  >,
): ReceiptMail {
  if (row.status === "void") return "full";
  if (row.kind !== "correction" || row.replaces_number === null) return "thanks";
  const refundedBefore = (row.replaces_amount ?? 0) - (row.replaces_deductible ?? 0);
  return row.amount_minor - row.deductible_minor > refundedBefore ? "partial" : "corrected";
}

/** A correction's or a full refund's mail, from the receipt as stored. */
function changeMail(
  row: DeliveryRow,
  mail: Exclude<ReceiptMail, "thanks">,
  input: ReceiptPdfInput,
  locale: string,
) {
  const s = input.snapshot;
  const money = (minor: number) => formatMoney(minor, row.currency, locale);
  const old =
    mail === "full"
      ? input.number
      : formatReceiptNumber(row.replaces_snapshot_prefix ?? "", row.replaces_number as number);
  const refundedBefore = (row.replaces_amount ?? 0) - (row.replaces_deductible ?? 0);
  const refundedNow =
    mail === "full" ? row.deductible_minor : row.amount_minor - row.deductible_minor - refundedBefore;
  const words = changeMailWords(s.settings.language, mail, {
    name: thankYouDonorName({
      firstName: row.donor_first_name,
      lastName: row.donor_last_name,
      company: row.donor_company,
    }),
    org: s.organization.name ?? "",
    amount: money(row.amount_minor),
    date: new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: s.organization.timeZone }).format(
      s.gift.donatedAt,
    ),
    refunded: refundedNow > 0 ? money(refundedNow) : "",
    full: mail === "full",
    kept: mail === "full" ? "" : money(row.deductible_minor),
    number: mail === "full" ? "" : input.number,
    old,
  });
  return {
    subject: words.subject,
    text: words.paragraphs.join("\n\n"),
    html: words.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n"),
  };
}

/**
 * E-mails one receipt, in the words `receiptMailOf` gives. `how` says who asks: a person is refused
 * with the reason when it cannot go; the queue marks such a receipt failed with the reason.
 */
async function deliverReceipt(ctx: SendCtx, receiptId: string, how: Hold) {
  const db = orgDb(ctx);
  const row = await readReceipt(db, ctx.org.id, receiptId);
  if (!row) return how === "manual" ? fail("NOT_FOUND", "Receipt not found") : null;
  const mail = receiptMailOf(row);
  // A full refund's notice is the one mail a void receipt carries, and only from the queue.
  const notice = mail === "full" && how === "queued" && row.void_cause === "refunded";
  const why = whyNoSend({
    status: notice ? "issued" : row.status,
    donorEmail: row.donor_email,
    donorAnonymized: row.donor_anonymized_at !== null,
  });
  if (why) {
    if (how === "manual") fail("BAD_REQUEST", why);
    await db
      .prepare(
        "UPDATE receipt SET delivery = 'failed', delivery_error = ?3, delivery_at = ?4 WHERE organization_id = ?1 AND id = ?2 AND delivery = 'queued'",
      )
      .bind(ctx.org.id, receiptId, why, Date.now())
      .run();
    return null;
  }
  const now = Date.now();
  if (!(await hold(db, ctx.org.id, receiptId, how, now))) {
    return how === "manual" ? fail("CONFLICT", "This receipt is being sent right now") : null;
  }
  const to = row.donor_email as string;
  try {
    const input = receiptPdfInput(row);
    const s = input.snapshot;
    const { renderReceiptPdf, receiptLocale } = await import("./pdf");
    const locale = receiptLocale(s.settings.language, s.organization.address.country);
    const attachments: MailAttachment[] =
      mail === "full"
        ? []
        : [
            {
              filename: `receipt-${fileSafe(input.number)}.pdf`,
              contentType: "application/pdf",
              content: await renderReceiptPdf(ctx.env, input),
            },
          ];
    if (mail === "thanks") {
      const template = await thankYouTemplateFor(ctx, row.campaign_id);
      const message = renderThankYou(
        template,
        thankYouData(
          row,
          {
            amountMinor: row.amount_minor,
            currency: row.currency,
            donatedAt: s.gift.donatedAt,
            tributeName: s.gift.tributeName,
          },
          {
            campaign: s.campaign,
            orgName: s.organization.name ?? "",
            timeZone: s.organization.timeZone,
            locale,
          },
          input.number,
        ),
      );
      await getMailer(ctx.env).send({
        ...thankYouMail(to, message, attachedLine(s.settings.language, input.number)),
        attachments,
      });
    } else {
      await getMailer(ctx.env).send({
        ...thankYouMail(to, changeMail(row, mail, input, locale), null),
        attachments,
      });
    }
    const at = Date.now();
    await db.batch([
      db
        .prepare(
          `UPDATE receipt SET delivery = 'sent', delivery_at = ?3, delivery_error = NULL, sent_at = ?3, sent_to = ?4,
                  send_count = send_count + 1 WHERE organization_id = ?1 AND id = ?2`,
        )
        .bind(ctx.org.id, receiptId, at, to),
      acknowledgementInsert(db, ctx, {
        kind: "receipt",
        donorId: row.donor_id,
        donationId: row.donation_id,
        receiptId,
        period: null,
        to,
        at,
      }),
      auditStatement(ctx, {
        action: "receipt.send",
        entityType: "receipt",
        entityId: receiptId,
        after: { number: input.number, to, mail },
      }),
    ]);
    return { sentTo: to, sentAt: at, number: input.number, mail };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db
      .prepare(
        "UPDATE receipt SET delivery = 'failed', delivery_error = ?3, delivery_at = ?4 WHERE organization_id = ?1 AND id = ?2",
      )
      .bind(ctx.org.id, receiptId, message.slice(0, 500), Date.now())
      .run();
    if (how === "queued") {
      logError("receipt delivery", error);
      return null;
    }
    if ((error as { code?: string }).code) throw error;
    logError("receipt delivery", error);
    return fail("SERVICE_UNAVAILABLE", "The receipt could not be sent; try again in a moment");
  }
}

export function acknowledgementInsert(
  db: Database,
  ctx: Pick<SendCtx, "org" | "user">,
  a: {
    kind: "receipt" | "thanks" | "statement";
    donorId: string | null;
    donationId: string | null;
    receiptId: string | null;
    period: string | null;
    to: string;
    at: number;
  },
) {
  return db
    .prepare(
      `INSERT INTO acknowledgement (id, organization_id, donor_id, donation_id, receipt_id, kind, period, sent_to, sent_by, sent_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      generateId(),
      ctx.org.id,
      a.donorId,
      a.donationId,
      a.receiptId,
      a.kind,
      a.period,
      a.to,
      ctx.user?.id ?? null,
      a.at,
    );
}

/** A gift's issued receipt, if it has one. */
async function issuedReceiptOf(db: Database, orgId: string, donationId: string) {
  return db
    .prepare("SELECT id FROM receipt WHERE organization_id = ? AND donation_id = ? AND status = 'issued'")
    .bind(orgId, donationId)
    .first<{ id: string }>();
}

/** "Send receipt" on a gift's page: its issued receipt now, again if it was sent before. */
export async function sendDonationReceipt(ctx: SendCtx, donationId: string) {
  const db = orgDb(ctx);
  const issued = await issuedReceiptOf(db, ctx.org.id, donationId);
  if (!issued) {
    const why = await noReceiptReason(db, ctx.org.id, donationId);
    fail("BAD_REQUEST", why ?? "This donation has no receipt to send yet");
  }
  return (await deliverReceipt(ctx, issued.id, "manual")) as NonNullable<
    Awaited<ReturnType<typeof deliverReceipt>>
  >;
}

/** Why a gift has no receipt (the gift page's words), or NOT_FOUND. */
async function noReceiptReason(db: Database, orgId: string, donationId: string) {
  const d = await db.prepare(GIFT_FACTS).bind(orgId, donationId).first<GiftFacts>();
  if (!d) fail("NOT_FOUND", "Donation not found");
  return whyNone(d);
}

/**
 * "Send thank-you" on a gift's page: the message alone, without a receipt (a gift that has none,
 * or a second thank-you). Live gifts of a donor with an e-mail address, not anonymized, only.
 */
export async function sendThanks(ctx: SendCtx, donationId: string) {
  const db = orgDb(ctx);
  const g = await db
    .prepare(
      `SELECT d.id, d.mode, d.number AS gift_number, d.payment_method, d.amount_minor, d.currency, d.donated_at,
              d.tribute_name, d.campaign_id, c.title AS campaign, d.donor_id,
              dn.email AS donor_email, dn.first_name AS donor_first_name, dn.last_name AS donor_last_name,
              dn.company AS donor_company, dn.anonymized_at AS donor_anonymized_at,
              o.name AS org_name, o.time_zone, o.country, COALESCE(rs.language, 'en') AS language,
              (SELECT number FROM receipt WHERE donation_id = d.id AND status = 'issued') AS receipt_number,
              COALESCE(rs.number_prefix, '') AS prefix
         FROM donation d
         LEFT JOIN donor dn ON dn.id = d.donor_id
         LEFT JOIN campaign c ON c.id = d.campaign_id
         JOIN organization o ON o.id = d.organization_id
         LEFT JOIN receipt_settings rs ON rs.organization_id = d.organization_id
        WHERE d.organization_id = ? AND d.id = ? AND d.trashed_at IS NULL`,
    )
    .bind(ctx.org.id, donationId)
    .first<{
      id: string;
      mode: string;
      gift_number: number;
      payment_method: string | null;
      amount_minor: number;
      currency: string;
      donated_at: number;
      tribute_name: string | null;
      campaign_id: string | null;
      campaign: string | null;
      donor_id: string | null;
      donor_email: string | null;
      donor_first_name: string | null;
      donor_last_name: string | null;
      donor_company: string | null;
      donor_anonymized_at: number | null;
      org_name: string;
      time_zone: string;
      country: string | null;
      language: string;
      receipt_number: number | null;
      prefix: string;
    }>();
  if (!g) fail("NOT_FOUND", "Donation not found");
  if (g.mode !== "live") fail("BAD_REQUEST", "Test-mode donations get no thank-you.");
  if (!g.donor_id) fail("BAD_REQUEST", "A donation without a donor record gets no thank-you.");
  const why = whyNoSend({
    status: "issued",
    donorEmail: g.donor_email,
    donorAnonymized: g.donor_anonymized_at !== null,
  });
  if (why) fail("BAD_REQUEST", why);
  const to = g.donor_email as string;
  const { receiptLocale } = await import("./pdf");
  const locale = receiptLocale(g.language, g.country);
  const template = await thankYouTemplateFor(ctx, g.campaign_id);
  const message = renderThankYou(
    template,
    thankYouData(
      g,
      {
        amountMinor: g.amount_minor,
        currency: g.currency,
        donatedAt: g.donated_at,
        tributeName: g.tribute_name,
      },
      { campaign: g.campaign, orgName: g.org_name, timeZone: g.time_zone, locale },
      g.receipt_number === null ? "" : formatReceiptNumber(g.prefix, g.receipt_number),
    ),
  );
  try {
    await getMailer(ctx.env).send(thankYouMail(to, message, null));
  } catch (error) {
    logError("thank-you", error);
    fail("SERVICE_UNAVAILABLE", "The thank-you could not be sent; try again in a moment");
  }
  const at = Date.now();
  await db.batch([
    acknowledgementInsert(db, ctx, {
      kind: "thanks",
      donorId: g.donor_id,
      donationId,
      receiptId: null,
      period: null,
      to,
      at,
    }),
    auditStatement(ctx, {
      action: "donation.thank",
      entityType: "acknowledgement",
      entityId: donationId,
      after: { to },
    }),
  ]);
  return { sentTo: to, sentAt: at };
}

/**
 * Bulk "Send receipts" (decision 024): each gift's issued receipt e-mailed in turn (`resend: false`
 * skips those sent before), each id answered as a single send would be.
 */
export async function sendReceiptsFor(ctx: SendCtx, donationIds: readonly string[], resend: boolean) {
  const db = orgDb(ctx);
  const placeholders = donationIds.map(() => "?").join(", ");
  const { results } = await db
    .prepare(
      `SELECT d.id AS donation_id, r.id AS receipt_id, r.delivery, r.sent_at
         FROM donation d LEFT JOIN receipt r ON r.donation_id = d.id AND r.status = 'issued'
        WHERE d.organization_id = ? AND d.id IN (${placeholders})`,
    )
    .bind(ctx.org.id, ...donationIds)
    .all<{
      donation_id: string;
      receipt_id: string | null;
      delivery: string | null;
      sent_at: number | null;
    }>();
  const byId = new Map(results.map((r) => [r.donation_id, r]));
  const outcomes: ({ id: string; changed: true } | { id: string; changed: false; reason: string })[] = [];
  for (const id of donationIds) {
    const r = byId.get(id);
    if (!r) {
      outcomes.push({ id, changed: false, reason: "Donation not found" });
      continue;
    }
    if (!r.receipt_id) {
      outcomes.push({
        id,
        changed: false,
        reason: (await noReceiptReason(db, ctx.org.id, id)) ?? "No receipt yet",
      });
      continue;
    }
    if (!resend && r.sent_at !== null) {
      outcomes.push({ id, changed: false, reason: "Already sent" });
      continue;
    }
    try {
      await deliverReceipt(ctx, r.receipt_id, "manual");
      outcomes.push({ id, changed: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcomes.push({ id, changed: false, reason: message });
    }
  }
  return outcomes;
}

/**
 * Delivers the organization's queued receipts, oldest first, at most `limit`; what is left waits
 * for the next call (the cron's, or the next change's). Returns how many were sent.
 */
export async function deliverQueued(ctx: Pick<SendCtx, "env" | "org">, limit = 10) {
  const db = orgDb(ctx);
  const now = Date.now();
  const { results } = await db
    .prepare(
      `SELECT id FROM receipt WHERE organization_id = ?1 AND delivery IN ('queued','sending')
          AND (delivery = 'queued' OR delivery_at <= ?2) ORDER BY delivery_at LIMIT ?3`,
    )
    .bind(ctx.org.id, now - STALE_MS, limit)
    .all<{ id: string }>();
  let sent = 0;
  for (const r of results) if (await deliverReceipt({ ...ctx, user: null }, r.id, "queued")) sent++;
  return sent;
}

/**
 * After a change that issued a receipt: deliver the queued ones once the response is on its way
 * (waitUntil; without a request, as in tests, the caller awaits it), else the 15-minute cron does.
 */
export function afterReceiptIssued(actor: {
  env: Env;
  org: { id: string };
  waitUntil?: (p: Promise<unknown>) => unknown;
}) {
  return actor.waitUntil?.(
    deliverQueued(actor).catch((error) => {
      logError("receipt delivery", error);
    }),
  );
}

/** The cron's sweep: every organization of this database with receipts waiting, a few each. */
export async function deliverQueuedIn(env: Env, db: Database, isHere: (orgId: string) => boolean) {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT organization_id FROM receipt WHERE delivery IN ('queued','sending')
          AND (delivery = 'queued' OR delivery_at <= ?) LIMIT 50`,
    )
    .bind(Date.now() - STALE_MS)
    .all<{ organization_id: string }>();
  for (const r of results)
    if (isHere(r.organization_id)) await deliverQueued({ env, org: { id: r.organization_id } }, 25);
}
