// The `cron` part: the 15-minute cron once, as a deployed Worker runs it: it builds the general
// fund's own rollups (a campaign past campaignRollupsFrom (10 000) gifts, decision 037) among its
// jobs. Campaign analytics and the mixed loads read bc1 through them (the parts that need it).

import { DatabaseSync } from "node:sqlite";
import { localD1File } from "../lib.mjs";

export async function cron({ mf, row, stateDir }) {
  const started = performance.now();
  const worker = await mf.getWorker("almoner");
  await worker.scheduled({ cron: "*/15 * * * *", scheduledTime: new Date() });
  // Read beside the server (node:sqlite, read-only): a wrangler process per poll would compete with it.
  const built = () => {
    const file = new DatabaseSync(localD1File(stateDir), { readOnly: true });
    try {
      return (
        file.prepare("SELECT COUNT(*) AS n FROM campaign_rollup_state WHERE campaign_id = 'bc1'").get().n > 0
      );
    } finally {
      file.close();
    }
  };
  while (!built() && performance.now() - started < 300_000) await new Promise((r) => setTimeout(r, 250));
  row(
    "cron",
    "the 15-minute cron, building the general fund's rollups (bc1)",
    built() ? `${((performance.now() - started) / 1000).toFixed(1)} s` : "not built",
    "built",
    built(),
  );
}
