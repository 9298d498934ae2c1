// `npm run dev`: a working portal on a migrated, seeded local D1 at http://localhost:3000.
import { printDemoLogins } from "./demo-users.mjs";
import { ensureDevVars, migrateLocal, start } from "./lib.mjs";
import { seed } from "./seed.mjs";

if (ensureDevVars()) console.log("Created .dev.vars with a random AUTH_SECRET (local only, git-ignored).");
migrateLocal();
await seed({ quiet: false });
printDemoLogins();
const child = start("npx", ["vite", "dev", "--port", "3000", "--strictPort", ...process.argv.slice(2)]);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
