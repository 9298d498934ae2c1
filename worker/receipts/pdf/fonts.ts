/**
 * The fonts a receipt embeds, read from the static assets (public/fonts, scripts/fonts.mjs), never
 * bundled (decision 031); the standard fonts' WinAnsi lacks Ł, Cyrillic and the narrow no-break space.
 * Each is parsed once per isolate; only settled fonts are kept, as workerd lets no request wait on
 * another's I/O.
 */
import { create, type Font } from "fontkit";

/**
 * The ASSETS binding serves by path whatever the host; in `vite dev` it asks the Vite server,
 * which refuses hosts it does not know (403), so the host is localhost.
 */
const ASSETS_ORIGIN = "http://localhost/fonts/";

export const FONT_FILES = {
  /** Latin, Greek, Cyrillic, U+202F: every document. */
  sans: "NotoSans-Regular.ttf",
  sansBold: "NotoSans-Bold.ttf",
  /** Japanese (kana, kanji, full-width forms): documents with CJK text; also its bold runs. */
  cjk: "NotoSansJP-Regular.ttf",
} as const;

type FontName = keyof typeof FONT_FILES;

const parsed = new Map<string, Font>();

async function loadFont(env: Env, name: FontName): Promise<Font> {
  const file = FONT_FILES[name];
  const known = parsed.get(file);
  if (known) return known;
  if (!env.ASSETS || typeof env.ASSETS.fetch !== "function") {
    throw new Error(
      `Receipt PDFs need the ASSETS binding to read ${file} (wrangler.toml [assets] binding = "ASSETS")`,
    );
  }
  const response = await env.ASSETS.fetch(`${ASSETS_ORIGIN}${file}`);
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(
      `The font ${file} is missing from the static assets (HTTP ${response.status}): scripts/fonts.mjs copies it into public/fonts/ (npm run dev and npm run build run it)`,
    );
  }
  const font = create(new Uint8Array(await response.arrayBuffer()));
  if (typeof font?.layout !== "function") throw new Error(`The font ${file} is not a single TrueType font`);
  parsed.set(file, font);
  return font;
}

/** The fonts of one document: the Japanese one only when `cjk`. */
export async function documentFonts(env: Env, cjk: boolean) {
  const [sans, sansBold, jp] = await Promise.all([
    loadFont(env, "sans"),
    loadFont(env, "sansBold"),
    cjk ? loadFont(env, "cjk") : null,
  ]);
  return { sans, sansBold, cjk: jp };
}

export type DocumentFonts = Awaited<ReturnType<typeof documentFonts>>;
