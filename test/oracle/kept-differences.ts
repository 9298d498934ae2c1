/**
 * Differences from the better-auth 1.3.34 oracle that we keep on purpose, each with the decision
 * record that accepts it. The contract suite (test/oracle/contract.oracle.ts) fails on any
 * difference not listed here, and on an entry that no longer matches anything (a fixed difference
 * leaves the list).
 *
 * Key: endpoint (as named in test/oracle/cases.ts), variant ("*" for all) and compared field
 * (status, kind, code, message, shape, location, cookies, setup).
 */
export interface KeptDifference {
  endpoint: string;
  variant: string;
  field: string;
  reason: string;
  /** A record under docs/decisions/. */
  decision: string;
}

export const keptDifferences: KeptDifference[] = [];
