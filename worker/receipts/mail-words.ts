/**
 * The fixed words of the mails carrying receipts and statements, in the receipt's language; the
 * thank-you itself is the organization's own text (core/thanks.ts).
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

/** What a correction or a refund's notice tells the donor (decision 049), every value formatted. */
interface ChangeFacts {
  /** The donor's name, or "" (the greeting then names nobody). */
  name: string;
  org: string;
  /** The gift's amount and date. */
  amount: string;
  date: string;
  /** What this change refunded ("" when it refunded nothing: a correction for another reason). */
  refunded: string;
  /** Whether the gift is now refunded in full. */
  full: boolean;
  /** What is left of the gift, deductible on the new receipt ("" for a full refund). */
  kept: string;
  /** The new receipt's number ("" for a full refund: there is none) and the one it voids. */
  number: string;
  old: string;
}

type ChangeMail = { subject: string; paragraphs: string[] };

/**
 * The three mails a receipted gift's change sends, per language: a partial refund and another
 * correction (the corrected receipt attached), and a full refund (no receipt: the old one is void).
 */
const CHANGE: Record<
  ReceiptLanguage,
  {
    partial: (f: ChangeFacts) => ChangeMail;
    corrected: (f: ChangeFacts) => ChangeMail;
    full: (f: ChangeFacts) => ChangeMail;
  }
> = {
  en: {
    partial: (f) => ({
      subject: `Your corrected receipt ${f.number} from ${f.org}`,
      paragraphs: [
        f.name ? `Dear ${f.name},` : "Hello,",
        `We have refunded ${f.refunded} of your gift of ${f.amount} on ${f.date}. The remaining ${f.kept} stays your gift, and we thank you for it.`,
        `Your corrected tax receipt ${f.number} for ${f.kept} is attached as a PDF. It replaces receipt ${f.old}, which is now void: please use the corrected one for your tax return.`,
        f.org,
      ],
    }),
    corrected: (f) => ({
      subject: `Your corrected receipt ${f.number} from ${f.org}`,
      paragraphs: [
        f.name ? `Dear ${f.name},` : "Hello,",
        `We have corrected the receipt for your gift of ${f.amount} on ${f.date}. Your corrected tax receipt ${f.number} for ${f.kept} is attached as a PDF.`,
        `It replaces receipt ${f.old}, which is now void: please use the corrected one for your tax return.`,
        f.org,
      ],
    }),
    full: (f) => ({
      subject: `Your gift to ${f.org} has been refunded`,
      paragraphs: [
        f.name ? `Dear ${f.name},` : "Hello,",
        f.refunded === f.amount
          ? `We have refunded your gift of ${f.amount} on ${f.date} in full.`
          : `We have refunded the remaining ${f.refunded} of your gift of ${f.amount} on ${f.date}: it is now refunded in full.`,
        `Receipt ${f.old} for this gift is now void: please do not use it for your tax return.`,
        f.org,
      ],
    }),
  },
  fr: {
    partial: (f) => ({
      subject: `Votre reçu fiscal rectifié ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Bonjour ${f.name},` : "Bonjour,",
        `Nous vous avons remboursé ${f.refunded} sur votre don de ${f.amount} du ${f.date}. Les ${f.kept} restants demeurent votre don, et nous vous en remercions.`,
        `Votre reçu fiscal rectifié ${f.number} de ${f.kept} est joint en PDF. Il remplace le reçu ${f.old}, désormais annulé : utilisez le reçu rectifié pour votre déclaration d’impôts.`,
        f.org,
      ],
    }),
    corrected: (f) => ({
      subject: `Votre reçu fiscal rectifié ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Bonjour ${f.name},` : "Bonjour,",
        `Nous avons rectifié le reçu de votre don de ${f.amount} du ${f.date}. Votre reçu fiscal rectifié ${f.number} de ${f.kept} est joint en PDF.`,
        `Il remplace le reçu ${f.old}, désormais annulé : utilisez le reçu rectifié pour votre déclaration d’impôts.`,
        f.org,
      ],
    }),
    full: (f) => ({
      subject: `Votre don à ${f.org} a été remboursé`,
      paragraphs: [
        f.name ? `Bonjour ${f.name},` : "Bonjour,",
        f.refunded === f.amount
          ? `Nous vous avons remboursé l’intégralité de votre don de ${f.amount} du ${f.date}.`
          : `Nous vous avons remboursé les ${f.refunded} restants de votre don de ${f.amount} du ${f.date} : il est désormais remboursé en totalité.`,
        `Le reçu ${f.old} de ce don est désormais annulé : ne l’utilisez pas pour votre déclaration d’impôts.`,
        f.org,
      ],
    }),
  },
  de: {
    partial: (f) => ({
      subject: `Ihre berichtigte Zuwendungsbestätigung ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Guten Tag ${f.name},` : "Guten Tag,",
        `Wir haben Ihnen ${f.refunded} Ihrer Zuwendung von ${f.amount} vom ${f.date} erstattet. Die verbleibenden ${f.kept} bleiben Ihre Zuwendung – vielen Dank dafür.`,
        `Ihre berichtigte Zuwendungsbestätigung ${f.number} über ${f.kept} finden Sie als PDF im Anhang. Sie ersetzt die Bestätigung ${f.old}, die nun ungültig ist: Bitte verwenden Sie für Ihre Steuererklärung die berichtigte.`,
        f.org,
      ],
    }),
    corrected: (f) => ({
      subject: `Ihre berichtigte Zuwendungsbestätigung ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Guten Tag ${f.name},` : "Guten Tag,",
        `Wir haben die Bestätigung Ihrer Zuwendung von ${f.amount} vom ${f.date} berichtigt. Ihre berichtigte Zuwendungsbestätigung ${f.number} über ${f.kept} finden Sie als PDF im Anhang.`,
        `Sie ersetzt die Bestätigung ${f.old}, die nun ungültig ist: Bitte verwenden Sie für Ihre Steuererklärung die berichtigte.`,
        f.org,
      ],
    }),
    full: (f) => ({
      subject: `Ihre Zuwendung an ${f.org} wurde erstattet`,
      paragraphs: [
        f.name ? `Guten Tag ${f.name},` : "Guten Tag,",
        f.refunded === f.amount
          ? `Wir haben Ihnen Ihre Zuwendung von ${f.amount} vom ${f.date} vollständig erstattet.`
          : `Wir haben Ihnen die verbleibenden ${f.refunded} Ihrer Zuwendung von ${f.amount} vom ${f.date} erstattet: Sie ist nun vollständig erstattet.`,
        `Die Bestätigung ${f.old} für diese Zuwendung ist nun ungültig: Bitte verwenden Sie sie nicht für Ihre Steuererklärung.`,
        f.org,
      ],
    }),
  },
  es: {
    partial: (f) => ({
      subject: `Su recibo fiscal corregido ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Hola, ${f.name}:` : "Hola:",
        `Le hemos reembolsado ${f.refunded} de su donación de ${f.amount} del ${f.date}. Los ${f.kept} restantes siguen siendo su donación, y se lo agradecemos.`,
        `Adjuntamos en PDF su recibo fiscal corregido ${f.number} por ${f.kept}. Sustituye al recibo ${f.old}, que queda anulado: utilice el corregido en su declaración de impuestos.`,
        f.org,
      ],
    }),
    corrected: (f) => ({
      subject: `Su recibo fiscal corregido ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Hola, ${f.name}:` : "Hola:",
        `Hemos corregido el recibo de su donación de ${f.amount} del ${f.date}. Adjuntamos en PDF su recibo fiscal corregido ${f.number} por ${f.kept}.`,
        `Sustituye al recibo ${f.old}, que queda anulado: utilice el corregido en su declaración de impuestos.`,
        f.org,
      ],
    }),
    full: (f) => ({
      subject: `Su donación a ${f.org} ha sido reembolsada`,
      paragraphs: [
        f.name ? `Hola, ${f.name}:` : "Hola:",
        f.refunded === f.amount
          ? `Le hemos reembolsado íntegramente su donación de ${f.amount} del ${f.date}.`
          : `Le hemos reembolsado los ${f.refunded} restantes de su donación de ${f.amount} del ${f.date}: queda reembolsada en su totalidad.`,
        `El recibo ${f.old} de esta donación queda anulado: no lo utilice en su declaración de impuestos.`,
        f.org,
      ],
    }),
  },
  nl: {
    partial: (f) => ({
      subject: `Uw gecorrigeerd ontvangstbewijs ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Beste ${f.name},` : "Beste gever,",
        `We hebben ${f.refunded} van uw gift van ${f.amount} op ${f.date} terugbetaald. De overige ${f.kept} blijft uw gift, en daarvoor danken we u.`,
        `Uw gecorrigeerd ontvangstbewijs ${f.number} voor ${f.kept} vindt u als pdf in de bijlage. Het vervangt ontvangstbewijs ${f.old}, dat nu ongeldig is: gebruik het gecorrigeerde voor uw belastingaangifte.`,
        f.org,
      ],
    }),
    corrected: (f) => ({
      subject: `Uw gecorrigeerd ontvangstbewijs ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Beste ${f.name},` : "Beste gever,",
        `We hebben het ontvangstbewijs van uw gift van ${f.amount} op ${f.date} gecorrigeerd. Uw gecorrigeerd ontvangstbewijs ${f.number} voor ${f.kept} vindt u als pdf in de bijlage.`,
        `Het vervangt ontvangstbewijs ${f.old}, dat nu ongeldig is: gebruik het gecorrigeerde voor uw belastingaangifte.`,
        f.org,
      ],
    }),
    full: (f) => ({
      subject: `Uw gift aan ${f.org} is terugbetaald`,
      paragraphs: [
        f.name ? `Beste ${f.name},` : "Beste gever,",
        f.refunded === f.amount
          ? `We hebben uw gift van ${f.amount} op ${f.date} volledig terugbetaald.`
          : `We hebben de overige ${f.refunded} van uw gift van ${f.amount} op ${f.date} terugbetaald: de gift is nu volledig terugbetaald.`,
        `Ontvangstbewijs ${f.old} van deze gift is nu ongeldig: gebruik het niet voor uw belastingaangifte.`,
        f.org,
      ],
    }),
  },
  pt: {
    partial: (f) => ({
      subject: `O seu recibo corrigido ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Olá, ${f.name},` : "Olá,",
        `Reembolsámos ${f.refunded} do seu donativo de ${f.amount} de ${f.date}. Os restantes ${f.kept} continuam a ser o seu donativo, e agradecemos-lhe.`,
        `Segue em anexo, em PDF, o seu recibo corrigido ${f.number} de ${f.kept}. Substitui o recibo ${f.old}, que fica anulado: use o corrigido na sua declaração de impostos.`,
        f.org,
      ],
    }),
    corrected: (f) => ({
      subject: `O seu recibo corrigido ${f.number} – ${f.org}`,
      paragraphs: [
        f.name ? `Olá, ${f.name},` : "Olá,",
        `Corrigimos o recibo do seu donativo de ${f.amount} de ${f.date}. Segue em anexo, em PDF, o seu recibo corrigido ${f.number} de ${f.kept}.`,
        `Substitui o recibo ${f.old}, que fica anulado: use o corrigido na sua declaração de impostos.`,
        f.org,
      ],
    }),
    full: (f) => ({
      subject: `O seu donativo a ${f.org} foi reembolsado`,
      paragraphs: [
        f.name ? `Olá, ${f.name},` : "Olá,",
        f.refunded === f.amount
          ? `Reembolsámos na totalidade o seu donativo de ${f.amount} de ${f.date}.`
          : `Reembolsámos os restantes ${f.refunded} do seu donativo de ${f.amount} de ${f.date}: fica reembolsado na totalidade.`,
        `O recibo ${f.old} deste donativo fica anulado: não o use na sua declaração de impostos.`,
        f.org,
      ],
    }),
  },
  ja: {
    partial: (f) => ({
      subject: `${f.org}より 訂正後の証明書 ${f.number} のご送付`,
      paragraphs: [
        f.name ? `${f.name} 様` : "ご支援者様",
        `${f.date} にいただいた ${f.amount} のご寄附のうち、${f.refunded} を返金いたしました。残りの ${f.kept} は引き続きご寄附としてお受けし、心より感謝申し上げます。`,
        `${f.kept} の訂正後の証明書 ${f.number} を PDF で添付しております。これは証明書 ${f.old} に代わるもので、${f.old} は無効となりました。確定申告には訂正後の証明書をお使いください。`,
        f.org,
      ],
    }),
    corrected: (f) => ({
      subject: `${f.org}より 訂正後の証明書 ${f.number} のご送付`,
      paragraphs: [
        f.name ? `${f.name} 様` : "ご支援者様",
        `${f.date} にいただいた ${f.amount} のご寄附の証明書を訂正いたしました。${f.kept} の訂正後の証明書 ${f.number} を PDF で添付しております。`,
        `これは証明書 ${f.old} に代わるもので、${f.old} は無効となりました。確定申告には訂正後の証明書をお使いください。`,
        f.org,
      ],
    }),
    full: (f) => ({
      subject: `${f.org}へのご寄附の返金について`,
      paragraphs: [
        f.name ? `${f.name} 様` : "ご支援者様",
        f.refunded === f.amount
          ? `${f.date} にいただいた ${f.amount} のご寄附を全額返金いたしました。`
          : `${f.date} にいただいた ${f.amount} のご寄附のうち、残りの ${f.refunded} を返金し、全額返金となりました。`,
        `このご寄附の証明書 ${f.old} は無効となりました。確定申告にはお使いにならないでください。`,
        f.org,
      ],
    }),
  },
};

/** The mail a receipted gift's change sends instead of the thank-you (decision 049). */
export function changeMailWords(
  language: string,
  kind: "partial" | "corrected" | "full",
  facts: ChangeFacts,
) {
  const m = (CHANGE[language as ReceiptLanguage] ?? CHANGE.en)[kind](facts);
  return { subject: m.subject, paragraphs: m.paragraphs.filter(Boolean) };
}
