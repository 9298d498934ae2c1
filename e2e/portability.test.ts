import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { unzipSync } from "fflate";
import { go, openBrowser, signIn } from "./browser.ts";

/**
 * Issue 22, data portability: an owner downloads all of the organization's data from
 * /organization as one ZIP (Chromium saves the streamed file); members in other roles, and an
 * admin impersonating the owner, are not offered it.
 */
const LINK = { name: "Download all data (ZIP)" };

test("an owner downloads the organization's ZIP from /organization", async () => {
  const s = await openBrowser();
  const dir = mkdtempSync(join(tmpdir(), "almoner-zip-"));
  try {
    await signIn(s.page, "lumiere@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/organization?section=data");
    const link = s.page.getByRole("link", LINK);
    await link.waitFor();
    const started = Date.now();
    const [download] = await Promise.all([s.page.waitForEvent("download"), link.click()]);
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const ms = Date.now() - started;
    assert.match(download.suggestedFilename(), /^[a-z0-9-]+-\d{4}-\d\d-\d\d\.zip$/);
    const bytes = new Uint8Array(readFileSync(file));
    assert.equal(Buffer.from(bytes.subarray(0, 4)).toString("latin1"), "PK\u0003\u0004");
    const files = unzipSync(bytes);
    for (const name of [
      "README.txt",
      "organization.csv",
      "members.csv",
      "campaigns.csv",
      "donors.csv",
      "donations.csv",
      "audit_events.csv",
      "manifest.csv",
    ])
      assert.ok(files[name], `${name} is in the archive`);
    const manifest = new TextDecoder().decode(files["manifest.csv"]);
    const donations = Number(/\r\ndonations\.csv,(\d+),/.exec(manifest)?.[1]);
    assert.ok(donations > 0, "the demo organization's donations are in it");
    console.log(
      `# ${download.suggestedFilename()}: ${bytes.length} bytes, ${donations} donations, ${ms} ms to download`,
    );
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const email of ["organizer@almoner.test", "member@almoner.test"]) {
  test(`${email.split("@")[0]} (not an owner) is not offered the download`, async () => {
    const s = await openBrowser();
    try {
      await signIn(s.page, email);
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      // The Data section is an owner's: asked for, the page opens on the profile instead.
      await go(s.page, "/organization?section=data");
      await s.page.getByRole("tab", { name: "Profile", selected: true }).waitFor();
      await go(s.page, "/organization?section=members");
      await s.page.getByText("People who work in this organization").waitFor();
      assert.equal(await s.page.getByRole("link", LINK).count(), 0);
      assert.equal(await s.page.getByText("Download all data").count(), 0);
    } finally {
      await s.close();
    }
  });
}

test("an admin impersonating the owner is not offered the download, and the server refuses it", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    const status = await s.page.evaluate(async () => {
      const list = await fetch(
        "/api/auth/admin/list-users?searchField=email&searchValue=lumiere%40almoner.test",
      );
      const { users } = (await list.json()) as { users: { id: string }[] };
      const res = await fetch("/api/auth/admin/impersonate-user", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userId: users[0]?.id, reason: "e2e: portability" }),
      });
      return res.status;
    });
    assert.equal(status, 200);
    await go(s.page, "/organization?section=members");
    await s.page.getByText("You are impersonating Léa Laurent").waitFor();
    await s.page.getByText("People who work in this organization").waitFor();
    assert.equal(await s.page.getByRole("link", LINK).count(), 0);
    const refused = await s.page.evaluate(async () => {
      const res = await fetch("/api/export/organization.zip");
      return { status: res.status, body: await res.json() };
    });
    assert.deepEqual(refused, {
      status: 403,
      body: { code: "FORBIDDEN", message: "Exports are not available while impersonating" },
    });
  } finally {
    await s.close();
  }
});
