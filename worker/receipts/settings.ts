/** Receipt settings (decision 031): the defaults where never saved; written with an audit row. */
import { DEFAULT_RECEIPT_SETTINGS, type ReceiptSettingsInput } from "@core/receipts";
import { type Database, orgDb } from "../db/databases";
import { auditStatement } from "../lib/audit";
import type { OrgActor } from "../trpc/init";

interface SettingsRow {
  signatory_name: string | null;
  signatory_title: string | null;
  tax_statement: string | null;
  number_prefix: string;
  language: string;
  auto_send: number;
  updated_at: number;
}

function readSettings(db: Database, orgId: string) {
  return db
    .prepare(
      "SELECT signatory_name, signatory_title, tax_statement, number_prefix, language, auto_send, updated_at FROM receipt_settings WHERE organization_id = ?",
    )
    .bind(orgId)
    .first<SettingsRow>();
}

const present = (r: SettingsRow | null) =>
  r
    ? {
        signatoryName: r.signatory_name,
        signatoryTitle: r.signatory_title,
        taxStatement: r.tax_statement,
        numberPrefix: r.number_prefix,
        language: r.language as ReceiptSettingsInput["language"],
        autoSend: !!r.auto_send,
        /** Null until the settings are first saved (the defaults apply). */
        updatedAt: r.updated_at as number | null,
      }
    : { ...DEFAULT_RECEIPT_SETTINGS, updatedAt: null as number | null };

export async function receiptSettings(ctx: Pick<OrgActor, "env" | "org">) {
  return present(await readSettings(orgDb(ctx), ctx.org.id));
}

/** Empty texts are stored as null: "not set", so a receipt falls back or leaves the line out. */
const orNull = (s: string | null | undefined) => (s ? s : null);

export async function updateReceiptSettings(ctx: OrgActor, input: ReceiptSettingsInput) {
  const db = orgDb(ctx);
  const before = present(await readSettings(db, ctx.org.id));
  const now = Date.now();
  const row = {
    signatoryName: orNull(input.signatoryName),
    signatoryTitle: orNull(input.signatoryTitle),
    taxStatement: orNull(input.taxStatement),
    numberPrefix: input.numberPrefix,
    language: input.language,
    autoSend: input.autoSend,
  };
  await db.batch([
    db
      .prepare(
        `INSERT INTO receipt_settings (organization_id, signatory_name, signatory_title, tax_statement, number_prefix, language, auto_send, updated_by, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)
         ON CONFLICT (organization_id) DO UPDATE SET signatory_name = ?2, signatory_title = ?3, tax_statement = ?4,
           number_prefix = ?5, language = ?6, auto_send = ?7, updated_by = ?8, updated_at = ?9`,
      )
      .bind(
        ctx.org.id,
        row.signatoryName,
        row.signatoryTitle,
        row.taxStatement,
        row.numberPrefix,
        row.language,
        row.autoSend ? 1 : 0,
        ctx.user.id,
        now,
      ),
    auditStatement(ctx, {
      action: "receipts.settings",
      entityType: "organization",
      entityId: ctx.org.id,
      before: { ...before, updatedAt: undefined },
      after: row,
    }),
  ]);
  return { ...row, updatedAt: now };
}
