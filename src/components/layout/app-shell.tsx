import { Link, useRouterState } from "@tanstack/react-router";
import { Menu } from "lucide-react";
import * as React from "react";

import { Brand } from "~/components/layout/brand";
import { MainLandmark } from "~/components/layout/main-landmark";
import { type NavSection, SidebarNav, visibleSections } from "~/components/layout/sidebar-nav";
import { type AccountLink, type ShellUser, UserMenu } from "~/components/layout/user-menu";
import { Button } from "~/components/ui/button";
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from "~/components/ui/sheet";

type AppShellProps = {
  nav: NavSection[];
  user: ShellUser;
  onSignOut: () => void;
  /** Extra links of the account menu. */
  accountLinks?: AccountLink[];
  /** Rendered above everything else, full width (e.g. the impersonation banner). */
  banner?: React.ReactNode;
  /**
   * Whether `adminOnly` items are shown: the server's `capabilities.platformAdmin` (the role, or a
   * configured admin id), never guessed from `user.role` here (issue 19).
   */
  isAdmin: boolean;
  children: React.ReactNode;
};

/**
 * Layout of every signed-in screen: a fixed sidebar on desktop, a navigation sheet on phones, a
 * header with the account menu, and a scrolling content column (a flex column with `gap-6`).
 */
function AppShell({ nav, user, onSignOut, accountLinks, banner, isAdmin, children }: AppShellProps) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [mobileNavOpen, setMobileNavOpen] = React.useState(false);

  const sections = React.useMemo(() => visibleSections(nav, isAdmin), [nav, isAdmin]);

  // Close the phone navigation whenever the location changes (links, back button, redirects).
  const lastPathname = React.useRef(pathname);
  React.useEffect(() => {
    if (lastPathname.current !== pathname) {
      lastPathname.current = pathname;
      setMobileNavOpen(false);
    }
  }, [pathname]);

  const closeMobileNav = React.useCallback(() => setMobileNavOpen(false), []);

  return (
    <div data-slot="app-shell" className="flex h-dvh flex-col overflow-hidden bg-background">
      <a
        href="#main-content"
        className="sr-only z-[60] rounded-md bg-primary px-4 py-2 font-medium text-primary-foreground text-sm focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>

      {banner ? <div className="shrink-0">{banner}</div> : null}

      <div className="flex min-h-0 flex-1">
        <aside
          aria-label="Sidebar"
          className="hidden w-64 shrink-0 flex-col border-sidebar-border border-r bg-sidebar text-sidebar-foreground md:flex"
        >
          <div className="flex h-16 shrink-0 items-center border-sidebar-border border-b px-6">
            <Link
              to={"/" as never}
              className="-mx-1.5 rounded-md px-1.5 py-1 outline-none focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50"
              aria-label="Almoner home"
            >
              <Brand />
            </Link>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto">
            <SidebarNav sections={sections} pathname={pathname} />
          </div>
        </aside>

        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-14 shrink-0 items-center gap-2 border-b bg-background px-3 sm:px-4 md:h-16 md:px-6">
            <Sheet open={mobileNavOpen} onOpenChange={setMobileNavOpen}>
              <SheetTrigger asChild>
                <Button variant="ghost" size="icon" className="-ml-1 md:hidden" aria-label="Open navigation">
                  <Menu className="size-5" aria-hidden="true" />
                </Button>
              </SheetTrigger>
              <SheetContent
                side="left"
                className="w-72 max-w-[85vw] gap-0 bg-sidebar p-0 text-sidebar-foreground sm:max-w-72"
              >
                <SheetHeader className="h-14 shrink-0 justify-center border-sidebar-border border-b px-5 py-0">
                  <SheetTitle asChild>
                    <div>
                      <Brand />
                    </div>
                  </SheetTitle>
                  <SheetDescription className="sr-only">Main navigation</SheetDescription>
                </SheetHeader>
                <div className="min-h-0 flex-1 overflow-y-auto">
                  <SidebarNav sections={sections} pathname={pathname} onNavigate={closeMobileNav} />
                </div>
              </SheetContent>
            </Sheet>

            <Link
              to={"/" as never}
              className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 md:hidden"
              aria-label="Almoner home"
            >
              <Brand />
            </Link>

            <div className="ml-auto flex items-center gap-2">
              <UserMenu user={user} onSignOut={onSignOut} links={accountLinks} />
            </div>
          </header>

          <MainLandmark
            id="main-content"
            tabIndex={-1}
            className="min-h-0 flex-1 overflow-y-auto outline-none"
          >
            <div className="mx-auto flex w-full min-w-0 max-w-7xl flex-col gap-6 p-4 sm:p-6 lg:p-8">
              {children}
            </div>
          </MainLandmark>
        </div>
      </div>
    </div>
  );
}

export { Brand, LogoMark } from "~/components/layout/brand";
export { FullScreenSpinner, type FullScreenSpinnerProps } from "~/components/layout/full-screen-spinner";
export { PageHeader, type PageHeaderProps } from "~/components/layout/page-header";
export type { NavItem, NavSection } from "~/components/layout/sidebar-nav";
export type { ShellUser } from "~/components/layout/user-menu";
export { AppShell, type AppShellProps };
