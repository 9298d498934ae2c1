/**
 * Receipts go out (issue 25, decision 031), on real D1 with the dev outbox as the mailer: with
 * "send automatically" a completed gift's receipt is e-mailed with the thank-you and the PDF in
 * the same request's aftermath (worker/receipts/delivery.ts), for the form and the processor's
 * webhook alike; a refund mails what happened (the amount refunded, what is kept, the corrected
 * receipt naming the one it replaces, or a full refund's notice) unless staff choose not to, and a
 * restore mails nothing (issue 53, decision 049); without
 * it nothing goes until someone sends it. What cannot go (test mode, no e-mail, anonymized, void)
 * is refused with the gift page's words; one receipt is never e-mailed twice by two deliveries at
 * once; the bulk send answers per gift; the thank-you alone carries no attachment and escapes
 * what the donor typed; viewers send nothing. The PDFs are read back with unpdf.
 */
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { deliverQueued } from "../../worker/receipts/delivery";
import { runScheduled } from "../../worker/scheduled";
import { deliver, webhookEvent } from "../donations/brute";
import { makeOrg, member } from "../fixtures";
import { appFetch, codeOf, testEnv } from "../helpers";

type Caller = Awaited<ReturnType<typeof member>>["caller"];

const settings = (autoSend: boolean) => ({
  signatoryName: "Ada Lovelace",
  signatoryTitle: "Treasurer",
  taxStatement: "No goods or services were provided in exchange for this gift.",
  numberPrefix: "R-",
  language: "en" as const,
  autoSend,
});

async function donor(caller: Caller, o: { firstName?: string; email?: string | null } = {}) {
  const d = await caller.donors.create({
    data: {
      firstName: o.firstName ?? "Ada",
      lastName: "Giver",
      email: o.email === undefined ? `ada-${crypto.randomUUID()}@example.test` : o.email,
    },
  });
  if (!d.created) throw new Error("expected a new donor");
  return d.id;
}

const gift = (donorId: string | null, o: Record<string, unknown> = {}) => ({
  donorId,
  campaignId: null,
  amountMinor: 12_500,
  currency: "USD" as const,
  paymentMethod: "cash" as const,
  donatedAt: Date.now() - 60_000,
  ...o,
});

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: string }[];
}

async function mailsTo(address: string): Promise<OutboxMail[]> {
  const { results } = await testEnv.DB.prepare(
    'SELECT "to", subject, text, html, attachments FROM mail_outbox WHERE "to" = ? ORDER BY created_at, rowid',
  )
    .bind(address.toLowerCase())
    .all<{ to: string; subject: string; text: string; html: string; attachments: string | null }>();
  return results.map((r) => ({ ...r, attachments: JSON.parse(r.attachments ?? "[]") }));
}

async function pdfText(base64: string) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/[\s\u00a0\u202f]+/g, " ");
}

async function orgName(org: string) {
  const r = await testEnv.DB.prepare("SELECT name FROM organization WHERE id = ?")
    .bind(org)
    .first<{ name: string }>();
  return r?.name as string;
}

async function emailOf(donorId: string) {
  const r = await testEnv.DB.prepare("SELECT email FROM donor WHERE id = ?")
    .bind(donorId)
    .first<{ email: string }>();
  return r?.email as string;
}

describe("receipts by e-mail", () => {
  it("sends a completed gift's receipt on its own when the organization asks: the thank-you with the PDF attached", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings(settings(true));
    const d = await donor(caller, { firstName: "Grace" });
    const g = await caller.donations.create(gift(d));

    const mails = await mailsTo(await emailOf(d));
    expect(mails).toHaveLength(1);
    const [mail] = mails as [OutboxMail];
    expect(mail.text).toContain("Grace");
    expect(mail.text).toContain("Your tax receipt R-000001 is attached");
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ["receipt-R-000001.pdf", "application/pdf"],
    ]);
    const text = await pdfText(mail.attachments[0]?.content as string);
    expect(text).toContain("R-000001");
    expect(text).toContain("$125.00");
    expect(text).toContain("Grace Giver");
    expect(text).toContain("No goods or services were provided in exchange for this gift.");

    const { receipts, acknowledgements } = await caller.receipts.forDonation({ donationId: g.id });
    expect(receipts[0]).toMatchObject({ delivery: "sent", sendCount: 1, sentTo: await emailOf(d) });
    expect(acknowledgements).toEqual([
      expect.objectContaining({ kind: "receipt", sentTo: await emailOf(d), sentBy: null }),
    ]);
    const audit = await testEnv.DB.prepare(
      "SELECT actor_id FROM audit_event WHERE organization_id = ? AND action = 'receipt.send'",
    )
      .bind(org)
      .all();
    expect(audit.results).toEqual([{ actor_id: null }]);
  });

  it("sends the receipt of a gift the processor's webhook completes, once the webhook is answered", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings(settings(true));
    const email = `hook-${org}@example.test`;
    const res = await deliver(
      webhookEvent(org, "tx-receipt", "donation.succeeded", { donor: { email, firstName: "Hook" } }),
    );
    expect(res.status).toBe(201);
    // The answer goes first; the receipt follows in the request's waitUntil.
    let mails: OutboxMail[] = [];
    for (let i = 0; i < 200 && !mails.length; i++) {
      mails = await mailsTo(email);
      if (!mails.length) await new Promise((r) => setTimeout(r, 25));
    }
    expect(mails.map((m) => m.attachments.map((a) => a.filename))).toEqual([["receipt-R-000001.pdf"]]);
    expect(await pdfText(mails[0]?.attachments[0]?.content as string)).toContain("$42.50");
  });

  it("after a refund, mails what happened: the amount refunded, what is kept, the corrected receipt naming the one it replaces", async () => {
    const org = await makeOrg();
    const { caller, jar } = await member(org, "owner");
    await caller.receipts.updateSettings(settings(true));
    const d = await donor(caller, { firstName: "Rosa" });
    const g = await caller.donations.create(gift(d, { amountMinor: 15_000 }));
    await caller.donations.updateStatus({
      id: g.id,
      status: "partially_refunded",
      refundAmountMinor: 5_000,
      reason: "Donor asked to move $50 to next year's drive",
    });
    const mails = await mailsTo(await emailOf(d));
    expect(mails.map((m) => m.attachments[0]?.filename)).toEqual([
      "receipt-R-000001.pdf",
      "receipt-R-000002.pdf",
    ]);
    const refund = mails[1] as OutboxMail;
    expect(refund.subject).toBe(`Your corrected receipt R-000002 from ${await orgName(org)}`);
    expect(refund.text).toContain("Dear Rosa Giver,");
    expect(refund.text).toContain("We have refunded $50.00 of your gift of $150.00 on ");
    expect(refund.text).toContain("The remaining $100.00 stays your gift");
    expect(refund.text).toContain("corrected tax receipt R-000002 for $100.00 is attached");
    expect(refund.text).toContain("It replaces receipt R-000001, which is now void");
    expect(refund.text).not.toContain("Thank you for your gift of");
    // The staff's reason is theirs: not in the mail, not on either PDF.
    expect(refund.text).not.toContain("next year's drive");
    const text = await pdfText(refund.attachments[0]?.content as string);
    expect(text).toContain("Replaces receipt R-000001");
    expect(text).toContain("$100.00");
    const voided = (await caller.receipts.forDonation({ donationId: g.id })).receipts[0];
    expect(voided).toMatchObject({
      status: "void",
      voidCause: "replaced",
      voidReason: "Donor asked to move $50 to next year's drive",
    });
    const res = await appFetch(`/api/receipts/${voided?.id}.pdf`, { headers: { cookie: jar.header() } });
    const { text: voidText } = await extractText(
      await getDocumentProxy(new Uint8Array(await res.arrayBuffer())),
      {
        mergePages: true,
      },
    );
    expect(voidText).toContain("Replaced by receipt R-000002");
    expect(voidText).not.toContain("next year");

    // "Refund more…": a second partial refund mails the same kind of message.
    await caller.donations.updateStatus({
      id: g.id,
      status: "partially_refunded",
      refundAmountMinor: 2_000,
      reason: "And a bit more",
    });
    const again = (await mailsTo(await emailOf(d)))[2] as OutboxMail;
    expect(again.text).toContain("We have refunded $20.00 of your gift of $150.00");
    expect(again.text).toContain("The remaining $80.00 stays your gift");
    expect(again.text).toContain("It replaces receipt R-000002");
    // Resend says the correction's words again, not the thank-you.
    await caller.receipts.send({ donationId: g.id });
    const resent = (await mailsTo(await emailOf(d)))[3] as OutboxMail;
    expect(resent.subject).toBe(again.subject);
    expect(resent.text).toBe(again.text);
    const { acknowledgements } = await caller.receipts.forDonation({ donationId: g.id });
    expect(acknowledgements.map((a) => a.kind)).toEqual([
      "correction",
      "correction",
      "correction",
      "receipt",
    ]);

    // The rest refunded: a notice without a receipt says the last one is void.
    await caller.donations.updateStatus({ id: g.id, status: "refunded", reason: "All back" });
    const full = (await mailsTo(await emailOf(d)))[4] as OutboxMail;
    expect(full.subject).toBe(`Your gift to ${await orgName(org)} has been refunded`);
    expect(full.text).toContain("We have refunded the remaining $80.00 of your gift of $150.00");
    expect(full.text).toContain("Receipt R-000003 for this gift is now void");
    expect(full.attachments).toEqual([]);
    const after = await caller.receipts.forDonation({ donationId: g.id });
    expect(after.acknowledgements[0]?.kind).toBe("refund");
    expect(after.receipts.map((r) => [r.number, r.status, r.voidCause])).toEqual([
      ["R-000001", "void", "replaced"],
      ["R-000002", "void", "replaced"],
      ["R-000003", "void", "refunded"],
    ]);
  });

  it("sends no refund mail when staff choose not to, whatever the setting; and one when they choose to without it", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings(settings(true));
    const d = await donor(caller);
    const g = await caller.donations.create(gift(d));
    await caller.donations.updateStatus({
      id: g.id,
      status: "partially_refunded",
      refundAmountMinor: 2_500,
      reason: "Part",
      notifyDonor: false,
    });
    expect(await mailsTo(await emailOf(d))).toHaveLength(1);
    const { receipts } = await caller.receipts.forDonation({ donationId: g.id });
    expect(receipts[1]).toMatchObject({ number: "R-000002", status: "issued", delivery: "none" });
    await caller.donations.updateStatus({ id: g.id, status: "refunded", reason: "All", notifyDonor: false });
    expect(await mailsTo(await emailOf(d))).toHaveLength(1);

    await caller.receipts.updateSettings(settings(false));
    const d2 = await donor(caller);
    const g2 = await caller.donations.create(gift(d2));
    await caller.donations.updateStatus({ id: g2.id, status: "refunded", reason: "All", notifyDonor: true });
    const mails = await mailsTo(await emailOf(d2));
    expect(mails.map((m) => m.subject)).toEqual([`Your gift to ${await orgName(org)} has been refunded`]);
    expect(mails[0]?.text).toContain("We have refunded your gift of $125.00 on ");
    expect(mails[0]?.text).toContain("in full");
  });

  it("re-issues a restored gift's receipt without mailing the donor again", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings(settings(true));
    const d = await donor(caller);
    const g = await caller.donations.create(gift(d));
    await caller.donations.delete({ id: g.id });
    await caller.donations.restore({ id: g.id });
    expect((await mailsTo(await emailOf(d))).map((m) => m.attachments[0]?.filename)).toEqual([
      "receipt-R-000001.pdf",
    ]);
    const { receipts } = await caller.receipts.forDonation({ donationId: g.id });
    expect(receipts.map((r) => [r.number, r.status, r.voidCause, r.delivery])).toEqual([
      ["R-000001", "void", "cancelled", "sent"],
      ["R-000002", "issued", null, "none"],
    ]);
    expect(receipts[0]?.voidReason).toBe("donation.trash");
  });

  it("sends nothing on its own when the organization did not ask; Send and Resend do, counted", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings(settings(false));
    const d = await donor(caller);
    const g = await caller.donations.create(gift(d));
    expect(await mailsTo(await emailOf(d))).toHaveLength(0);

    const sent = await caller.receipts.send({ donationId: g.id });
    expect(sent).toMatchObject({ number: "R-000001", sentTo: await emailOf(d) });
    await caller.receipts.send({ donationId: g.id });
    expect(await mailsTo(await emailOf(d))).toHaveLength(2);
    const { receipts } = await caller.receipts.forDonation({ donationId: g.id });
    expect(receipts[0]).toMatchObject({ delivery: "sent", sendCount: 2 });
  });

  it("refuses what cannot go, in the gift page's words: no e-mail address, test mode, anonymized, no receipt", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const noEmail = await caller.donations.create(gift(await donor(caller, { email: null })));
    await expect(caller.receipts.send({ donationId: noEmail.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The donor has no e-mail address.",
    });
    const test = await caller.donations.create(gift(await donor(caller), { mode: "test" }));
    await expect(caller.receipts.send({ donationId: test.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Test-mode donations get no receipt.",
    });
    await expect(caller.receipts.sendThanks({ donationId: test.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const goneId = await donor(caller);
    const gone = await caller.donations.create(gift(goneId));
    await caller.donors.anonymize({ id: goneId, confirm: await emailOf(goneId) });
    expect(await codeOf(caller.receipts.send({ donationId: gone.id }))).toBe("BAD_REQUEST");
    const view = await caller.receipts.forDonation({ donationId: noEmail.id });
    expect(view.noSend).toBe("The donor has no e-mail address.");
    expect(await codeOf(caller.receipts.send({ donationId: "nope-nope-nope" }))).toBe("NOT_FOUND");
  });

  it("never e-mails one queued receipt twice when two deliveries run at once", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings(settings(false));
    const d = await donor(caller);
    const g = await caller.donations.create(gift(d));
    await testEnv.DB.prepare("UPDATE receipt SET delivery = 'queued', delivery_at = ? WHERE donation_id = ?")
      .bind(Date.now(), g.id)
      .run();
    const sent = await Promise.all([
      deliverQueued({ env: testEnv, org: { id: org } }),
      deliverQueued({ env: testEnv, org: { id: org } }),
      deliverQueued({ env: testEnv, org: { id: org } }),
    ]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await mailsTo(await emailOf(d))).toHaveLength(1);
  });

  it("leaves a queued receipt the change could not send to the 15-minute cron", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings(settings(false));
    const d = await donor(caller);
    const g = await caller.donations.create(gift(d));
    // A hold left by a Worker that died mid-send, long enough ago to be taken over.
    await testEnv.DB.prepare("UPDATE receipt SET delivery = 'sending', delivery_at = ? WHERE donation_id = ?")
      .bind(Date.now() - 11 * 60_000, g.id)
      .run();
    await runScheduled("*/15 * * * *", testEnv, new Date());
    expect(await mailsTo(await emailOf(d))).toHaveLength(1);
    expect((await caller.receipts.forDonation({ donationId: g.id })).receipts[0]?.delivery).toBe("sent");
  });

  it("sends the thank-you alone, without an attachment, with what the donor typed escaped", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "organizer");
    const d = await donor(caller, { firstName: "<b>Eve</b>" });
    const g = await caller.donations.create(gift(d));
    await caller.receipts.sendThanks({ donationId: g.id });
    const [mail] = (await mailsTo(await emailOf(d))) as [OutboxMail];
    expect(mail.attachments).toEqual([]);
    expect(mail.html).not.toContain("<b>Eve</b>");
    expect(mail.html).toContain("&lt;b&gt;Eve");
    const view = await caller.receipts.forDonation({ donationId: g.id });
    expect(view.acknowledgements.map((a) => a.kind)).toEqual(["thanks"]);
    expect(view.acknowledgements[0]?.sentBy).toBeTruthy();
  });

  it("sends a selection's receipts in bulk, answering per gift: sent, or skipped and why", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "admin");
    const a = await caller.donations.create(gift(await donor(caller)));
    const b = await caller.donations.create(gift(await donor(caller, { email: null })));
    const c = await caller.donations.create(gift(await donor(caller), { mode: "test" }));
    const first = await caller.receipts.sendMany({ ids: [a.id, b.id, c.id, "missing-id-123"] });
    expect(first).toEqual([
      { id: a.id, changed: true },
      { id: b.id, changed: false, reason: "The donor has no e-mail address." },
      { id: c.id, changed: false, reason: "Test-mode donations get no receipt." },
      { id: "missing-id-123", changed: false, reason: "Donation not found" },
    ]);
    expect(await caller.receipts.sendMany({ ids: [a.id] })).toEqual([
      { id: a.id, changed: false, reason: "Already sent" },
    ]);
    expect(await caller.receipts.sendMany({ ids: [a.id], resend: true })).toEqual([
      { id: a.id, changed: true },
    ]);
    expect(
      await codeOf(
        caller.receipts.sendMany({ ids: Array.from({ length: 11 }, (_, i) => `id-${i}-xxxxxxxx`) }),
      ),
    ).toBe("BAD_REQUEST");
  });

  it("lets viewers see receipts and send nothing; another organization's gift is not found", async () => {
    const org = await makeOrg();
    const { caller: owner } = await member(org, "owner");
    const g = await owner.donations.create(gift(await donor(owner)));
    const { caller: viewer } = await member(org, "viewer");
    expect((await viewer.receipts.forDonation({ donationId: g.id })).receipts).toHaveLength(1);
    expect(await codeOf(viewer.receipts.send({ donationId: g.id }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.receipts.sendThanks({ donationId: g.id }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.receipts.sendMany({ ids: [g.id] }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.receipts.startStatements({ year: 2026, basis: "calendar" }))).toBe(
      "FORBIDDEN",
    );
    const other = await makeOrg();
    const { caller: stranger } = await member(other, "owner");
    expect(await codeOf(stranger.receipts.send({ donationId: g.id }))).toBe("NOT_FOUND");
  });
});
