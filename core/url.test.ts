import { describe, expect, it } from "vitest";
import { isHttpUrl, safeHttpUrl, safeImageSrc } from "./url";

describe("links and images a page may use (decision 019)", () => {
  it("keeps http(s) URLs and refuses every other scheme, however it is spelled", () => {
    expect(safeHttpUrl("https://harbor.example/")).toBe("https://harbor.example/");
    expect(safeHttpUrl("http://harbor.example")).toBe("http://harbor.example");
    for (const v of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "\u0000javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\r\nscript:alert(1)",
      "javascript:alert(1)//https://x",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "blob:https://harbor.example/1",
      "//evil.example",
      "https:/evil.example\t",
      "",
      null,
      undefined,
      42,
    ]) {
      expect(isHttpUrl(v), JSON.stringify(v)).toBe(false);
      expect(safeHttpUrl(v)).toBeNull();
    }
  });

  it("loads images from http(s) or this origin's media only", () => {
    expect(safeImageSrc("/api/media/abcdefghijklmnop")).toBe("/api/media/abcdefghijklmnop");
    expect(safeImageSrc("https://cdn.example/a.png")).toBe("https://cdn.example/a.png");
    for (const v of [
      "javascript:alert(1)",
      "/api/media/../x",
      "//evil.example/a.png",
      "data:image/svg+xml,<svg/>",
    ])
      expect(safeImageSrc(v), v).toBeNull();
  });
});
