import assert from "node:assert/strict";
import { test } from "node:test";
import { go, openBrowser, signIn } from "./browser.ts";
import { mailLink } from "./mail.ts";

/**
 * Issue 5's flow: an admin invites an organizer from /organizers/create, the organizer follows the
 * link of the outbox mail, signs up from it, follows the verification mail back and accepts (all by
 * clicking: issue 53), sees the organization (read-only for an organizer); the admin (owner of the
 * demo organization) edits the profile. Screenshots at desktop and 360 px.
 */
for (const viewport of [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 360, height: 780 },
]) {
  test(`invite, accept and edit the organization (${viewport.name})`, async () => {
    const admin = await openBrowser({ viewport });
    const invitee = await openBrowser({ viewport });
    try {
      const email = `e2e-organizer-${viewport.name}-${Date.now().toString(36)}@example.org`;
      await signIn(admin.page, "admin@almoner.test");
      await admin.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(admin.page, "/organizers/create");
      await admin.page.getByRole("tabpanel", { name: "Invite by e-mail" }).getByLabel("E-mail").fill(email);
      await admin.page.getByRole("button", { name: "Send invitation" }).click();
      await admin.page.waitForURL((u) => u.pathname === "/organizers");
      await admin.page.getByText(email).first().waitFor();
      await admin.shot(`organizers-${viewport.name}`);

      // The invitee takes the path a person takes (walkthrough B1): the mailed link, sign-up from
      // it, the verification mail sign-up sends (it comes back to the invitation), accept.
      await go(invitee.page, await mailLink(email, /^You're invited to /));
      await invitee.page.getByRole("link", { name: "Create one with that address" }).click();
      await invitee.page.waitForURL((u) => u.pathname === "/sign-up");
      await invitee.page.getByLabel("Name").fill(`Eve ${viewport.name}`);
      await invitee.page.getByLabel("Password").fill("password-123");
      await invitee.page.getByRole("button", { name: "Create account" }).click();
      await invitee.page.waitForURL((u) => u.pathname === "/accept-invitation");
      await invitee.page.getByText("Verify your e-mail address first").waitFor();
      await go(invitee.page, await mailLink(email, "Verify your e-mail address"));
      await invitee.page.waitForURL((u) => u.pathname === "/accept-invitation");
      await invitee.page.getByRole("button", { name: /Accept/ }).click();
      await invitee.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(invitee.page, "/organization");
      await invitee.page
        .getByText("Only owners and admins of the organization can edit its profile.")
        .waitFor();

      await go(admin.page, "/organization?section=members");
      await admin.page.getByText(`Eve ${viewport.name}`).waitFor();
      await go(admin.page, "/organization");
      const mission = `Feeding neighbours (${viewport.name})`;
      await admin.page.getByLabel("Mission").fill(mission);
      await admin.page.getByLabel("Country (2 letters)").fill("P1");
      await admin.page.getByRole("button", { name: "Save", exact: true }).click();
      await admin.page.getByText("Use the 2-letter ISO country code").waitFor();
      await admin.page.getByLabel("Country (2 letters)").fill("PT");
      await admin.page.getByRole("button", { name: "Save", exact: true }).click();
      await admin.page.getByText("Organization saved").waitFor();
      await admin.shot(`organization-${viewport.name}`);
      // An organizer reads the profile as text (L11), the new mission among it.
      await go(invitee.page, "/organization");
      await invitee.page.getByText(mission).waitFor();
      await go(admin.page, "/organization-badges");
      await admin.page.getByText("Goal achiever").first().waitFor();
      await admin.shot(`organization-badges-${viewport.name}`);
      assert.deepEqual(admin.errors, []);
      assert.deepEqual(invitee.errors, []);
    } finally {
      await admin.close();
      await invitee.close();
    }
  });
}

/**
 * The profile's time zone is picked from a list searched by city, country or offset, not typed as
 * an IANA name: by pointer at 1280 px, by keyboard at 360 px. As Thames Reading Trust's owner, whom
 * no other test signs in as, so the zone changing here moves no other test's days; it is put back.
 */
for (const viewport of [
  { name: "desktop", width: 1280, height: 800, keyboard: false },
  { name: "phone", width: 360, height: 780, keyboard: true },
]) {
  test(`the organization's time zone is chosen from a searchable list (${viewport.name})`, async () => {
    const s = await openBrowser({ viewport });
    const zone = s.page.getByRole("combobox", { name: "Time zone" });
    const choose = async (typed: string, option: RegExp) => {
      if (viewport.keyboard) {
        await zone.focus();
        await s.page.keyboard.press("Enter");
      } else await zone.click();
      const list = s.page.getByRole("dialog", { name: "Time zone" });
      await list.getByPlaceholder("City, country or offset").fill(typed);
      const match = list.getByRole("option", { name: option });
      await match.waitFor();
      if (viewport.keyboard) {
        // cmdk highlights the best match; the arrows move to the one wanted, Enter takes it.
        for (let i = 0; i < 10 && (await match.getAttribute("aria-selected")) !== "true"; i++)
          await s.page.keyboard.press("ArrowDown");
        assert.equal(await match.getAttribute("aria-selected"), "true");
        await s.page.keyboard.press("Enter");
      } else await match.click();
      await s.page.getByRole("button", { name: "Save", exact: true }).click();
      await s.page.getByText("Organization saved").waitFor();
    };
    try {
      await signIn(s.page, "thames@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(s.page, "/organization");
      assert.match((await zone.textContent()) ?? "", /Europe\/London/);
      await choose("mumbai", /^Asia\/Kolkata.*UTC\+05:30$/);
      await s.shot(`organization-time-zone-${viewport.name}`);
      await go(s.page, "/organization");
      assert.match((await zone.textContent()) ?? "", /Asia\/Kolkata\s*UTC\+05:30/);
      // An offset finds the zones at it.
      await choose("+05:30", /^Asia\/Colombo/);
      await go(s.page, "/organization");
      assert.match((await zone.textContent()) ?? "", /Asia\/Colombo/);
      await choose("london", /^Europe\/London/);
      await go(s.page, "/organization");
      assert.match((await zone.textContent()) ?? "", /Europe\/London/);
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  });
}
