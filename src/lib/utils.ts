import { type ClassValue, clsx } from "clsx";

/**
 * Merge conditional class names and resolve conflicting Tailwind utilities: the last class of a
 * group wins per variant (`cn("px-3 h-9", "h-8")` → `px-3 h-8`), and a shorthand drops the longhands
 * before it (`cn("px-3", "p-0")` → `p-0`).
 *
 * A small stand-in for tailwind-merge (~8 KB gzip in the entry chunk, /login included), covering
 * the utilities this app uses; test/foundation/cn.test.ts checks it against tailwind-merge.
 */
export function cn(...inputs: ClassValue[]): string {
  return merge(clsx(inputs));
}

const SIDES = "(?:x|y|t|r|b|l|s|e|tl|tr|br|bl|ss|se|es|ee)";
const SIZE_WORDS = "(?:xs|sm|base|md|lg|xl|\\d+xl|none|full|inner)";
/** [pattern, group] in order; the first match names the group. `$1` is replaced by the capture. */
const RULES: [RegExp, string][] = [
  [
    /^(block|inline-block|inline|flex|inline-flex|grid|inline-grid|hidden|contents|table|table-(?:cell|row|caption|column|row-group|column-group|header-group|footer-group)|flow-root|list-item)$/,
    "display",
  ],
  [/^(static|fixed|absolute|relative|sticky)$/, "position"],
  [/^(visible|invisible|collapse)$/, "visibility"],
  [/^(sr-only|not-sr-only)$/, "sr"],
  [/^(uppercase|lowercase|capitalize|normal-case)$/, "case"],
  [/^(italic|not-italic)$/, "italic"],
  [/^(underline|overline|line-through|no-underline)$/, "decoration"],
  [/^(truncate|text-ellipsis|text-clip)$/, "overflow-text"],
  [/^flex-(row|col)(-reverse)?$/, "flex-dir"],
  [/^flex-(wrap|nowrap|wrap-reverse)$/, "flex-wrap"],
  [/^flex-/, "flex"],
  [/^text-(left|center|right|justify|start|end)$/, "text-align"],
  [/^text-(balance|pretty|wrap|nowrap)$/, "text-wrap"],
  [new RegExp(`^text-(${SIZE_WORDS}|\\[\\d.*\\])(/.*)?$`), "text-size"],
  [/^text-/, "text-color"],
  [/^font-(sans|serif|mono)$/, "font-family"],
  [/^font-/, "font-weight"],
  [new RegExp(`^border(-${SIDES})?(-(\\d+|\\[\\d.*\\]))?$`), "border-w$1"],
  [/^border-(solid|dashed|dotted|double|hidden|none)$/, "border-style"],
  // A table's border model (the calendar's grid), not a colour: tailwind-merge keeps it apart.
  [/^border-(collapse|separate)$/, "border-collapse"],
  [new RegExp(`^border-(${SIDES})-`), "border-color-$1"],
  [/^border-/, "border-color"],
  [new RegExp(`^rounded(-${SIDES})?(-(${SIZE_WORDS}|\\[.*\\]))?$`), "rounded$1"],
  [new RegExp(`^shadow(-(${SIZE_WORDS}|\\[.*\\]))?$`), "shadow"],
  [/^shadow-/, "shadow-color"],
  [/^ring-offset-(\d+|\[\d.*\])$/, "ring-offset-w"],
  [/^ring-offset-/, "ring-offset-color"],
  [/^ring(-(\d+|\[\d.*\]|inset))?$/, "ring-w"],
  [/^ring-/, "ring-color"],
  [/^outline-(none|hidden|solid|dashed|dotted|double)$/, "outline-style"],
  [/^outline(-(\d+|\[\d.*\]))?$/, "outline-w"],
  [/^outline-offset-/, "outline-offset"],
  [/^outline-/, "outline-color"],
  [/^bg-(fixed|local|scroll|repeat|no-repeat|cover|contain|auto|center|top|bottom|left|right)$/, "bg-misc"],
  [/^bg-/, "bg-color"],
  [/^(overflow(-[xy])?)-/, "$1"],
  [/^select-(none|text|all|auto)$/, "select"],
  [/^list-(disc|decimal|none)$/, "list-type"],
  [/^animate-(spin|ping|pulse|bounce|none|\[.*\])$/, "animate"],
  // align-content (`content-start`), not the `content` property of ::before / ::after.
  [/^content-(normal|center|start|end|between|around|evenly|baseline|stretch)$/, "align-content"],
  [
    /^(align|whitespace|break|cursor|pointer-events|touch|object|aspect|transition|duration|ease|delay|opacity|z|order|leading|tracking|line-clamp|items|self|content|justify-items|justify-self|justify|place-content|place-items|place-self|grid-cols|grid-rows|col-span|col-start|row-span|row-start|basis|grow|shrink|fill|stroke|accent|caret|underline-offset|decoration|divide-[xy]|space-[xy]|translate-[xy]|scale-[xy]|scale|rotate|inset-[xy]|inset|top|right|bottom|left|start|end|gap-[xy]|gap|size|min-w|min-h|max-w|max-h|w|h|p[xytrblse]?|m[xytrblse]?)-/,
    "$1",
  ],
  [/^(transition|grow|shrink)$/, "$1"],
];

/** A shorthand group and the longhands it overrides when it comes later. */
const OVERRIDES: Record<string, string[]> = {
  p: ["px", "py", "pt", "pr", "pb", "pl", "ps", "pe"],
  px: ["pr", "pl", "ps", "pe"],
  py: ["pt", "pb"],
  m: ["mx", "my", "mt", "mr", "mb", "ml", "ms", "me"],
  mx: ["mr", "ml", "ms", "me"],
  my: ["mt", "mb"],
  size: ["w", "h"],
  inset: ["inset-x", "inset-y", "top", "right", "bottom", "left", "start", "end"],
  "inset-x": ["right", "left"],
  "inset-y": ["top", "bottom"],
  gap: ["gap-x", "gap-y"],
  overflow: ["overflow-x", "overflow-y"],
  "border-w": [
    "border-wx",
    "border-wy",
    "border-wt",
    "border-wr",
    "border-wb",
    "border-wl",
    "border-ws",
    "border-we",
  ],
  "border-wx": ["border-wr", "border-wl"],
  "border-wy": ["border-wt", "border-wb"],
  "border-color": ["x", "y", "t", "r", "b", "l", "s", "e"].map((side) => `border-color-${side}`),
  "border-color-x": ["border-color-r", "border-color-l", "border-color-s", "border-color-e"],
  "border-color-y": ["border-color-t", "border-color-b"],
  rounded: [
    "roundedt",
    "roundedr",
    "roundedb",
    "roundedl",
    "roundedtl",
    "roundedtr",
    "roundedbr",
    "roundedbl",
    "roundeds",
    "roundede",
  ],
  "text-size": ["leading"],
  "line-clamp": ["display", "overflow"],
  flex: ["grow", "shrink", "basis"],
};

function groupOf(utility: string): string | undefined {
  const u = utility.replace(/^!|!$/g, "").replace(/^-/, "");
  for (const [re, group] of RULES) {
    const m = re.exec(u);
    if (m) return group.replace("$1", m[1]?.replace(/^-/, "") ?? "");
  }
  return undefined;
}

/** Variants (`md:hover:`) and utility of one class, splitting on colons outside brackets. */
function split(cls: string): [string, string] {
  let depth = 0;
  let cut = -1;
  for (let i = 0; i < cls.length; i++) {
    const c = cls[i];
    if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") depth--;
    else if (c === ":" && depth === 0) cut = i;
  }
  return [cls.slice(0, cut + 1), cls.slice(cut + 1)];
}

function merge(classes: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  const list = classes.split(/\s+/).filter(Boolean);
  for (let i = list.length - 1; i >= 0; i--) {
    const cls = list[i] as string;
    const [variants, utility] = split(cls);
    const group = groupOf(utility);
    const important = utility.startsWith("!") || utility.endsWith("!") ? "!" : "";
    if (group !== undefined) {
      const key = `${variants}${important}${group}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const longhand of OVERRIDES[group] ?? []) seen.add(`${variants}${important}${longhand}`);
    }
    // Classes we do not know (ours, or other libraries') are kept as given, like tailwind-merge.
    out.push(cls);
  }
  return out.reverse().join(" ");
}
