/** public/fonts/<name> ← the npm package file it is copied from. */
export const FONT_FILES: Readonly<Record<string, string>>;
export const FONTS_DIR: string;
/** Copies each font that is missing or differs in size into public/fonts/; returns the names copied. */
export function ensureFonts(): string[];
