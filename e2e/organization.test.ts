import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, go, openBrowser, signIn } from "./browser.ts";

/**
 * Issue 5's flow: an admin invites an organizer from /organizers/create, the organizer accepts the
 * link from the outbox mail, sees the organization (read-only for an organizer); the admin (owner of
 * the demo organization) edits the profile. Screenshots at desktop and 360 px.
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

      const mails = (await (
        await fetch(`${BASE_URL}/api/dev/outbox?to=${encodeURIComponent(email)}`)
      ).json()) as {
        url: string;
      }[];
      const link = mails[0]?.url;
      assert.ok(link?.includes("/accept-invitation?id="), "the invitation mail carries the link");
      const signUp = await invitee.page.request.post(`${BASE_URL}/api/auth/sign-up/email`, {
        data: { name: `Eve ${viewport.name}`, email, password: "password-123" },
      });
      assert.equal(signUp.status(), 200);
      // Accepting needs the invited address verified (decision 017): follow the sign-up's
      // verification link from the outbox first, in the invitee's browser context.
      const verification = (
        (await (await fetch(`${BASE_URL}/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
          subject: string;
          url: string;
        }[]
      ).find((m) => m.subject === "Verify your e-mail address");
      assert.ok(verification?.url, "sign-up mails a verification link");
      const verify = new URL(verification.url);
      const verified = await invitee.page.request.get(`${BASE_URL}${verify.pathname}${verify.search}`, {
        maxRedirects: 0,
      });
      assert.equal(verified.status(), 302);
      assert.ok(link, "the invitation mail carries a link");
      const url = new URL(link);
      await go(invitee.page, url.pathname + url.search);
      await invitee.page.getByRole("button", { name: /Accept/ }).click();
      await invitee.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(invitee.page, "/organization");
      await invitee.page
        .getByText("Only owners and admins of the organization can edit its profile.")
        .waitFor();

      await go(admin.page, "/organization");
      await admin.page.getByText(`Eve ${viewport.name}`).waitFor();
      const mission = `Feeding neighbours (${viewport.name})`;
      await admin.page.getByLabel("Mission").fill(mission);
      await admin.page.getByLabel("Country (2 letters)").fill("P1");
      await admin.page.getByRole("button", { name: "Save", exact: true }).click();
      await admin.page.getByText("Use the 2-letter ISO country code").waitFor();
      await admin.page.getByLabel("Country (2 letters)").fill("PT");
      await admin.page.getByRole("button", { name: "Save", exact: true }).click();
      await admin.page.getByText("Organization saved").waitFor();
      await admin.shot(`organization-${viewport.name}`);
      await go(invitee.page, "/organization");
      assert.equal(await invitee.page.getByLabel("Mission").inputValue(), mission);
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
