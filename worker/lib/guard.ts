/**
 * A condition that the statements of one D1 batch carry, so that they apply only if the batch's
 * first write won its race (decisions 006 and 020). A batch is one transaction but cannot branch:
 * a guarded write that matched nothing does not stop the statements after it, so each of them
 * re-checks, in SQL, that the write happened.
 *
 * `sql(p)` is the condition with its parameters numbered from `?p` (statements number their own
 * parameters first); `args` are bound after the statement's own.
 */
export interface Guard {
  sql: (p: number) => string;
  args: unknown[];
}

/** The donation carries this change token: the write that set it landed and nothing wrote since. */
export const changeTokenGuard = (donationId: string, token: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM donation WHERE id = ?${p} AND change_token = ?${p + 1})`,
  args: [donationId, token],
});

/**
 * This audit row exists: it was inserted by a statement guarded on the change, earlier in the same
 * batch. Used after the change's own witness is gone (a permanent delete) and for donor merges.
 */
export const auditGuard = (auditId: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM audit_event WHERE id = ?${p})`,
  args: [auditId],
});

/**
 * At least one of these audit rows exists: a recount shared by several changes of one batch (a bulk
 * change) applies if any of them landed. One parameter (json_each), however many changes.
 */
export const anyAuditGuard = (auditIds: readonly string[]): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM audit_event WHERE id IN (SELECT value FROM json_each(?${p})))`,
  args: [JSON.stringify(auditIds)],
});

/**
 * The statement just before this one in the batch changed exactly one row: a write of one row that
 * lost its race (its WHERE on the state read matched nothing) leaves no audit row either. Only for
 * the statement right after that write (SQLite's changes() is the last statement's count).
 */
export const previousWriteLanded: Guard = { sql: () => "changes() = 1", args: [] };

/** Every given condition (each numbered after the ones before it); undefined when none is given. */
export function allGuards(...guards: (Guard | null | undefined | false | "")[]): Guard | undefined {
  const gs = guards.filter((g): g is Guard => !!g);
  if (!gs.length) return undefined;
  return {
    sql: (p) => {
      let n = p;
      return gs
        .map((g) => {
          const sql = `(${g.sql(n)})`;
          n += g.args.length;
          return sql;
        })
        .join(" AND ");
    },
    args: gs.flatMap((g) => g.args),
  };
}
