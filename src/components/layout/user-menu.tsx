// The role names shown are read as the server reads them (core/permissions.ts).
import { parseRoles } from "@core/permissions";
import { Link } from "@tanstack/react-router";
import { ChevronDown, LogOut, Settings, UserRound } from "lucide-react";
import type * as React from "react";

import { Avatar, AvatarFallback, AvatarImage, getInitials } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { safeImageSrc } from "~/lib/format";

type ShellUser = {
  name: string;
  email: string;
  image?: string | null;
  /** One role or several joined by commas, e.g. "admin" or "admin,organizer". */
  role: string;
};

function formatRole(role: string): string {
  return role
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

function RoleBadges({ role }: { role: string }) {
  const roles = parseRoles(role);
  if (roles.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {roles.map((r) => (
        <Badge key={r} variant={r === "admin" ? "default" : "secondary"} className="capitalize">
          {formatRole(r)}
        </Badge>
      ))}
    </span>
  );
}

function UserAvatar({ user, className }: { user: ShellUser; className?: string }) {
  // An image stored before http(s) was the rule (decision 019) is not loaded: initials instead.
  const image = safeImageSrc(user.image);
  return (
    <Avatar className={className}>
      {image ? <AvatarImage src={image} alt="" /> : null}
      <AvatarFallback className="bg-primary/10 font-semibold text-primary">
        {getInitials(user.name, user.email)}
      </AvatarFallback>
    </Avatar>
  );
}

/** A link the account menu offers beyond profile and settings (e.g. "New organization"). */
type AccountLink = {
  label: string;
  to: string;
  icon: React.ComponentType<{ "aria-hidden"?: boolean | "true" }>;
};

type UserMenuProps = {
  user: ShellUser;
  onSignOut: () => void;
  links?: AccountLink[];
};

/** Avatar button in the header opening the account menu (profile, settings, sign out). */
function UserMenu({ user, onSignOut, links = [] }: UserMenuProps) {
  const displayName = user.name.trim() || user.email;

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-10 gap-2 rounded-full px-1 sm:rounded-md sm:pr-2 sm:pl-1.5">
          {/* Named by its text, not aria-label: the initials are decoration, and a label that
              differs from the visible name fails axe's label-content-name-mismatch. */}
          <span aria-hidden="true">
            <UserAvatar user={user} />
          </span>
          <span className="sr-only">Account menu for </span>
          <span className="sr-only max-w-40 truncate font-medium text-sm lg:not-sr-only">{displayName}</span>
          <ChevronDown className="hidden text-muted-foreground sm:block" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64 max-w-[calc(100vw-1rem)]">
        <DropdownMenuLabel className="font-normal">
          <div className="flex items-start gap-3 py-1">
            <UserAvatar user={user} className="size-10" />
            <div className="grid min-w-0 flex-1 gap-1">
              <span className="truncate font-medium text-sm">{displayName}</span>
              <span className="truncate text-muted-foreground text-xs">{user.email}</span>
              <RoleBadges role={user.role} />
            </div>
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          <DropdownMenuItem asChild>
            <Link to={"/profile" as never}>
              <UserRound aria-hidden="true" />
              Profile
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to={"/settings" as never}>
              <Settings aria-hidden="true" />
              Settings
            </Link>
          </DropdownMenuItem>
          {links.map(({ label, to, icon: Icon }) => (
            <DropdownMenuItem key={to} asChild>
              <Link to={to as never}>
                <Icon aria-hidden="true" />
                {label}
              </Link>
            </DropdownMenuItem>
          ))}
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => onSignOut()}>
          <LogOut aria-hidden="true" />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export { type AccountLink, formatRole, RoleBadges, type ShellUser, UserAvatar, UserMenu, type UserMenuProps };
