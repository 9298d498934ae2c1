// SQL that builds a plan's rollups from scratch (decision 030), shared with the seed (scripts/seed-domain.mjs
// imports this file directly: imports here keep their extension) and the tests' brute force.
import { localDaySql, spansTable } from "./rollup-sql.ts";

/** plan_monthly from plan_event in the organization's months, then the state row naming the zone: only if
 * every event fell in a span, else its NOT NULL fails the batch and nothing changes. */
export function planMonthlyRebuildSql(): { sql: string; args: ("org" | "spans" | "tz")[] }[] {
  const month = `substr(${localDaySql("e.at")}, 1, 7)`;
  return [
    { sql: "DELETE FROM plan_rollup_state WHERE organization_id = ?1", args: ["org"] },
    { sql: "DELETE FROM plan_monthly WHERE organization_id = ?1", args: ["org"] },
    {
      sql: `INSERT INTO plan_monthly (organization_id, month, currency, new_count, reactivated_count, cancelled_count,
                                      lapsed_count, paused_count, completed_count, annual_delta)
            WITH ${spansTable(2)}
            SELECT ?1, ${month}, e.currency,
                   SUM(e.annual_before = 0 AND e.annual_after > 0 AND e.kind = 'created'),
                   SUM(e.annual_before = 0 AND e.annual_after > 0 AND e.kind != 'created'),
                   SUM(e.annual_before > 0 AND e.annual_after = 0 AND e.to_status = 'cancelled'),
                   SUM(e.annual_before > 0 AND e.annual_after = 0 AND e.to_status = 'lapsed'),
                   SUM(e.annual_before > 0 AND e.annual_after = 0 AND e.to_status = 'paused'),
                   SUM(e.annual_before > 0 AND e.annual_after = 0 AND e.to_status = 'completed'),
                   SUM(e.annual_after - e.annual_before)
              FROM s CROSS JOIN plan_event e ON e.organization_id = ?1 AND e.at >= s.b AND e.at < s.e
             GROUP BY 2, 3`,
      args: ["org", "spans"],
    },
    {
      sql: `INSERT INTO plan_rollup_state (organization_id, time_zone)
            WITH ${spansTable(2)}
            SELECT ?1, CASE WHEN (SELECT COUNT(*) FROM s CROSS JOIN plan_event e ON e.organization_id = ?1 AND e.at >= s.b AND e.at < s.e)
                               = (SELECT COUNT(*) FROM plan_event WHERE organization_id = ?1) THEN ?3 END`,
      args: ["org", "spans", "tz"],
    },
  ];
}
