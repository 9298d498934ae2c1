import { Link } from "@tanstack/react-router";
import type { LucideIcon } from "lucide-react";

import { cn } from "~/lib/utils";

type NavItem = {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Shown only to platform admins. */
  adminOnly?: boolean;
};

type NavSection = {
  title: string;
  items: NavItem[];
};

function normalizePath(path: string): string {
  const withoutQuery = path.split(/[?#]/)[0] ?? "";
  if (withoutQuery.length > 1 && withoutQuery.endsWith("/")) return withoutQuery.replace(/\/+$/, "") || "/";
  return withoutQuery || "/";
}

function matchesPath(pathname: string, to: string): boolean {
  const target = normalizePath(to);
  if (target === "/") return pathname === "/";
  return pathname === target || pathname.startsWith(`${target}/`);
}

/**
 * The `to` of the item the current pathname belongs to: the longest matching prefix, so that
 * `/campaigns/new` highlights "New campaign" rather than "Campaigns" when both are listed.
 */
function findActiveTo(sections: NavSection[], pathname: string): string | undefined {
  const current = normalizePath(pathname);
  let best: string | undefined;
  for (const section of sections) {
    for (const item of section.items) {
      if (!matchesPath(current, item.to)) continue;
      if (best === undefined || normalizePath(item.to).length > normalizePath(best).length) best = item.to;
    }
  }
  return best;
}

/** Removes admin-only items for non-admins, and sections left empty. */
function visibleSections(sections: NavSection[], isAdmin: boolean): NavSection[] {
  return sections
    .map((section) => ({
      ...section,
      items: isAdmin ? section.items : section.items.filter((item) => !item.adminOnly),
    }))
    .filter((section) => section.items.length > 0);
}

type SidebarNavProps = {
  sections: NavSection[];
  pathname: string;
  /** Called after an item is activated, e.g. to close the mobile sheet. */
  onNavigate?: () => void;
  className?: string;
};

function SidebarNav({ sections, pathname, onNavigate, className }: SidebarNavProps) {
  const activeTo = findActiveTo(sections, pathname);

  return (
    <nav aria-label="Main" className={cn("flex flex-col gap-5 px-3 py-4", className)}>
      {sections.map((section, sectionIndex) => {
        const headingId = `nav-section-${sectionIndex}`;
        return (
          <section
            key={`${section.title}-${sectionIndex}`}
            aria-labelledby={section.title ? headingId : undefined}
          >
            {section.title ? (
              <h2
                id={headingId}
                className="mb-1.5 px-3 font-medium text-sidebar-foreground/75 text-xs uppercase tracking-wider"
              >
                {section.title}
              </h2>
            ) : null}
            <ul className="flex flex-col gap-0.5">
              {section.items.map((item) => {
                const active = item.to === activeTo;
                const Icon = item.icon;
                return (
                  <li key={item.to}>
                    <Link
                      to={item.to as never}
                      activeOptions={{ exact: !active, includeSearch: false }}
                      onClick={onNavigate}
                      data-active={active || undefined}
                      className={cn(
                        "flex h-10 items-center gap-3 rounded-md px-3 font-medium text-sidebar-foreground/80 text-sm outline-none transition-colors md:h-9",
                        "hover:bg-sidebar-accent hover:text-sidebar-accent-foreground",
                        "focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50",
                        active &&
                          "bg-sidebar-accent text-sidebar-accent-foreground [&>svg]:text-sidebar-primary",
                      )}
                    >
                      <Icon className="size-4 shrink-0" aria-hidden="true" />
                      <span className="truncate">{item.label}</span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}

export { findActiveTo, type NavItem, type NavSection, SidebarNav, type SidebarNavProps, visibleSections };
