/**
 * axe-core in the page under test (the npm package, injected as a script: no browser download).
 * `axeViolations` answers what the accessibility suite fails on: every critical or serious
 * violation, and the two page-level rules the portal holds itself to although axe rates them
 * moderate (one h1 per page, one main landmark). `axeProblems` is the same, one line each.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

export interface Violation {
  id: string;
  impact: string;
  help: string;
  /** The offending elements' selectors. */
  targets: string[];
}

/** Moderate in axe, required here: every screen has its h1 and its main landmark. */
const ALSO_REQUIRED = new Set(["page-has-heading-one", "landmark-one-main"]);

/**
 * Waits until no animation or transition runs: axe reads colours mid-transition as they are (a
 * toast fading in, a badge half-way from dark to light fails contrast that neither end fails).
 */
export async function animationsDone(page: Page) {
  await page.waitForTimeout(50);
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"), undefined, {
      timeout: 3_000,
      polling: 50,
    })
    .catch(() => {});
}

export async function axeViolations(page: Page): Promise<Violation[]> {
  await animationsDone(page);
  // Evaluated through the DevTools protocol: the page's CSP (rightly) refuses an inline script tag.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe.run(
      // A list's rows are one component repeated: the first three stand for the rest (a page of
      // 50 rows made axe's colour-contrast check take seconds).
      { exclude: [["tbody tr:nth-child(n+4)"], ["[data-slot=list-card]:nth-child(n+4)"]] },
      { resultTypes: ["violations"] },
    ),
  );
  return (result as AxeResult).violations
    .filter((v) => v.impact === "critical" || v.impact === "serious" || ALSO_REQUIRED.has(v.id))
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? "unknown",
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
}

export async function axeProblems(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map(
    (v) => `${v.impact} ${v.id}: ${v.help} — ${v.targets.slice(0, 5).join(", ")}`,
  );
}
