/**
 * Receipts going out (issue 25, decision 031 "Sending" and "Year-end statements"), as people use
 * them: an owner turns on automatic sending, records a gift for a new donor from /donations, and
 * the thank-you with `receipt-….pdf` reaches the dev outbox by itself (the PDF read back: number
 * and amount); a partial refund sends the correction in words that say so (refunded, kept, the
 * receipt it replaces; the void PDF says "Replaced by receipt …", never the staff's note), "Refund
 * more…" does it again, and the gift's page shows the void receipts, the correction and what went to
 * the donor; "Send thank-you only" adds its line (pressed from the keyboard); trash asks first and
 * names the receipt it voids, a restore re-issues it and mails nothing (issue 53). A viewer sees the receipts and their history but no
 * send button, and downloads the donor's year-end statement; an organizer gets the buttons. In
 * bulk: two gifts selected on /donations get their receipts with a summary, then go to the trash
 * after a question that counts their receipts; the donors list's statement run for this year says
 * first how many donors it e-mails and that the year is not over, sends a test to the owner, is
 * paused half-way and resumed (1280), finishes with Done in place of Pause, and its dialog gives the
 * focus back on Escape and on Done; the statement is named for the donor.
 * At 1280 (light) and 360 (dark), axe at each new screen state.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { extractText, getDocumentProxy } from "unpdf";
import { axeProblems } from "./a11y.ts";
import { BASE_URL, go, openBrowser, SCREENSHOTS, type Session, signIn } from "./browser.ts";

const VIEWPORTS = [
  [{ width: 1280, height: 900 }, "light"],
  [{ width: 360, height: 780 }, "dark"],
] as const;

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; size: number; content?: string }[];
  createdAt: string;
}

async function outbox(to: string): Promise<OutboxMail[]> {
  const res = await fetch(`${BASE_URL}/api/dev/outbox?to=${encodeURIComponent(to)}&attachments=1`);
  assert.equal(res.status, 200, "the dev outbox answers");
  return (await res.json()) as OutboxMail[];
}

/** Polls the outbox (a short interval, a deadline) until a mail to `to` matches. */
async function mailTo(to: string, what: string, match: (m: OutboxMail) => boolean, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const mails = await outbox(to);
    const found = mails.find(match);
    if (found) return found;
    if (Date.now() > until)
      assert.fail(
        `no mail to ${to} with ${what} within ${ms} ms (got: ${mails.map((m) => m.subject).join(" | ")})`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The attachment's file name as the Worker makes it (worker/receipts/delivery.ts fileSafe). */
const receiptFile = (number: string) => `receipt-${number.replace(/[^A-Za-z0-9_-]+/g, "-")}.pdf`;

/** A PDF's text, its spaces (also the narrow no-break ones of formatted money) made plain. */
async function pdfText(bytes: Uint8Array) {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/[\s\u00a0\u202f]+/g, " ");
}

const attachmentText = (m: OutboxMail, filename: string) => {
  const a = m.attachments.find((x) => x.filename === filename);
  assert.ok(a?.content, `${filename} is attached`);
  assert.equal(a.contentType, "application/pdf");
  return pdfText(Uint8Array.from(Buffer.from(a.content, "base64")));
};

/** A tRPC call with the page's cookies (GET for queries, POST for mutations; superjson's `json`). */
async function call<T>(page: Page, path: string, input: unknown, mutation = false): Promise<T> {
  return page.evaluate(
    async ({ path, input, mutation }) => {
      const res = mutation
        ? await fetch(`/api/trpc/${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ json: input }),
          })
        : await fetch(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
      const body = (await res.json()) as { result: { data: { json: unknown } } };
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body.result.data.json;
    },
    { path, input, mutation },
  ) as Promise<T>;
}

interface GiftReceipts {
  receipts: { id: string; number: string; status: string; delivery: string; sentAt: number | null }[];
  acknowledgements: { kind: string; sentTo: string }[];
}

/** Waits until no receipt of the gift is queued or being sent (an automatic send has finished). */
async function deliveriesSettled(page: Page, donationId: string) {
  const until = Date.now() + 30_000;
  for (;;) {
    const r = await call<GiftReceipts>(page, "receipts.forDonation", { donationId });
    if (!r.receipts.some((x) => x.delivery === "queued" || x.delivery === "sending")) return r;
    if (Date.now() > until) assert.fail(`the receipts of ${donationId} are still going out`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

/** A new donor with an e-mail address and `gifts` gifts recorded by hand (through the API). */
async function donorWithGifts(page: Page, name: string, gifts: number[]) {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `${name.toLowerCase()}-${stamp}@example.org`;
  const lastName = `${name}${stamp}`;
  const donor = await call<{ created: boolean; id: string }>(
    page,
    "donors.create",
    { data: { firstName: "Rosalind", lastName, email } },
    true,
  );
  assert.ok(donor.created);
  const ids: string[] = [];
  for (const amountMinor of gifts) {
    const d = await call<{ id: string }>(
      page,
      "donations.create",
      {
        donorId: donor.id,
        campaignId: null,
        amountMinor,
        currency: "USD",
        paymentMethod: "check",
        donatedAt: Date.now(),
      },
      true,
    );
    ids.push(d.id);
  }
  return { donorId: donor.id, name: `Rosalind ${lastName}`, email, donationIds: ids };
}

async function noAxeProblems(s: Session, where: string) {
  assert.deepEqual(await axeProblems(s.page), [], `axe on ${where}`);
}

/**
 * A screenshot of one part of the page (a card, a bar, a dialog), whole even when taller than the
 * window (the window grows for it, same width), without the toasts that may lie over it a moment.
 */
async function shotOf(part: Locator, name: string) {
  const page = part.page();
  const viewport = page.viewportSize();
  const box = await part.boundingBox();
  assert.ok(viewport && box, `${name}: the part is on the page`);
  if (box.height + 80 > viewport.height)
    await page.setViewportSize({ width: viewport.width, height: Math.ceil(box.height) + 80 });
  try {
    await part.screenshot({
      path: join(SCREENSHOTS, `${name}.png`),
      style: "[data-sonner-toaster] { display: none !important; }",
    });
  } finally {
    await page.setViewportSize(viewport);
  }
}

const card = (page: Page, title: string) =>
  page
    .locator('[data-slot="card"]')
    .filter({ has: page.locator('[data-slot="card-title"]', { hasText: new RegExp(`^${title}$`) }) });

/** `s` as a literal piece of a regular expression (addresses have dots). */
const lit = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The year it is for Harbor Light (Los Angeles): on 31 December evenings UTC is already in the next. */
const orgYear = () =>
  Number(
    new Intl.DateTimeFormat("en-US", { year: "numeric", timeZone: "America/Los_Angeles" }).format(new Date()),
  );
const focused = (l: Locator) => l.evaluate((el) => el === document.activeElement);

async function signInAs(s: Session, email: string) {
  await signIn(s.page, email);
  await s.page.waitForURL((u) => u.pathname === "/dashboard");
}

for (const [viewport, colorScheme] of VIEWPORTS) {
  const w = viewport.width;
  test(`a recorded gift's receipt goes out by itself, its correction after a refund, then a thank-you (${w} px, ${colorScheme})`, async () => {
    const s = await openBrowser({ viewport, colorScheme });
    try {
      await signInAs(s, "admin@almoner.test");

      // Automatic sending on, in English (the PDF's words are read back below).
      await go(s.page, "/organization?section=receipts");
      const form = s.page.getByRole("form", { name: "Receipt settings" });
      await form.waitFor();
      await form.getByLabel("Language").selectOption("en");
      const auto = form.getByRole("switch", { name: "Send receipts automatically" });
      if ((await auto.getAttribute("aria-checked")) !== "true") await auto.click();
      assert.equal(await auto.getAttribute("aria-checked"), "true");
      await form.getByRole("button", { name: "Save receipt settings" }).click();
      await s.page.getByText("Receipt settings saved").first().waitFor();
      await go(s.page, "/organization?section=thanks");
      const thanks = card(s.page, "Thank-you message");
      await thanks.getByRole("form", { name: "Thank-you message" }).waitFor();
      await noAxeProblems(s, `/organization with receipt settings saved (${w})`);
      await shotOf(thanks, `receipt-mail-thank-you-card-${w}`);

      // A gift from /donations for a donor created on the way, with an address of their own.
      const stamp = Date.now().toString(36);
      const email = `receipt-${w}-${stamp}@example.org`;
      const donorName = `Ottoline Receipt${stamp}`;
      await go(s.page, "/donations");
      await s.page.getByRole("button", { name: "Record a donation" }).click();
      const dialog = s.page.getByRole("dialog", { name: "Record a donation" });
      await dialog.getByRole("combobox", { name: "Donor" }).click();
      await s.page.getByRole("combobox", { name: "Find a donor" }).fill(donorName);
      await s.page.getByRole("option", { name: `Create new donor “${donorName}”` }).click();
      const newDonor = s.page.getByRole("form", { name: "New donor" });
      await newDonor.getByLabel("E-mail").fill(email);
      await newDonor.getByRole("button", { name: "Create and choose" }).click();
      await newDonor.waitFor({ state: "detached" });
      await dialog.getByRole("combobox", { name: "Donor" }).getByText(donorName).waitFor();
      await dialog.getByLabel("Amount").fill("80.00");
      await noAxeProblems(s, `the record dialog with a new donor (${w})`);
      await dialog.getByRole("button", { name: "Record donation" }).click();
      await s.page.waitForURL(/\/donations\/[A-Za-z0-9]+$/);

      // Its receipt, numbered, then e-mailed without anyone pressing anything.
      const receipts = s.page.getByRole("list", { name: "Receipts of this donation" });
      const firstLink = receipts.getByRole("link", { name: /^Receipt .+ \(PDF\)$/ }).first();
      await firstLink.waitFor();
      const first = String(await firstLink.getAttribute("aria-label")).replace(
        /^Receipt (.+) \(PDF\)$/,
        "$1",
      );
      const firstMail = await mailTo(email, receiptFile(first), (m) =>
        m.attachments.some((a) => a.filename === receiptFile(first)),
      );
      assert.match(firstMail.text, new RegExp(`Your tax receipt ${lit(first)} is attached as a PDF\\.`));
      const firstPdf = await attachmentText(firstMail, receiptFile(first));
      assert.ok(firstPdf.includes(first), `the PDF names ${first}: ${firstPdf}`);
      assert.ok(firstPdf.includes("$80.00"), `the PDF says $80.00: ${firstPdf}`);
      assert.ok(firstPdf.includes(donorName), "the PDF names the donor");
      // The page learns it went out by itself (it asks again while the receipt waits).
      await receipts.getByText(new RegExp(`^E-mailed to ${lit(email)} on `)).waitFor();
      const history = s.page.getByRole("list", { name: "Sent to the donor" });
      await history.getByText(`Thank-you with receipt to ${email}`).first().waitFor();
      await history.getByText("(sent automatically)").first().waitFor();
      await s.page.getByRole("button", { name: "Resend receipt" }).waitFor();
      await noAxeProblems(s, `the gift's receipt e-mailed (${w})`);

      // A partial refund voids it and the correction goes out, naming it, in words that say so.
      await s.page.getByRole("button", { name: "Mark partially refunded" }).click();
      await s.page.getByLabel(/Amount refunded now/).fill("30.00");
      await s.page.getByLabel("Reason").fill("Part was a duplicate");
      const refundDialog = s.page.getByRole("dialog", { name: "Mark partially refunded" });
      await refundDialog.getByText("never shown to the donor or printed on a receipt").waitFor();
      // Receipts go out automatically here, so the donor mail starts ticked.
      const tell = refundDialog.getByRole("checkbox", { name: /E-mail the donor the refund/ });
      assert.equal(await tell.isChecked(), true);
      await refundDialog.getByText("Ticked because receipts go out automatically.").waitFor();
      await noAxeProblems(s, `the refund dialog (${w})`);
      await shotOf(refundDialog, `receipt-mail-refund-dialog-${w}`);
      await s.page.getByRole("button", { name: "Confirm" }).click();
      await receipts.getByText(`replaces ${first}`).waitFor();
      const voided = receipts
        .getByRole("listitem")
        .filter({ has: s.page.getByRole("link", { name: `Receipt ${first} (PDF)` }) });
      await voided.getByText("Void", { exact: true }).waitFor();
      await voided.getByText(/\(Part was a duplicate\)/).waitFor();
      const corrected = receipts.getByRole("listitem").filter({ hasText: `replaces ${first}` });
      await corrected.getByText("Correction", { exact: true }).waitFor();
      await corrected.getByText("$50.00 deductible").waitFor();
      const second = String(await corrected.getByRole("link").getAttribute("aria-label")).replace(
        /^Receipt (.+) \(PDF\)$/,
        "$1",
      );
      assert.notEqual(second, first);
      const secondMail = await mailTo(email, receiptFile(second), (m) =>
        m.attachments.some((a) => a.filename === receiptFile(second)),
      );
      const secondPdf = await attachmentText(secondMail, receiptFile(second));
      assert.ok(secondPdf.includes(second), `the correction's PDF names ${second}: ${secondPdf}`);
      assert.ok(secondPdf.includes(`Replaces receipt ${first}`), `it names ${first}: ${secondPdf}`);
      assert.ok(secondPdf.includes("$50.00"), `it says $50.00: ${secondPdf}`);
      // The mail says what happened, not the thank-you again (issue 53, H3).
      assert.match(secondMail.subject, new RegExp(`^Your corrected receipt ${lit(second)} from `));
      // Money as the receipt's locale writes it: "$30.00" in the US, "US$30.00" where the address is
      // elsewhere (e2e/organization.test.ts moves Harbor Light to Portugal).
      assert.match(secondMail.text, /We have refunded (US)?\$30\.00 of your gift of (US)?\$80\.00 on /);
      assert.match(secondMail.text, /The remaining (US)?\$50\.00 stays your gift/);
      assert.match(secondMail.text, new RegExp(`It replaces receipt ${lit(first)}, which is now void`));
      assert.doesNotMatch(secondMail.text, /Thank you for your gift of|duplicate/);
      // The void receipt says why in the donor's words; the staff's note stays on this page.
      const voidPdf = await s.page.request.get(
        String(await receipts.getByRole("link", { name: `Receipt ${first} (PDF)` }).getAttribute("href")),
      );
      const voidText = await pdfText(new Uint8Array(await voidPdf.body()));
      assert.ok(voidText.includes(`Replaced by receipt ${second}`), `the void PDF: ${voidText}`);
      assert.ok(!voidText.includes("duplicate"), `no staff note on the void PDF: ${voidText}`);
      await corrected.getByText(new RegExp(`^E-mailed to ${lit(email)} on `)).waitFor();
      assert.equal(await history.getByText(`Thank-you with receipt to ${email}`).count(), 1);
      await history.getByText(`Corrected receipt to ${email}`).first().waitFor();
      await noAxeProblems(s, `the void receipt and its correction (${w})`);

      // "Refund more…": a second partial refund, found where the first was, mails the same kind.
      await s.page.getByRole("button", { name: "Refund more…" }).click();
      const more = s.page.getByRole("dialog", { name: "Refund more" });
      await more.getByLabel(/Amount refunded now/).fill("10.00");
      await more.getByLabel("Reason").fill("Another duplicate line");
      await noAxeProblems(s, `the Refund more dialog (${w})`);
      await more.getByRole("button", { name: "Confirm" }).click();
      await receipts.getByText(`replaces ${second}`).waitFor();
      const third = String(
        await receipts
          .getByRole("listitem")
          .filter({ hasText: `replaces ${second}` })
          .getByRole("link")
          .getAttribute("aria-label"),
      ).replace(/^Receipt (.+) \(PDF\)$/, "$1");
      const thirdMail = await mailTo(email, receiptFile(third), (m) =>
        m.attachments.some((a) => a.filename === receiptFile(third)),
      );
      assert.match(thirdMail.text, /We have refunded (US)?\$10\.00 of your gift of (US)?\$80\.00 on /);
      assert.match(thirdMail.text, /The remaining (US)?\$40\.00 stays your gift/);
      assert.match(thirdMail.text, new RegExp(`It replaces receipt ${lit(second)}, which is now void`));
      await deliveriesSettled(s.page, s.page.url().split("/").pop() as string);

      // Keyboard: from the last receipt's link, Tab reaches Resend, then Send thank-you only.
      const lastLink = receipts.getByRole("link").last();
      await lastLink.focus();
      // Back and forth by keyboard, so the link shows its focus as a keyboard user sees it.
      await s.page.keyboard.press("Shift+Tab");
      await s.page.keyboard.press("Tab");
      assert.ok(await focused(lastLink), "Tab: the last receipt's PDF");
      await shotOf(card(s.page, "Receipts"), `receipt-mail-gift-link-keyboard-${w}`);
      await s.page.keyboard.press("Tab");
      assert.ok(await focused(s.page.getByRole("button", { name: "Resend receipt" })), "Tab: Resend receipt");
      await s.page.keyboard.press("Tab");
      const thankOnly = s.page.getByRole("button", { name: "Send thank-you only" });
      assert.ok(await focused(thankOnly), "Tab: Send thank-you only");
      await shotOf(card(s.page, "Receipts"), `receipt-mail-gift-keyboard-${w}`);
      const mailsBefore = (await outbox(email)).length;
      await s.page.keyboard.press("Enter");
      await s.page.getByText(`Thank-you sent to ${email}`).first().waitFor();
      await history.getByText(new RegExp(`^Thank-you to ${lit(email)}, .+ by .+$`)).waitFor();
      const thanksMail = await mailTo(
        email,
        "a thank-you without attachment",
        (m) => m.attachments.length === 0,
      );
      assert.ok(thanksMail.text.length > 0);
      assert.equal((await outbox(email)).length, mailsBefore + 1);
      await noAxeProblems(s, `the gift's receipts after the sends (${w})`);
      await shotOf(card(s.page, "Receipts"), `receipt-mail-gift-owner-${w}`);

      // Trash asks first and names the receipt it voids; a restore re-issues it and mails nothing.
      const beforeTrash = (await outbox(email)).length;
      await s.page.getByRole("button", { name: "Move to trash" }).click();
      const ask = s.page.getByRole("alertdialog", { name: /^Move donation #\d+ to the trash\?$/ });
      await ask.getByText(`Its receipt ${third} will be voided`).waitFor();
      await noAxeProblems(s, `the trash question (${w})`);
      await shotOf(ask, `receipt-mail-trash-dialog-${w}`);
      await ask.getByRole("button", { name: "Move to trash" }).click();
      await s.page.getByRole("button", { name: "Restore" }).click();
      await s.page
        .getByText(
          new RegExp(
            `^Restored\\. Receipt .+ is issued in place of ${lit(third)}; the donor was not e-mailed`,
          ),
        )
        .first()
        .waitFor();
      await receipts.getByText(`replaces ${third}`).waitFor();
      await receipts.getByText("Not e-mailed to the donor").waitFor();
      await noAxeProblems(s, `the restored gift (${w})`);
      await shotOf(card(s.page, "Receipts"), `receipt-mail-restored-${w}`);
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal((await outbox(email)).length, beforeTrash, "no mail on trash or restore");

      // The donor's page offers this year's statement.
      await s.page.getByRole("link", { name: donorName }).first().click();
      await s.page.waitForURL(/\/donors\/[A-Za-z0-9]+$/);
      const statements = card(s.page, "Year-end statements");
      const year = orgYear();
      const download = statements.getByRole("link", { name: `Download the ${year} statement` });
      await download.waitFor();
      await noAxeProblems(s, `the donor page (${w})`);
      await shotOf(statements, `receipt-mail-donor-statements-${w}`);
      await download.focus();
      await s.page.keyboard.press("Shift+Tab");
      await s.page.keyboard.press("Tab");
      assert.ok(await focused(download), "Tab: the statement's link");
      await shotOf(statements, `receipt-mail-donor-statements-keyboard-${w}`);
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  });
}

test("a viewer sees a gift's receipts and what was sent but no send button, and downloads the donor's statement; an organizer may send", async () => {
  const gift = await (async () => {
    const admin = await openBrowser();
    try {
      await signInAs(admin, "admin@almoner.test");
      const g = await donorWithGifts(admin.page, "Viewer", [4_200]);
      const [id] = g.donationIds as [string];
      // Sent once (unless automatic sending already did), so there is history to see.
      const settled = await deliveriesSettled(admin.page, id);
      if (!settled.receipts.some((r) => r.sentAt))
        await call(admin.page, "receipts.send", { donationId: id }, true);
      await mailTo(g.email, "a receipt", (m) => m.attachments.some((a) => a.filename.startsWith("receipt-")));
      return g;
    } finally {
      await admin.close();
    }
  })();
  const [donationId] = gift.donationIds as [string];
  const year = orgYear();

  for (const [viewport, colorScheme] of VIEWPORTS) {
    const w = viewport.width;
    const s = await openBrowser({ viewport, colorScheme });
    try {
      await signInAs(s, "member@almoner.test");
      await go(s.page, `/donations/${donationId}`);
      const receipts = s.page.getByRole("list", { name: "Receipts of this donation" });
      const link = receipts.getByRole("link", { name: /^Receipt .+ \(PDF\)$/ });
      await link.waitFor();
      await receipts.getByText(new RegExp(`^E-mailed to ${lit(gift.email)} on `)).waitFor();
      await s.page
        .getByRole("list", { name: "Sent to the donor" })
        .getByText(`Thank-you with receipt to ${gift.email}`)
        .waitFor();
      for (const name of ["Send receipt", "Resend receipt", "Send thank-you only"])
        assert.equal(await s.page.getByRole("button", { name }).count(), 0, `${name} for a viewer`);
      // The receipt itself opens for a viewer too.
      const pdf = await s.page.request.get(String(await link.getAttribute("href")));
      assert.equal(pdf.status(), 200);
      assert.match(pdf.headers()["content-type"] ?? "", /^application\/pdf/);
      await noAxeProblems(s, `the gift page as a viewer (${w})`);
      await shotOf(card(s.page, "Receipts"), `receipt-mail-gift-viewer-${w}`);

      // The donor's year-end statement downloads with the viewer's session.
      await go(s.page, `/donors/${gift.donorId}`);
      const statements = card(s.page, "Year-end statements");
      const download = statements.getByRole("link", { name: `Download the ${year} statement` });
      await download.waitFor();
      const res = await s.page.request.get(String(await download.getAttribute("href")));
      assert.equal(res.status(), 200);
      assert.match(res.headers()["content-type"] ?? "", /^application\/pdf/);
      const text = await pdfText(new Uint8Array(await res.body()));
      assert.ok(text.includes(gift.name), `the statement names ${gift.name}: ${text}`);
      assert.match(text, /42[.,]00/, `the statement counts the gift: ${text}`);
      await noAxeProblems(s, `the donor page as a viewer (${w})`);
      await shotOf(statements, `receipt-mail-donor-statements-viewer-${w}`);
      // Nor is the statement run offered.
      await go(s.page, "/donors");
      await s.page.getByRole("heading", { name: "Donors", level: 1 }).waitFor();
      assert.equal(await s.page.getByRole("button", { name: "Year-end statements" }).count(), 0);
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }

    const o = await openBrowser({ viewport, colorScheme });
    try {
      await signInAs(o, "organizer@almoner.test");
      await go(o.page, `/donations/${donationId}`);
      await o.page.getByRole("button", { name: "Resend receipt" }).waitFor();
      await o.page.getByRole("button", { name: "Send thank-you only" }).waitFor();
      await noAxeProblems(o, `the gift page as an organizer (${w})`);
      await shotOf(card(o.page, "Receipts"), `receipt-mail-gift-organizer-${w}`);
      assert.deepEqual(o.errors, []);
    } finally {
      await o.close();
    }
  }
});

for (const [viewport, colorScheme] of VIEWPORTS) {
  const w = viewport.width;
  test(`two gifts selected on /donations get their receipts, with a summary (${w} px, ${colorScheme})`, async () => {
    const s = await openBrowser({ viewport, colorScheme });
    try {
      await signInAs(s, "admin@almoner.test");
      const gift = await donorWithGifts(s.page, "Bulk", [1_500, 2_500]);
      // Whatever automatic sending did first is over: the run below resends both, deterministically.
      for (const id of gift.donationIds) await deliveriesSettled(s.page, id);
      const before = (await outbox(gift.email)).length;

      // The donor's page links to every gift of theirs in the list (src/features/donors/donor-page.tsx).
      await go(s.page, `/donors/${gift.donorId}`);
      await s.page.getByRole("link", { name: "All donations in Donations" }).click();
      await s.page.waitForURL(
        (u) => u.pathname === "/donations" && u.searchParams.get("donorId") === gift.donorId,
      );
      await s.page.getByRole("heading", { name: "Donations", level: 1 }).waitFor();
      // The list names the donor the link narrowed it to.
      await s.page
        .getByTestId("donor-chip")
        .filter({ hasText: `Donations of ${gift.name}` })
        .waitFor();
      const rows = s.page.getByRole("checkbox", { name: "Select row" });
      await s.page.getByText(/^2 rows$/).waitFor();
      await rows.nth(0).click();
      await rows.nth(1).click();
      const bar = s.page.getByRole("region", { name: "Bulk actions" });
      await bar.getByText("2 selected").waitFor();
      const send = bar.getByRole("button", { name: "Send receipts" });
      await send.waitFor();
      await bar.getByLabel("Also those already sent").check();
      await noAxeProblems(s, `the bulk bar (${w})`);
      await shotOf(bar, `receipt-mail-bulk-bar-${w}`);
      await send.click();
      await s.page.getByText("2 receipts sent").first().waitFor();
      await bar.waitFor({ state: "detached" });
      await noAxeProblems(s, `the list after sending (${w})`);
      const until = Date.now() + 30_000;
      while ((await outbox(gift.email)).length < before + 2 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 250));
      const mails = (await outbox(gift.email)).slice(0, 2);
      assert.equal(mails.length, 2);
      assert.ok(mails.every((m) => m.attachments.some((a) => a.filename.startsWith("receipt-"))));

      // Both to the trash from the list: the question counts the receipts it voids first.
      const sentBefore = (await outbox(gift.email)).length;
      await rows.nth(0).click();
      await rows.nth(1).click();
      await bar.getByRole("button", { name: "Move to trash" }).click();
      const ask = s.page.getByRole("alertdialog", { name: "Move 2 donations to the trash?" });
      await ask.getByText(/^Their 2 receipts \(.+, .+\) will be voided: /).waitFor();
      await noAxeProblems(s, `the bulk trash question (${w})`);
      await shotOf(ask, `receipt-mail-bulk-trash-${w}`);
      await ask.getByRole("button", { name: "Move 2 donations to trash" }).click();
      await s.page.getByText("2 moved to the trash").first().waitFor();
      const trashed = await call<GiftReceipts>(s.page, "receipts.forDonation", {
        donationId: gift.donationIds[0],
      });
      assert.ok(
        trashed.receipts.every((r) => r.status === "void"),
        "the trash voided the receipts",
      );
      assert.equal((await outbox(gift.email)).length, sentBefore, "the trash mails nothing");
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  });

  test(`this year's statements go out from the donors list, with progress (${w} px, ${colorScheme})`, async () => {
    const s = await openBrowser({ viewport, colorScheme });
    try {
      await signInAs(s, "admin@almoner.test");
      // A donor with a receipted gift this year, so the run has someone to send to.
      const gift = await donorWithGifts(s.page, "Statement", [6_000]);
      const [donationId] = gift.donationIds as [string];
      await deliveriesSettled(s.page, donationId);
      // At 1280, more donors than one step takes (20), so a pause stops the run half-way.
      const pausing = w === 1280;
      if (pausing)
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => donorWithGifts(s.page, `Pause${i}x`, [1_000])),
        );

      await go(s.page, "/donors");
      await s.page.getByRole("heading", { name: "Donors", level: 1 }).waitFor();
      const trigger = s.page.getByRole("button", { name: "Year-end statements" });
      // By keyboard: Enter opens it, Escape closes it back onto its button.
      await trigger.focus();
      await s.page.keyboard.press("Enter");
      const dialog = s.page.getByRole("dialog", { name: "Year-end statements" });
      await dialog.waitFor();
      await noAxeProblems(s, `the statements dialog (${w})`);
      await s.page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      assert.ok(await focused(trigger), "focus back on Year-end statements");

      await trigger.click();
      const year = String(orgYear());
      await dialog.getByLabel("Year").selectOption(year);
      // Before anything goes: how many donors, a warning while the year runs, a test to myself.
      const preview = dialog.getByTestId("statement-preview");
      await preview
        .getByText(new RegExp(`^[\\d,]+ donors? will get their ${year} statement by e-mail\\.`))
        .waitFor();
      await preview.getByText(new RegExp(`^${year} is not over yet: it ends on `)).waitFor();
      const sendAll = dialog.getByRole("button", { name: /^Send [\d,]+ statements?$/ });
      await sendAll.waitFor();
      await noAxeProblems(s, `the statements dialog's preview (${w})`);
      await shotOf(dialog, `receipt-mail-statements-preview-${w}`);
      await dialog.getByRole("button", { name: "Send a test to me" }).click();
      await s.page
        .getByText(/^Test sent to admin@almoner\.test: /)
        .first()
        .waitFor();
      const testMail = await mailTo("admin@almoner.test", "the test statement", (m) =>
        m.subject.startsWith(`[Test] Your ${year} giving statement`),
      );
      assert.match(testMail.text, /Nothing was sent to any donor\./);
      // The test is the period's first donor's statement (by id, so any donor of the year): its
      // file carries that donor's name, or only the year for a name with no Latin letter to write.
      const who = /^Test: the statement (.+) will get /m.exec(testMail.text)?.[1] ?? "";
      const testFile = testMail.attachments[0]?.filename ?? "";
      assert.match(
        testFile,
        who === "a donor" || !/[a-z]/i.test(who.normalize("NFKD"))
          ? new RegExp(`^statement-${year}\\.pdf$`)
          : new RegExp(`^statement-${year}-[a-z0-9-]+\\.pdf$`),
        `the test statement's file, for ${who}`,
      );
      assert.ok((await attachmentText(testMail, testFile)).includes(year));
      // Each step is held a moment so the run can be seen under way.
      let release: () => void = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      await s.page.route("**/api/trpc/receipts.stepStatements**", async (route) => {
        await held;
        await route.continue();
      });
      await sendAll.click();
      const progress = dialog.getByTestId("statement-progress");
      await progress.getByText(new RegExp(`^${year}: 0 of [\\d,]+ donors`)).waitFor();
      await dialog.getByRole("progressbar", { name: `Statements for ${year}` }).waitFor();
      await dialog.getByRole("button", { name: "Pause" }).waitFor();
      await noAxeProblems(s, `the statement run under way (${w})`);
      await shotOf(dialog, `receipt-mail-statements-running-${w}`);
      if (pausing) {
        // Pause takes effect after the step under way: that step's donors are sent, then Resume.
        await dialog.getByRole("button", { name: "Pause" }).click();
        release();
        const resume = dialog.getByRole("button", { name: "Resume" });
        await resume.waitFor();
        await progress.getByText(new RegExp(`^${year}: 20 of [\\d,]+ donors`)).waitFor();
        assert.doesNotMatch(await progress.innerText(), /finished/);
        await noAxeProblems(s, `the statement run paused (${w})`);
        await shotOf(dialog, `receipt-mail-statements-paused-${w}`);
        await resume.click();
      }
      release();
      await progress.getByText(/ · finished$/).waitFor({ timeout: 60_000 });
      await s.page.unroute("**/api/trpc/receipts.stepStatements**");
      const text = await progress.innerText();
      const [, done, total] = /: ([\d,]+) of ([\d,]+) donors/.exec(text) ?? [];
      assert.equal(done, total, text);
      await s.page
        .getByText(new RegExp(`^${year}: [\\d,]+ statements? sent`))
        .first()
        .waitFor();
      await noAxeProblems(s, `the statement run finished (${w})`);
      await shotOf(dialog, `receipt-mail-statements-finished-${w}`);
      const mail = await mailTo(gift.email, "the statement", (m) =>
        m.attachments.some((a) => a.filename.startsWith(`statement-${year}-`)),
      );
      // Named for the donor, never by an internal id (M13).
      assert.equal(
        mail.attachments[0]?.filename,
        `statement-${year}-${gift.name.toLowerCase().replace(/ /g, "-")}.pdf`,
      );
      assert.ok(mail.subject.includes(year), `the subject names ${year}: ${mail.subject}`);
      const pdf = await attachmentText(mail, mail.attachments[0]?.filename ?? "");
      assert.ok(pdf.includes(gift.name), `the statement names ${gift.name}`);
      // Where Pause was: Done, not a second run of the same year.
      assert.equal(await dialog.getByRole("button", { name: /^Send [\d,]+ statements?$/ }).count(), 0);
      await dialog.getByRole("button", { name: "Done" }).focus();
      await s.page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      assert.ok(await focused(trigger), "focus back on Year-end statements after the run");
      // Opened again, it offers a new run.
      await s.page.keyboard.press("Enter");
      await dialog.getByRole("button", { name: /^Send [\d,]+ statements?$/ }).waitFor();
      assert.equal(await dialog.getByTestId("statement-progress").count(), 0);
      await s.page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  });
}
