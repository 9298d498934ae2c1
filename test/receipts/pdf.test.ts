/**
 * Receipts and year-end statements as PDF (issue 25, docs/decisions/031-receipts.md "PDF in the
 * Worker"), made in workerd exactly as the Worker makes them: pdfkit with the build settings of
 * scripts/vite-pdfkit.mjs, the fonts read through the ASSETS binding (public/fonts, copied by
 * scripts/fonts.mjs), the logo from D1 media. Each document is read back with unpdf (pdf.js) and
 * held to what a donor and a tax office read on it:
 *
 * - the number, the donor (any script: "Łucja Żółć", Cyrillic, Japanese), the campaign, the
 *   tribute, the payment method, the tax statement and the signatory;
 * - money in the organization's locale and the gift's currency (en-US "$1,250.00", fr-FR
 *   "1 250,00 €", ja-JP yen without decimals), dates in the organization's time zone;
 * - a correction names the receipt it replaces, a void receipt says VOID and why;
 * - a 150-gift statement runs over pages, each with the table's header and "Page i of n", and
 *   totals each currency apart;
 * - the Japanese font is embedded only in documents with CJK text; a logo never fails a receipt.
 *
 * pdf.js reads no-break spaces (U+00A0, U+202F) as spaces, and may split or join the runs a line
 * is drawn in, so the text is compared with its whitespace normalized.
 */
import { env } from "cloudflare:test";
import { formatMoney } from "@core/money";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import type { ReceiptSnapshot } from "../../worker/ledger/receipt-snapshot";
import {
  type ReceiptPdfInput,
  receiptLocale,
  renderReceiptPdf,
  renderStatementPdf,
  type StatementPdfInput,
} from "../../worker/receipts/pdf";
import { usableLogo } from "../../worker/receipts/pdf/logo";
import { paginate } from "../../worker/receipts/pdf/statement";
import { makeOrg } from "../fixtures";

/** Whitespace of any kind as one space. */
const spaced = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, " ").trim();
/** Without whitespace: for text pdf.js may split into items (a run change, a CJK line). */
const squashed = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, "");

async function read(bytes: Uint8Array) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const pages = (await extractText(pdf, { mergePages: false })).text;
  const text = (await extractText(pdf, { mergePages: true })).text;
  const raw = new TextDecoder("latin1").decode(bytes);
  return {
    pages: pages.map(spaced),
    text: spaced(text),
    /** Whether the text holds `s`, whitespace ignored. */
    has: (s: string) => squashed(text).includes(squashed(s)),
    /** The PDF's own bytes (dictionaries are not compressed: font names, images). */
    raw,
  };
}

const US_ORG: ReceiptSnapshot["organization"] = {
  name: "Harbor Light",
  legalName: "Harbor Light Foundation, Inc.",
  registrationId: "12-3456789",
  taxId: null,
  address: {
    line1: "120 Harbor Street",
    line2: "Suite 4",
    city: "Portland",
    region: "ME",
    postalCode: "04101",
    country: "US",
  },
  logoUrl: null,
  timeZone: "America/New_York",
};

const SETTINGS: ReceiptSnapshot["settings"] = {
  signatoryName: "Margaret Ellison",
  signatoryTitle: "Treasurer",
  taxStatement:
    "No goods or services were provided in exchange for this contribution. Harbor Light Foundation is a 501(c)(3) organization; please keep this receipt for your tax records.",
  numberPrefix: "R-",
  language: "en",
};

function snapshot(o: Partial<ReceiptSnapshot> = {}): ReceiptSnapshot {
  return {
    donor: {
      name: "Łucja Żółć",
      company: null,
      email: "lucja@example.test",
      address: {
        line1: "12 Elm Road",
        line2: null,
        city: "Boston",
        region: "MA",
        postalCode: "02108",
        country: "US",
      },
    },
    gift: {
      number: 1042,
      amountMinor: 125_000,
      refundedMinor: 0,
      currency: "USD",
      // 03:00 UTC on 1 January 2026 is still 31 December 2025 in Portland, Maine.
      donatedAt: Date.UTC(2026, 0, 1, 3, 0),
      paymentMethod: "check",
      tributeType: "in_memory",
      tributeName: "Grace Hopper",
    },
    campaign: "Winter Appeal 2025",
    organization: US_ORG,
    settings: SETTINGS,
    ...o,
  };
}

function receipt(o: Partial<ReceiptPdfInput> = {}): ReceiptPdfInput {
  return {
    snapshot: snapshot(),
    number: "R-000042",
    kind: "original",
    replacesNumber: null,
    status: "issued",
    issuedAt: Date.UTC(2026, 0, 2, 15, 0),
    amountMinor: 125_000,
    deductibleMinor: 125_000,
    currency: "USD",
    ...o,
  };
}

const FR_ORG: ReceiptSnapshot["organization"] = {
  name: "Fondation Lumière",
  legalName: "Fondation Lumière pour l’enfance",
  registrationId: "RNA W751234567",
  taxId: "SIREN 812 345 678",
  address: {
    line1: "8 rue des Lilas",
    line2: null,
    city: "Paris",
    region: null,
    postalCode: "75011",
    country: "FR",
  },
  logoUrl: null,
  timeZone: "Europe/Paris",
};

const JP_ORG: ReceiptSnapshot["organization"] = {
  name: "紅葉災害支援",
  legalName: "特定非営利活動法人 紅葉災害支援ネットワーク",
  registrationId: null,
  taxId: "1234567890123",
  address: {
    line1: "千代田1-1",
    line2: null,
    city: "千代田区",
    region: "東京都",
    postalCode: "100-0001",
    country: "JP",
  },
  logoUrl: null,
  timeZone: "Asia/Tokyo",
};

describe("a receipt", () => {
  it("prints its number, the organization, the donor, the gift's details and the amounts (en-US, USD)", async () => {
    const doc = await read(await renderReceiptPdf(env, receipt()));
    expect(doc.pages).toHaveLength(1);
    for (const s of [
      "Donation receipt",
      "R-000042",
      "Harbor Light Foundation, Inc.",
      "Registration no. 12-3456789",
      "Łucja Żółć",
      "12 Elm Road",
      "Boston, MA 02108",
      "Winter Appeal 2025",
      "In memory of",
      "Grace Hopper",
      "Payment method",
      "Check",
      "Deductible amount",
      "$1,250.00",
      "No goods or services were provided in exchange for this contribution.",
      "Margaret Ellison",
      "Treasurer",
      "Page 1 of 1",
    ]) {
      expect(doc.text).toContain(s);
    }
    // The gift's date is the organization's day (New York), not UTC's.
    expect(doc.text).toContain("December 31, 2025");
    expect(doc.text).toContain("January 2, 2026");
    // Nothing is refunded, and nothing Japanese is embedded.
    expect(doc.text).not.toContain("Refunded");
    expect(doc.raw).toContain("NotoSans-Bold");
    expect(doc.raw).not.toContain("NotoSansJP");
  });

  it("writes a French receipt in French, with euros the French way (1 250,00 €) and a Cyrillic donor", async () => {
    const input = receipt({
      snapshot: snapshot({
        organization: FR_ORG,
        settings: {
          ...SETTINGS,
          language: "fr",
          signatoryName: "Élise Marchand",
          signatoryTitle: "Présidente",
        },
        donor: {
          name: "Анна Петрова",
          company: null,
          email: null,
          address: {
            line1: "3 avenue Foch",
            line2: null,
            city: "Lyon",
            region: null,
            postalCode: "69006",
            country: "FR",
          },
        },
        gift: {
          ...snapshot().gift,
          currency: "EUR",
          paymentMethod: "bank_transfer",
          tributeType: "in_honor",
          tributeName: "Jeanne",
        },
        campaign: "Hiver solidaire",
      }),
      currency: "EUR",
    });
    expect(receiptLocale("fr", FR_ORG.address.country)).toBe("fr-FR");
    const doc = await read(await renderReceiptPdf(env, input));
    for (const s of [
      "Reçu de don",
      "Fondation Lumière pour l’enfance",
      "N° fiscal SIREN 812 345 678",
      "Анна Петрова",
      "69006 Lyon",
      "France",
      "Montant déductible",
      "1 250,00 €",
      "Virement bancaire",
      "En l’honneur de",
      "Jeanne",
      "Hiver solidaire",
      "Élise Marchand",
      "Page 1 sur 1",
    ]) {
      expect(doc.text).toContain(s);
    }
    // 03:00 UTC on 1 January is already 1 January in Paris.
    expect(doc.text).toContain("1 janvier 2026");
  });

  it("shows what was refunded and the deductible rest", async () => {
    const doc = await read(
      await renderReceiptPdf(env, receipt({ amountMinor: 10_000, deductibleMinor: 7_550 })),
    );
    expect(doc.text).toContain("Refunded");
    expect(doc.text).toContain(formatMoney(-2_450, "USD", "en-US"));
    expect(doc.text).toContain("$100.00");
    expect(doc.text).toContain("$75.50");
  });

  it("names the receipt a correction replaces", async () => {
    const doc = await read(
      await renderReceiptPdf(
        env,
        receipt({ number: "R-000043", kind: "correction", replacesNumber: "R-000042" }),
      ),
    );
    expect(doc.text).toContain("Corrected receipt");
    expect(doc.text).toContain("R-000043");
    expect(doc.text).toContain("Replaces receipt R-000042");
  });

  it("says VOID on a void receipt, and why in the donor's words in the receipt's language, never the staff's note", async () => {
    const doc = await read(await renderReceiptPdf(env, receipt({ status: "void", voidCause: "refunded" })));
    expect(doc.text).toContain("VOID");
    expect(doc.text).toContain("may not be used for tax purposes");
    expect(doc.text).toContain("Gift refunded");
    expect(doc.text).not.toContain("Reason");
    // A void receipt does not thank anyone.
    expect(doc.text).not.toContain("Thank you for your generosity.");
    const replaced = await read(
      await renderReceiptPdf(
        env,
        receipt({
          status: "void",
          voidCause: "replaced",
          replacedBy: "R-000044",
          snapshot: snapshot({ settings: { ...SETTINGS, language: "fr" } }),
        }),
      ),
    );
    expect(replaced.text).toContain("Remplacé par le reçu R-000044");
    const cancelled = await read(
      await renderReceiptPdf(
        env,
        receipt({
          status: "void",
          voidCause: "cancelled",
          snapshot: snapshot({ settings: { ...SETTINGS, language: "de" } }),
        }),
      ),
    );
    expect(cancelled.text).toContain("Zuwendung storniert");
  });

  it("renders a Japanese receipt: the words, the donor's name and yen without decimals, in Noto Sans JP", async () => {
    const input = receipt({
      snapshot: snapshot({
        organization: JP_ORG,
        settings: {
          ...SETTINGS,
          language: "ja",
          signatoryName: "佐藤 花子",
          signatoryTitle: "理事長",
          taxStatement: "この寄附金は、租税特別措置法第41条の18の2の規定により寄附金控除の対象となります。",
        },
        donor: {
          name: "山田 太郎",
          company: null,
          email: null,
          address: {
            line1: "北区梅田1-2-3",
            line2: null,
            city: "大阪市",
            region: "大阪府",
            postalCode: "530-0001",
            country: "JP",
          },
        },
        gift: { ...snapshot().gift, currency: "JPY", amountMinor: 12_000, paymentMethod: "bank_transfer" },
        campaign: "令和の災害支援",
      }),
      currency: "JPY",
      amountMinor: 12_000,
      deductibleMinor: 12_000,
    });
    const doc = await read(await renderReceiptPdf(env, input));
    const yen = formatMoney(12_000, "JPY", "ja-JP");
    expect(yen).not.toMatch(/\.\d/);
    for (const s of [
      "寄附金受領証明書",
      "R-000042",
      "特定非営利活動法人 紅葉災害支援ネットワーク",
      "山田 太郎",
      "〒530-0001",
      "大阪府大阪市北区梅田1-2-3",
      "控除対象額",
      yen,
      "銀行振込",
      "追悼する方",
      "令和の災害支援",
      "租税特別措置法第41条の18の2",
      "佐藤 花子",
      "2026年1月1日",
    ]) {
      expect(doc.has(s), s).toBe(true);
    }
    expect(doc.raw).toContain("NotoSansJP");
  });

  it("flows a long tax statement onto a second page, with the running header and page numbers", async () => {
    const clauses = Array.from({ length: 45 }, (_, i) => `${i + 1}. The organization confirms the gift.`);
    const doc = await read(
      await renderReceiptPdf(
        env,
        receipt({ snapshot: snapshot({ settings: { ...SETTINGS, taxStatement: clauses.join("\n") } }) }),
      ),
    );
    expect(doc.pages).toHaveLength(2);
    expect(doc.pages[0]).toContain("Page 1 of 2");
    expect(doc.pages[1]).toContain("Harbor Light Foundation, Inc. Donation receipt R-000042");
    expect(doc.pages[1]).toContain("45. The organization confirms the gift.");
    expect(doc.pages[1]).toContain("Margaret Ellison");
    expect(doc.pages[1]).toContain("Page 2 of 2");
  });
});

/** A PNG of `size`² RGBA pixels (a disc on a transparent ground), or with its data broken. */
async function png(size: number, broken = false): Promise<Uint8Array> {
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) {
      const inside = (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 2.2) ** 2;
      rows.push(15, 107, 107, inside ? 255 : 0);
    }
  }
  let idat = new Uint8Array(
    await new Response(
      new Blob([new Uint8Array(rows)]).stream().pipeThrough(new CompressionStream("deflate")),
    ).arrayBuffer(),
  );
  if (broken) idat = idat.map((b, i) => (i > 2 ? b ^ 0x5a : b));
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
    out.set(data, 8);
    let crc = 0xffffffff;
    for (const b of out.subarray(4, 8 + data.length)) crc = crcTable[(crc ^ b) & 0xff]! ^ (crc >>> 8);
    view.setUint32(8 + data.length, (crc ^ 0xffffffff) >>> 0);
    return out;
  };
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, size);
  new DataView(header.buffer).setUint32(4, size);
  header.set([8, 6, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

async function upload(org: string, bytes: Uint8Array, type = "image/png") {
  const id = `logo${crypto.randomUUID().replaceAll("-", "")}`;
  await env.DB.prepare(
    "INSERT INTO media (id, organization_id, content_type, byte_size, sha256, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(id, org, type, bytes.length, "0".repeat(64), bytes, Date.now())
    .run();
  return `/api/media/${id}`;
}

describe("the logo", () => {
  it("embeds an uploaded PNG with transparency (its soft mask included)", async () => {
    const org = await makeOrg();
    const logoUrl = await upload(org, await png(96));
    const doc = await read(
      await renderReceiptPdf(env, receipt({ snapshot: snapshot({ organization: { ...US_ORG, logoUrl } }) })),
    );
    expect(doc.raw).toMatch(/\/Subtype \/Image/);
    expect(doc.raw).toMatch(/\/SMask/);
    expect(doc.text).toContain("R-000042");
  });

  it("leaves out a logo it cannot use, and still makes the receipt", async () => {
    const org = await makeOrg();
    const broken = await upload(org, await png(64, true));
    const webp = await upload(org, new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "), "image/webp");
    expect(await usableLogo(await png(64, true))).toBeNull();
    expect(await usableLogo(await png(64))).not.toBeNull();
    for (const logoUrl of [broken, webp, "/api/media/nosuchimage000000", "https://example.test/logo.png"]) {
      const bytes = await renderReceiptPdf(
        env,
        receipt({ snapshot: snapshot({ organization: { ...US_ORG, logoUrl } }) }),
      );
      const doc = await read(bytes);
      expect(doc.raw, logoUrl).not.toMatch(/\/Subtype \/Image/);
      expect(doc.text).toContain("R-000042");
    }
  });
});

function statement(o: Partial<StatementPdfInput> = {}): StatementPdfInput {
  return {
    organization: US_ORG,
    settings: SETTINGS,
    donor: { name: "Łucja Żółć", company: "Żółć & Daughters", address: snapshot().donor.address },
    period: { label: "2026", start: Date.UTC(2026, 0, 1, 5), end: Date.UTC(2027, 0, 1, 5) },
    gifts: [],
    generatedAt: Date.UTC(2027, 0, 15, 14),
    ...o,
  };
}

describe("a year-end statement", () => {
  it("lists 150 gifts over several pages, the table's header and 'Page i of n' on each, and totals each currency apart", async () => {
    const gifts = Array.from({ length: 150 }, (_, i) => {
      const currency = i % 3 === 2 ? "EUR" : "USD";
      const amountMinor = 2_500 + i * 100;
      return {
        receiptNumber: `R-${String(1000 + i).padStart(6, "0")}`,
        donatedAt: Date.UTC(2026, 0, 2) + i * 2 * 86_400_000,
        campaign:
          i % 4 === 0 ? null : `Campaign ${(i % 7) + 1}: a rather long campaign title that must be cut`,
        currency,
        amountMinor,
        deductibleMinor: i % 10 === 0 ? amountMinor - 500 : amountMinor,
      };
    });
    const sum = (c: string, k: "amountMinor" | "deductibleMinor") =>
      gifts.filter((g) => g.currency === c).reduce((a, g) => a + g[k], 0);
    const doc = await read(await renderStatementPdf(env, statement({ gifts })));

    const n = doc.pages.length;
    expect(n).toBeGreaterThanOrEqual(3);
    doc.pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${n}`);
      expect(page).toContain("Receipt");
      expect(page).toContain("Deductible");
    });
    expect(doc.pages[1]).toContain("Łucja Żółć (continued)");
    for (const g of [gifts[0]!, gifts[77]!, gifts[149]!]) expect(doc.text).toContain(g.receiptNumber);
    expect(doc.text).toContain("Year-end statement");
    expect(doc.text).toContain("January 1, 2026 – December 31, 2026");
    expect(doc.text).toContain("Żółć & Daughters");
    // Totals per currency; never one sum across currencies.
    const last = doc.pages[n - 1]!;
    expect(last).toContain(`Total (USD) ${formatMoney(sum("USD", "amountMinor"), "USD", "en-US")}`);
    expect(last).toContain(formatMoney(sum("USD", "deductibleMinor"), "USD", "en-US"));
    expect(last).toContain(`Total (EUR) ${formatMoney(sum("EUR", "amountMinor"), "EUR", "en-US")}`);
    expect(last).toContain(formatMoney(sum("EUR", "deductibleMinor"), "EUR", "en-US"));
    expect(doc.text).not.toContain(
      formatMoney(sum("USD", "amountMinor") + sum("EUR", "amountMinor"), "USD", "en-US"),
    );
    // The closing block: tax statement and signatory, after the last gift.
    expect(last).toContain("No goods or services were provided");
    expect(last).toContain("Margaret Ellison");
    expect(last.indexOf(gifts[149]!.receiptNumber)).toBeLessThan(last.indexOf("Margaret Ellison"));
  });

  it("never leaves the totals alone under an empty table header", () => {
    // 30 rows fit on page 1, 45 on the next; the closing block takes 12 rows' height.
    expect(paginate(10, 30, 45, 12)).toEqual([10]);
    expect(paginate(25, 30, 45, 12)).toEqual([22, 3]);
    expect(paginate(30, 30, 45, 12)).toEqual([27, 3]);
    expect(paginate(100, 30, 45, 12)).toEqual([30, 45, 25]);
    expect(paginate(78, 30, 45, 12)).toEqual([30, 45, 3]);
    for (let rows = 1; rows < 300; rows++) {
      const plan = paginate(rows, 30, 45, 12);
      expect(plan.reduce((a, b) => a + b, 0)).toBe(rows);
      expect(plan.at(-1)).toBeGreaterThanOrEqual(Math.min(rows, 3));
    }
  });

  it("in Japanese: words, yen and dates of the organization's day", async () => {
    const doc = await read(
      await renderStatementPdf(
        env,
        statement({
          organization: JP_ORG,
          settings: { ...SETTINGS, language: "ja", signatoryName: "佐藤 花子", signatoryTitle: "理事長" },
          donor: {
            name: "山田 太郎",
            company: null,
            address: { ...snapshot().donor.address, country: "JP" },
          },
          period: { label: "2026年", start: Date.UTC(2025, 11, 31, 15), end: Date.UTC(2026, 11, 31, 15) },
          gifts: [
            // 20:00 UTC on 9 March is 10 March in Tokyo.
            {
              receiptNumber: "R-000007",
              donatedAt: Date.UTC(2026, 2, 9, 20),
              campaign: "令和の災害支援",
              currency: "JPY",
              amountMinor: 5_000,
              deductibleMinor: 5_000,
            },
          ],
        }),
      ),
    );
    for (const s of [
      "年間寄附金明細書",
      "山田 太郎",
      "控除対象額合計",
      formatMoney(5_000, "JPY", "ja-JP"),
      "2026/03/10",
      "1 / 1 ページ",
    ]) {
      expect(doc.has(s), s).toBe(true);
    }
  });

  it("says so when the period has no gifts", async () => {
    const doc = await read(await renderStatementPdf(env, statement()));
    expect(doc.text).toContain("No gifts in this period.");
    expect(doc.text).toContain("Page 1 of 1");
  });
});

describe("receiptLocale", () => {
  it("is the receipt's language in the organization's country", () => {
    expect(receiptLocale("fr", "FR")).toBe("fr-FR");
    expect(receiptLocale("en", "us")).toBe("en-US");
    expect(receiptLocale("ja", "JP")).toBe("ja-JP");
    expect(receiptLocale("en", null)).toBe("en");
    expect(receiptLocale("de", "")).toBe("de");
    expect(receiptLocale("xx", "GB")).toBe("en-GB");
  });
});
