/**
 * The few fixed words of the e-mails that carry receipts and statements, in the receipt's
 * language (core/receipts.ts receiptLanguages); the thank-you itself is the organization's own
 * text (core/thanks.ts).
 */
import type { ReceiptLanguage } from "@core/receipts";

const ATTACHED: Record<ReceiptLanguage, (n: string) => string> = {
  en: (n) => `Your tax receipt ${n} is attached as a PDF.`,
  fr: (n) => `Votre reçu fiscal ${n} est joint en PDF.`,
  de: (n) => `Ihre Zuwendungsbestätigung ${n} finden Sie als PDF im Anhang.`,
  es: (n) => `Adjuntamos su recibo fiscal ${n} en PDF.`,
  nl: (n) => `Uw fiscaal attest ${n} vindt u als pdf in de bijlage.`,
  pt: (n) => `Segue em anexo o seu recibo ${n} em PDF.`,
  ja: (n) => `領収書 ${n} を PDF で添付しております。`,
};

/** The line under the thank-you that says the receipt is attached. */
export function attachedLine(language: string, number: string): string {
  return (ATTACHED[language as ReceiptLanguage] ?? ATTACHED.en)(number);
}

const STATEMENT: Record<ReceiptLanguage, (period: string, org: string) => { subject: string; body: string }> =
  {
    en: (p, o) => ({
      subject: `Your ${p} giving statement from ${o}`,
      body: `Thank you for your support in ${p}. Your year-end statement of the gifts you made to ${o}, for your tax return, is attached as a PDF.`,
    }),
    fr: (p, o) => ({
      subject: `Votre récapitulatif de dons ${p} – ${o}`,
      body: `Merci pour votre soutien en ${p}. Vous trouverez en pièce jointe (PDF) le récapitulatif annuel de vos dons à ${o}, pour votre déclaration d’impôts.`,
    }),
    de: (p, o) => ({
      subject: `Ihre Spendenübersicht ${p} – ${o}`,
      body: `Vielen Dank für Ihre Unterstützung im Jahr ${p}. Im Anhang finden Sie die Jahresübersicht Ihrer Spenden an ${o} als PDF, für Ihre Steuererklärung.`,
    }),
    es: (p, o) => ({
      subject: `Su resumen de donativos ${p} – ${o}`,
      body: `Gracias por su apoyo en ${p}. Adjuntamos en PDF el resumen anual de sus donativos a ${o}, para su declaración de impuestos.`,
    }),
    nl: (p, o) => ({
      subject: `Uw giftenoverzicht ${p} – ${o}`,
      body: `Dank u voor uw steun in ${p}. In de bijlage vindt u het jaaroverzicht van uw giften aan ${o} als pdf, voor uw belastingaangifte.`,
    }),
    pt: (p, o) => ({
      subject: `O seu resumo de donativos ${p} – ${o}`,
      body: `Obrigado pelo seu apoio em ${p}. Segue em anexo, em PDF, o resumo anual dos seus donativos a ${o}, para a sua declaração de impostos.`,
    }),
    ja: (p, o) => ({
      subject: `${o}より ${p} 年間寄付明細書のご送付`,
      body: `${p} のご支援に心より感謝申し上げます。${o} へのご寄付の年間明細書（確定申告用）を PDF で添付しております。`,
    }),
  };

/** The e-mail that carries a year-end statement. */
export function statementMailWords(language: string, period: string, org: string) {
  return (STATEMENT[language as ReceiptLanguage] ?? STATEMENT.en)(period, org);
}
