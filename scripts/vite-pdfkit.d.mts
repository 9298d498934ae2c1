import type { Plugin } from "vite";

/** pdfkit in workerd: import.meta.url defined in pdfkit, png-js's Node build, no WOFF2 decoder. */
export function pdfkitInWorkerd(): Plugin;
/** The same hooks as a rolldown plugin for the dev dependency optimizer. */
export function pdfkitOptimizerPlugin(): {
  name: string;
  resolveId(source: string): string | null;
  load(id: string): string | null;
  transform: { handler(code: string, id: string): { code: string; map: null } | null };
};
