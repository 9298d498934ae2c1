/**
 * One receipt (decision 031), drawn from its snapshot. A correction names the receipt it replaces; a
 * void one carries VOID across the page and why in the donor's terms, never the staff's own reason.
 */
import { documentFonts } from "./fonts";
import type { ReceiptPdfInput } from "./index";
import { receiptLocale } from "./index";
import {
  ACCENT,
  CONTENT_BOTTOM,
  documentNeedsCjk,
  drawDonor,
  drawFooters,
  drawHeader,
  drawParagraph,
  drawRunningHeader,
  drawSignature,
  footerLeft,
  formats,
  INK,
  label,
  legalName,
  MARGIN,
  MUTED,
  PAGE,
  PANEL,
  RULE,
  Sheet,
  signatureHeight,
  VOID_RED,
} from "./layout";
import { loadLogo } from "./logo";
import { methodWord, tributeWord, wordsFor } from "./words";

const GUTTER = 28;
const COLUMN = (PAGE.width - 2 * MARGIN - GUTTER) / 2;

export async function drawReceipt(env: Env, input: ReceiptPdfInput): Promise<Uint8Array> {
  const { snapshot } = input;
  const o = snapshot.organization;
  const w = wordsFor(snapshot.settings.language);
  const locale = receiptLocale(snapshot.settings.language, o.address?.country);
  const f = formats(locale, o.timeZone);
  const [fonts, logo] = await Promise.all([
    documentFonts(env, documentNeedsCjk(input, w, f, [input.currency])),
    loadLogo(env, o.logoUrl),
  ]);
  const correction = input.kind === "correction";
  const isVoid = input.status === "void";
  const title = correction ? w.correctedReceipt : w.receipt;
  const s = new Sheet(fonts, {
    title: `${title} ${input.number}`,
    author: legalName(o),
    subject: `${title} ${input.number}${isVoid ? ` (${w.void})` : ""}`,
    lang: locale,
    created: new Date(input.issuedAt),
  });
  s.addPage();
  const width = PAGE.width - 2 * MARGIN;

  let y = drawHeader(
    s,
    o,
    w,
    f,
    {
      title,
      heading: input.number,
      lines:
        correction && input.replacesNumber ? [{ text: w.replaces(input.replacesNumber), color: ACCENT }] : [],
    },
    logo,
  );

  if (isVoid) {
    // VOID, what it means beside it, and the reason under both, in a red frame.
    const voidWidth = s.width(w.void, 13, true) + [...w.void].length + 16;
    const notice = s.wrap(w.voidNotice, width - 28 - voidWidth, 9);
    const reason = input.replacedBy
      ? w.voidCause.replacedBy(input.replacedBy)
      : input.voidCause === "refunded" || input.voidCause === "cancelled"
        ? w.voidCause[input.voidCause]
        : null;
    const reasonLines = reason ? s.wrap(reason, width - 28, 9) : [];
    const h = 22 + notice.length * 12.5 + reasonLines.length * 12.5 + (reasonLines.length ? 4 : 0);
    y += 16;
    s.doc.roundedRect(MARGIN, y, width, h, 3).lineWidth(1.2).strokeColor(VOID_RED).stroke();
    s.text(w.void, MARGIN + 14, y + 22, { size: 13, bold: true, color: VOID_RED, characterSpacing: 1 });
    notice.forEach((line, i) => {
      s.text(line, MARGIN + 14 + voidWidth, y + 21 + i * 12.5, { size: 9, color: VOID_RED });
    });
    drawParagraph(s, reasonLines, MARGIN + 14, y + 25 + notice.length * 12.5, 9, 12.5);
    y += h;
  }

  // The donor (left) and the gift's details (right).
  y += 30;
  const donorBottom = drawDonor(s, w, f, snapshot.donor, MARGIN, y, COLUMN);
  const rx = MARGIN + COLUMN + GUTTER;
  const rows: [string, string][] = [
    [w.receiptNumber, input.number],
    [w.dateOfGift, f.date(snapshot.gift.donatedAt)],
    [w.dateIssued, f.date(input.issuedAt)],
  ];
  if (snapshot.campaign?.trim()) rows.push([w.campaign, snapshot.campaign.trim()]);
  rows.push([w.paymentMethod, methodWord(w, snapshot.gift.paymentMethod)]);
  const tribute = tributeWord(w, snapshot.gift.tributeType);
  if (tribute && snapshot.gift.tributeName?.trim()) rows.push([tribute, snapshot.gift.tributeName.trim()]);
  label(s, w.gift, rx, y);
  let ry = y + 18;
  for (const [name, value] of rows) {
    const nameWidth = Math.min(s.width(name, 8.5), COLUMN * 0.45);
    const lines = s.wrap(value, COLUMN - nameWidth - 12, 9.5).slice(0, 3);
    s.text(s.fit(name, nameWidth, 8.5), rx, ry, { size: 8.5, color: MUTED });
    lines.forEach((line, i) => {
      s.text(line, rx + COLUMN, ry + i * 12.5, { size: 9.5, align: "right" });
    });
    ry += 12.5 * lines.length + 5.5;
    s.line(rx, ry - 10, rx + COLUMN, ry - 10, 0.4, RULE);
  }
  y = Math.max(donorBottom, ry - 10) + 24;

  // The amounts: Amount − Refunded = Deductible amount.
  const refunded = Math.max(0, input.amountMinor - input.deductibleMinor);
  const amountRows: [string, string][] = [[w.amount, f.money(input.amountMinor, input.currency)]];
  if (refunded > 0) amountRows.push([w.refunded, f.money(-refunded, input.currency)]);
  const panelHeight = 22 + amountRows.length * 18 + 42;
  s.rect(MARGIN, y, width, panelHeight, PANEL);
  s.rect(MARGIN, y, 3, panelHeight, ACCENT);
  const ax = MARGIN + 20;
  const vx = MARGIN + width - 20;
  let py = y + 26;
  amountRows.forEach(([name, value], i) => {
    const color = i === 0 ? INK : MUTED;
    s.text(name, ax, py, { size: 10, color });
    s.text(value, vx, py, { size: 10, color, align: "right" });
    py += 18;
  });
  s.line(ax, py - 6, vx, py - 6, 0.5, RULE);
  s.text(w.deductible, ax, py + 20, { size: 11.5, bold: true });
  s.text(f.money(input.deductibleMinor, input.currency), vx, py + 22, {
    size: 18,
    bold: true,
    color: ACCENT,
    align: "right",
  });
  y += panelHeight;

  // The tax statement, over a second page when it is long.
  const statement = snapshot.settings.taxStatement?.trim();
  if (statement) {
    y += 28;
    for (const line of s.wrap(statement, width, 9.5)) {
      if (y > CONTENT_BOTTOM - 8) {
        s.addPage();
        y = drawRunningHeader(s, o, `${title} ${input.number}`) + 30;
      }
      s.text(line, MARGIN, y, { size: 9.5 });
      y += 13.5;
    }
  }

  // The signatory and the thanks.
  const closing = Math.max(signatureHeight(snapshot.settings), 16) + 34;
  if (y + closing > CONTENT_BOTTOM) {
    s.addPage();
    y = drawRunningHeader(s, o, `${title} ${input.number}`) + 10;
  }
  y += 34;
  const signed = drawSignature(s, w, snapshot.settings, o, y);
  if (!isVoid) {
    s.text(s.fit(w.thanks, width / 2, 11, true), PAGE.width - MARGIN, signed > y ? signed - 6 : y, {
      size: 11,
      bold: true,
      color: ACCENT,
      align: "right",
    });
  }

  if (isVoid) {
    const size = Math.min(150, 520 / Math.max(1, s.width(w.void, 1, true)));
    for (let i = 0; i < s.pageCount; i++) {
      s.toPage(i);
      s.rotated(-35, PAGE.width / 2, PAGE.height / 2, 0.13, () => {
        s.text(w.void, PAGE.width / 2, PAGE.height / 2 + size * 0.36, {
          size,
          bold: true,
          color: VOID_RED,
          align: "center",
        });
      });
    }
  }
  drawFooters(s, w, footerLeft(o, w), `${w.receiptColumn} ${input.number}`);
  return s.finish();
}
