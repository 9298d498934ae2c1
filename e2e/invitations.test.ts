/**
 * Every invitee state from the invitation link (issue 53; walkthrough B1, B2; decision 044), by
 * clicking in Chromium, with the invitation and verification mails read from the dev outbox and
 * their links followed, never the API:
 * - no account: sign up from the link; the verification mail sign-up sends comes back to the
 *   invitation; accept; the dashboard (at 1280 and 390 px, light and dark, axe on each screen);
 * - signed in as someone else: the page says so and switches account, back to the invitation;
 * - an account without an organization, unverified: signs in to accept (kept signed in), sends
 *   the verification mail from the invitation page, which comes back there, accepts;
 * - a member of another organization: accepts, and the portal opens on the new organization;
 * - accepted, declined, withdrawn, expired, and an unknown link: each says which, signed out too.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { d1Query } from "../scripts/lib.mjs";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, type Session, signIn } from "./browser.ts";
import { freshEmail, mailLink } from "./mail.ts";

const PASSWORD = "invited password 7";
const INVITATION = /^You're invited to /;
const VERIFY = "Verify your e-mail address";

/** The members card of /organization, as its owner uses it. */
async function invite(page: Page, email: string, role: "Organizer" | "Viewer" | "Admin") {
  await go(page, "/organization?section=members");
  await page.getByLabel("Invite by e-mail").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption({ label: role });
  await page.getByRole("button", { name: "Send invitation" }).click();
  await page.getByText(email).first().waitFor();
}

async function owner(email: string) {
  const s = await openBrowser();
  await signIn(s.page, email);
  await s.page.waitForURL((u) => u.pathname === "/dashboard");
  return s;
}

async function signUpHere(page: Page, name: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

const heading = (s: Session, name: string) => s.page.getByRole("heading", { name, level: 1 }).waitFor();

/** Someone who joined Harbor Light through the no-account flow (the later tests use them). */
let joined: { email: string; link: string } | null = null;

const LOOKS = [
  { name: "desktop-light", viewport: { width: 1280, height: 800 }, colorScheme: "light" as const },
  { name: "desktop-dark", viewport: { width: 1280, height: 800 }, colorScheme: "dark" as const },
  { name: "phone-light", viewport: { width: 390, height: 844 }, colorScheme: "light" as const },
  { name: "phone-dark", viewport: { width: 390, height: 844 }, colorScheme: "dark" as const },
];

for (const look of LOOKS) {
  test(`no account: from the invitation mail, through sign-up and its verification mail, to the dashboard (${look.name})`, async () => {
    const admin = await owner("admin@almoner.test");
    const s = await openBrowser({ viewport: look.viewport, colorScheme: look.colorScheme });
    const email = freshEmail(`invitee-${look.name}`);
    const problems: string[] = [];
    const axe = async (where: string) => {
      for (const p of await axeProblems(s.page)) problems.push(`${where}: ${p}`);
    };
    try {
      await invite(admin.page, email, "Organizer");
      const link = await mailLink(email, INVITATION);
      await go(s.page, link);
      await heading(s, "You're invited");
      await s.page.getByText("invited you to join Harbor Light Foundation as Organizer.").waitFor();
      await axe("invitation (signed out)");
      await s.shot(`invitation-signed-out-${look.name}`);

      await s.page.getByRole("link", { name: "Create one with that address" }).click();
      await s.page.waitForURL((u) => u.pathname === "/sign-up");
      await s.page.getByText("Use the address the invitation was sent to. You accept it next.").waitFor();
      assert.equal(await s.page.getByLabel("E-mail").inputValue(), email, "the invited address is filled in");
      await signUpHere(s.page, `Sam ${look.name}`);

      // Back on the invitation, signed in: it asks for the address first.
      await s.page.waitForURL((u) => u.pathname === "/accept-invitation");
      await s.page.getByText("Verify your e-mail address first").waitFor();
      await axe("invitation (verify first)");
      await s.shot(`invitation-verify-${look.name}`);

      // B1: the verification mail sign-up sent comes back to the invitation, not /dashboard.
      const verification = await mailLink(email, VERIFY);
      assert.match(verification, /callbackURL=%2Faccept-invitation/);
      await go(s.page, verification);
      await s.page.waitForURL((u) => u.pathname === "/accept-invitation");
      await s.page.getByRole("status").filter({ hasText: "Your e-mail address is verified." }).waitFor();
      await s.page.getByRole("button", { name: "Accept invitation" }).waitFor();
      await axe("invitation (accept)");
      await s.shot(`invitation-accept-${look.name}`);
      await s.page.getByRole("button", { name: "Accept invitation" }).click();

      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await s.page.getByRole("status").filter({ hasText: "Invitation accepted." }).waitFor();
      await heading(s, "Dashboard");
      await axe("/dashboard");
      await s.shot(`invitation-dashboard-${look.name}`);
      await go(s.page, "/organization");
      // An organizer reads the profile as text (L11).
      await s.page.locator("dd", { hasText: "Harbor Light Foundation" }).first().waitFor();
      joined ??= { email, link };
      assert.deepEqual(problems, []);
      assert.deepEqual(s.errors, []);
    } finally {
      await admin.close();
      await s.close();
    }
  });
}

test("signed in as someone else, then an account without an organization: switch, sign in to accept, verify from the page", async () => {
  const admin = await owner("admin@almoner.test");
  const s = await openBrowser({ viewport: { width: 390, height: 844 } });
  const email = freshEmail("nina");
  try {
    // Nina signed up before anyone invited her (walkthrough B2) and never verified her address.
    await go(s.page, "/sign-up");
    await s.page.getByLabel("E-mail").fill(email);
    await signUpHere(s.page, "Nina Early");
    await s.page.waitForURL((u) => u.pathname === "/onboarding");
    await s.page.getByRole("button", { name: "Sign out" }).click();
    await s.page.waitForURL((u) => u.pathname === "/login");

    // Someone else is signed in on this browser when Nina's invitation link is opened.
    await signIn(s.page, "outsider@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/onboarding");
    await invite(admin.page, email, "Viewer");
    await go(s.page, await mailLink(email, INVITATION));
    await heading(s, "This invitation is for someone else");
    await s.page.getByText(`you're signed in as outsider@almoner.test`, { exact: false }).waitFor();
    assert.deepEqual(await axeProblems(s.page), []);
    await s.shot("invitation-someone-else-phone");
    await s.page.getByRole("button", { name: "Sign out and switch account" }).click();
    await s.page.waitForURL(
      (u) =>
        u.pathname === "/login" && u.searchParams.get("redirect")?.startsWith("/accept-invitation") === true,
    );

    // Signing in to accept is not signing in to the portal: Nina stays signed in, on the invitation.
    await s.page.getByLabel("E-mail").fill(email);
    await s.page.getByLabel("Password").fill(PASSWORD);
    await s.page.getByRole("button", { name: "Sign in" }).click();
    await s.page.waitForURL((u) => u.pathname === "/accept-invitation");
    await s.page.getByText("Verify your e-mail address first").waitFor();
    await s.page.getByRole("button", { name: "Send verification e-mail" }).click();
    await s.page.getByText(`Verification e-mail sent to ${email}.`).waitFor();
    // The resend comes back to the invitation too.
    const resent = await mailLink(email, VERIFY);
    assert.match(resent, /callbackURL=%2Faccept-invitation/);
    await go(s.page, resent);
    await s.page.waitForURL((u) => u.pathname === "/accept-invitation");
    await s.page.getByRole("button", { name: "Accept invitation" }).click();
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await heading(s, "Dashboard");
    assert.deepEqual(s.errors, []);
  } finally {
    await admin.close();
    await s.close();
  }
});

test("a member of another organization accepts, and the portal opens on the new organization", async () => {
  assert.ok(joined, "the no-account test ran first");
  const lumiere = await owner("lumiere@almoner.test");
  const s = await openBrowser();
  try {
    await invite(lumiere.page, joined.email, "Viewer");
    await signIn(s.page, joined.email, PASSWORD);
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, await mailLink(joined.email, /^You're invited to Fondation Lumière/));
    await s.page.getByText("invited you to join Fondation Lumière as Viewer.").waitFor();
    await s.page.getByRole("button", { name: "Accept invitation" }).click();
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    const switcher = s.page.getByRole("combobox", { name: "Organization", exact: true });
    await switcher.waitFor();
    assert.match((await switcher.locator("option:checked").textContent()) ?? "", /^Fondation Lumière/);
    await go(s.page, "/organization");
    // An organizer or viewer reads the profile as text (L11).
    await s.page.locator("dd", { hasText: "Fondation Lumière" }).first().waitFor();
    assert.deepEqual(s.errors, []);
  } finally {
    await lumiere.close();
    await s.close();
  }
});

test("an accepted, declined, withdrawn or expired invitation, and an unknown link, each say which", async () => {
  assert.ok(joined, "the no-account test ran first");
  const admin = await owner("admin@almoner.test");
  const thames = await owner("thames@almoner.test");
  const guest = await openBrowser();
  const member = await openBrowser();
  try {
    // Accepted: the link says so to anyone holding it, before sign-in.
    await go(guest.page, joined.link);
    await heading(guest, "This invitation has been accepted");

    // Declined, by the invitee, after a real "are you sure?".
    await invite(thames.page, joined.email, "Viewer");
    const declined = await mailLink(joined.email, /^You're invited to Thames Reading Trust/);
    await signIn(member.page, joined.email, PASSWORD);
    await member.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(member.page, declined);
    await member.page.getByRole("button", { name: "Decline" }).click();
    const dialog = member.page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: "Decline invitation" }).click();
    await heading(member, "This invitation was declined");
    await go(guest.page, declined);
    await heading(guest, "This invitation was declined");

    // Withdrawn by the organization.
    const withdrawnTo = freshEmail("withdrawn");
    await invite(admin.page, withdrawnTo, "Viewer");
    const withdrawn = await mailLink(withdrawnTo, INVITATION);
    await admin.page
      .getByRole("listitem")
      .filter({ hasText: withdrawnTo })
      .getByRole("button", { name: "Revoke" })
      .click();
    await admin.page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
    await admin.page.getByRole("alertdialog").waitFor({ state: "detached" });
    await go(guest.page, withdrawn);
    await heading(guest, "This invitation was withdrawn");

    // Expired: seven days pass (the server's clock cannot be moved from here; the row's expiry is).
    const expiredTo = freshEmail("expired");
    await invite(admin.page, expiredTo, "Viewer");
    const expired = await mailLink(expiredTo, INVITATION);
    d1Query(
      `UPDATE invitation SET expires_at = 1 WHERE email = '${expiredTo}'`,
      process.env.ALMONER_STATE_DIR,
    );
    await go(guest.page, expired);
    await heading(guest, "This invitation has expired");
    assert.deepEqual(await axeProblems(guest.page), []);
    await guest.shot("invitation-expired");

    // A link no invitation has (a resend replaced it, or it was mistyped).
    await go(guest.page, "/accept-invitation?id=abcdefghijklmnopqrstuvwxyzABCDEF");
    await heading(guest, "This invitation link doesn't work");
    await guest.page.getByText("it may have been replaced by a newer one", { exact: false }).waitFor();
    // The view answers the unknown link 404 (worker/http/invitations.ts); nothing else failed.
    assert.deepEqual(
      guest.errors.filter((e) => !e.startsWith("404 ") && !e.includes("status of 404")),
      [],
    );
  } finally {
    await admin.close();
    await thames.close();
    await guest.close();
    await member.close();
  }
});
