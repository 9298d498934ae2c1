import assert from "node:assert/strict";
import { test } from "node:test";
import { go, openBrowser, signIn } from "./browser.ts";

/** The list's "N rows" line, as a number. */
async function rowsShown(page: import("playwright-core").Page) {
  const text = await page.getByText(/^[\d,]+ rows?$/).innerText();
  return Number(text.replace(/[^\d]/g, ""));
}

test("an admin selects all failed card gifts matching a filter, moves them back to pending in batches with progress, and gifts outside the filter stay", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    // Every failed gift, then only the card ones: the rest of the failed gifts are outside the filter.
    await go(s.page, '/donations?status=["failed"]&pageSize=10');
    await s.page.getByRole("heading", { name: "Donations", level: 1 }).waitFor();
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    const failed = await rowsShown(s.page);
    await s.page.getByLabel("Payment method").selectOption("card");
    await s.page.waitForURL((u) => u.searchParams.get("paymentMethod") === "card");
    let card = failed;
    for (let i = 0; i < 50 && card === failed; i++) {
      await s.page.waitForTimeout(200);
      card = await rowsShown(s.page);
    }
    assert.ok(card > 10 && card < failed, `failed ${failed}, card ${card}`);

    // The page, then all matching: the bar says so.
    await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).click();
    const bar = s.page.getByRole("region", { name: "Bulk actions" });
    await bar.getByText("10 selected").waitFor();
    await bar.getByRole("button", { name: `Select all ${card.toLocaleString("en-US")} matching` }).click();
    await bar.getByText(`All ${card.toLocaleString("en-US")} matching selected`).waitFor();
    await s.shot("bulk-all-matching-1280");

    // Each call is slowed so the progress can be seen between them.
    await s.page.route("**/api/trpc/donations.bulkUpdateStatus**", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await bar.getByLabel("New status").selectOption("pending");
    await bar.getByRole("button", { name: "Apply" }).click();
    await bar.getByText(new RegExp(`^Updating \\d+ of ${card.toLocaleString("en-US")}…$`)).waitFor();
    await s.page.getByRole("progressbar").waitFor();
    // The run holds the selection: Clear and the checkboxes wait for its end, so its Cancel stays.
    assert.equal(await bar.getByRole("button", { name: "Clear" }).isDisabled(), true);
    assert.equal(
      await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).first().isDisabled(),
      true,
    );
    await s.shot("bulk-progress-1280");
    await s.page.getByText(`${card.toLocaleString("en-US")} marked pending`).waitFor({ timeout: 30_000 });
    await s.page.unroute("**/api/trpc/donations.bulkUpdateStatus**");

    // The filter now matches nothing; the failed gifts of other methods are still failed.
    await s.page.getByText("0 rows").waitFor();
    await go(s.page, '/donations?status=["failed"]&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.equal(await rowsShown(s.page), failed - card);
    await go(s.page, '/donations?status=["failed"]&paymentMethod=cash&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.ok((await rowsShown(s.page)) > 0);
    assert.deepEqual(
      s.errors.filter((e) => !e.includes("favicon")),
      [],
    );
  } finally {
    await s.close();
  }
});

test("an admin tags every donor matching a filter with a new tag in batches with progress, and donors outside the filter stay untagged", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    // A tag nobody has yet, so its count afterwards is exactly what the run did.
    const tagName = `Bulk ${Date.now().toString(36)}`;
    const tagId = await s.page.evaluate(async (name) => {
      const res = await fetch("/api/trpc/donors.tags.create", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ json: { name } }),
      });
      return ((await res.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
    }, tagName);

    await go(s.page, "/donors?pageSize=10");
    await s.page.getByRole("heading", { name: "Donors", level: 1 }).waitFor();
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    const all = await rowsShown(s.page);
    // The Volunteer tag filters the list: the other donors are outside it.
    const tagSelect = s.page.getByLabel("Tag", { exact: true });
    const volunteer = await tagSelect.locator("option", { hasText: /^Volunteer \(/ }).getAttribute("value");
    assert.ok(volunteer);
    await tagSelect.selectOption(volunteer);
    await s.page.waitForURL((u) => u.searchParams.get("tagId") === volunteer);
    let matching = all;
    for (let i = 0; i < 50 && matching === all; i++) {
      await s.page.waitForTimeout(200);
      matching = await rowsShown(s.page);
    }
    assert.ok(matching > 100 && matching < all, `all ${all}, volunteers ${matching}`);
    const n = matching.toLocaleString("en-US");

    await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).click();
    const bar = s.page.getByRole("region", { name: "Bulk actions" });
    await bar.getByText("10 selected").waitFor();
    await bar.getByRole("button", { name: `Select all ${n} matching` }).click();
    await bar.getByText(`All ${n} matching selected`).waitFor();

    // Each call is slowed so the progress can be seen between them.
    await s.page.route("**/api/trpc/donors.tags.bulkAssign**", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await bar.getByLabel("Tag to apply").selectOption({ label: tagName });
    await bar.getByRole("button", { name: "Add tag" }).click();
    await bar.getByText(new RegExp(`^Tagging \\d+ of ${n}…$`)).waitFor();
    await s.page.getByRole("progressbar").waitFor();
    // While it runs, the tag cannot be changed nor a second run started.
    assert.equal(await bar.getByLabel("Tag to apply").isDisabled(), true);
    assert.equal(await bar.getByRole("button", { name: "Add tag" }).isDisabled(), true);
    await s.shot("donors-bulk-progress-1280");
    await s.page.getByText(`${n} tagged ${tagName}`).waitFor({ timeout: 30_000 });
    await s.page.unroute("**/api/trpc/donors.tags.bulkAssign**");

    // As many donors carry the tag as the snapshot held, and every one of them is a volunteer.
    await go(s.page, `/donors?pageSize=10&tagId=${tagId}`);
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.equal(await rowsShown(s.page), matching);
    const outside = await s.page.evaluate(
      async ({ tagId, volunteer }) => {
        const wrong: string[] = [];
        for (let page = 1; ; page++) {
          const input = encodeURIComponent(JSON.stringify({ json: { tagId, page, pageSize: 100 } }));
          const res = await fetch(`/api/trpc/donors.list?input=${input}`);
          const data = (
            (await res.json()) as {
              result: { data: { json: { rows: { id: string; tags: { id: string }[] }[] } } };
            }
          ).result.data.json;
          for (const r of data.rows) if (!r.tags.some((t) => t.id === volunteer)) wrong.push(r.id);
          if (data.rows.length < 100) return wrong;
        }
      },
      { tagId, volunteer },
    );
    assert.deepEqual(outside, []);
    assert.deepEqual(
      s.errors.filter((e) => !e.includes("favicon")),
      [],
    );
  } finally {
    await s.close();
  }
});

/** One tRPC mutation from the signed-in page (its cookies and origin), as the portal's link sends it. */
async function mutate<T>(page: import("playwright-core").Page, path: string, input: unknown): Promise<T> {
  return (await page.evaluate(
    async ([p, i]) => {
      const res = await fetch(`/api/trpc/${p}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ json: i }),
      });
      const body = (await res.json()) as { result: { data: { json: unknown } } };
      if (!res.ok) throw new Error(`${p}: ${res.status} ${JSON.stringify(body)}`);
      return body.result.data.json;
    },
    [path, input] as const,
  )) as T;
}

/** Runs `make(i)` for i < n, eight at a time. */
async function times<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += 8)
    out.push(...(await Promise.all(Array.from({ length: Math.min(8, n - i) }, (_, j) => make(i + j)))));
  return out;
}

test("an admin archives all draft campaigns matching a search in batches with progress, and campaigns outside the filter stay", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  const made: string[] = [];
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    // 130 drafts (two calls of 100 and 30) and two published ones the status filter leaves out.
    const drafts = await times(130, (i) =>
      mutate<{ id: string }>(s.page, "campaigns.create", {
        title: `Bulk archive ${String(i).padStart(3, "0")}`,
        currency: "USD",
        goalType: "none",
      }),
    );
    made.push(...drafts.map((c) => c.id));
    const live = await times(2, (i) =>
      mutate<{ id: string }>(s.page, "campaigns.create", {
        title: `Bulk archive live ${i}`,
        currency: "USD",
        goalType: "none",
      }),
    );
    made.push(...live.map((c) => c.id));
    for (const c of live) await mutate(s.page, "campaigns.setStatus", { id: c.id, action: "publish" });
    await go(s.page, '/campaigns?status=["draft"]&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    const allDrafts = await rowsShown(s.page);

    // The search narrows the drafts to ours.
    await s.page.getByRole("textbox", { name: "Search" }).fill("bulk archive");
    await s.page.waitForURL((u) => u.searchParams.get("q") === "bulk archive");
    await s.page.getByText("130 rows").waitFor();

    await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).click();
    const bar = s.page.getByRole("region", { name: "Bulk actions" });
    await bar.getByText("10 selected").waitFor();
    await bar.getByRole("button", { name: "Select all 130 matching" }).click();
    await bar.getByText("All 130 matching selected").waitFor();
    await s.shot("bulk-campaigns-all-matching-1280");

    // Each call is slowed so the progress can be seen between them.
    await s.page.route("**/api/trpc/campaigns.bulkArchive**", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await bar.getByRole("button", { name: "Archive" }).click();
    const dialog = s.page.getByRole("alertdialog");
    await dialog.getByRole("heading", { name: "Archive 130 campaigns?" }).waitFor();
    await dialog
      .getByText("All 130 campaigns matching the filters leave the active lists.", { exact: false })
      .waitFor();
    await dialog.getByRole("button", { name: "Archive 130 campaigns" }).click();
    await bar.getByText("Archiving 0 of 130…").waitFor();
    await s.page.getByRole("progressbar").waitFor();
    // Cancel has the focus while it runs (the dialog closed).
    await s.page.waitForFunction(() => document.activeElement?.textContent === "Cancel", null, {
      timeout: 5_000,
    });
    await bar.getByText("Archiving 100 of 130…").waitFor();
    await s.shot("bulk-campaigns-progress-1280");
    await s.page.getByText("130 archived").waitFor({ timeout: 30_000 });
    await s.page.unroute("**/api/trpc/campaigns.bulkArchive**");

    // The filter matches nothing now; the archived are exactly the 130; the rest stay as they were.
    await s.page.getByText("0 rows", { exact: true }).waitFor();
    await go(s.page, '/campaigns?status=["archived"]&q=bulk%20archive&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.equal(await rowsShown(s.page), 130);
    await go(s.page, '/campaigns?status=["active"]&q=bulk%20archive&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.equal(await rowsShown(s.page), 2);
    await go(s.page, '/campaigns?status=["draft"]&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.equal(await rowsShown(s.page), allDrafts - 130);
    assert.deepEqual(
      s.errors.filter((e) => !e.includes("favicon")),
      [],
    );
  } finally {
    // Nobody gave to them: deleted, so the other tests see the seed's campaigns only.
    await times(made.length, (i) => mutate(s.page, "campaigns.delete", { id: made[i] })).catch(() => {});
    await s.close();
  }
});

test("an admin revokes all open invitations matching a search in batches with progress and a reason, and other invitations stay", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, '/organizers?status=["invited","expired"]&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    const openBefore = await rowsShown(s.page);
    const [org] = await s.page.evaluate(async () => {
      const res = await fetch(
        `/api/trpc/organization.all?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`,
      );
      return ((await res.json()) as { result: { data: { json: { id: string }[] } } }).result.data.json.map(
        (o) => o.id,
      );
    });
    // 12 invitations: more than a page of 10.
    await times(12, (i) =>
      mutate(s.page, "organizers.invite", { email: `bulk-revoke-${i}@example.test`, organizationId: org }),
    );
    await s.page.getByRole("textbox", { name: "Search" }).fill("bulk-revoke");
    await s.page.waitForURL((u) => u.searchParams.get("q") === "bulk-revoke");
    await s.page.getByText("12 rows").waitFor();

    await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).click();
    const bar = s.page.getByRole("region", { name: "Bulk actions" });
    await bar.getByText("10 selected").waitFor();
    await bar.getByRole("button", { name: "Select the open invitations among all 12 matching" }).click();
    await bar.getByText("All 12 open invitations matching selected").waitFor();

    await s.page.route("**/api/trpc/organizers.bulkRevokeInvitations**", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await bar.getByRole("button", { name: "Revoke invitations" }).click();
    const dialog = s.page.getByRole("alertdialog");
    await dialog.getByRole("heading", { name: "Revoke 12 invitations?" }).waitFor();
    const confirm = dialog.getByRole("button", { name: "Revoke 12 invitations" });
    assert.equal(await confirm.isDisabled(), true, "a reason is asked first");
    await dialog.getByLabel("Reason").fill("Season over");
    await confirm.click();
    await bar.getByText("Revoking 0 of 12…").waitFor();
    await s.page.getByText("12 revoked").waitFor({ timeout: 30_000 });
    await s.page.unroute("**/api/trpc/organizers.bulkRevokeInvitations**");

    await s.page.getByText("0 rows", { exact: true }).waitFor();
    await go(s.page, '/organizers?status=["invited","expired"]&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.equal(await rowsShown(s.page), openBefore);
    assert.deepEqual(
      s.errors.filter((e) => !e.includes("favicon")),
      [],
    );
  } finally {
    await s.close();
  }
});
