// The `bundle` part, in two steps: the Worker's upload size right after the build (wrangler's dry
// run), and later, on the server, the client JS per route, gzip, as Chromium actually loads it.

import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { capture, WORKER_GZIP_BUDGET_KIB, workerUpload } from "../lib.mjs";

export async function upload({ row }) {
  const dry = capture("npx", ["wrangler", "deploy", "--dry-run", "--config", "dist/server/wrangler.json"]);
  const size = workerUpload(dry);
  if (!size) return;
  row("bundle", "Worker upload (wrangler --dry-run)", `${size.raw} KiB`);
  row(
    "bundle",
    "Worker upload gzip",
    `${size.gzip} KiB`,
    `≤ ${WORKER_GZIP_BUDGET_KIB} KiB`,
    size.gzip <= WORKER_GZIP_BUDGET_KIB,
  );
}

export async function clientJs({ base, cookie, chromiumPath, row }) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const context = await browser.newContext({ baseURL: base });
  const signedIn = () =>
    cookie
      .split("; ")
      .map((kv) => ({ name: kv.split("=")[0], value: kv.slice(kv.indexOf("=") + 1), url: base }));
  await context.addCookies(signedIn());
  for (const [name, path, budget] of [
    ["/login", "/login", 150],
    ["/dashboard", "/dashboard", 250],
    ["/donations", "/donations", 250],
    ["/recurring", "/recurring", 250],
    ["/campaigns/{id}/analytics", "/campaigns/bc1/analytics", 250],
  ]) {
    const page = await context.newPage();
    const bodies = [];
    page.on("response", async (r) => {
      if (r.url().endsWith(".js") || r.request().resourceType() === "script")
        bodies.push(r.body().catch(() => Buffer.alloc(0)));
    });
    if (path === "/login") await context.clearCookies();
    await page.goto(path, { waitUntil: "networkidle" });
    const gz = (await Promise.all(bodies)).reduce((s, b) => s + gzipSync(b).length, 0) / 1024;
    row("bundle", `client JS for ${name} (gzip)`, `${gz.toFixed(1)} KiB`, `≤ ${budget} KiB`, gz <= budget);
    if (path === "/login") await context.addCookies(signedIn());
    await page.close();
  }
  await browser.close();
}
