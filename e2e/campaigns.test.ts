/**
 * Campaigns end to end in Chromium (issue 6): an organizer creates a campaign with a cover and
 * suggested amounts, adds and edits an item, publishes, pauses and resumes, filters the list, opens
 * the public page and the analytics; an admin uploads the organization logo, which the public page
 * then shows. Screenshots at desktop and 360 px.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { crc32, deflateSync } from "node:zlib";
import { go, openBrowser, signIn } from "./browser.ts";

/** A real (decodable) PNG: a teal-to-amber gradient, so screenshots show the image, not a broken icon. */
function png(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const t = x / width;
      raw[row + 1 + x * 3] = Math.round(15 + t * 200);
      raw[row + 2 + x * 3] = Math.round(118 + t * 40 - (y / height) * 40);
      raw[row + 3 + x * 3] = Math.round(110 - t * 100);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "360", width: 360, height: 780 },
]) {
  test(`an organizer runs a campaign from creation to its public page (${viewport.name})`, async () => {
    const s = await openBrowser({ viewport });
    const title = `Coat drive ${viewport.name} ${Date.now().toString(36)}`;
    try {
      await signIn(s.page, "organizer@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");

      // Create: per-field validation, a refused file type, a cover, suggested amounts.
      await go(s.page, "/campaigns/create");
      await s.page.getByLabel("Title").fill("ab");
      await s.page.getByRole("button", { name: "Create campaign" }).click();
      await s.page.getByText("At least 3 characters").waitFor();
      await s.page.getByLabel("Title").fill(title);
      await s.page.getByLabel("Short description").fill("Warm coats for the winter.");
      await s.page.getByLabel(/Goal amount/).fill("1500.00");
      await s.page.getByLabel("Cover image").setInputFiles({
        name: "cover.gif",
        mimeType: "image/gif",
        buffer: Buffer.from("GIF89a"),
      });
      await s.page.getByText("Choose a PNG, JPEG or WebP image.").waitFor();
      await s.page
        .getByLabel("Cover image")
        .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png(320, 180) });
      await s.page.getByRole("img", { name: "Cover image preview" }).waitFor();
      for (const amount of ["50", "25"]) {
        await s.page.getByRole("textbox", { name: /Suggested amounts/ }).fill(amount);
        await s.page.getByRole("button", { name: "Add amount" }).click();
      }
      await s.page.getByRole("button", { name: "Remove $50.00" }).waitFor();
      assert.equal(await s.page.getByLabel("Allow recurring donations").isChecked(), true);
      await s.shot(`campaign-create-${viewport.name}`);
      await s.page.getByRole("button", { name: "Create campaign" }).click();
      // Not /campaigns/create itself: wait for the new campaign's own address.
      await s.page.waitForURL((u) => /^\/campaigns\/(?!create$)[A-Za-z0-9]+$/.test(u.pathname));
      const campaignUrl = new URL(s.page.url()).pathname;

      // Overview: the cover and the settings, then publish, pause and resume.
      await s.page.getByRole("img", { name: `${title} cover` }).waitFor();
      await s.page.getByText("$25.00, $50.00").waitFor();
      // A draft reads as a draft: its status card shows no phase ("Draft", never "Draft Live").
      const statusCard = s.page
        .locator("p", { hasText: /^Status$/ })
        .first()
        .locator("..");
      const cardText = async () => (await statusCard.innerText()).replace(/\s+/g, " ").trim();
      assert.equal(await cardText(), "Status Draft");
      await s.page.getByRole("button", { name: "Publish" }).click();
      await s.page.getByRole("button", { name: "Pause" }).waitFor();
      assert.equal(await cardText(), "Status Active Live");
      await s.page.getByRole("button", { name: "Pause" }).click();
      await s.page.getByRole("button", { name: "Resume" }).click();
      await s.page.getByRole("button", { name: "Pause" }).waitFor();
      await s.shot(`campaign-detail-${viewport.name}`);
      // The counts' tile opens the donations list narrowed to the campaign.
      const detail = new URL(s.page.url());
      await s.page.getByRole("link", { name: "See the donations" }).click();
      await s.page.waitForURL(
        (u) =>
          u.pathname === "/donations" && u.searchParams.get("campaignId") === detail.pathname.split("/")[2],
      );
      await s.page.getByText("No donations match these filters.").waitFor();
      await go(s.page, detail.pathname);

      // Items: add one, then edit it.
      await s.page.getByRole("link", { name: "Items" }).click();
      await s.page.getByRole("button", { name: "Add item" }).first().click();
      await s.page.getByLabel("Title").fill("Winter coat");
      await s.page.getByLabel(/Unit amount/).fill("45");
      await s.page.getByLabel("Quantity needed", { exact: true }).fill("20");
      await s.page.getByRole("dialog").getByRole("button", { name: "Add item" }).click();
      await s.page.getByText("0 of 20 funded").waitFor();
      await s.page.getByRole("button", { name: "Edit Winter coat" }).click();
      await s.page.getByLabel("Description").fill("One warm coat for a child.");
      await s.page.getByLabel("Quantity needed", { exact: true }).fill("25");
      await s.page.getByRole("dialog").getByRole("button", { name: "Save item" }).click();
      await s.page.getByText("0 of 25 funded").waitFor();
      await s.page.getByText("One warm coat for a child.").waitFor();
      await s.shot(`campaign-items-${viewport.name}`);
      // An item's gifts: its card links to /donations narrowed to it, the item named in a chip that
      // removes the item's filter and keeps the campaign's.
      const campaignId = new URL(s.page.url()).pathname.split("/")[2];
      await s.page.getByRole("link", { name: "Donations for Winter coat" }).click();
      await s.page.getByTestId("item-chip").filter({ hasText: "Donations for Winter coat" }).waitFor();
      await s.page.getByText("No donations match these filters.").waitFor();
      await s.page.getByRole("button", { name: "Remove filter: Donations for Winter coat" }).click();
      await s.page.waitForURL(
        (u) => !u.searchParams.has("campaignItemId") && u.searchParams.get("campaignId") === campaignId,
      );
      await s.page.getByTestId("item-chip").waitFor({ state: "detached" });

      // The list: filters live in the URL and find the new campaign.
      await go(s.page, "/campaigns");
      // On a phone the filters are in the "Filters" sheet, which counts them.
      const phone = viewport.width < 640;
      if (phone) await s.page.getByRole("button", { name: "Filters", exact: true }).click();
      await s.page.getByRole("button", { name: "Phase" }).click();
      await s.page.getByRole("checkbox", { name: "Live" }).click();
      await s.page.keyboard.press("Escape");
      await s.page.waitForURL((u) => u.searchParams.get("phase")?.includes("live") ?? false);
      await s.page.getByLabel("Goal", { exact: true }).selectOption("open");
      await s.page.waitForURL((u) => u.searchParams.get("goal") === "open");
      // The sheet closes on "Show results"; its button counts the two filters.
      if (phone) {
        await s.page.getByRole("button", { name: "Show results" }).click();
        await s.page.getByRole("button", { name: "Filters (2)" }).waitFor();
      }
      await s.page.getByLabel("Search").fill(title);
      await s.page.getByRole("link", { name: title }).waitFor();
      await s.shot(`campaigns-list-${viewport.name}`);
      if (phone) await s.page.getByRole("button", { name: "Filters (2)" }).click();
      await s.page.getByLabel("Goal", { exact: true }).selectOption("reached");
      if (phone) await s.page.getByRole("button", { name: "Show results" }).click();
      await s.page.getByText("No campaigns match these filters.").waitFor();

      // The public page, signed out of nothing: cover, items with progress, suggested amounts.
      // Edit in place: a new web address; the old one keeps working by redirecting.
      await go(s.page, campaignUrl);
      const oldHref = await s.page.getByRole("link", { name: "Public page" }).getAttribute("href");
      assert.match(oldHref ?? "", /^\/p\/[a-z0-9-]+\/coat-drive-/);
      const oldSlug = (oldHref as string).split("/").at(-1) as string;
      await s.page.getByRole("button", { name: "Edit" }).click();
      await s.page.getByLabel("Web address (slug)").fill(`${oldSlug}-moved`);
      await s.page.getByRole("button", { name: "Save changes" }).click();
      await s.page.getByText("Campaign saved").waitFor();
      await go(s.page, oldHref as string);
      await s.page.waitForURL((u) => u.pathname.endsWith(`/${oldSlug}-moved`));
      await s.page.getByRole("heading", { name: title }).waitFor();
      await s.page.getByText("What your gift funds").waitFor();
      await s.page.getByText("0 of 25 funded").waitFor();
      // The suggested amounts, as text: they are not buttons (issue 53).
      await s.page.getByText("$25.00 · $50.00", { exact: true }).waitFor();
      assert.equal(await s.page.getByRole("button", { name: "$25.00" }).count(), 0);
      const cover = s.page.locator("main img[src^='/api/media/']").first();
      await cover.waitFor();
      assert.ok(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 320));
      await s.shot(`campaign-public-${viewport.name}`);

      // Analytics: tiles including refunds, the period switch in the URL.
      await go(s.page, `${campaignUrl}/analytics`);
      await s.page.getByText("Unique donors").waitFor();
      await s.page.getByText("Refunds").waitFor();
      // A campaign nobody gave to yet says so in Recent donations, as Top donors does (L3).
      await s.page.getByText("No donations to this campaign yet.").waitFor();
      await s.page.getByRole("radio", { name: "7 days" }).click();
      await s.page.waitForURL((u) => u.searchParams.get("days") === "7");
      await s.shot(`campaign-analytics-${viewport.name}`);
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  });
}

test("an admin uploads the organization logo and the public page shows it", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/organization");
    await s.page
      .getByLabel("Logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png(96, 96) });
    await s.page.getByRole("img", { name: "Logo preview" }).waitFor();
    await s.page.getByRole("button", { name: "Save", exact: true }).click();
    await s.page.getByText("Organization saved").waitFor();
    await s.page.locator("img[alt$=' logo'][src^='/api/media/']").first().waitFor();
    await go(s.page, "/p/harbor-light/winter-shelter-2026");
    const logo = s.page.getByRole("img", { name: "Harbor Light Foundation logo" });
    await logo.waitFor();
    assert.match((await logo.getAttribute("src")) ?? "", /^\/api\/media\/[A-Za-z0-9_-]+$/);
    await s.shot("public-campaign-logo");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("an organizer deletes a campaign nobody gave to, after confirming; a campaign with gifts offers no delete", async () => {
  const s = await openBrowser();
  const title = `Short-lived ${Date.now().toString(36)}`;
  try {
    await signIn(s.page, "organizer@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/campaigns/create");
    await s.page.getByLabel("Title").fill(title);
    await s.page.getByLabel(/Goal amount/).fill("100.00");
    await s.page.getByRole("button", { name: "Create campaign" }).click();
    await s.page.waitForURL((u) => /^\/campaigns\/(?!create$)[A-Za-z0-9]+$/.test(u.pathname));
    await s.page.getByRole("heading", { name: title }).waitFor();
    const campaignUrl = s.page.url();

    // Cancel asks again later; nothing is deleted.
    await s.page.getByRole("button", { name: "Delete campaign" }).click();
    const dialog = s.page.getByRole("alertdialog", { name: "Delete this campaign?" });
    await dialog.getByText("removed for good").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    assert.equal(s.page.url(), campaignUrl);

    await s.page.getByRole("button", { name: "Delete campaign" }).click();
    await dialog.getByRole("button", { name: "Delete campaign" }).click();
    await s.page.waitForURL((u) => u.pathname === "/campaigns");
    await s.page.getByText("Campaign deleted").waitFor();
    await s.page.getByRole("table").waitFor();
    assert.equal(await s.page.getByRole("link", { name: title }).count(), 0);
    await go(s.page, new URL(campaignUrl).pathname);
    assert.equal(await s.page.getByRole("heading", { name: title }).count(), 0);

    // A campaign someone gave to (the seed's, listed by raised amount) is archived, never deleted.
    await go(s.page, "/campaigns?sort=raised&desc=true");
    await s.page.getByRole("table").getByRole("link").first().click();
    await s.page.getByRole("link", { name: "Analytics" }).waitFor();
    await s.page.getByText("Raised").first().waitFor();
    assert.equal(await s.page.getByRole("button", { name: "Delete campaign" }).count(), 0);
  } finally {
    await s.close();
  }
});
