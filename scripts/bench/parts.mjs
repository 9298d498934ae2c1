// The bench's parts: their names (`npm run bench -- --only http,import`), what each needs run
// before it, and every step in the full run's order (a part may have steps at two moments: bundle).

import { clientJs, upload } from "./bundle.mjs";
import { cron } from "./cron.mjs";
import { exportCsv } from "./export.mjs";
import { http } from "./http.mjs";
import { importCsv } from "./import.mjs";
import { load } from "./load.mjs";
import { memory } from "./memory.mjs";
import { sqlite } from "./sqlite.mjs";
import { statements } from "./statements.mjs";
import { zoneChange } from "./zone.mjs";

// The general fund's own rollups (decision 037) change what its campaign analytics, the mixed
// loads and a time-zone change do: the parts that read or rebuild them run the cron part first.
const CRON_ROLLUPS = "the general fund's analytics read the rollups the cron builds (decision 037)";

/** Each part: what it measures, and the parts it needs run first (with why). */
export const PARTS = {
  bundle: { about: "Worker upload size; client JS per route in Chromium" },
  sqlite: { about: "the seeded file in node:sqlite: indexes and rollups vs full scans" },
  cron: { about: "the 15-minute cron building the general fund's rollups" },
  http: {
    about: "lists, plans, writes, dashboard, campaigns, items, merge, SSR",
    needs: { cron: CRON_ROLLUPS },
  },
  export: { about: "the CSV export of every donation" },
  import: { about: "the CSV import, then the list and dashboard after it" },
  statements: { about: "year-end statements: PDF + mail each" },
  load: {
    about: "get-session, sign-in, mixed traffic, the mix without sign-ins, peer",
    needs: { cron: CRON_ROLLUPS },
  },
  zone: { about: "a time-zone change and back, the rollups rebuilt", needs: { cron: CRON_ROLLUPS } },
  memory: {
    about: "our Worker's live heap during an export, import, statements and the mix (a server of its own)",
    needs: { cron: CRON_ROLLUPS },
  },
};

/**
 * Every step in the full run's order. `when`: "built" after the build (before the seed), "seeded"
 * on the seeded file (before the server), "served" on the server, "after" once it has stopped.
 * `anonymous`: a served step that needs no sign-in (the admin signs in before the first that does).
 */
export const STEPS = [
  { part: "bundle", when: "built", run: upload },
  { part: "sqlite", when: "seeded", run: sqlite },
  { part: "cron", when: "served", run: cron, anonymous: true },
  { part: "http", when: "served", run: http },
  { part: "export", when: "served", run: exportCsv },
  { part: "import", when: "served", run: importCsv },
  { part: "statements", when: "served", run: statements },
  { part: "load", when: "served", run: load },
  { part: "bundle", when: "served", run: clientJs },
  { part: "zone", when: "served", run: zoneChange },
  { part: "memory", when: "after", run: memory },
];

/**
 * The parts to run for `--only` (a comma list; null: all of them) with the ones their needs add,
 * and those asked for, both in PARTS order; `added` says why each was added. An unknown name
 * throws with the list of names.
 */
export function selectParts(only) {
  if (only === null) return { parts: Object.keys(PARTS), added: [] };
  const asked = only
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = asked.filter((name) => !Object.hasOwn(PARTS, name));
  if (!asked.length || unknown.length)
    throw new Error(
      `${unknown.length ? `unknown part ${unknown.map((n) => `"${n}"`).join(", ")}` : "no part named"}; the parts are: ${Object.keys(PARTS).join(", ")}`,
    );
  const chosen = new Set(asked);
  const added = [];
  for (const name of asked)
    for (const [need, why] of Object.entries(PARTS[name].needs ?? {}))
      if (!chosen.has(need)) {
        chosen.add(need);
        added.push(`${name} needs ${need}: ${why}; running ${need} too`);
      }
  const inOrder = (names) => Object.keys(PARTS).filter((p) => names.has(p));
  return { parts: inOrder(chosen), asked: inOrder(new Set(asked)), added };
}
