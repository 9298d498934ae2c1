/**
 * The fixed words of receipts and statements in each receipt language; what the organization writes
 * and the donor's name stay as typed. The documents' names are the usual ones per country; the tax
 * statement carries the wording the law asks for.
 */

import { type PaymentMethod, paymentMethodLabel } from "@core/labels";
import type { ReceiptLanguage } from "@core/receipts";

export interface ReceiptWords {
  /** Label to value: ": " (French puts a no-break space before it, Japanese a full-width colon). */
  colon: string;
  /** Between the parts of an address on one line. */
  separator: string;
  /** The signatory's title: "Treasurer, Harbor Light" (Japanese puts the organization first). */
  titleAt: (title: string, organization: string) => string;
  receipt: string;
  correctedReceipt: string;
  replaces: (number: string) => string;
  void: string;
  voidNotice: string;
  /** Why a receipt is void, in the donor's terms (receipt.void_cause; never the staff's note). */
  voidCause: { replacedBy: (number: string) => string; refunded: string; cancelled: string };
  receiptNumber: string;
  dateOfGift: string;
  dateIssued: string;
  donor: string;
  /** The heading of the gift's details. */
  gift: string;
  amount: string;
  refunded: string;
  deductible: string;
  campaign: string;
  /** A gift to no campaign. */
  generalFund: string;
  /** A statement's receipt cell for an imported gift, and the line that explains it. */
  previousSystem: string;
  previousSystemNote: string;
  /** By core/donation.ts tributeTypes. */
  tribute: { in_honor: string; in_memory: string };
  paymentMethod: string;
  /** By core/labels.ts paymentMethods; another method prints as core/labels.ts words it. */
  methods: Readonly<Record<PaymentMethod, string>>;
  registrationNo: string;
  taxNo: string;
  statement: string;
  statementIntro: string;
  period: string;
  giftCount: string;
  receiptColumn: string;
  dateColumn: string;
  amountColumn: string;
  deductibleColumn: string;
  total: string;
  totalDeductible: string;
  noGifts: string;
  signed: string;
  thanks: string;
  continued: string;
  page: (page: number, pages: number) => string;
}

/** French typography wants a narrow no-break space before ; : ! ? and inside « ». */
const NNBSP = "\u202f";

export const WORDS: Readonly<Record<ReceiptLanguage, ReceiptWords>> = {
  en: {
    colon: ": ",
    separator: ", ",
    titleAt: (title, organization) => `${title}, ${organization}`,
    receipt: "Donation receipt",
    correctedReceipt: "Corrected receipt",
    replaces: (n) => `Replaces receipt ${n}`,
    void: "VOID",
    voidNotice: "This receipt is void and may not be used for tax purposes.",
    voidCause: {
      replacedBy: (n) => `Replaced by receipt ${n}`,
      refunded: "Gift refunded",
      cancelled: "Gift cancelled",
    },
    receiptNumber: "Receipt number",
    dateOfGift: "Date of gift",
    dateIssued: "Date issued",
    donor: "Donor",
    gift: "Gift",
    amount: "Amount",
    refunded: "Refunded",
    deductible: "Deductible amount",
    campaign: "Campaign",
    generalFund: "General fund",
    previousSystem: "Previous system",
    previousSystemNote: "Gifts marked “Previous system” were receipted by the system we used before.",
    tribute: { in_honor: "In honour of", in_memory: "In memory of" },
    paymentMethod: "Payment method",
    methods: {
      card: "Card",
      cash: "Cash",
      check: "Check",
      bank_transfer: "Bank transfer",
      ach_sepa: "Direct debit (ACH / SEPA)",
      paypal: "PayPal",
      wallet: "Digital wallet",
      other: "Other",
    },
    registrationNo: "Registration no.",
    taxNo: "Tax no.",
    statement: "Year-end statement",
    statementIntro: "The gifts below were received in this period; each has its own numbered receipt.",
    period: "Period",
    giftCount: "Gifts",
    receiptColumn: "Receipt",
    dateColumn: "Date",
    amountColumn: "Amount",
    deductibleColumn: "Deductible",
    total: "Total",
    totalDeductible: "Total deductible",
    noGifts: "No gifts in this period.",
    signed: "Signed",
    thanks: "Thank you for your generosity.",
    continued: "continued",
    page: (i, n) => `Page ${i} of ${n}`,
  },
  fr: {
    colon: "\u00a0: ",
    separator: ", ",
    titleAt: (title, organization) => `${title}, ${organization}`,
    receipt: "Reçu de don",
    correctedReceipt: "Reçu rectificatif",
    replaces: (n) => `Remplace le reçu ${n}`,
    void: "ANNULÉ",
    voidNotice: "Ce reçu est annulé et ne peut pas être utilisé à des fins fiscales.",
    voidCause: {
      replacedBy: (n) => `Remplacé par le reçu ${n}`,
      refunded: "Don remboursé",
      cancelled: "Don annulé",
    },
    receiptNumber: "Numéro de reçu",
    dateOfGift: "Date du don",
    dateIssued: "Date d’émission",
    donor: "Donateur",
    gift: "Don",
    amount: "Montant",
    refunded: "Remboursé",
    deductible: "Montant déductible",
    campaign: "Campagne",
    generalFund: "Fonds général",
    previousSystem: "Ancien système",
    previousSystemNote: `Les reçus des dons marqués «${NNBSP}Ancien système${NNBSP}» ont été émis par notre système précédent.`,
    tribute: { in_honor: "En l’honneur de", in_memory: "À la mémoire de" },
    paymentMethod: "Mode de paiement",
    methods: {
      card: "Carte bancaire",
      cash: "Espèces",
      check: "Chèque",
      bank_transfer: "Virement bancaire",
      ach_sepa: "Prélèvement (ACH / SEPA)",
      paypal: "PayPal",
      wallet: "Portefeuille numérique",
      other: "Autre",
    },
    registrationNo: "N° d’enregistrement",
    taxNo: "N° fiscal",
    statement: "Récapitulatif annuel des dons",
    statementIntro: `Les dons ci-dessous ont été reçus sur cette période${NNBSP}; chacun a son propre reçu numéroté.`,
    period: "Période",
    giftCount: "Dons",
    receiptColumn: "Reçu",
    dateColumn: "Date",
    amountColumn: "Montant",
    deductibleColumn: "Déductible",
    total: "Total",
    totalDeductible: "Total déductible",
    noGifts: "Aucun don sur cette période.",
    signed: "Signature",
    thanks: "Merci pour votre générosité.",
    continued: "suite",
    page: (i, n) => `Page ${i} sur ${n}`,
  },
  de: {
    colon: ": ",
    separator: ", ",
    titleAt: (title, organization) => `${title}, ${organization}`,
    receipt: "Zuwendungsbestätigung",
    correctedReceipt: "Berichtigte Zuwendungsbestätigung",
    replaces: (n) => `Ersetzt die Bestätigung ${n}`,
    void: "UNGÜLTIG",
    voidNotice: "Diese Bestätigung ist ungültig und darf nicht für steuerliche Zwecke verwendet werden.",
    voidCause: {
      replacedBy: (n) => `Ersetzt durch die Bestätigung ${n}`,
      refunded: "Zuwendung erstattet",
      cancelled: "Zuwendung storniert",
    },
    receiptNumber: "Bestätigungsnummer",
    dateOfGift: "Datum der Zuwendung",
    dateIssued: "Ausstellungsdatum",
    donor: "Zuwendende Person",
    gift: "Zuwendung",
    amount: "Betrag",
    refunded: "Erstattet",
    deductible: "Abzugsfähiger Betrag",
    campaign: "Kampagne",
    generalFund: "Allgemeiner Fonds",
    previousSystem: "Früheres System",
    previousSystemNote:
      "Für Zuwendungen mit „Früheres System“ hat unser früheres System die Bestätigung ausgestellt.",
    tribute: { in_honor: "Zu Ehren von", in_memory: "In Gedenken an" },
    paymentMethod: "Zahlungsart",
    methods: {
      card: "Karte",
      cash: "Bargeld",
      check: "Scheck",
      bank_transfer: "Überweisung",
      ach_sepa: "Lastschrift (ACH / SEPA)",
      paypal: "PayPal",
      wallet: "Digitale Geldbörse",
      other: "Sonstige",
    },
    registrationNo: "Registernummer",
    taxNo: "Steuernummer",
    statement: "Jahresübersicht der Zuwendungen",
    statementIntro:
      "Die folgenden Zuwendungen sind in diesem Zeitraum eingegangen; für jede gibt es eine eigene nummerierte Bestätigung.",
    period: "Zeitraum",
    giftCount: "Zuwendungen",
    receiptColumn: "Bestätigung",
    dateColumn: "Datum",
    amountColumn: "Betrag",
    deductibleColumn: "Abzugsfähig",
    total: "Summe",
    totalDeductible: "Abzugsfähig insgesamt",
    noGifts: "Keine Zuwendungen in diesem Zeitraum.",
    signed: "Unterschrift",
    thanks: "Herzlichen Dank für Ihre Großzügigkeit.",
    continued: "Fortsetzung",
    page: (i, n) => `Seite ${i} von ${n}`,
  },
  es: {
    colon: ": ",
    separator: ", ",
    titleAt: (title, organization) => `${title}, ${organization}`,
    receipt: "Recibo de donación",
    correctedReceipt: "Recibo rectificativo",
    replaces: (n) => `Sustituye al recibo ${n}`,
    void: "ANULADO",
    voidNotice: "Este recibo está anulado y no puede utilizarse a efectos fiscales.",
    voidCause: {
      replacedBy: (n) => `Sustituido por el recibo ${n}`,
      refunded: "Donación reembolsada",
      cancelled: "Donación anulada",
    },
    receiptNumber: "Número de recibo",
    dateOfGift: "Fecha de la donación",
    dateIssued: "Fecha de emisión",
    donor: "Donante",
    gift: "Donación",
    amount: "Importe",
    refunded: "Reembolsado",
    deductible: "Importe deducible",
    campaign: "Campaña",
    generalFund: "Fondo general",
    previousSystem: "Sistema anterior",
    previousSystemNote:
      "Los recibos de las donaciones marcadas «Sistema anterior» los emitió nuestro sistema anterior.",
    tribute: { in_honor: "En honor de", in_memory: "En memoria de" },
    paymentMethod: "Forma de pago",
    methods: {
      card: "Tarjeta",
      cash: "Efectivo",
      check: "Cheque",
      bank_transfer: "Transferencia bancaria",
      ach_sepa: "Domiciliación (ACH / SEPA)",
      paypal: "PayPal",
      wallet: "Monedero digital",
      other: "Otro",
    },
    registrationNo: "N.º de registro",
    taxNo: "N.º de identificación fiscal",
    statement: "Resumen anual de donaciones",
    statementIntro:
      "Las donaciones siguientes se recibieron en este periodo; cada una tiene su propio recibo numerado.",
    period: "Periodo",
    giftCount: "Donaciones",
    receiptColumn: "Recibo",
    dateColumn: "Fecha",
    amountColumn: "Importe",
    deductibleColumn: "Deducible",
    total: "Total",
    totalDeductible: "Total deducible",
    noGifts: "No hay donaciones en este periodo.",
    signed: "Firma",
    thanks: "Gracias por su generosidad.",
    continued: "continuación",
    page: (i, n) => `Página ${i} de ${n}`,
  },
  nl: {
    colon: ": ",
    separator: ", ",
    titleAt: (title, organization) => `${title}, ${organization}`,
    receipt: "Ontvangstbewijs gift",
    correctedReceipt: "Gecorrigeerd ontvangstbewijs",
    replaces: (n) => `Vervangt ontvangstbewijs ${n}`,
    void: "ONGELDIG",
    voidNotice: "Dit ontvangstbewijs is ongeldig en mag niet voor belastingdoeleinden worden gebruikt.",
    voidCause: {
      replacedBy: (n) => `Vervangen door ontvangstbewijs ${n}`,
      refunded: "Gift terugbetaald",
      cancelled: "Gift geannuleerd",
    },
    receiptNumber: "Nummer ontvangstbewijs",
    dateOfGift: "Datum van de gift",
    dateIssued: "Datum van uitgifte",
    donor: "Gever",
    gift: "Gift",
    amount: "Bedrag",
    refunded: "Terugbetaald",
    deductible: "Aftrekbaar bedrag",
    campaign: "Campagne",
    generalFund: "Algemeen fonds",
    previousSystem: "Vorig systeem",
    previousSystemNote:
      "Voor giften gemarkeerd „Vorig systeem” gaf ons vorige systeem het ontvangstbewijs uit.",
    tribute: { in_honor: "Ter ere van", in_memory: "Ter nagedachtenis aan" },
    paymentMethod: "Betaalwijze",
    methods: {
      card: "Kaart",
      cash: "Contant",
      check: "Cheque",
      bank_transfer: "Bankoverschrijving",
      ach_sepa: "Incasso (ACH / SEPA)",
      paypal: "PayPal",
      wallet: "Digitale portemonnee",
      other: "Overig",
    },
    registrationNo: "Registratienr.",
    taxNo: "Fiscaal nr.",
    statement: "Jaaroverzicht giften",
    statementIntro:
      "De onderstaande giften zijn in deze periode ontvangen; elke gift heeft een eigen genummerd ontvangstbewijs.",
    period: "Periode",
    giftCount: "Giften",
    receiptColumn: "Bewijs",
    dateColumn: "Datum",
    amountColumn: "Bedrag",
    deductibleColumn: "Aftrekbaar",
    total: "Totaal",
    totalDeductible: "Totaal aftrekbaar",
    noGifts: "Geen giften in deze periode.",
    signed: "Handtekening",
    thanks: "Hartelijk dank voor uw vrijgevigheid.",
    continued: "vervolg",
    page: (i, n) => `Pagina ${i} van ${n}`,
  },
  pt: {
    colon: ": ",
    separator: ", ",
    titleAt: (title, organization) => `${title}, ${organization}`,
    receipt: "Recibo de donativo",
    correctedReceipt: "Recibo retificativo",
    replaces: (n) => `Substitui o recibo ${n}`,
    void: "ANULADO",
    voidNotice: "Este recibo foi anulado e não pode ser utilizado para efeitos fiscais.",
    voidCause: {
      replacedBy: (n) => `Substituído pelo recibo ${n}`,
      refunded: "Donativo reembolsado",
      cancelled: "Donativo cancelado",
    },
    receiptNumber: "N.º do recibo",
    dateOfGift: "Data do donativo",
    dateIssued: "Data de emissão",
    donor: "Doador",
    gift: "Donativo",
    amount: "Montante",
    refunded: "Reembolsado",
    deductible: "Montante dedutível",
    campaign: "Campanha",
    generalFund: "Fundo geral",
    previousSystem: "Sistema anterior",
    previousSystemNote:
      "Os recibos dos donativos marcados «Sistema anterior» foram emitidos pelo nosso sistema anterior.",
    tribute: { in_honor: "Em homenagem a", in_memory: "Em memória de" },
    paymentMethod: "Meio de pagamento",
    methods: {
      card: "Cartão",
      cash: "Numerário",
      check: "Cheque",
      bank_transfer: "Transferência bancária",
      ach_sepa: "Débito direto (ACH / SEPA)",
      paypal: "PayPal",
      wallet: "Carteira digital",
      other: "Outro",
    },
    registrationNo: "N.º de registo",
    taxNo: "N.º de contribuinte",
    statement: "Resumo anual de donativos",
    statementIntro:
      "Os donativos abaixo foram recebidos neste período; cada um tem o seu próprio recibo numerado.",
    period: "Período",
    giftCount: "Donativos",
    receiptColumn: "Recibo",
    dateColumn: "Data",
    amountColumn: "Montante",
    deductibleColumn: "Dedutível",
    total: "Total",
    totalDeductible: "Total dedutível",
    noGifts: "Não há donativos neste período.",
    signed: "Assinatura",
    thanks: "Obrigado pela sua generosidade.",
    continued: "continuação",
    page: (i, n) => `Página ${i} de ${n}`,
  },
  ja: {
    colon: "：",
    separator: " ",
    titleAt: (title, organization) => `${organization} ${title}`,
    receipt: "寄附金受領証明書",
    correctedReceipt: "寄附金受領証明書（訂正）",
    replaces: (n) => `${n} の差し替え`,
    void: "無効",
    voidNotice: "この証明書は無効です。税務上の目的には使用できません。",
    voidCause: {
      replacedBy: (n) => `証明書 ${n} に差し替え`,
      refunded: "寄附は返金されました",
      cancelled: "寄附は取り消されました",
    },
    receiptNumber: "証明書番号",
    dateOfGift: "寄附日",
    dateIssued: "発行日",
    donor: "寄附者",
    gift: "寄附の内容",
    amount: "寄附金額",
    refunded: "返金額",
    deductible: "控除対象額",
    campaign: "キャンペーン",
    generalFund: "一般寄附",
    previousSystem: "旧システム",
    previousSystemNote: "「旧システム」と記載の寄附の証明書は、以前のシステムで発行しています。",
    tribute: { in_honor: "敬意を表する方", in_memory: "追悼する方" },
    paymentMethod: "支払方法",
    methods: {
      card: "クレジットカード",
      cash: "現金",
      check: "小切手",
      bank_transfer: "銀行振込",
      ach_sepa: "口座振替（ACH / SEPA）",
      paypal: "PayPal",
      wallet: "電子ウォレット",
      other: "その他",
    },
    registrationNo: "登録番号",
    taxNo: "法人番号",
    statement: "年間寄附金明細書",
    statementIntro: "この期間にお受けした寄附の一覧です。各寄附には番号付きの証明書を発行しています。",
    period: "対象期間",
    giftCount: "寄附件数",
    receiptColumn: "証明書番号",
    dateColumn: "寄附日",
    amountColumn: "金額",
    deductibleColumn: "控除対象額",
    total: "合計",
    totalDeductible: "控除対象額合計",
    noGifts: "この期間の寄附はありません。",
    signed: "署名",
    thanks: "温かいご支援に心より感謝申し上げます。",
    continued: "続き",
    page: (i, n) => `${i} / ${n} ページ`,
  },
};

export function wordsFor(language: string): ReceiptWords {
  return (WORDS as Record<string, ReceiptWords | undefined>)[language] ?? WORDS.en;
}

/** A gift's payment method in the receipt's language (a processor's own code as words). */
export function methodWord(words: ReceiptWords, method: string): string {
  return (words.methods as Record<string, string | undefined>)[method] ?? paymentMethodLabel(method);
}

/** "In memory of" / "En l’honneur de"…, or null for an unknown tribute type. */
export function tributeWord(words: ReceiptWords, type: string | null): string | null {
  return type === "in_honor" || type === "in_memory" ? words.tribute[type] : null;
}
