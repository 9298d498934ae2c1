// pdfkit 0.20 (its browser build) in workerd: the three build settings of the spike behind
// docs/decisions/031-receipts.md ("PDF in the Worker"), as one Vite plugin for vite.config.ts (dev
// and build) and vitest.config.ts. Only the Worker's environments: the browser never loads pdfkit.
//
//   1. pdfkit evaluates `new URL('./data/sRGB….icc', import.meta.url)` when it is imported, and
//      import.meta.url is undefined in workerd (cloudflare/workerd#6986): the Worker would not
//      start. Inside pdfkit's own files it becomes a constant (the URL only names a file pdfkit
//      registers in memory).
//   2. png-js's browser build inflates PNGs with fflate's async API, which starts a Web Worker
//      ("Worker is not defined"): every logo with transparency would fail. Its Node build
//      (node:zlib, nodejs_compat) is used instead.
//   3. fontkit's WOFF2 decoder (brotli, ~60 KiB gzip) is left out: we only embed TTF files.
//      Anything that reaches it throws.
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const PNG_JS_NODE = path.join(root, "node_modules/png-js/lib/png-js.js");
const NO_BROTLI = "\0almoner:no-brotli";
const PDFKIT_FILE = /[\\/]node_modules[\\/]pdfkit[\\/]js[\\/][^\\/]+\.m?js(?:\?.*)?$/;
const IMPORT_META_URL = /\bimport\.meta\.url\b/g;
const PDFKIT_URL = JSON.stringify("file:///node_modules/pdfkit/js/pdfkit.js");

const NO_BROTLI_SOURCE = `export default function decompress() {
  throw new Error("WOFF2 fonts are not supported in this Worker (scripts/vite-pdfkit.mjs): embed TTF");
}`;

function resolveId(source) {
  if (source === "png-js") return PNG_JS_NODE;
  if (source === "brotli/decompress.js" || source === "brotli/decompress") return NO_BROTLI;
  return null;
}

function load(id) {
  return id === NO_BROTLI ? NO_BROTLI_SOURCE : null;
}

function transform(code, id) {
  if (!PDFKIT_FILE.test(id) || !code.includes("import.meta.url")) return null;
  return { code: code.replace(IMPORT_META_URL, PDFKIT_URL), map: null };
}

/** The same hooks for the dev dependency optimizer (rolldown), which pre-bundles pdfkit in `vite dev`. */
export function pdfkitOptimizerPlugin() {
  return { name: "almoner:pdfkit-in-workerd:optimizer", resolveId, load, transform: { handler: transform } };
}

/** @returns {import("vite").Plugin} */
export function pdfkitInWorkerd() {
  return {
    name: "almoner:pdfkit-in-workerd",
    enforce: "pre",
    // The Worker's environment (`ssr` in vite.config.ts, the test worker's in vitest), never the browser's.
    applyToEnvironment: (environment) => environment.config.consumer === "server",
    resolveId,
    load,
    transform,
  };
}
