/**
 * The purge of deleted organizations (decision 047): table by table (queries.ts PURGE_TABLES) in bounded
 * steps, by the deletion's request for a moment, then by the cron; organization_deletion notes the end.
 */
import { type Database, directoryDatabase, organizationDatabase } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { previousWriteLanded } from "../../lib/guard";
import { notePurgedStatement, PURGE_TABLES, pendingDeletions, purgeStep } from "./queries";

/** Rows one step deletes: a short write even for the widest table (a donation's row and indexes). */
const PURGE_STEP_ROWS = 500;

interface PurgeOptions {
  /** Stop starting steps after this instant (ms); the next run goes on. */
  deadline: number;
  stepRows?: number;
  now?: () => number;
  /** Told of every step (tests watch the steps' sizes). */
  onStep?: (table: string, rows: number) => void;
}

/**
 * Purges one organization until the deadline; answers whether it is gone: a whole pass deleted nothing
 * (a cron job that wrote a row meanwhile only costs one more pass).
 */
export async function purgeOrganization(env: Env, organizationId: string, opts: PurgeOptions) {
  const now = opts.now ?? Date.now;
  const limit = opts.stepRows ?? PURGE_STEP_ROWS;
  const dbs: Record<"organization" | "directory", Database> = {
    organization: organizationDatabase(env, organizationId),
    directory: directoryDatabase(env),
  };
  let deleted = 0;
  let gone = false;
  try {
    for (;;) {
      let pass = 0;
      for (const t of PURGE_TABLES) {
        for (const home of t.homes) {
          for (;;) {
            if (now() >= opts.deadline) return false;
            const r = await purgeStep(dbs[home], t, organizationId, limit).run();
            const n = r.meta.changes ?? 0;
            opts.onStep?.(t.table, n);
            pass += n;
            deleted += n;
            if (n < limit) break;
          }
        }
      }
      if (pass === 0) {
        gone = true;
        return true;
      }
    }
  } finally {
    const dir = dbs.directory;
    await dir.batch([
      notePurgedStatement(dir, organizationId, deleted, gone ? now() : null),
      ...(gone
        ? [
            auditStatement(
              { env, user: null, org: null },
              {
                action: "organization.purge",
                entityType: "organization",
                entityId: organizationId,
                after: { purged: true },
              },
              previousWriteLanded,
            ),
          ]
        : []),
    ]);
  }
}

/** The cron's part: deleted organizations, oldest first, until the deadline. */
export async function purgeDeletedOrganizations(env: Env, opts: PurgeOptions) {
  const now = opts.now ?? Date.now;
  for (const id of await pendingDeletions(directoryDatabase(env), 20)) {
    if (now() >= opts.deadline) return;
    await purgeOrganization(env, id, opts);
  }
}
