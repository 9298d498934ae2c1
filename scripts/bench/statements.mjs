// The `statements` part: year-end statements (issue 25): receipts issued in SQL for one calendar
// year of BENCH_STATEMENT_DONORS donors' gifts, then a statement run as the portal drives it (20
// donors a step), each donor's PDF rendered in the Worker and mailed to the sink
// (scripts/bench-statements.mjs). The year goes to `h.state.statementYear`: the `memory` part's
// own statements run takes another.

import {
  benchStatements,
  STATEMENTS_PER_SECOND_BUDGET,
  seedStatementReceipts,
} from "../bench-statements.mjs";
import { config, workerdRss } from "./harness.mjs";

export async function statements(h) {
  const { apiBase, cookie, mf, orgId, mailSink, row } = h;
  const seeded = await seedStatementReceipts(await mf.getD1Database("DB", "almoner"), {
    orgId,
    donors: config.statementDonors,
  });
  h.state.statementYear = seeded.year;
  const rssSamples = [];
  const rssBefore = workerdRss();
  const st = await benchStatements({
    apiBase,
    cookie,
    year: seeded.year,
    sink: mailSink,
    memory: async () => rssSamples.push(workerdRss()),
    log: () => {},
  });
  row(
    "statements",
    `year-end statements ${st.label} for ${st.total.toLocaleString()} donors (${seeded.receipts.toLocaleString()} receipts), PDF + mail each, end to end`,
    `${st.perSecond.toFixed(1)} statements/s (${st.seconds.toFixed(1)} s)`,
    `≥ ${STATEMENTS_PER_SECOND_BUDGET} statements/s`,
    st.perSecond >= STATEMENTS_PER_SECOND_BUDGET,
  );
  row(
    "statements",
    `one step (20 donors: 20 PDFs and mails), p50 / p95; ${st.steps} steps, sent ${st.sent.toLocaleString()}, skipped ${st.skipped}`,
    `${st.stepP50.toFixed(0)} / ${st.stepP95.toFixed(0)} ms`,
  );
  const peak = Math.max(...rssSamples.map((s) => Number(/^(\d+)/.exec(s)?.[1] ?? 0)));
  row(
    "statements",
    `workerd resident memory before; during (every 25 steps: first … last, max); after`,
    `${rssBefore}; ${rssSamples[0] ?? "?"} … ${rssSamples.at(-1) ?? "?"}, max ${peak} MiB; ${workerdRss()}`,
  );
  row(
    "statements",
    `PDF attached, mean size (mail sink: ${st.mail.messages.toLocaleString()} messages, ${st.mail.pdfs.toLocaleString()} PDFs, ${st.mail.bad} bad)`,
    `${st.mail.meanPdfKiB.toFixed(1)} KiB`,
    "one per statement sent",
    st.mail.messages === st.sent && st.mail.pdfs === st.sent && st.mail.bad === 0,
  );
}
