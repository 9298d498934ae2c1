/**
 * Links spell only what was chosen (docs/architecture.md, "add a screen"): every route whose search
 * schema has defaults strips them from the URL with stripDefaults. Read from the route tree itself,
 * so a new list or report route without it fails here.
 */
import { describe, expect, it } from "vitest";
import { searchDefaults } from "~/lib/search-params";
import { routeTree } from "~/routeTree.gen";

type AnyRoute = {
  options: { id?: string; validateSearch?: unknown; search?: { middlewares?: unknown[] } };
  children?: Record<string, AnyRoute>;
};

function* routes(r: AnyRoute): Generator<AnyRoute> {
  yield r;
  for (const c of Object.values(r.children ?? {})) yield* routes(c);
}

/** Routes whose one "default" stands for a missing required value, never written by the app. */
const REQUIRED = new Set(["/accept-invitation"]);

describe("routes keep their search defaults out of the URL", () => {
  it("every route whose search schema has defaults strips them", () => {
    const checked: string[] = [];
    for (const r of routes(routeTree as unknown as AnyRoute)) {
      const schema = r.options.validateSearch;
      const id = r.options.id ?? "";
      if (!schema || typeof schema !== "object" || REQUIRED.has(id)) continue;
      if (!Object.keys(searchDefaults(schema as never)).length) continue;
      checked.push(id);
      expect(r.options.search?.middlewares?.length ?? 0, id).toBeGreaterThan(0);
    }
    // The lists, the reports, the dashboard, a campaign's analytics and the organization's sections.
    expect(checked.sort()).toEqual([
      "/campaigns/",
      "/campaigns/$campaignId/analytics",
      "/dashboard",
      "/donations/",
      "/donors/",
      "/organization",
      "/organizers/",
      "/recurring/",
      "/reports/",
      "/users",
    ]);
  });
});
