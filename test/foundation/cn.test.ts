import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { cn } from "~/lib/utils";

// Every class token the app's sources spell out, so `cn` is checked on the utilities we use.
const sources = import.meta.glob(["/src/**/*.tsx", "/src/**/*.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const tokens = [
  ...new Set(
    Object.entries(sources)
      .filter(([path]) => !path.endsWith("/lib/utils.ts"))
      .map(([, src]) => src)
      .flatMap((src) => src.match(/"[^"\n]*"/g) ?? [])
      .flatMap((s) => s.slice(1, -1).split(/\s+/))
      .map((t) => t.replace(/^.*:/, ""))
      .filter((t) => /^-?[a-z][a-z0-9-]*(?:-[\w./[\]()%,-]+)?!?$/.test(t) && t.length < 40),
  ),
];

describe("cn (a small tailwind-merge): same result as tailwind-merge on the app's classes", () => {
  it("every pair of the app's class tokens, with and without a variant", () => {
    const diffs: string[] = [];
    // With a variant on both sides too, for the pairs likely to conflict (same first letters).
    for (const a of tokens)
      for (const b of tokens)
        for (const input of a.slice(0, 2) === b.slice(0, 2)
          ? [`${a} ${b}`, `md:${a} md:${b}`]
          : [`${a} ${b}`]) {
          // Compared as sets: a repeated class renders the same.
          const ours = [...new Set(cn(input).split(" "))].sort().join(" ");
          const theirs = [...new Set(twMerge(input).split(" "))].sort().join(" ");
          if (ours !== theirs) diffs.push(`${input} → ${ours} (tailwind-merge: ${theirs})`);
        }
    expect(diffs.slice(0, 60)).toEqual([]);
    // ~150 000 pairs: about 20 s in the Workers pool.
  }, 120_000);

  it("keeps conditional classes, shorthands and arbitrary values", () => {
    expect(cn("px-3 h-9", false && "hidden", "h-8")).toBe("px-3 h-8");
    expect(cn("px-3 py-1", "p-0")).toBe("p-0");
    expect(cn("p-0", "px-3")).toBe("p-0 px-3");
    expect(cn("text-sm text-muted-foreground", "text-lg text-primary")).toBe("text-lg text-primary");
    expect(cn("data-[state=open]:bg-accent", "data-[state=open]:bg-muted")).toBe(
      "data-[state=open]:bg-muted",
    );
    expect(cn("w-[min(22rem,calc(100vw-2rem))]", "w-full")).toBe("w-full");
    expect(cn("grid content-start", "content-end")).toBe("grid content-end");
  });
});
