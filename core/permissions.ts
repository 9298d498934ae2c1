/**
 * Access control, defined once (DESIGN §3, decision 017). Platform roles grant platform abilities only;
 * inside an organization the membership's role alone decides, and platform admins hold everything.
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
  /** `organization`: the whole organization's data in one file (data portability). */
  export: ["view", "create", "update", "delete", "organization"],
  /** `transfer`: offer the organization's ownership to another member (issue 53). */
  organization: ["view", "create", "update", "delete", "transfer"],
  member: ["view", "create", "update", "delete"],
  /** CSV imports (decision 028); `delete` undoes one. */
  import: ["view", "create", "delete"],
  /** Receipts and thank-yous (decision 031); `send` covers e-mails and year-end statements. */
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
const platformRoles: Record<string, Grants> = {
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

/** Organization roles (docs/steering/research/domain.md §6.2); platform roles add nothing (decision 017). */
export const orgRoles: Record<string, Grants> = {
  // Only an owner takes all of the organization's data out at once, and deletes or hands it on.
  owner: {
    ...businessAll,
    export: ["view", "create", "update", "delete", "organization"],
    organization: ["view", "update", "delete", "transfer"],
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
    receipt: ["view", "send"],
  },
  // Viewers see no imports: an import's rejected rows are a donor export, and its history names files.
  viewer: { ...view, user: [], session: [], import: [] },
};

/** The one reading of a platform role string (SPEC §6): "Admin, organizer" holds both. Never read it raw. */
export function parseRoles(role: string | null | undefined): string[] {
  return (role ?? "")
    .split(",")
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean);
}

export function hasRole(role: string | null | undefined, name: "admin" | "organizer" | "user"): boolean {
  return parseRoles(role).includes(name);
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

function isConfiguredAdmin(userId: string, adminUserIds: readonly string[] = []) {
  return adminUserIds.includes(userId);
}

export function isPlatformAdmin(caller: Caller, adminUserIds: readonly string[] = []) {
  return isConfiguredAdmin(caller.userId, adminUserIds) || hasRole(caller.role, "admin");
}

/** SPEC §6 `hasPermission` on platform roles, as better-auth's admin plugin: one role must grant it all. */
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

/** Business rights inside one organization (decision 017): platform admins, or the membership's role. */
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

const IMPERSONATION_EXPORT_MESSAGE = "Exports are not available while impersonating";

/** Export refusals name who may export, so the person knows whom to ask (decision 052). */
export const EXPORT_REFUSAL_MESSAGE =
  "Only the organization's owners, admins and organizers can export; ask one of them for this file.";
export const ORGANIZATION_EXPORT_REFUSAL_MESSAGE =
  "Only the organization's owner can download all of its data; ask them for the file.";

/**
 * Never held while impersonating (DESIGN §3, decision 017): exports carry donors' data out in bulk.
 * Every rung and endpoint asks `refusal`, so a new export cannot forget it.
 */
function withheldWhileImpersonating(permissions: Permissions): boolean {
  return !!permissions.export?.length;
}

interface SessionCaller extends Caller {
  /** The impersonating admin's id when this session is an impersonation (session.impersonatedBy). */
  impersonatedBy?: string | null;
}

/** The one access decision of the guard rungs and HTTP endpoints: null when allowed, else a 403's message. */
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
  if (allowed) return null;
  if ("orgRole" in scope && permissions.export?.length) {
    if (!hasOrgPermission(caller, scope.orgRole, { export: ["create"] }, adminUserIds))
      return EXPORT_REFUSAL_MESSAGE;
    if (permissions.export.includes("organization")) return ORGANIZATION_EXPORT_REFUSAL_MESSAGE;
  }
  return `You are not allowed to access resource: ${firstResource(permissions)}`;
}

/** SPEC §8, verbatim: the refusal of a signed-in caller without portal access. */
export const NO_PORTAL_ACCESS_MESSAGE =
  "You don't have permission to access the admin portal. Please contact an administrator to be added to an organization.";

/** SPEC §6 portal access: admins and organizers, users with a membership; unknown roles never. */
export function portalAccess(
  caller: Caller,
  hasMembership: boolean,
  adminUserIds: readonly string[] = [],
): boolean {
  if (isPlatformAdmin(caller, adminUserIds)) return true;
  if (hasRole(caller.role, "organizer")) return true;
  return hasMembership && hasRole(caller.role, "user");
}

/** Owners, admins and platform admins: they moderate others' donor notes and manage members. */
function isOrgAdmin(
  caller: Caller,
  orgRole: string | null | undefined,
  adminUserIds: readonly string[] = [],
): boolean {
  return isPlatformAdmin(caller, adminUserIds) || orgRole === "owner" || orgRole === "admin";
}

/** Only an owner (or a platform admin) makes, changes or removes an owner of the organization. */
function mayGrantOwner(
  caller: Caller,
  orgRole: string | null | undefined,
  adminUserIds: readonly string[] = [],
): boolean {
  return isPlatformAdmin(caller, adminUserIds) || orgRole === "owner";
}

/** For each statement, the actions a caller holds: `{ donation: ["view"], user: [], … }`. */
export type Allowed = { [R in Resource]: Action<R>[] };

/** Everything a caller may do, as the server decides it; the client never recomputes roles. */
export interface Capabilities {
  platformAdmin: boolean;
  portalAccess: boolean;
  impersonating: boolean;
  platform: Allowed;
  /** In the caller's current organization; null without one. */
  org: Allowed | null;
  orgAdmin: boolean;
  grantsOwner: boolean;
}

/** Every action put to `refusal`, so nothing here can grant what a procedure refuses. */
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
