import assert from "node:assert/strict";
import { test } from "node:test";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

/**
 * A failure the user cannot fix shows the failed request's id to quote to support
 * (worker/lib/request-log.ts logs the failure under the same id). The server's side is
 * test/ops/logs.test.ts; here the API's answer is a 500 carrying an id, as the Worker sends it.
 */
test("an error screen gives the reference to quote to support", async () => {
  const s = await openBrowser({ viewport: { width: 360, height: 780 }, colorScheme: "dark" });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/donations");
    const first = s.page.locator('a[href^="/donations/"]:not([href="/donations/import"])').first();
    await first.waitFor();
    await s.page.route("**/api/trpc/donations.byId**", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify([
          {
            error: {
              json: {
                message: "Something went wrong!",
                code: -32603,
                data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500, requestId: "3f2b9c1e-e2e-ref" },
              },
            },
          },
        ]),
      }),
    );
    await first.click();
    const alert = s.page.getByRole("alert").filter({ hasText: "Something went wrong!" });
    await alert.waitFor();
    await alert.getByText("3f2b9c1e-e2e-ref").waitFor();
    await alert.getByText(/quote this reference/).waitFor();
    assert.deepEqual(await axeProblems(s.page), []);
  } finally {
    await s.close();
  }
});
