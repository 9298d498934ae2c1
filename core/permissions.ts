/**
 * Access control, defined once (DESIGN §3, docs/decisions/017-org-role-bounds-members.md) and used
 * by the HTTP admin API, every tRPC procedure, the HTTP exports and media uploads.
 *
 * Two separate questions, never mixed:
 * - platform abilities (the auth admin API, adminProcedure): the platform roles of user.role,
 *   possibly several joined by commas, grant SPEC §6's statements (`hasPermission`);
 * - business rights inside one organization (orgProcedure, exports, uploads): the membership's
 *   organization role alone decides (`hasOrgPermission`); platform admins hold everything
 *   everywhere. A platform role never adds to what a member may do in an organization.
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
  /** `organization`: the whole organization's data in one file (issue 22, data portability). */
  export: ["view", "create", "update", "delete", "organization"],
  organization: ["view", "create", "update", "delete"],
  member: ["view", "create", "update", "delete"],
  /**
   * CSV imports of donors and donations (issue 23, docs/decisions/028-csv-import.md): run one
   * (create), see them and download their rejected rows (view), undo one (delete).
   */
  import: ["view", "create", "delete"],
  /**
   * Receipts and thank-yous (issue 25, decision 031): see them (view), e-mail them to donors, one by
   * one or in bulk, and send year-end statements (send).
   */
  receipt: ["view", "send"],
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
  import: ["view", "create", "delete"],
  receipt: ["view", "send"],
};

/**
 * Organization roles (docs/steering/research/domain.md §6.2): everything a member may do inside that organization
 * (decision 017: the platform role adds nothing there).
 */
export const orgRoles: Record<string, Grants> = {
  // Only an owner takes all of the organization's data out at once (issue 22): members, donors,
  // gifts, notes and history in one file.
  owner: {
    ...businessAll,
    export: ["view", "create", "update", "delete", "organization"],
    organization: ["view", "update", "delete"],
  },
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
    // Organizers record gifts and thank the donors for them.
    receipt: ["view", "send"],
  },
  // Imports are for owners and admins (issue 23): an import's rejected rows are a donor export, and
  // its history names files; a viewer sees the donors and gifts an import brought, not the import.
  viewer: { ...view, user: [], session: [], import: [] },
};

export function parseRoles(role: string | null | undefined): string[] {
  return (role ?? "")
    .split(",")
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean);
}

/** One role's grants cover every requested action (grants of different roles are never pooled). */
function grantsAll(grants: Grants, permissions: Permissions): boolean {
  return Object.entries(permissions).every(([resource, actions]) =>
    (actions as readonly string[]).every((action) => grants[resource as Resource]?.includes(action) ?? false),
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
 * SPEC §6 `hasPermission` on platform roles (better-auth's admin plugin semantics): configured admin
 * ids hold everything; otherwise any one role granting every requested action suffices.
 */
export function hasPermission(
  caller: Caller,
  permissions: Permissions,
  opts: { adminUserIds?: readonly string[] } = {},
): boolean {
  if (isConfiguredAdmin(caller.userId, opts.adminUserIds)) return true;
  return parseRoles(caller.role).some((r) => {
    const grants = platformRoles[r];
    return !!grants && grantsAll(grants, permissions);
  });
}

/**
 * Business rights inside one organization (decision 017): platform admins everywhere, anyone else
 * exactly what their membership's organization role grants there. Platform roles add nothing.
 */
export function hasOrgPermission(
  caller: Caller,
  orgRole: string | null | undefined,
  permissions: Permissions,
  adminUserIds: readonly string[] = [],
): boolean {
  if (isPlatformAdmin(caller, adminUserIds)) return true;
  const grants = orgRole ? orgRoles[orgRole] : undefined;
  return !!grants && grantsAll(grants, permissions);
}

/** The resource a refusal names: the first of the required permissions. */
export function firstResource(permissions: Permissions) {
  return Object.keys(permissions)[0] ?? "resource";
}

export const IMPERSONATION_EXPORT_MESSAGE = "Exports are not available while impersonating";

/**
 * Rights an impersonated session never holds, whoever is impersonated (DESIGN §3, decision 017):
 * exports carry donors' personal data out of the portal in bulk, and the impersonating admin acts
 * as someone else. Every rung and endpoint asks `refusal`, so a new export cannot forget it.
 */
export function withheldWhileImpersonating(permissions: Permissions): boolean {
  return !!permissions.export?.length;
}

export interface SessionCaller extends Caller {
  /** The impersonating admin's id when this session is an impersonation (session.impersonatedBy). */
  impersonatedBy?: string | null;
}

/**
 * The one access decision of the guard rungs and HTTP endpoints: null when allowed, else the
 * refusal's message (always a 403). `{ platform: true }` asks about platform abilities (the admin
 * rung); `{ orgRole }` about business rights in the caller's organization (the org rung, exports).
 */
export function refusal(
  caller: SessionCaller,
  permissions: Permissions,
  scope: { orgRole: string | null } | { platform: true },
  adminUserIds: readonly string[] = [],
): string | null {
  if (caller.impersonatedBy && withheldWhileImpersonating(permissions)) return IMPERSONATION_EXPORT_MESSAGE;
  const allowed =
    "platform" in scope
      ? hasPermission(caller, permissions, { adminUserIds })
      : hasOrgPermission(caller, scope.orgRole, permissions, adminUserIds);
  return allowed ? null : `You are not allowed to access resource: ${firstResource(permissions)}`;
}

/** SPEC §8, verbatim: the refusal of a signed-in caller without portal access. */
export const NO_PORTAL_ACCESS_MESSAGE =
  "You don't have permission to access the admin portal. Please contact an administrator to be added to an organization.";

/**
 * SPEC §6 portal access after sign-in: platform admins (the role, or a configured `adminUserIds`
 * entry) and organizers are let in; anyone else only with at least one membership.
 */
export function portalAccess(
  caller: Caller,
  hasMembership: boolean,
  adminUserIds: readonly string[] = [],
): boolean {
  if (isPlatformAdmin(caller, adminUserIds)) return true;
  if (parseRoles(caller.role).includes("organizer")) return true;
  return hasMembership;
}

/**
 * Organization administrators: the owner and admin roles, and platform admins everywhere. They
 * moderate what others wrote (donor notes) and manage members.
 */
export function isOrgAdmin(
  caller: Caller,
  orgRole: string | null | undefined,
  adminUserIds: readonly string[] = [],
): boolean {
  return isPlatformAdmin(caller, adminUserIds) || orgRole === "owner" || orgRole === "admin";
}

/** Only an owner (or a platform admin) makes, changes or removes an owner of the organization. */
export function mayGrantOwner(
  caller: Caller,
  orgRole: string | null | undefined,
  adminUserIds: readonly string[] = [],
): boolean {
  return isPlatformAdmin(caller, adminUserIds) || orgRole === "owner";
}

/** For each statement, the actions a caller holds: `{ donation: ["view"], user: [], … }`. */
export type Allowed = { [R in Resource]: Action<R>[] };

/**
 * Everything a caller may do, as the server decides it: the portal reads this instead of computing
 * roles itself (issue 19: a copy of the rules on the client did not know `adminUserIds`).
 */
export interface Capabilities {
  /** Platform role admin or a configured admin id: the admin screens (users, organizers, …). */
  platformAdmin: boolean;
  /** SPEC §6 portal access (`portalAccess`). */
  portalAccess: boolean;
  /** The session is an admin's impersonation (it never holds `export`). */
  impersonating: boolean;
  /** What the admin rung grants (platform abilities). */
  platform: Allowed;
  /** What the org rung grants in the caller's current organization; null without one. */
  org: Allowed | null;
  /** `isOrgAdmin` in the current organization. */
  orgAdmin: boolean;
  /** `mayGrantOwner` in the current organization. */
  grantsOwner: boolean;
}

/**
 * The caller's capabilities: every action of every statement put to `refusal`, the very decision
 * the guard rungs and the HTTP exports take, so nothing here can grant what a procedure refuses.
 * `organization` is the caller's current organization (worker/trpc/org.ts), null without one.
 */
export function capabilities(
  caller: SessionCaller,
  organization: { role: string | null } | null,
  opts: { hasMembership: boolean; adminUserIds?: readonly string[] },
): Capabilities {
  const adminUserIds = opts.adminUserIds ?? [];
  const allowedIn = (scope: { orgRole: string | null } | { platform: true }) =>
    Object.fromEntries(
      (Object.keys(statements) as Resource[]).map((resource) => [
        resource,
        statements[resource].filter(
          (action) => refusal(caller, { [resource]: [action] }, scope, adminUserIds) === null,
        ),
      ]),
    ) as Allowed;
  return {
    platformAdmin: isPlatformAdmin(caller, adminUserIds),
    portalAccess: portalAccess(caller, opts.hasMembership, adminUserIds),
    impersonating: !!caller.impersonatedBy,
    platform: allowedIn({ platform: true }),
    org: organization ? allowedIn({ orgRole: organization.role }) : null,
    orgAdmin: !!organization && isOrgAdmin(caller, organization.role, adminUserIds),
    grantsOwner: !!organization && mayGrantOwner(caller, organization.role, adminUserIds),
  };
}
