/** A condition each statement of one D1 batch carries, so it applies only if the batch's first write won its
 * race: a batch cannot branch (decisions 006, 020). `sql(p)` numbers its parameters from `?p`. */
export interface Guard {
  sql: (p: number) => string;
  args: unknown[];
}

/** The donation carries this change token: the write that set it landed and nothing wrote since. */
export const changeTokenGuard = (donationId: string, token: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM donation WHERE id = ?${p} AND change_token = ?${p + 1})`,
  args: [donationId, token],
});

/** This audit row, inserted earlier in the batch by a guarded statement, exists: for deletes and merges. */
export const auditGuard = (auditId: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM audit_event WHERE id = ?${p})`,
  args: [auditId],
});

/** Any of these audit rows exists: a recount shared by a bulk change applies if any of its changes landed. */
export const anyAuditGuard = (auditIds: readonly string[]): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM audit_event WHERE id IN (SELECT value FROM json_each(?${p})))`,
  args: [JSON.stringify(auditIds)],
});

/** The statement just before changed exactly one row, i.e. its write landed. Use it only right after that
 * write: changes() counts the last statement alone. */
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
