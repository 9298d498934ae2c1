/**
 * Issue 53's form and page findings, as a team meets them: amounts typed the way the
 * organization's people write them (M5), an error that goes as soon as its field is fixed, a
 * paused campaign's shared link and a draft's preview (M2, M1), the custom date range's focus
 * (L7).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { axeProblems } from "./a11y.ts";
import { BASE_URL, go, openBrowser, signIn } from "./browser.ts";

test("a campaign goal takes 25,000 and $25, and a fixed error goes at once", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "organizer@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/campaigns/create");
    const title = s.page.getByLabel("Title");
    const goal = s.page.getByLabel(/Goal amount/);
    await title.fill("ab");
    await goal.fill("lots");
    await s.page.getByRole("button", { name: "Create campaign" }).click();
    await s.page.getByText("At least 3 characters").waitFor();
    await s.page.getByText("Enter an amount like 25.00").waitFor();
    // Still too short: the message stays; long enough: it goes, before any submit.
    await title.fill("xy");
    assert.equal(await s.page.getByText("At least 3 characters").count(), 1);
    await title.fill("Harbor lights 2027");
    await s.page.getByText("At least 3 characters").waitFor({ state: "detached" });
    assert.equal(await title.getAttribute("aria-invalid"), null);
    // The goal's message follows the value, and goes once it reads.
    await goal.fill("1.250");
    await s.page.getByText('"1.250" could be 1250 or 1.25: type one of those').waitFor();
    await goal.fill("25,000");
    await s.page.getByText(/could be 1250/).waitFor({ state: "detached" });
    assert.equal(await goal.getAttribute("aria-invalid"), null);
    await s.shot("issue53-goal-fixed-1280");
    await s.page.getByRole("button", { name: "Create campaign" }).click();
    await s.page.waitForURL((u) => /^\/campaigns\/(?!create$)[A-Za-z0-9]+$/.test(u.pathname));
    await s.page.getByText("$25,000.00").first().waitFor();
  } finally {
    await s.close();
  }
});

test("Fondation Lumière types 1 250,50 and 25,00; 1,250 is asked about, not guessed", async () => {
  const s = await openBrowser({ viewport: { width: 390, height: 844 } });
  try {
    await signIn(s.page, "lumiere@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/campaigns/create");
    await s.page.getByLabel("Title").fill("Classes vertes");
    const goal = s.page.getByLabel(/Goal amount \(EUR\)/);
    await goal.fill("1,250");
    await s.page.getByRole("button", { name: "Create campaign" }).click();
    await s.page.getByText('"1,250" could be 1250 or 1,25: type one of those').waitFor();
    await goal.fill("1\u202f250,50");
    await s.page.getByText(/could be 1250/).waitFor({ state: "detached" });
    // Suggested amounts read the same way.
    await s.page.getByLabel(/Suggested amounts/).fill("25,00");
    await s.page.getByRole("button", { name: "Add amount" }).click();
    await s.page.getByRole("list", { name: "Suggested amounts" }).getByText("€25.00").waitFor();
    await s.page.getByRole("button", { name: "Create campaign" }).click();
    await s.page.waitForURL((u) => /^\/campaigns\/(?!create$)[A-Za-z0-9]+$/.test(u.pathname));
    await s.page.getByText("€1,250.50").first().waitFor();
    // Its edit form writes the goal back in the organization's way.
    await s.page.getByRole("button", { name: "Edit" }).click();
    assert.equal(await s.page.getByLabel(/Goal amount/).inputValue(), "1250,50");
    await s.shot("issue53-lumiere-edit-390");
  } finally {
    await s.close();
  }
});

test("a paused campaign's link says paused; a draft is a preview for members only", async () => {
  const s = await openBrowser();
  try {
    // Signed out: the paused campaign's page, not a 404.
    const paused = await s.page.goto("/p/harbor-light/summer-reading");
    assert.equal(paused?.status(), 200);
    await s.page.getByText("This campaign is paused and not accepting donations right now.").waitFor();
    assert.equal(await s.page.locator('meta[name="robots"]').count(), 0);
    // The draft: a 404 to the public.
    const hidden = await s.page.goto("/p/harbor-light/spring-clean-up");
    assert.equal(hidden?.status(), 404);

    for (const [email, role] of [
      ["member@almoner.test", "viewer"],
      ["organizer@almoner.test", "organizer"],
      ["admin@almoner.test", "owner"],
    ] as const) {
      await s.context.clearCookies();
      await signIn(s.page, email);
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      const res = await s.page.goto("/p/harbor-light/spring-clean-up");
      assert.equal(res?.status(), 200, role);
      await s.page.getByText("Preview.", { exact: false }).first().waitFor();
      await s.page.getByText(/only members of your organization can open this page/).waitFor();
      assert.equal(await s.page.locator('meta[name="robots"]').getAttribute("content"), "noindex, nofollow");
      assert.match(await s.page.title(), /^Preview: Spring Clean-up Day/);
      assert.deepEqual(await axeProblems(s.page), [], role);
    }
    // The campaign page offers the preview, not a "Public page" that would 404 for visitors.
    await go(s.page, "/campaigns?q=Spring%20Clean-up");
    await s.page.getByRole("link", { name: "Spring Clean-up Day" }).first().click();
    const preview = s.page.getByRole("link", { name: "Preview" });
    await preview.waitFor();
    assert.match((await preview.getAttribute("href")) ?? "", /\/p\/harbor-light\/spring-clean-up$/);
    assert.equal(await s.page.getByRole("link", { name: "Public page" }).count(), 0);

    // Someone outside the organization: the same 404 as the public.
    await s.context.clearCookies();
    await signIn(s.page, "thames@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    const stranger = await s.page.goto(`${BASE_URL}/p/harbor-light/spring-clean-up`);
    assert.equal(stranger?.status(), 404);
  } finally {
    await s.close();
  }
});

test("Custom in the dashboard's period opens on the calendar, by keyboard", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/dashboard");
    const custom = s.page.getByRole("button", { name: /^Custom/ });
    await custom.focus();
    await s.page.keyboard.press("Enter");
    await s.page.getByRole("grid").first().waitFor();
    await s.page.waitForFunction(() => document.activeElement?.closest('[role="grid"]') !== null);
    const focused = await s.page.evaluate(() => document.activeElement?.textContent ?? "");
    assert.match(focused, /^\d{1,2}$/, "a day of the calendar has focus");
    // The arrows move between days from there.
    await s.page.keyboard.press("ArrowLeft");
    assert.equal(
      await s.page.evaluate(() => document.activeElement?.closest('[role="grid"]') !== null),
      true,
    );
    await s.page.keyboard.press("Escape");
  } finally {
    await s.close();
  }
});
