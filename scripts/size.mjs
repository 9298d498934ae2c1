// `npm run size`: builds, then asks wrangler what it would upload (no network: --dry-run).
import { capture, run } from "./lib.mjs";

run("npx", ["vite", "build", "--logLevel", "warn"]);
const out = capture("npx", ["wrangler", "deploy", "--dry-run", "--config", "dist/server/wrangler.json"]);
const line = out.split("\n").find((l) => /Total Upload/.test(l));
console.log(
  out
    .split("\n")
    .filter((l) => /KiB|Upload|gzip/.test(l))
    .join("\n"),
);
console.log(line ? `\nWorker size: ${line.trim()}` : "\n(wrangler did not print a Total Upload line)");
