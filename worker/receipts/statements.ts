/**
 * Year-end statements (decision 031): per donor and calendar or fiscal year, every gift with an issued
 * receipt (voided ones out, their corrections in) and counted imported gifts (decision 048). A run
 * walks donors in id order, STEP_DONORS a call, and claims each step's donors by a compare-and-set of
 * its cursor before sending: two tabs stepping one run never e-mail a donor twice.
 */

import { formatReceiptNumber, type StatementBasis, statementPeriod, whyNoSend } from "@core/receipts";
import { startOfLocalDay } from "@core/time";
import { type Database, orgDb } from "../db/databases";
import type { ReceiptSnapshot } from "../ledger/receipt-snapshot";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { generateId } from "../lib/ids";
import { logError } from "../lib/request-log";
import { escapeHtml, getMailer } from "../mail";
import { acknowledgementInsert, fileSafe, type SendCtx } from "./delivery";
import { statementMailWords } from "./mail-words";
import type { StatementPdfInput } from "./pdf";

/** Donors per step: each is a PDF of ≈ 20-50 ms, so a step answers in about a second. */
export const STEP_DONORS = 20;

interface OrgIdentityRow {
  name: string;
  legal_name: string | null;
  registration_id: string | null;
  tax_id: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  logo_url: string | null;
  time_zone: string;
  fiscal_year_start_month: number;
  signatory_name: string | null;
  signatory_title: string | null;
  tax_statement: string | null;
  number_prefix: string | null;
  language: string | null;
}

/** The organization as its statements print it today (its profile and receipt settings). */
async function identity(db: Database, orgId: string) {
  const o = await db
    .prepare(
      `SELECT o.name, o.legal_name, o.registration_id, o.tax_id, o.address_line1, o.address_line2, o.city, o.region,
              o.postal_code, o.country, o.logo_url, o.time_zone, o.fiscal_year_start_month,
              rs.signatory_name, rs.signatory_title, rs.tax_statement, rs.number_prefix, rs.language
         FROM organization o LEFT JOIN receipt_settings rs ON rs.organization_id = o.id WHERE o.id = ?`,
    )
    .bind(orgId)
    .first<OrgIdentityRow>();
  if (!o) fail("NOT_FOUND", "Organization not found");
  const organization: ReceiptSnapshot["organization"] = {
    name: o.name,
    legalName: o.legal_name,
    registrationId: o.registration_id,
    taxId: o.tax_id,
    address: {
      line1: o.address_line1,
      line2: o.address_line2,
      city: o.city,
      region: o.region,
      postalCode: o.postal_code,
      country: o.country,
    },
    logoUrl: o.logo_url,
    timeZone: o.time_zone,
  };
  const settings: ReceiptSnapshot["settings"] = {
    signatoryName: o.signatory_name,
    signatoryTitle: o.signatory_title,
    taxStatement: o.tax_statement,
    numberPrefix: o.number_prefix ?? "",
    language: (o.language ?? "en") as ReceiptSnapshot["settings"]["language"],
  };
  return { organization, settings, fiscalYearStartMonth: o.fiscal_year_start_month, timeZone: o.time_zone };
}

type Identity = Awaited<ReturnType<typeof identity>>;

function periodOf(id: Identity, year: number, basis: StatementBasis) {
  return statementPeriod(year, basis, id.fiscalYearStartMonth, (day) => startOfLocalDay(day, id.timeZone));
}

interface DonorRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  email: string | null;
  anonymized_at: number | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
}

const DONOR_COLUMNS =
  "id, first_name, last_name, company, email, anonymized_at, address_line1, address_line2, city, region, postal_code, country";

interface GiftRow {
  donor_id: string;
  /** null: an imported gift (the previous system receipted it). */
  number: number | null;
  prefix: string | null;
  donated_at: number;
  campaign: string | null;
  currency: string;
  amount_minor: number;
  deductible_minor: number;
}

/**
 * An imported gift that counts, with something to deduct, of a known donor (`d`), listed beside our
 * receipts (decision 048); it never gets a receipt of ours (worker/ledger/receipt-issue.ts).
 */
const IMPORTED = `d.source = 'import' AND d.mode = 'live' AND d.status IN ('completed','partially_refunded')
  AND d.trashed_at IS NULL AND d.donor_id IS NOT NULL AND d.amount_minor - d.refunded_minor > 0`;

/**
 * The donors a statement run of [?2, ?3) sends to, after ?4 in id order, at most ?5: those with an
 * issued receipt or a counted imported gift in the period (each side's index walks donor ids).
 */
const RUN_DONORS = `SELECT donor_id FROM (
    SELECT * FROM (SELECT DISTINCT donor_id FROM receipt WHERE organization_id = ?1 AND status = 'issued'
        AND donor_id > ?4 AND donated_at >= ?2 AND donated_at < ?3 ORDER BY donor_id LIMIT ?5)
    UNION
    SELECT * FROM (SELECT DISTINCT d.donor_id FROM donation d WHERE d.organization_id = ?1 AND ${IMPORTED}
        AND d.donor_id > ?4 AND d.donated_at >= ?2 AND d.donated_at < ?3 ORDER BY d.donor_id LIMIT ?5))
  ORDER BY donor_id LIMIT ?5`;

/** Every donor of a period's statements (RUN_DONORS without the walk), for counts. */
const PERIOD_DONORS = `SELECT donor_id FROM receipt WHERE organization_id = ?1 AND status = 'issued' AND donor_id IS NOT NULL
      AND donated_at >= ?2 AND donated_at < ?3
    UNION SELECT d.donor_id FROM donation d WHERE d.organization_id = ?1 AND ${IMPORTED}
      AND d.donated_at >= ?2 AND d.donated_at < ?3`;

/** The issued receipts and counted imported gifts of these donors in [start, end), in date order. */
async function giftsOf(db: Database, orgId: string, donorIds: readonly string[], start: number, end: number) {
  if (!donorIds.length) return new Map<string, GiftRow[]>();
  const ids = donorIds.map((_, i) => `?${i + 4}`).join(", ");
  const { results } = await db
    .prepare(
      `SELECT donor_id, number, prefix, donated_at, campaign, currency, amount_minor, deductible_minor FROM (
         SELECT donor_id, number, json_extract(snapshot, '$.settings.numberPrefix') AS prefix, donated_at,
                json_extract(snapshot, '$.campaign') AS campaign, currency, amount_minor, deductible_minor
           FROM receipt WHERE organization_id = ?1 AND status = 'issued' AND donor_id IN (${ids})
            AND donated_at >= ?2 AND donated_at < ?3
         UNION ALL
         SELECT d.donor_id, NULL, NULL, d.donated_at, c.title, d.currency, d.amount_minor, d.amount_minor - d.refunded_minor
           FROM donation d LEFT JOIN campaign c ON c.id = d.campaign_id
          WHERE d.organization_id = ?1 AND ${IMPORTED} AND d.donor_id IN (${ids}) AND d.donated_at >= ?2 AND d.donated_at < ?3)
       ORDER BY donated_at, number`,
    )
    .bind(orgId, start, end, ...donorIds)
    .all<GiftRow>();
  const by = new Map<string, GiftRow[]>();
  for (const g of results) by.set(g.donor_id, [...(by.get(g.donor_id) ?? []), g]);
  return by;
}

function statementInput(
  id: Identity,
  donor: DonorRow,
  gifts: GiftRow[],
  period: { label: string; start: number; end: number },
): StatementPdfInput {
  const name = [donor.first_name, donor.last_name].filter(Boolean).join(" ") || null;
  return {
    organization: id.organization,
    settings: id.settings,
    donor: {
      name,
      company: donor.company,
      address: {
        line1: donor.address_line1,
        line2: donor.address_line2,
        city: donor.city,
        region: donor.region,
        postalCode: donor.postal_code,
        country: donor.country,
      },
    },
    period,
    gifts: gifts.map((g) => ({
      receiptNumber: g.number === null ? null : formatReceiptNumber(g.prefix ?? "", g.number),
      donatedAt: g.donated_at,
      campaign: g.campaign,
      currency: g.currency,
      amountMinor: g.amount_minor,
      deductibleMinor: g.deductible_minor,
    })),
    generatedAt: Date.now(),
  };
}

/**
 * "statement-2026-rosa-delgado.pdf": the period and the donor's name as the donor reads it, never
 * an internal id; a name without Latin letters leaves "statement-2026.pdf".
 */
export function statementFileName(
  label: string,
  donor: Pick<DonorRow, "first_name" | "last_name" | "company">,
) {
  const name = [donor.first_name, donor.last_name].filter(Boolean).join(" ") || donor.company || "";
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .replace(/[łŁ]/g, "l")
    .replace(/[øØ]/g, "o")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return `statement-${fileSafe(label).toLowerCase()}${slug ? `-${slug}` : ""}.pdf`;
}

/** One donor's statement, for the donor page's download. */
export async function donorStatement(
  ctx: Pick<SendCtx, "env" | "org">,
  donorId: string,
  year: number,
  basis: StatementBasis,
) {
  const db = orgDb(ctx);
  const [id, donor] = await Promise.all([
    identity(db, ctx.org.id),
    db
      .prepare(`SELECT ${DONOR_COLUMNS} FROM donor WHERE organization_id = ? AND id = ?`)
      .bind(ctx.org.id, donorId)
      .first<DonorRow>(),
  ]);
  if (!donor) fail("NOT_FOUND", "Donor not found");
  const period = periodOf(id, year, basis);
  const gifts = (await giftsOf(db, ctx.org.id, [donorId], period.start, period.end)).get(donorId) ?? [];
  if (!gifts.length) fail("NOT_FOUND", `No donations to put on a statement in ${period.label}`);
  const { renderStatementPdf } = await import("./pdf");
  return {
    bytes: await renderStatementPdf(ctx.env, statementInput(id, donor, gifts, period)),
    filename: statementFileName(period.label, donor),
  };
}

/** The years a donor's page offers statements for (issued receipts or imported gifts), newest first. */
export async function statementYears(ctx: Pick<SendCtx, "env" | "org">, donorId: string) {
  const db = orgDb(ctx);
  const [id, r] = await Promise.all([
    identity(db, ctx.org.id),
    db
      .prepare(
        `SELECT (SELECT 1 FROM donor WHERE organization_id = ?1 AND id = ?2) AS known,
                MIN(donated_at) AS first, MAX(donated_at) AS last FROM (
           SELECT donated_at FROM receipt WHERE organization_id = ?1 AND donor_id = ?2 AND status = 'issued'
           UNION ALL SELECT d.donated_at FROM donation d WHERE d.organization_id = ?1 AND d.donor_id = ?2 AND ${IMPORTED})`,
      )
      .bind(ctx.org.id, donorId)
      .first<{ known: number | null; first: number | null; last: number | null }>(),
  ]);
  if (!r?.known) fail("NOT_FOUND", "Donor not found");
  if (!r?.first || !r.last)
    return { calendar: [], fiscal: [], fiscalYearStartMonth: id.fiscalYearStartMonth };
  const yearOf = (ms: number) =>
    Number(new Intl.DateTimeFormat("en", { year: "numeric", timeZone: id.timeZone }).format(ms));
  const span = (basis: StatementBasis) => {
    const years: number[] = [];
    for (let y = yearOf(r.last as number); y >= yearOf(r.first as number) - 1; y--) {
      const p = periodOf(id, y, basis);
      if (p.start <= (r.last as number) && p.end > (r.first as number)) years.push(y);
    }
    return years.map((y) => ({ year: y, label: periodOf(id, y, basis).label }));
  };
  return {
    calendar: span("calendar"),
    fiscal: span("fiscal"),
    fiscalYearStartMonth: id.fiscalYearStartMonth,
  };
}

interface RunRow {
  id: string;
  year: number;
  basis: StatementBasis;
  period_start: number;
  period_end: number;
  cursor: string;
  total: number;
  sent: number;
  skipped: number;
  created_at: number;
  finished_at: number | null;
}

const presentRun = (r: RunRow, label: string) => ({
  id: r.id,
  year: r.year,
  basis: r.basis,
  label,
  total: r.total,
  sent: r.sent,
  skipped: r.skipped,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
});

/**
 * The latest statement runs, newest first (an unfinished one is resumed from here), and the
 * organization's fiscal year start (the dialog offers fiscal years when it is not January).
 */
export async function statementRuns(ctx: Pick<SendCtx, "env" | "org">) {
  const db = orgDb(ctx);
  const [id, { results }] = await Promise.all([
    identity(db, ctx.org.id),
    db
      .prepare(
        "SELECT id, year, basis, period_start, period_end, cursor, total, sent, skipped, created_at, finished_at FROM statement_run WHERE organization_id = ? ORDER BY created_at DESC LIMIT 10",
      )
      .bind(ctx.org.id)
      .all<RunRow>(),
  ]);
  return {
    runs: results.map((r) => presentRun(r, periodOf(id, r.year, r.basis).label)),
    fiscalYearStartMonth: id.fiscalYearStartMonth,
  };
}

/**
 * Starts a run for a year: counts the donors with receipts in the period. One unfinished run per
 * year and basis: starting it again answers the one going on (resume), not a second run.
 */
export async function startStatementRun(ctx: SendCtx, year: number, basis: StatementBasis) {
  const db = orgDb(ctx);
  const id = await identity(db, ctx.org.id);
  const period = periodOf(id, year, basis);
  const open = await db
    .prepare(
      "SELECT id, year, basis, period_start, period_end, cursor, total, sent, skipped, created_at, finished_at FROM statement_run WHERE organization_id = ? AND year = ? AND basis = ? AND finished_at IS NULL",
    )
    .bind(ctx.org.id, year, basis)
    .first<RunRow>();
  if (open) return presentRun(open, period.label);
  const count = await db
    .prepare(`SELECT COUNT(*) AS n FROM (${PERIOD_DONORS})`)
    .bind(ctx.org.id, period.start, period.end)
    .first<{ n: number }>();
  const total = count?.n ?? 0;
  if (!total) fail("BAD_REQUEST", `No donor has a donation to put on a statement in ${period.label}`);
  const runId = generateId();
  const at = Date.now();
  await db.batch([
    db
      .prepare(
        `INSERT INTO statement_run (id, organization_id, year, basis, period_start, period_end, total, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(runId, ctx.org.id, year, basis, period.start, period.end, total, ctx.user?.id ?? null, at),
    auditStatement(ctx, {
      action: "statement.run",
      entityType: "statement_run",
      entityId: runId,
      after: { period: period.label, donors: total },
    }),
  ]);
  return presentRun(
    {
      id: runId,
      year,
      basis,
      period_start: period.start,
      period_end: period.end,
      cursor: "",
      total,
      sent: 0,
      skipped: 0,
      created_at: at,
      finished_at: null,
    },
    period.label,
  );
}

/**
 * One step of a run: the next STEP_DONORS donors after the cursor, each e-mailed their statement
 * (a donor without an e-mail address, or anonymized, is counted skipped). Returns the run.
 */
export async function stepStatementRun(ctx: SendCtx, runId: string) {
  const db = orgDb(ctx);
  const run = await db
    .prepare(
      "SELECT id, year, basis, period_start, period_end, cursor, total, sent, skipped, created_at, finished_at FROM statement_run WHERE organization_id = ? AND id = ?",
    )
    .bind(ctx.org.id, runId)
    .first<RunRow>();
  if (!run) fail("NOT_FOUND", "Statement run not found");
  const id = await identity(db, ctx.org.id);
  const period = { ...periodOf(id, run.year, run.basis), start: run.period_start, end: run.period_end };
  if (run.finished_at !== null) return presentRun(run, period.label);
  const { results: next } = await db
    .prepare(RUN_DONORS)
    .bind(ctx.org.id, run.period_start, run.period_end, run.cursor, STEP_DONORS)
    .all<{ donor_id: string }>();
  const ids = next.map((r) => r.donor_id);
  const last = ids.at(-1);
  const at = Date.now();
  if (!last) {
    await db
      .prepare("UPDATE statement_run SET finished_at = ? WHERE id = ? AND finished_at IS NULL")
      .bind(at, runId)
      .run();
    return presentRun({ ...run, finished_at: at }, period.label);
  }
  // Claim these donors before anything is sent: a step that lost the race sends nothing.
  const claimed = await db
    .prepare("UPDATE statement_run SET cursor = ? WHERE id = ? AND cursor = ? AND finished_at IS NULL")
    .bind(last, runId, run.cursor)
    .run();
  if (!claimed.meta.changes) fail("CONFLICT", "Another step of this run is going on");
  const [donors, gifts] = await Promise.all([
    db
      .prepare(
        `SELECT ${DONOR_COLUMNS} FROM donor WHERE organization_id = ? AND id IN (${ids.map(() => "?").join(", ")})`,
      )
      .bind(ctx.org.id, ...ids)
      .all<DonorRow>(),
    giftsOf(db, ctx.org.id, ids, run.period_start, run.period_end),
  ]);
  const { renderStatementPdf } = await import("./pdf");
  const mailer = getMailer(ctx.env);
  const words = statementMailWords(id.settings.language, period.label, id.organization.name);
  let sent = 0;
  let skipped = 0;
  const acks: D1PreparedStatement[] = [];
  // PDFs are made one after the other (CPU), their mails sent together: one provider round trip a step.
  // A refused mail counts as skipped; the run goes on, and the statement downloads from the donor page.
  const mails: Promise<void>[] = [];
  for (const donor of donors.results) {
    const list = gifts.get(donor.id) ?? [];
    if (
      !list.length ||
      whyNoSend({ status: "issued", donorEmail: donor.email, donorAnonymized: donor.anonymized_at !== null })
    ) {
      skipped++;
      continue;
    }
    const pdf = await renderStatementPdf(ctx.env, statementInput(id, donor, list, period));
    const to = donor.email as string;
    mails.push(
      mailer
        .send({
          to,
          subject: words.subject,
          text: words.body,
          html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a"><p>${escapeHtml(words.body)}</p></body></html>`,
          attachments: [
            {
              filename: statementFileName(period.label, donor),
              contentType: "application/pdf",
              content: pdf,
            },
          ],
        })
        .then(
          () => {
            sent++;
            acks.push(
              acknowledgementInsert(db, ctx, {
                kind: "statement",
                donorId: donor.id,
                donationId: null,
                receiptId: null,
                period: period.label,
                to,
                at: Date.now(),
              }),
            );
          },
          (error) => {
            skipped++;
            logError("statement mail", error);
          },
        ),
    );
  }
  await Promise.all(mails);
  // Donors listed by the receipts but gone meanwhile (deleted) count as skipped.
  skipped += ids.length - donors.results.length;
  const done = next.length < STEP_DONORS;
  const res = await db.batch([
    ...acks,
    db
      .prepare(
        // A donor whose first receipt of the period came after the run started is one more.
        `UPDATE statement_run SET sent = sent + ?1, skipped = skipped + ?2, total = MAX(total, sent + ?1 + skipped + ?2),
                finished_at = CASE WHEN ?3 THEN ?4 ELSE finished_at END WHERE id = ?5
          RETURNING id, year, basis, period_start, period_end, cursor, total, sent, skipped, created_at, finished_at`,
      )
      .bind(sent, skipped, done ? 1 : 0, Date.now(), runId),
  ]);
  const updated = res.at(-1)?.results[0] as RunRow | undefined;
  return presentRun(updated ?? run, period.label);
}

/**
 * What "Send statements" is about to do: the donors a run would cover, how many can be e-mailed, how
 * many imported gifts their statements list, and whether the period is over in the organization's zone.
 */
export async function statementPreview(
  ctx: Pick<SendCtx, "env" | "org">,
  year: number,
  basis: StatementBasis,
) {
  const db = orgDb(ctx);
  const id = await identity(db, ctx.org.id);
  const period = periodOf(id, year, basis);
  const r = await db
    .prepare(
      `SELECT COUNT(*) AS donors, COALESCE(SUM(dn.email IS NOT NULL AND dn.anonymized_at IS NULL), 0) AS reachable,
              (SELECT COUNT(*) FROM donation d WHERE d.organization_id = ?1 AND ${IMPORTED}
                  AND d.donated_at >= ?2 AND d.donated_at < ?3) AS imported
         FROM (${PERIOD_DONORS}) u JOIN donor dn ON dn.id = u.donor_id`,
    )
    .bind(ctx.org.id, period.start, period.end)
    .first<{ donors: number; reachable: number; imported: number }>();
  return {
    label: period.label,
    donors: r?.donors ?? 0,
    reachable: r?.reachable ?? 0,
    imported: r?.imported ?? 0,
    /** The period's last moment has passed (ms, the organization's zone). */
    over: period.end <= Date.now(),
    periodEnd: period.end,
  };
}

/**
 * "Send a test to me": the period's first donor's statement e-mailed to the person asking, marked
 * as a test, so they see what donors will get before anyone does. Nothing is recorded as sent to
 * the donor; the audit row says who asked.
 */
export async function sendTestStatement(
  ctx: SendCtx & { user: { id: string; email: string } },
  year: number,
  basis: StatementBasis,
) {
  const db = orgDb(ctx);
  const id = await identity(db, ctx.org.id);
  const period = periodOf(id, year, basis);
  const first = await db
    .prepare(RUN_DONORS)
    .bind(ctx.org.id, period.start, period.end, "", 1)
    .first<{ donor_id: string }>();
  if (!first) fail("BAD_REQUEST", `No donor has a donation to put on a statement in ${period.label}`);
  const donor = await db
    .prepare(`SELECT ${DONOR_COLUMNS} FROM donor WHERE organization_id = ? AND id = ?`)
    .bind(ctx.org.id, first.donor_id)
    .first<DonorRow>();
  if (!donor) fail("NOT_FOUND", "Donor not found");
  const gifts = (await giftsOf(db, ctx.org.id, [donor.id], period.start, period.end)).get(donor.id) ?? [];
  const { renderStatementPdf } = await import("./pdf");
  const pdf = await renderStatementPdf(ctx.env, statementInput(id, donor, gifts, period));
  const words = statementMailWords(id.settings.language, period.label, id.organization.name);
  const name = [donor.first_name, donor.last_name].filter(Boolean).join(" ") || donor.company || "a donor";
  const note = `Test: the statement ${name} will get (their e-mail goes to their own address). Nothing was sent to any donor.`;
  try {
    await getMailer(ctx.env).send({
      to: ctx.user.email,
      subject: `[Test] ${words.subject}`,
      text: `${note}\n\n${words.body}`,
      html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a"><p style="color:#475569">${escapeHtml(note)}</p><p>${escapeHtml(words.body)}</p></body></html>`,
      attachments: [
        { filename: statementFileName(period.label, donor), contentType: "application/pdf", content: pdf },
      ],
    });
  } catch (error) {
    logError("statement test", error);
    fail("SERVICE_UNAVAILABLE", "The test could not be sent; try again in a moment");
  }
  await auditStatement(ctx, {
    action: "statement.test",
    entityType: "statement_run",
    entityId: `${year}-${basis}`,
    after: { period: period.label, to: ctx.user.email },
  }).run();
  return { sentTo: ctx.user.email, donorName: name, label: period.label };
}
