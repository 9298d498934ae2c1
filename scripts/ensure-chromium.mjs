// Makes sure a system Chromium is there for the e2e tests (we never download browsers): installs
// Debian's chromium with apt-get when missing and we may (root), else stops with what to install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM_CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

export function findChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (isRoot && hasApt) {
    console.log("Chromium is missing: installing Debian's chromium with apt-get (one time)...");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    let res = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], {
      stdio: "inherit",
      env,
    });
    if (res.status !== 0) {
      spawnSync("apt-get", ["update"], { stdio: "inherit", env });
      res = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], {
        stdio: "inherit",
        env,
      });
    }
    const after = findChromium();
    if (after) return after;
  }
  console.error(
    "\nThe end-to-end tests need Chromium and it is not installed.\n" +
      "Install it with:  sudo apt-get install -y chromium   (Debian/Ubuntu)\n" +
      "or point CHROMIUM_PATH at a Chrome/Chromium binary, then run the tests again.\n",
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium());
