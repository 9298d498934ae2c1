// `npm run size`: builds, then asks wrangler what it would upload (no network: --dry-run).
//   --no-build  use the dist/ a previous step built (npm test's end-to-end step)
//   --check     fail above the Worker's budget (scripts/lib.mjs WORKER_GZIP_BUDGET_KIB): npm test
//               runs this, so a release that outgrows the budget never passes CI.
import { capture, run, WORKER_GZIP_BUDGET_KIB, workerUpload } from "./lib.mjs";

const args = new Set(process.argv.slice(2));
if (!args.has("--no-build")) run("npx", ["vite", "build", "--logLevel", "warn"]);
const out = capture("npx", ["wrangler", "deploy", "--dry-run", "--config", "dist/server/wrangler.json"]);
console.log(
  out
    .split("\n")
    .filter((l) => /KiB|Upload|gzip/.test(l))
    .join("\n"),
);
const upload = workerUpload(out);
if (!upload) {
  console.log("\n(wrangler did not print a Total Upload line)");
  process.exit(args.has("--check") ? 1 : 0);
}
const within = upload.gzip <= WORKER_GZIP_BUDGET_KIB;
console.log(
  `\nWorker size: ${upload.raw} KiB, gzip ${upload.gzip} KiB (budget ${WORKER_GZIP_BUDGET_KIB} KiB gzip: ${within ? "met" : "MISSED"})`,
);
if (args.has("--check") && !within) process.exit(1);
