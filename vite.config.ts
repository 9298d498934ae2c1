import { cloudflare } from "@cloudflare/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import { tanstackStart } from "@tanstack/react-start/plugin/vite";
import viteReact from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { ensureFonts } from "./scripts/fonts.mjs";
import { replayUnreadRequests } from "./scripts/vite-dev-retry.mjs";
import { pdfkitInWorkerd, pdfkitOptimizerPlugin } from "./scripts/vite-pdfkit.mjs";

// The fonts receipts embed, in public/ before Vite serves or copies it (worker/receipts/pdf/fonts.ts).
ensureFonts();

export default defineConfig({
  server: { port: 3000, strictPort: true },
  preview: { port: 3000, strictPort: true },
  resolve: { tsconfigPaths: true },
  build: { sourcemap: process.env.SOURCEMAP === "1" },
  environments: {
    // The Worker: minified (whitespace, syntax, local names) with function and class names kept, so
    // a logged stack still names the functions it went through. Unminified, the upload had grown to
    // the 1 024 KiB gzip budget (docs/decisions/029-a-minified-worker.md).
    ssr: {
      // `vite dev` pre-bundles pdfkit for the Worker: the same settings as the build's (pdfkitInWorkerd).
      optimizeDeps: { rolldownOptions: { plugins: [pdfkitOptimizerPlugin()] } },
      build: {
        minify: true,
        rolldownOptions: {
          output: {
            minify: { compress: { keepNames: { function: true, class: true } }, mangle: { keepNames: true } },
          },
        },
      },
    },
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Everything the entry imports statically loads on every page anyway: one file instead
            // of ~25 small shared chunks compresses better (each gzip stream starts from scratch).
            codeSplitting: {
              includeDependenciesRecursively: false,
              groups: [
                { name: "initial", tags: ["$initial"] },
                // The charts (visx, the d3 modules it vendors, the series chart) and the period picker
                // with its Segmented control, which only they use: one chunk whoever loads them.
                // /reports shares some of them with /dashboard and campaign analytics; without the
                // group the dashboard's one chunk split three ways, +0.44 KiB gzip (issue 27).
                {
                  name: "charts",
                  test: /node_modules[\\/](@visx|d3-[a-z-]+|internmap|math-expression-evaluator|balanced-match|reduce-css-calc|reduce-function-call|classnames|@radix-ui[\\/]react-toggle(-group)?)[\\/]|src[\\/](features[\\/]charts[\\/]|features[\\/]dashboard[\\/]period-picker|components[\\/]ui[\\/]segmented)/,
                },
              ],
            },
          },
        },
      },
    },
  },
  // Pre-bundle everything the routes import lazily, so the dev optimizer never discovers a
  // dependency mid-session (that reload gives a second React copy: "Invalid hook call").
  optimizeDeps: {
    include: [
      // The charts (src/features/charts/), on lazily loaded routes only.
      "@visx/axis",
      "@visx/curve",
      "@visx/event",
      "@visx/gradient",
      "@visx/grid",
      "@visx/group",
      "@visx/responsive",
      "@visx/scale",
      "@visx/shape",
      "@visx/tooltip",
      // The comboboxes and the date-range picker.
      "cmdk",
      "react-day-picker",
      "@tanstack/react-table",
      "@tanstack/react-query",
      "@trpc/client",
      "@trpc/tanstack-react-query",
      "radix-ui",
      "lucide-react",
      "sonner",
      "superjson",
      "zod",
      "zod/mini",
      // The organization profile form's messages (a lazily loaded route only).
      "zod/v4/locales/en.js",
      "clsx",
      "class-variance-authority",
      // The import page's CSV reader (core/import/read.ts), a lazily loaded route only.
      "papaparse",
    ],
  },
  plugins: [
    // pdfkit (receipts, statements) in workerd: only in the Worker's environment.
    pdfkitInWorkerd(),
    // Must come before tanstackStart (Cloudflare's TanStack guide). The e2e and bench harnesses
    // point ALMONER_STATE_DIR at their own folder so they never touch the dev database.
    cloudflare({
      viteEnvironment: { name: "ssr" },
      persistState: process.env.ALMONER_STATE_DIR ? { path: process.env.ALMONER_STATE_DIR } : true,
      // The e2e shards run two previews at once: both would race for the inspector's port 9229.
      ...(process.env.ALMONER_NO_INSPECTOR ? { inspectorPort: false as const } : {}),
    }),
    // `vite dev` only: a request workerd reset unread on a kept-alive connection is sent again
    // instead of answering 500 "fetch failed" (docs/decisions/051-dev-server-under-load.md).
    replayUnreadRequests(),
    tailwindcss(),
    tanstackStart({ srcDirectory: "src" }),
    viteReact(),
  ],
});
