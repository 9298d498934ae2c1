/**
 * A donor's year-end statement (decision 031): every gift of the period with its receipt's number, in
 * a table whose header repeats on each page; totals per currency, never summed across them. The
 * closing block (totals, tax statement, signature) never stands alone under an empty table header.
 */
import { documentFonts } from "./fonts";
import type { StatementGift, StatementPdfInput } from "./index";
import { receiptLocale } from "./index";
import {
  ACCENT,
  ACCENT_TINT,
  CONTENT_BOTTOM,
  documentNeedsCjk,
  drawDonor,
  drawFooters,
  drawHeader,
  drawRunningHeader,
  drawSignature,
  footerLeft,
  formats,
  label,
  legalName,
  MARGIN,
  MUTED,
  PAGE,
  PANEL,
  RULE,
  Sheet,
  signatureHeight,
  ZEBRA,
} from "./layout";
import { loadLogo } from "./logo";
import { wordsFor } from "./words";

const ROW = 16;
const HEADER_ROW = 22;
/** Rows kept with the closing block when it has to move to the next page. */
const KEEP_WITH_CLOSING = 3;
const GUTTER = 28;
const COLUMN = (PAGE.width - 2 * MARGIN - GUTTER) / 2;

interface Totals {
  currency: string;
  amountMinor: number;
  deductibleMinor: number;
}

/** Totals per currency, in the order the currencies first appear. */
export function totalsByCurrency(gifts: StatementGift[]): Totals[] {
  const byCurrency = new Map<string, Totals>();
  for (const g of gifts) {
    const t = byCurrency.get(g.currency) ?? { currency: g.currency, amountMinor: 0, deductibleMinor: 0 };
    t.amountMinor += g.amountMinor;
    t.deductibleMinor += g.deductibleMinor;
    byCurrency.set(g.currency, t);
  }
  return [...byCurrency.values()];
}

/**
 * How many rows each page holds: `first` rows fit on page 1, `next` on later pages, and the
 * closing block takes `closingRows` rows' height after the last row.
 */
export function paginate(rows: number, first: number, next: number, closingRows: number): number[] {
  const pages: number[] = [];
  let done = 0;
  let capacity = Math.max(1, first);
  for (;;) {
    const left = rows - done;
    if (left + closingRows <= capacity) {
      pages.push(left);
      return pages;
    }
    // The rows fit but the closing block does not, or only a row or two would be left for the
    // next page: move a few rows along with the closing block.
    const take =
      left <= capacity || left - capacity < KEEP_WITH_CLOSING
        ? Math.max(0, left - KEEP_WITH_CLOSING)
        : capacity;
    pages.push(take);
    done += take;
    capacity = Math.max(KEEP_WITH_CLOSING + closingRows, next);
  }
}

export async function drawStatement(env: Env, input: StatementPdfInput): Promise<Uint8Array> {
  const o = input.organization;
  const { settings, period, gifts } = input;
  const w = wordsFor(settings.language);
  const locale = receiptLocale(settings.language, o.address?.country);
  const f = formats(locale, o.timeZone);
  const totals = totalsByCurrency(gifts);
  const [fonts, logo] = await Promise.all([
    documentFonts(
      env,
      documentNeedsCjk(
        input,
        w,
        f,
        totals.map((t) => t.currency),
      ),
    ),
    loadLogo(env, o.logoUrl),
  ]);
  const name = `${w.statement} ${period.label}`;
  const s = new Sheet(fonts, {
    title: name,
    author: legalName(o),
    subject: `${name} · ${input.donor.name ?? input.donor.company ?? ""}`,
    lang: locale,
    created: new Date(input.generatedAt),
  });
  s.addPage();
  const width = PAGE.width - 2 * MARGIN;
  const right = PAGE.width - MARGIN;
  const periodText = `${f.date(period.start)} – ${f.date(Math.max(period.start, period.end - 1))}`;

  let y = drawHeader(
    s,
    o,
    w,
    f,
    {
      title: w.statement,
      heading: period.label,
      lines: [{ text: periodText }, { text: `${w.dateIssued}${w.colon}${f.date(input.generatedAt)}` }],
    },
    logo,
  );

  // The donor (left) and the summary (right).
  y += 30;
  const donorBottom = drawDonor(s, w, f, input.donor, MARGIN, y, COLUMN);
  const rx = MARGIN + COLUMN + GUTTER;
  const summaryHeight = 58 + totals.length * 18;
  s.rect(rx - 12, y - 16, COLUMN + 12, summaryHeight, PANEL);
  label(s, w.period, rx, y);
  const periodWidth = COLUMN - 24 - s.width(w.period.toLocaleUpperCase(), 7.5, true);
  s.text(s.fit(periodText, periodWidth, 9), right - 12, y, { size: 9, align: "right" });
  s.text(w.giftCount, rx, y + 20, { size: 9, color: MUTED });
  s.text(new Intl.NumberFormat(locale).format(gifts.length), right - 12, y + 20, { size: 9, align: "right" });
  s.line(rx, y + 29, right - 12, y + 29, 0.5, RULE);
  let sy = y + 46;
  for (const t of totals) {
    const what = totals.length > 1 ? `${w.totalDeductible} (${t.currency})` : w.totalDeductible;
    s.text(what, rx, sy, { size: 9.5, bold: true });
    s.text(f.money(t.deductibleMinor, t.currency), right - 12, sy, {
      size: 12,
      bold: true,
      color: ACCENT,
      align: "right",
    });
    sy += 18;
  }
  y = Math.max(donorBottom, y - 16 + summaryHeight) + 22;
  // Imported gifts carry no number of ours: the line under the intro says whose receipt they have.
  const intro = gifts.some((g) => g.receiptNumber === null)
    ? `${w.statementIntro} ${w.previousSystemNote}`
    : w.statementIntro;
  for (const line of s.wrap(intro, width, 9)) {
    s.text(line, MARGIN, y, { size: 9, color: MUTED });
    y += 12.5;
  }
  y += 14;

  // Columns: receipt, date, campaign (the rest), amount and deductible on the right.
  const money = gifts.map((g) => f.money(g.amountMinor, g.currency));
  const deductible = gifts.map((g) => f.money(g.deductibleMinor, g.currency));
  const moneyWidth = Math.max(
    s.width(w.amountColumn, 8, true),
    s.width(w.deductibleColumn, 8, true),
    ...money.map((m) => s.width(m, 8.5)),
    ...deductible.map((m) => s.width(m, 8.5)),
    ...totals.map((t) => s.width(f.money(t.amountMinor, t.currency), 9, true)),
  );
  const cols = {
    receipt: MARGIN + 8,
    date: MARGIN + 100,
    campaign: MARGIN + 190,
    deductible: right - 8,
    amount: right - 8 - moneyWidth - 24,
  };
  const campaignWidth = cols.amount - moneyWidth - 20 - cols.campaign;

  const tableHeader = (top: number) => {
    s.rect(MARGIN, top, width, HEADER_ROW, ACCENT_TINT);
    const style = { size: 8, bold: true, color: ACCENT } as const;
    const base = top + 14.5;
    s.text(s.fit(w.receiptColumn, 86, 8, true), cols.receipt, base, style);
    s.text(s.fit(w.dateColumn, 84, 8, true), cols.date, base, style);
    s.text(w.campaign, cols.campaign, base, style);
    s.text(w.amountColumn, cols.amount, base, { ...style, align: "right" });
    s.text(w.deductibleColumn, cols.deductible, base, { ...style, align: "right" });
    return top + HEADER_ROW;
  };

  // The closing block: totals, tax statement, signature.
  const statementLines = settings.taxStatement?.trim() ? s.wrap(settings.taxStatement.trim(), width, 9) : [];
  const closingHeight =
    10 +
    totals.length * 17 +
    (statementLines.length ? 26 + statementLines.length * 12.5 : 0) +
    (signatureHeight(settings) ? 34 + signatureHeight(settings) : 0);
  const continuedTop = MARGIN + 18 + 22;
  const plan = paginate(
    Math.max(1, gifts.length),
    Math.floor((CONTENT_BOTTOM - y - HEADER_ROW) / ROW),
    Math.floor((CONTENT_BOTTOM - continuedTop - HEADER_ROW) / ROW),
    Math.ceil(closingHeight / ROW),
  );
  const donorName = input.donor.name?.trim() || input.donor.company?.trim() || "";
  const newPage = () => {
    s.addPage();
    const top = drawRunningHeader(s, o, `${name}  ·  ${donorName} (${w.continued})`);
    return tableHeader(top + 22);
  };

  y = tableHeader(y);
  if (!gifts.length) {
    s.text(w.noGifts, cols.receipt, y + 11.5, { size: 9, color: MUTED });
    y += ROW;
  }
  let index = 0;
  plan.forEach((rowsOnPage, page) => {
    if (page > 0) y = newPage();
    for (let r = 0; r < rowsOnPage && index < gifts.length; r++, index++) {
      const g = gifts[index]!;
      if (index % 2 === 1) s.rect(MARGIN, y, width, ROW, ZEBRA);
      const base = y + 11.5;
      if (g.receiptNumber === null)
        s.text(s.fit(w.previousSystem, 86, 8.5), cols.receipt, base, { size: 8.5, color: MUTED });
      else s.text(s.fit(g.receiptNumber, 86, 8.5), cols.receipt, base, { size: 8.5 });
      s.text(s.fit(f.shortDate(g.donatedAt), 84, 8.5), cols.date, base, { size: 8.5 });
      s.text(s.fit(g.campaign?.trim() || w.generalFund, campaignWidth, 8.5), cols.campaign, base, {
        size: 8.5,
        color: MUTED,
      });
      s.text(money[index]!, cols.amount, base, { size: 8.5, align: "right" });
      s.text(deductible[index]!, cols.deductible, base, { size: 8.5, align: "right" });
      y += ROW;
    }
  });

  // Totals, one line per currency.
  s.line(MARGIN, y, right, y, 1, ACCENT);
  y += 4;
  for (const t of totals) {
    const base = y + 12;
    const what = totals.length > 1 ? `${w.total} (${t.currency})` : w.total;
    s.text(what, cols.receipt, base, { size: 9, bold: true });
    s.text(f.money(t.amountMinor, t.currency), cols.amount, base, { size: 9, bold: true, align: "right" });
    s.text(f.money(t.deductibleMinor, t.currency), cols.deductible, base, {
      size: 9,
      bold: true,
      color: ACCENT,
      align: "right",
    });
    y += 17;
  }

  if (statementLines.length) {
    y += 26;
    for (const line of statementLines) {
      if (y > CONTENT_BOTTOM - 8) {
        s.addPage();
        y = drawRunningHeader(s, o, `${name}  ·  ${donorName} (${w.continued})`) + 30;
      }
      s.text(line, MARGIN, y, { size: 9 });
      y += 12.5;
    }
  }
  if (signatureHeight(settings)) {
    if (y + 34 + signatureHeight(settings) > CONTENT_BOTTOM) {
      s.addPage();
      y = drawRunningHeader(s, o, `${name}  ·  ${donorName} (${w.continued})`);
    }
    drawSignature(s, w, settings, o, y + 34);
  }

  drawFooters(s, w, footerLeft(o, w), name);
  return s.finish();
}
