/**
 * What receipts and statements share: the sheet, the formats of money, dates and addresses, and the
 * blocks both print. Coordinates are points from an A4 page's top-left, a text's y its baseline. CJK
 * runs (and full-width forms such as ￥) are set in Noto Sans JP, all else in Noto Sans (JP lacks Ł,
 * Cyrillic, U+202F); a bold CJK run is the regular face outlined, sparing a 5.5 MB bold face.
 */
import { formatMoney } from "@core/money";
import PDFDocument from "pdfkit";
import { toBytes } from "pdfkit/output";
import type { ReceiptSnapshot, SnapshotAddress } from "../../ledger/receipt-snapshot";
import type { DocumentFonts } from "./fonts";
import type { Logo } from "./logo";
import type { ReceiptWords } from "./words";

export const PAGE = { width: 595.28, height: 841.89 } as const;
/** Side and top margin (≈ 18 mm). */
export const MARGIN = 50;
/** Where the footer starts: content stays above. */
export const CONTENT_BOTTOM = PAGE.height - 62;

export const INK = "#1f2937";
export const MUTED = "#6b7280";
export const RULE = "#d1d5db";
export const ACCENT = "#0f6b6b";
export const ACCENT_TINT = "#e6f0f0";
export const PANEL = "#f4f7f7";
export const ZEBRA = "#f8fafa";
export const VOID_RED = "#b42318";

const CJK =
  /[\u2e80-\u2fff\u3000-\u30ff\u3100-\u31ff\u3200-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\ud840-\ud87f][\udc00-\udfff]/;

/** Whether any of the text needs the Japanese font. */
function needsCjk(text: string): boolean {
  return CJK.test(text);
}

/** Closing punctuation never starts a line, opening brackets never end one (simple kinsoku). */
const NO_LINE_START = "、。，．：；？！）」』】〕〉》ー々ぁぃぅぇぉっゃゅょァィゥェォッャュョ,.;:!?)]}’”";
const NO_LINE_END = "（「『【〔〈《([{‘“";
/**
 * Line-breaking tokens: one CJK character, a word, or breaking spaces. No-break spaces (U+00A0,
 * U+202F) stay inside their word: "1 250,00 €" and "N° fiscal 812 345 678" never break.
 */
const WRAP_TOKENS =
  /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^ \t\u3000\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+|[ \t\u3000]+/g;
const BREAKING_SPACE = /^[ \t\u3000]+$/;
/** Spaces inside a value that must stay on one line (a number, a label and its number). */
const keepTogether = (s: string) => s.replace(/ /g, "\u00a0");

type Align = "left" | "right" | "center";
interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: string;
  align?: Align;
  characterSpacing?: number;
}

type Face = "sans" | "sansBold" | "cjk";

/** One pdfkit document with the receipt fonts, measuring and drawing text in runs. */
export class Sheet {
  readonly doc: PDFDocument;
  private readonly hasCjk: boolean;
  private readonly widths = new Map<string, number>();
  private readonly bytes: Promise<Uint8Array>;

  constructor(
    fonts: DocumentFonts,
    meta: { title: string; author: string; subject: string; lang: string; created: Date },
  ) {
    this.doc = new PDFDocument({
      size: [PAGE.width, PAGE.height],
      margin: 0,
      autoFirstPage: false,
      bufferPages: true,
      font: false,
      pdfVersion: "1.7",
      lang: meta.lang,
      displayTitle: true,
      info: {
        Title: meta.title,
        Author: meta.author,
        Subject: meta.subject,
        Creator: "Almoner",
        Producer: "Almoner",
        CreationDate: meta.created,
      },
    });
    this.bytes = toBytes(this.doc);
    this.doc.registerFont("sans", fonts.sans);
    this.doc.registerFont("sansBold", fonts.sansBold);
    this.hasCjk = fonts.cjk != null;
    if (fonts.cjk) this.doc.registerFont("cjk", fonts.cjk);
  }

  addPage() {
    this.doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
  }

  get pageCount() {
    return this.doc.bufferedPageRange().count;
  }

  /** Draws on page `index` (0-based) again, e.g. its footer once the page count is known. */
  toPage(index: number) {
    this.doc.switchToPage(index);
  }

  async finish(): Promise<Uint8Array> {
    this.doc.end();
    return this.bytes;
  }

  private runs(text: string, bold: boolean): [string, Face][] {
    const latin: Face = bold ? "sansBold" : "sans";
    if (!this.hasCjk || !CJK.test(text)) return [[text, latin]];
    const out: [string, Face][] = [];
    let run = "";
    let runCjk: boolean | null = null;
    for (const ch of text) {
      const cjk = CJK.test(ch);
      if (runCjk !== null && cjk !== runCjk) {
        out.push([run, runCjk ? "cjk" : latin]);
        run = "";
      }
      run += ch;
      runCjk = cjk;
    }
    if (run) out.push([run, runCjk ? "cjk" : latin]);
    return out;
  }

  /** Width in points (measured once per document and string, at 1 pt). */
  width(text: string, size: number, bold = false): number {
    const key = (bold ? "b" : "r") + text;
    let w = this.widths.get(key);
    if (w === undefined) {
      w = 0;
      for (const [run, face] of this.runs(text, bold)) {
        w += this.doc.font(face).fontSize(1000).widthOfString(run) / 1000;
      }
      this.widths.set(key, w);
    }
    return w * size;
  }

  /** Draws one line at baseline y; returns its width. */
  text(text: string, x: number, y: number, style: TextStyle = {}): number {
    const { size = 9.5, bold = false, color = INK, align = "left", characterSpacing = 0 } = style;
    if (!text) return 0;
    const runs = this.runs(text, bold);
    const spacing = characterSpacing * Math.max(0, [...text].length - 1);
    const total = this.width(text, size, bold) + spacing;
    let cx = align === "right" ? x - total : align === "center" ? x - total / 2 : x;
    this.doc.fillColor(color);
    for (const [run, face] of runs) {
      const fauxBold = bold && face === "cjk";
      if (fauxBold) this.doc.strokeColor(color).lineWidth(size * 0.035);
      this.doc
        .font(face)
        .fontSize(size)
        .text(run, cx, y, {
          lineBreak: false,
          baseline: "alphabetic",
          characterSpacing,
          ...(fauxBold ? { fill: true, stroke: true } : {}),
        });
      cx += this.width(run, size, bold) + characterSpacing * [...run].length;
    }
    return total;
  }

  /** Greedy line breaking at spaces and between CJK characters; explicit newlines are kept. */
  wrap(text: string, maxWidth: number, size: number, bold = false): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      const tokens = paragraph.match(WRAP_TOKENS) ?? [];
      let line = "";
      for (const token of tokens) {
        const candidate = line + token;
        const blank = BREAKING_SPACE.test(token);
        if (
          line &&
          !blank &&
          !NO_LINE_START.includes(token) &&
          this.width(candidate.trimEnd(), size, bold) > maxWidth
        ) {
          let carry = "";
          while (line.length > 1 && NO_LINE_END.includes(line.at(-1) ?? "")) {
            carry = line.at(-1) + carry;
            line = line.slice(0, -1);
          }
          lines.push(line.trimEnd());
          line = carry + token;
          // A single word wider than the line: cut it where it overflows.
          while (this.width(line, size, bold) > maxWidth && [...line].length > 1) {
            const cut = this.fitLength(line, maxWidth, size, bold);
            lines.push(line.slice(0, cut));
            line = line.slice(cut);
          }
        } else if (line || !blank) line = candidate;
      }
      if (line.trim()) lines.push(line.trimEnd());
      else if (!tokens.length && lines.length) lines.push("");
    }
    return lines;
  }

  /** The longest prefix (in UTF-16 units, whole code points) of `text` that fits. */
  private fitLength(text: string, maxWidth: number, size: number, bold: boolean): number {
    const chars = [...text];
    let lo = 1;
    let hi = chars.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.width(chars.slice(0, mid).join(""), size, bold) <= maxWidth) lo = mid;
      else hi = mid - 1;
    }
    return chars.slice(0, lo).join("").length;
  }

  /** The text, cut with an ellipsis when wider than maxWidth. */
  fit(text: string, maxWidth: number, size: number, bold = false): string {
    if (this.width(text, size, bold) <= maxWidth) return text;
    const chars = [...text];
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.width(`${chars.slice(0, mid).join("")}…`, size, bold) <= maxWidth) lo = mid;
      else hi = mid - 1;
    }
    return `${chars.slice(0, lo).join("").trimEnd()}…`;
  }

  line(x1: number, y1: number, x2: number, y2: number, width = 0.5, color = RULE) {
    this.doc.moveTo(x1, y1).lineTo(x2, y2).lineWidth(width).strokeColor(color).stroke();
  }

  rect(x: number, y: number, w: number, h: number, color: string) {
    this.doc.rect(x, y, w, h).fill(color);
  }

  /** Draws the logo inside the box (aspect kept, top-left aligned); false when pdfkit refuses it. */
  image(logo: Logo, x: number, y: number, w: number, h: number): { width: number; height: number } | null {
    try {
      const image = this.doc.openImage(logo.bytes);
      if (!image.width || !image.height) return null;
      const scale = Math.min(w / image.width, h / image.height);
      const size = { width: image.width * scale, height: image.height * scale };
      this.doc.image(image, x, y + (h - size.height) / 2, size);
      return size;
    } catch {
      return null;
    }
  }

  /** Draws `draw` rotated by `degrees` around (cx, cy) with the given fill opacity. */
  rotated(degrees: number, cx: number, cy: number, opacity: number, draw: () => void) {
    this.doc.save();
    this.doc.rotate(degrees, { origin: [cx, cy] });
    this.doc.fillOpacity(opacity);
    draw();
    this.doc.restore();
  }
}

/** Money, dates and countries in the organization's locale and time zone. */
interface Formats {
  locale: string;
  money(minor: number, currency: string): string;
  /** 14 March 2026 */
  date(ms: number): string;
  /** 14 Mar 2026 */
  shortDate(ms: number): string;
  country(code: string): string;
}

function dateFormat(locale: string, timeZone: string, dateStyle: "long" | "medium") {
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle, timeZone });
  } catch {
    return new Intl.DateTimeFormat(locale, { dateStyle, timeZone: "UTC" });
  }
}

export function formats(locale: string, timeZone: string): Formats {
  const long = dateFormat(locale, timeZone, "long");
  const medium = dateFormat(locale, timeZone, "medium");
  let regions: Intl.DisplayNames | null = null;
  try {
    regions = new Intl.DisplayNames([locale], { type: "region" });
  } catch {
    regions = null;
  }
  return {
    locale,
    money: (minor, currency) => formatMoney(minor, currency, locale),
    date: (ms) => long.format(ms),
    shortDate: (ms) => medium.format(ms),
    country: (code) => {
      const upper = code.trim().toUpperCase();
      try {
        return (/^[A-Z]{2}$/.test(upper) && regions?.of(upper)) || code;
      } catch {
        return code;
      }
    },
  };
}

const present = (...parts: (string | null | undefined)[]) =>
  parts.map((p) => p?.trim() ?? "").filter(Boolean) as string[];

/**
 * An address as printed, one line per entry: the street lines, then the town in its country's
 * order ("Springfield, IL 62701", "75002 Paris", "〒100-0001 東京都千代田区" in Japanese), then the
 * country by name.
 */
function addressLines(a: SnapshotAddress | null | undefined, f: Formats): string[] {
  if (!a) return [];
  const country = a.country?.trim().toUpperCase() ?? "";
  let lines: string[];
  if (country === "JP" && f.locale.startsWith("ja")) {
    // Largest to smallest: postal code, then prefecture, city and street on one line.
    lines = present(
      a.postalCode?.trim() ? `〒${a.postalCode.trim()}` : null,
      present(a.region, a.city, a.line1).join(""),
      a.line2,
    );
  } else if (["US", "CA", "AU"].includes(country)) {
    lines = present(a.line1, a.line2, present(present(a.city, a.region).join(", "), a.postalCode).join(" "));
  } else if (["GB", "IE"].includes(country)) {
    lines = present(a.line1, a.line2, a.city, a.region, a.postalCode);
  } else {
    lines = present(a.line1, a.line2, present(a.postalCode, a.city).join(" "), a.region);
  }
  return country ? [...lines, f.country(country)] : lines;
}

type Organization = ReceiptSnapshot["organization"];

export function legalName(o: Organization): string {
  return o.legalName?.trim() || o.name;
}

/** ["Registration no. 12-345", "Tax no. FR-987"]: the numbers the profile has, each kept on one line. */
function identityParts(o: Organization, w: ReceiptWords): string[] {
  return present(
    o.registrationId ? keepTogether(`${w.registrationNo} ${o.registrationId.trim()}`) : null,
    o.taxId ? keepTogether(`${w.taxNo} ${o.taxId.trim()}`) : null,
  );
}

/** A small spaced label above a block ("DONOR"); letters are not capitalised in CJK. */
export function label(s: Sheet, text: string, x: number, y: number, color = MUTED) {
  s.text(text.toLocaleUpperCase(), x, y, { size: 7.5, bold: true, color, characterSpacing: 0.6 });
}

/**
 * The first page's header: logo, legal name, numbers and address on the left; the document's
 * title, its number (or the statement's period) and date on the right. Returns the y below it.
 */
export function drawHeader(
  s: Sheet,
  o: Organization,
  w: ReceiptWords,
  f: Formats,
  right: { title: string; heading: string; lines: { text: string; color?: string }[] },
  logo: Logo | null,
): number {
  const top = MARGIN;
  // The right block is as wide as its longest line (at most 210 pt); the name takes the rest.
  const rightWidth = Math.min(
    210,
    Math.max(
      s.width(right.title, 10, true),
      s.width(right.heading, 19, true),
      ...right.lines.map((line) => s.width(line.text, 8.5)),
    ),
  );
  let x = MARGIN;
  if (logo) {
    const drawn = s.image(logo, MARGIN, top - 4, 92, 56);
    if (drawn) x = MARGIN + drawn.width + 16;
  }
  const leftWidth = PAGE.width - MARGIN - rightWidth - 28 - x;
  let y = top + 12;
  for (const line of s.wrap(legalName(o), leftWidth, 14.5, true).slice(0, 2)) {
    s.text(line, x, y, { size: 14.5, bold: true });
    y += 17;
  }
  y += 1;
  // The numbers on one line when they fit, else one per line; then the address.
  const identity = identityParts(o, w);
  const numbers = identity.join("  ·  ");
  const details = [
    ...(s.width(numbers, 8.5) <= leftWidth ? [numbers] : identity),
    addressLines(o.address, f).join(w.separator),
  ].filter(Boolean);
  for (const detail of details) {
    for (const line of s.wrap(detail, leftWidth, 8.5).slice(0, 3)) {
      s.text(line, x, y, { size: 8.5, color: MUTED });
      y += 11.5;
    }
  }
  const rx = PAGE.width - MARGIN;
  s.text(s.fit(right.title, rightWidth, 10, true), rx, top + 10, {
    size: 10,
    bold: true,
    color: ACCENT,
    align: "right",
  });
  s.text(s.fit(right.heading, rightWidth, 19, true), rx, top + 34, { size: 19, bold: true, align: "right" });
  let ry = top + 50;
  for (const line of right.lines) {
    s.text(s.fit(line.text, rightWidth, 8.5), rx, ry, {
      size: 8.5,
      color: line.color ?? MUTED,
      align: "right",
    });
    ry += 12;
  }
  const bottom = Math.max(y, ry, logo ? top + 56 : 0) + 8;
  s.line(MARGIN, bottom, PAGE.width - MARGIN, bottom, 1.5, ACCENT);
  return bottom;
}

/** A later page's header: the organization and what the document is. Returns the y below it. */
export function drawRunningHeader(s: Sheet, o: Organization, right: string): number {
  const y = MARGIN + 8;
  const name = legalName(o);
  const nameWidth = Math.min(s.width(name, 9.5, true), 240);
  s.text(s.fit(name, 240, 9.5, true), MARGIN, y, { size: 9.5, bold: true });
  s.text(s.fit(right, PAGE.width - 2 * MARGIN - nameWidth - 24, 8.5), PAGE.width - MARGIN, y, {
    size: 8.5,
    color: MUTED,
    align: "right",
  });
  s.line(MARGIN, y + 10, PAGE.width - MARGIN, y + 10, 1, ACCENT);
  return y + 10;
}

/** The donor: name, company (when it is not the name) and address. Returns the y below it. */
export function drawDonor(
  s: Sheet,
  w: ReceiptWords,
  f: Formats,
  donor: { name: string | null; company: string | null; address: SnapshotAddress },
  x: number,
  y: number,
  width: number,
): number {
  label(s, w.donor, x, y);
  y += 18;
  const name = donor.name?.trim() || donor.company?.trim() || "—";
  for (const line of s.wrap(name, width, 12.5, true).slice(0, 2)) {
    s.text(line, x, y, { size: 12.5, bold: true });
    y += 15.5;
  }
  const lines = present(donor.company && donor.company.trim() !== name ? donor.company : null);
  lines.push(...addressLines(donor.address, f));
  for (const line of lines) {
    s.text(s.fit(line, width, 9.5), x, y, { size: 9.5 });
    y += 13;
  }
  return y;
}

/** The signatory (when the settings name one): a line, the name, the title. Returns the y below. */
export function drawSignature(
  s: Sheet,
  w: ReceiptWords,
  settings: ReceiptSnapshot["settings"],
  o: Organization,
  y: number,
): number {
  const name = settings.signatoryName?.trim();
  const title = settings.signatoryTitle?.trim();
  if (!name && !title) return y;
  label(s, w.signed, MARGIN, y);
  y += 30;
  s.line(MARGIN, y, MARGIN + 200, y, 0.75, INK);
  y += 14;
  if (name) {
    s.text(s.fit(name, 300, 10.5, true), MARGIN, y, { size: 10.5, bold: true });
    y += 13;
  }
  const at = title ? w.titleAt(title, legalName(o)) : legalName(o);
  s.text(s.fit(at, 320, 8.5), MARGIN, y, { size: 8.5, color: MUTED });
  return y + 6;
}

/** The height drawSignature takes. */
export function signatureHeight(settings: ReceiptSnapshot["settings"]): number {
  if (!settings.signatoryName?.trim() && !settings.signatoryTitle?.trim()) return 0;
  return 30 + 14 + (settings.signatoryName?.trim() ? 13 : 0) + 6;
}

/** A paragraph; returns the y below its last line. */
export function drawParagraph(s: Sheet, lines: string[], x: number, y: number, size: number, lead: number) {
  for (const line of lines) {
    s.text(line, x, y, { size });
    y += lead;
  }
  return y;
}

/** Every page's footer, once the page count is known. */
export function drawFooters(s: Sheet, w: ReceiptWords, left: string, what: string) {
  const pages = s.pageCount;
  for (let i = 0; i < pages; i++) {
    s.toPage(i);
    const y = PAGE.height - 44;
    s.line(MARGIN, y - 12, PAGE.width - MARGIN, y - 12, 0.5, RULE);
    const right = `${what}  ·  ${w.page(i + 1, pages)}`;
    const rightWidth = s.width(right, 7.5);
    s.text(s.fit(left, PAGE.width - 2 * MARGIN - rightWidth - 24, 7.5), MARGIN, y, {
      size: 7.5,
      color: MUTED,
    });
    s.text(right, PAGE.width - MARGIN, y, { size: 7.5, color: MUTED, align: "right" });
  }
}

/** The footer's left part: "Legal name · Registration no. 12-345" (or its tax number). */
export function footerLeft(o: Organization, w: ReceiptWords): string {
  const number = o.registrationId?.trim()
    ? `${w.registrationNo} ${o.registrationId.trim()}`
    : o.taxId?.trim()
      ? `${w.taxNo} ${o.taxId.trim()}`
      : null;
  return present(legalName(o), number).join("  ·  ");
}

/**
 * Whether a document needs the Japanese font: any CJK character in what it may print (its input,
 * its fixed words, a sample of its money and dates).
 */
export function documentNeedsCjk(input: unknown, w: ReceiptWords, f: Formats, currencies: string[]): boolean {
  const samples = [
    JSON.stringify(input),
    JSON.stringify({ ...w, replaces: w.replaces("1"), page: w.page(1, 2) }),
    f.date(0),
    f.shortDate(0),
    ...currencies.map((c) => f.money(123456, c)),
  ];
  return samples.some(needsCjk);
}
