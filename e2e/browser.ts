import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const BASE_URL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000";
export const DEMO_PASSWORD = "almoner-demo-2026";
export const SCREENSHOTS = join(process.cwd(), "e2e", "screenshots");

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far. */
  errors: string[];
  close: () => Promise<void>;
  shot: (name: string) => Promise<void>;
}

// One Chromium per test file, started on first use: a launch costs about a second on a busy
// machine, a context (a fresh profile: no cookies, no storage) a few milliseconds.
let shared: Promise<Browser> | null = null;
function browser(): Promise<Browser> {
  shared ??= chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return shared;
}
after(async () => {
  if (shared) await (await shared).close();
});

/** A fresh browser context per test: the system browser, never a downloaded one. */
export async function openBrowser(
  opts: {
    viewport?: { width: number; height: number };
    colorScheme?: "light" | "dark";
    /** The browser's time zone (IANA); the machine's when absent. */
    timezoneId?: string;
  } = {},
): Promise<Session> {
  const context = await (await browser()).newContext({
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    colorScheme: opts.colorScheme ?? "light",
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
    baseURL: BASE_URL,
  });
  // `TEST_TODAY=… npm run e2e`: the browser's clock on that day too (this process's is already).
  if (process.env.TEST_TODAY) await context.clock.install({ time: Date.now() });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  // Name the request behind a "Failed to load resource" console line.
  page.on("response", (res) => {
    if (res.status() >= 400) errors.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    page,
    errors,
    shot: async (name) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    close: () => context.close(),
  };
}

/** Navigates and waits until React has hydrated (before that, clicks hit server HTML only). */
export async function go(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector('html[data-hydrated="true"]');
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await go(page, "/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}
