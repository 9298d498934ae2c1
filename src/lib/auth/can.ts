/**
 * What the signed-in user may do, for the UI: the server's answer (`access.capabilities`, carried by
 * the session query: ./session.ts), never a rule of the portal's own (issue 19). Hiding a button is
 * courtesy, not protection: every procedure checks again on the server (decision 017).
 */
import type { Permissions } from "@core/permissions";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { type Capabilities, sessionQueryOptions } from "./session";

type Allowed = Capabilities["platform"];

function holds(allowed: Allowed | null | undefined, permissions: Permissions): boolean {
  if (!allowed) return false;
  return Object.entries(permissions).every(([resource, actions]) =>
    (actions as readonly string[]).every((action) =>
      ((allowed[resource as keyof Allowed] ?? []) as readonly string[]).includes(action),
    ),
  );
}

/**
 * `can(permissions)`: held in the current organization (the org rung); `can(permissions,
 * "platform")`: held on the admin rung. `null` capabilities (signed out) hold nothing.
 */
export function canWith(capabilities: Capabilities | null | undefined) {
  return (permissions: Permissions, scope: "org" | "platform" = "org"): boolean =>
    holds(scope === "platform" ? capabilities?.platform : capabilities?.org, permissions);
}

/** The capabilities of the signed-in user (null while signed out). */
function useCapabilities(): Capabilities | null {
  return useQuery(sessionQueryOptions()).data?.capabilities ?? null;
}

/**
 * `const can = useCan(); can({ donation: ["update"] })`. The flags ride along:
 * `can.platformAdmin`, `can.orgAdmin` (moderates notes, manages members), `can.grantsOwner`.
 */
export function useCan() {
  const capabilities = useCapabilities();
  return useMemo(
    () =>
      Object.assign(canWith(capabilities), {
        platformAdmin: !!capabilities?.platformAdmin,
        orgAdmin: !!capabilities?.orgAdmin,
        grantsOwner: !!capabilities?.grantsOwner,
        impersonating: !!capabilities?.impersonating,
      }),
    [capabilities],
  );
}
