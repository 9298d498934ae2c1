// Every "are you sure?" is the kit's dialog (src/components/confirm-dialog.tsx, under
// src/components/data-table/confirm-button.tsx), never window.confirm: Cancel and Escape act on
// nothing and give focus back to the button that opened the dialog; the destructive button acts.
// The admin's ban, impersonate and role dialogs are proved in e2e/admin.test.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

const isFocused = (l: Locator) => l.evaluate((el) => el === document.activeElement);

/** Opens the dialog with `trigger`, then Cancel, then Escape: both leave `stillThere` in place. */
async function cancelTwice(page: Page, trigger: Locator, title: string, stillThere: Locator) {
  await trigger.click();
  let dialog = page.getByRole("alertdialog");
  await dialog.getByRole("heading", { name: title }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });
  assert.ok(await isFocused(trigger), "Cancel gives focus back to the trigger");
  await trigger.click();
  dialog = page.getByRole("alertdialog");
  await dialog.getByRole("heading", { name: title }).waitFor();
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  assert.ok(await isFocused(trigger), "Escape gives focus back to the trigger");
  // Give a stray request time to land before checking nothing changed.
  await page.waitForTimeout(300);
  await stillThere.waitFor();
  return dialog;
}

test("deleting a donor note asks first: Cancel and Escape keep it, 'Delete note' deletes it", async () => {
  const s = await openBrowser();
  try {
    const suffix = Date.now().toString(36);
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/donors/create");
    await s.page.getByLabel("First name").fill("Dora");
    await s.page.getByLabel("Last name").fill(`Dialog${suffix}`);
    await s.page.getByLabel("E-mail", { exact: true }).fill(`dora-${suffix}@example.org`);
    await s.page.getByRole("button", { name: "Create donor" }).click();
    await s.page.waitForURL((u) => /^\/donors\/(?!create$)[A-Za-z0-9]+$/.test(u.pathname));

    const text = `Call back in spring ${suffix}`;
    await s.page.getByLabel("New note").fill(text);
    await s.page.getByRole("button", { name: "Add note" }).click();
    const note = s.page.locator("li", { hasText: text });
    await note.waitFor();

    const del = note.getByRole("button", { name: "Delete" });
    const dialog = await cancelTwice(s.page, del, "Delete this note?", note);
    await del.click();
    await dialog.getByText(text).waitFor();
    await dialog.getByRole("button", { name: "Delete note" }).click();
    await note.waitFor({ state: "detached" });
    await s.page.reload();
    await s.page.getByLabel("New note").waitFor();
    assert.equal(await s.page.locator("li", { hasText: text }).count(), 0, "gone after a reload too");
  } finally {
    await s.close();
  }
});

test("deleting an unfunded campaign item asks first: Cancel and Escape keep it, 'Delete item' deletes it", async () => {
  const s = await openBrowser();
  try {
    const title = `Dialog blankets ${Date.now().toString(36)}`;
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/campaigns");
    const first = s.page.locator("tbody a[href^='/campaigns/']").first();
    const href = await first.getAttribute("href");
    assert.ok(href, "a campaign to open");
    await go(s.page, `${href}/items`);
    await s.page.getByRole("button", { name: "Add item" }).click();
    const form = s.page.getByRole("dialog");
    await form.getByLabel("Title").fill(title);
    await form.getByLabel(/Unit amount/).fill("12.50");
    await form.getByRole("button", { name: "Add item" }).click();
    await form.waitFor({ state: "detached" });
    const card = s.page.locator("[data-slot='card']", { hasText: title });
    await card.waitFor();
    // The success toast is readable: sonner's own light green was 4.3:1 (src/styles.css).
    await s.page.locator("[data-sonner-toast]", { hasText: "Item added" }).waitFor();
    assert.deepEqual(await axeProblems(s.page), []);

    const del = card.getByRole("button", { name: "Delete" });
    const dialog = await cancelTwice(s.page, del, `Delete “${title}”?`, card);
    await del.click();
    await dialog.getByRole("button", { name: "Delete item" }).click();
    await card.waitFor({ state: "detached" });
    await s.page.reload();
    await s.page.getByRole("button", { name: "Add item" }).waitFor();
    assert.equal(
      await s.page.locator("[data-slot='card']", { hasText: title }).count(),
      0,
      "gone after a reload",
    );
  } finally {
    await s.close();
  }
});

test("an open invitation's row opens its details (click on the row, tap on the card, Enter on its title); Cancel keeps it, 'Revoke invitation' with a reason revokes it", async () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 360, height: 780 },
  ]) {
    const s = await openBrowser({ viewport });
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      const email = `row-dialog-${viewport.width}-${Date.now()}@example.test`;
      const org = await s.page.evaluate(async () => {
        const input = encodeURIComponent(JSON.stringify({ json: {} }));
        const res = await fetch(`/api/trpc/organization.all?input=${input}`);
        return ((await res.json()) as { result: { data: { json: { id: string }[] } } }).result.data.json[0]
          ?.id;
      });
      const sent = await s.page.evaluate(
        async ([e, o]) =>
          (
            await fetch("/api/trpc/organizers.invite", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ json: { email: e, organizationId: o } }),
            })
          ).status,
        [email, org] as const,
      );
      assert.equal(sent, 200);
      await go(s.page, `/organizers?q=${encodeURIComponent(email)}`);
      const title = s.page.getByRole("button", { name: "Invitation", exact: true }).first();
      await title.waitFor();
      const dialog = s.page.getByRole("alertdialog");
      const heading = dialog.getByRole("heading", { name: `Invitation for ${email}` });

      // A click on the row (its e-mail), or a tap anywhere on the phone's card, opens it.
      // (On the phone the card's title button covers the card, so the tap lands on it by design.)
      const box = await s.page.getByText(email, { exact: true }).first().boundingBox();
      assert.ok(box);
      await s.page.mouse.click(box.x + 4, box.y + box.height / 2);
      await heading.waitFor();
      await dialog.getByText("Waiting to be accepted").waitFor();
      await dialog.getByText("Ada Admin").waitFor();
      assert.deepEqual(await axeProblems(s.page), [], `invitation dialog ${viewport.width}`);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });

      // The keyboard: its title is a button.
      await title.focus();
      await s.page.keyboard.press("Enter");
      await heading.waitFor();
      const revoke = dialog.getByRole("button", { name: "Revoke invitation" });
      assert.equal(await revoke.isDisabled(), true, "a reason is asked first");
      await dialog.getByLabel("Reason for revoking").fill("Sent to the wrong address");
      await revoke.click();
      await s.page.getByText(`Invitation for ${email} revoked`).waitFor();
      await s.page.getByText("No organizers match.").first().waitFor();
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  }
});
