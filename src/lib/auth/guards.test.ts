import { describe, expect, it } from "vitest";
import { safeRedirect } from "./guards";

describe("safeRedirect", () => {
  it("keeps same-site paths", () => {
    expect(safeRedirect("/donors?page=2")).toBe("/donors?page=2");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      42,
      undefined,
    ]) {
      expect(safeRedirect(bad)).toBe("/dashboard");
    }
  });
});
