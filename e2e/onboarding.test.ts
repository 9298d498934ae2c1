/**
 * A new nonprofit from sign-up to its own organization (issue 53, decision 045), with nothing but
 * the UI and the mails: sign up, open the verification mail (it comes back to /onboarding), set
 * the organization up, land on its dashboard as its owner. At 1280 and 390 px, light and dark, with
 * axe on each screen. And someone who signed up earlier and signs in at /login lands on
 * /onboarding, signed in (decision 044), not signed out.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";
import { freshEmail, mailLink } from "./mail.ts";

const LOOKS = [
  { name: "desktop-light", viewport: { width: 1280, height: 800 }, colorScheme: "light" as const },
  { name: "desktop-dark", viewport: { width: 1280, height: 800 }, colorScheme: "dark" as const },
  { name: "phone-light", viewport: { width: 390, height: 844 }, colorScheme: "light" as const },
  { name: "phone-dark", viewport: { width: 390, height: 844 }, colorScheme: "dark" as const },
];

for (const look of LOOKS) {
  test(`a new nonprofit signs up and sets up its organization (${look.name})`, async () => {
    const s = await openBrowser({ viewport: look.viewport, colorScheme: look.colorScheme });
    const email = freshEmail(`founder-${look.name}`);
    const orgName = `Riverside Pantry ${look.name} ${Date.now().toString(36)}`;
    const problems: string[] = [];
    const axe = async (where: string) => {
      for (const p of await axeProblems(s.page)) problems.push(`${where}: ${p}`);
    };
    try {
      await go(s.page, "/login");
      await s.page.getByRole("link", { name: "Create an account" }).click();
      await s.page.waitForURL((u) => u.pathname === "/sign-up");
      // Said before the account is made (walkthrough H1).
      await s.page
        .getByText("Next you set up your organization, or accept an invitation from yours.")
        .waitFor();
      await axe("/sign-up");
      await s.page.getByLabel("Name").fill("Rosa Founder");
      await s.page.getByLabel("E-mail").fill(email);
      await s.page.getByLabel("Password").fill("pantry shelves 42");
      await s.page.getByRole("button", { name: "Create account" }).click();

      // Signed in, on the onboarding page, which asks for the address first (the owner is who the
      // platform writes to) and names the mail sign-up sent.
      await s.page.waitForURL((u) => u.pathname === "/onboarding");
      await s.page.getByRole("heading", { name: "Verify your e-mail address" }).waitFor();
      await axe("/onboarding (verify first)");
      await s.shot(`onboarding-verify-${look.name}`);

      // The verification mail sign-up sent comes back here (L6, decision 044).
      await go(s.page, await mailLink(email, "Verify your e-mail address"));
      await s.page.waitForURL((u) => u.pathname === "/onboarding");
      await s.page.getByRole("status").filter({ hasText: "Your e-mail address is verified." }).waitFor();
      await s.page.getByRole("heading", { name: "Set up your organization" }).waitFor();

      // A missing name is said next to the field, before anything is sent.
      await s.page.getByRole("button", { name: "Create organization" }).click();
      await s.page.getByText("Check the highlighted fields").waitFor();
      await s.page.getByLabel("Name").fill(orgName);
      await s.page.getByLabel("Country").selectOption({ label: "Portugal" });
      // The country suggests its currency.
      assert.equal(await s.page.getByLabel("Currency").inputValue(), "EUR");
      await s.page.getByRole("combobox", { name: "Time zone" }).click();
      const zones = s.page.getByRole("dialog", { name: "Time zone" });
      await zones.getByPlaceholder("City, country or offset").fill("lisbon");
      await zones.getByRole("option", { name: /^Europe\/Lisbon/ }).click();
      await s.page.getByLabel("Fiscal year starts in").selectOption({ label: "April" });
      await axe("/onboarding (form)");
      await s.shot(`onboarding-form-${look.name}`);
      await s.page.getByRole("button", { name: "Create organization" }).click();

      // Its own organization, as its owner: the dashboard, then the profile it named.
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await s.page
        .getByRole("status")
        .filter({ hasText: "Your organization is ready. Invite your team from the Organization page." })
        .waitFor();
      await s.page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
      await axe("/dashboard");
      await s.shot(`onboarding-dashboard-${look.name}`);
      await go(s.page, "/organization");
      assert.equal(await s.page.getByRole("textbox", { name: "Name", exact: true }).inputValue(), orgName);
      await s.page.getByText("Europe/Lisbon").first().waitFor();
      assert.deepEqual(problems, []);
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  });
}

test("an account without an organization signs in at /login and lands on /onboarding, still signed in", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "outsider@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/onboarding");
    await s.page.getByRole("heading", { name: "Set up your organization" }).waitFor();
    const session = (await (await s.page.request.get("/api/auth/get-session")).json()) as {
      user: { email: string };
    } | null;
    assert.equal(session?.user.email, "outsider@almoner.test");
    // The portal's own pages still refuse them (SPEC §6): back to /onboarding.
    await go(s.page, "/donations");
    await s.page.waitForURL((u) => u.pathname === "/onboarding");
    // The account menu's way out: signing out ends on /login.
    await s.page.getByRole("button", { name: "Sign out" }).click();
    await s.page.waitForURL((u) => u.pathname === "/login");
    assert.equal(await (await s.page.request.get("/api/auth/get-session")).text(), "null");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
