/** Audit rows as the History panel shows them: field-level changes, the IP only to those who may see it. */
import type { AuditEventRow } from "./queries";

export interface AuditChange {
  field: string;
  from: string | null;
  to: string | null;
}

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const show = (v: unknown) =>
  v === null || v === undefined ? null : (typeof v === "string" ? v : JSON.stringify(v)).slice(0, 120);

/** Field-level differences; `before` is often a raw row (snake_case), `after` the input (camelCase). */
export function diffAudit(before: unknown, after: unknown): AuditChange[] {
  const b = Object.fromEntries(
    Object.entries((before && typeof before === "object" ? before : {}) as Record<string, unknown>).map(
      ([k, v]) => [camel(k), v],
    ),
  );
  const a = (after && typeof after === "object" ? after : {}) as Record<string, unknown>;
  const out: AuditChange[] = [];
  for (const [field, to] of Object.entries(a)) {
    if (field === "updatedAt" || field === "id") continue;
    const from = b[field];
    if (show(from ?? null) === show(to ?? null)) continue;
    out.push({ field, from: show(from), to: show(to) });
    if (out.length >= 25) break;
  }
  return out;
}

function parse(s: string | null): unknown {
  if (!s) return null;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** IP addresses are personal data: `canSeeIp` is the organization's owners, admins and platform admins. */
export const presentAuditEvent = (
  r: AuditEventRow & { actor: string | null; impersonator: string | null },
  canSeeIp: boolean,
) => ({
  id: r.id,
  action: r.action,
  reason: r.reason,
  at: r.at,
  actor: r.actor,
  impersonator: r.impersonator,
  ip: canSeeIp ? r.ip : null,
  changes: diffAudit(parse(r.before), parse(r.after)),
});
