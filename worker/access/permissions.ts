/**
 * Access control, defined once (DESIGN §3) and used by the HTTP admin API, every tRPC procedure and
 * the client (to hide what a caller cannot do — hiding is never the protection).
 *
 * Platform roles (user.role, possibly several joined by commas) grant SPEC §6's statements; the
 * organization role of a membership adds business rights inside that organization only.
 */
export const statements = {
  user: [
    "create",
    "list",
    "set-role",
    "ban",
    "unban",
    "impersonate",
    "delete",
    "set-password",
    "get",
    "update",
    "view",
  ],
  session: ["list", "revoke", "delete"],
  donation: ["create", "view", "update", "delete"],
  profile: ["view", "update"],
  campaign: ["create", "view", "update", "delete"],
  // Business statements that extend the spec's (DESIGN §3).
  donor: ["view", "create", "update", "delete"],
  tag: ["view", "create", "update", "delete"],
  note: ["view", "create", "update", "delete"],
  export: ["view", "create", "update", "delete"],
  organization: ["view", "create", "update", "delete"],
  member: ["view", "create", "update", "delete"],
} as const;

export type Resource = keyof typeof statements;
export type Action<R extends Resource = Resource> = (typeof statements)[R][number];
/** `{ donor: ["view"] }`: every listed action on every listed resource is required. */
export type Permissions = { [R in Resource]?: readonly Action<R>[] };
type Grants = { [R in Resource]?: readonly string[] };

const all = Object.fromEntries(Object.entries(statements).map(([r, a]) => [r, [...a]])) as Grants;
const view = Object.fromEntries(Object.keys(statements).map((r) => [r, ["view"]])) as Grants;

/** Platform roles (SPEC §6): the names of the spec's two "other roles" are organizer and user. */
export const platformRoles: Record<string, Grants> = {
  admin: all,
  organizer: {
    donation: ["view"],
    profile: ["view", "update"],
    campaign: ["create", "view", "update", "delete"],
  },
  user: { donation: ["create", "view"], profile: ["view", "update"] },
};

const businessAll: Grants = {
  donation: ["create", "view", "update", "delete"],
  campaign: ["create", "view", "update", "delete"],
  donor: ["view", "create", "update", "delete"],
  tag: ["view", "create", "update", "delete"],
  note: ["view", "create", "update", "delete"],
  export: ["view", "create", "update", "delete"],
  organization: ["view", "update"],
  member: ["view", "create", "update", "delete"],
  profile: ["view", "update"],
};

/** Organization roles (research/domain.md §6.2): rights inside that organization only. */
export const orgRoles: Record<string, Grants> = {
  owner: { ...businessAll, organization: ["view", "update", "delete"] },
  admin: businessAll,
  organizer: {
    donation: ["view", "create", "update"],
    campaign: ["create", "view", "update", "delete"],
    donor: ["view", "create", "update"],
    tag: ["view", "create", "update", "delete"],
    note: ["view", "create", "update", "delete"],
    export: ["view", "create"],
    organization: ["view"],
    member: ["view"],
    profile: ["view", "update"],
  },
  viewer: { ...view, user: [], session: [] },
};

export function parseRoles(role: string | null | undefined): string[] {
  return (role ?? "")
    .split(",")
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean);
}

function grantsAll(grants: Grants[], permissions: Permissions): boolean {
  return Object.entries(permissions).every(([resource, actions]) =>
    (actions as readonly string[]).every((action) =>
      grants.some((g) => g[resource as Resource]?.includes(action) ?? false),
    ),
  );
}

export interface Caller {
  userId: string;
  role: string | null | undefined;
}

export function isConfiguredAdmin(userId: string, adminUserIds: readonly string[] = []) {
  return adminUserIds.includes(userId);
}

export function isPlatformAdmin(caller: Caller, adminUserIds: readonly string[] = []) {
  return isConfiguredAdmin(caller.userId, adminUserIds) || parseRoles(caller.role).includes("admin");
}

/**
 * SPEC §6 `hasPermission`: on platform roles alone, any one role granting every requested action
 * suffices (better-auth's admin plugin semantics). With an organization role, the caller holds the
 * union of what their platform roles and their membership grant inside that organization (DESIGN §3).
 */
export function hasPermission(
  caller: Caller,
  permissions: Permissions,
  opts: { adminUserIds?: readonly string[]; orgRole?: string | null } = {},
): boolean {
  if (isConfiguredAdmin(caller.userId, opts.adminUserIds)) return true;
  const grants = parseRoles(caller.role)
    .map((r) => platformRoles[r])
    .filter((g): g is Grants => !!g);
  if (opts.orgRole && orgRoles[opts.orgRole]) {
    return grantsAll([...grants, orgRoles[opts.orgRole] as Grants], permissions);
  }
  return grants.some((g) => grantsAll([g], permissions));
}

/** Business rights inside one organization: platform admins everywhere, others per membership. */
export function hasOrgPermission(
  caller: Caller,
  orgRole: string | null | undefined,
  permissions: Permissions,
  adminUserIds: readonly string[] = [],
): boolean {
  if (isPlatformAdmin(caller, adminUserIds)) return true;
  if (!orgRole) return false;
  return hasPermission(caller, permissions, { adminUserIds, orgRole });
}
