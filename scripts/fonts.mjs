// The fonts receipts and statements embed (docs/decisions/031-receipts.md, "PDF in the Worker"):
// copied from their npm packages into public/fonts/ (git-ignored), which the Worker reads at run
// time through its ASSETS binding (worker/receipts/pdf/fonts.ts). Never bundled: Noto Sans JP alone
// is 5.5 MB. vite.config.ts (dev and build) and vitest.config.ts call ensureFonts().
//
//   Noto Sans Regular + Bold   Latin, Greek, Cyrillic, U+202F (fr-FR amounts): every document
//   Noto Sans JP Regular       CJK runs (regular and bold), only for documents with CJK text
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, "..");

/** public/fonts/<name> ← the package's file. The names are the ones worker/receipts/pdf/fonts.ts asks for. */
export const FONT_FILES = {
  "NotoSans-Regular.ttf": "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
  "NotoSans-Bold.ttf": "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
  "NotoSansJP-Regular.ttf": "@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf",
  // The SIL Open Font License travels with the fonts it covers.
  "NotoSans-OFL.txt": "@expo-google-fonts/noto-sans/LICENSE_FONT",
  "NotoSansJP-OFL.txt": "@expo-google-fonts/noto-sans-jp/LICENSE_FONT",
};

export const FONTS_DIR = path.join(root, "public", "fonts");

const sizeOf = (file) => {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
};

/** Copies each font that is missing or differs in size; returns the names copied. */
export function ensureFonts() {
  mkdirSync(FONTS_DIR, { recursive: true });
  const copied = [];
  for (const [name, from] of Object.entries(FONT_FILES)) {
    const source = require.resolve(from, { paths: [root] });
    const target = path.join(FONTS_DIR, name);
    if (sizeOf(target) === sizeOf(source)) continue;
    copyFileSync(source, target);
    copied.push(name);
  }
  return copied;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const copied = ensureFonts();
  console.log(copied.length ? `public/fonts: copied ${copied.join(", ")}` : "public/fonts: up to date");
}
