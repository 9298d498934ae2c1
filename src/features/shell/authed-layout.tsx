import { getRouteApi, Outlet } from "@tanstack/react-router";
import { Building2 } from "lucide-react";
import { AppShell } from "~/components/layout/app-shell";
import { Toaster } from "~/components/ui/sonner";
import { ImpersonationBanner } from "~/features/shell/impersonation-banner";
import { portalNav } from "~/features/shell/nav";
import { useCan } from "~/lib/auth/can";
import { useAuth } from "~/lib/auth/use-auth";
import { useTheme } from "~/lib/theme";

const route = getRouteApi("/_authed");

/** Everything signed-in: the guard of SPEC §2 and the layout every screen shares. */

export function AuthedLayout() {
  const auth = useAuth();
  const { user: initialUser } = route.useRouteContext();
  const user = auth.user ?? initialUser;
  const can = useCan();
  const theme = useTheme();
  // The toast outlet lives with the portal (the only screens that toast), so the sign-in pages
  // do not download sonner.
  return (
    <>
      <Toaster theme={theme} richColors closeButton />
      <AppShell
        nav={portalNav}
        user={{ name: user.name, email: user.email, image: user.image, role: user.role }}
        isAdmin={can.platformAdmin}
        onSignOut={() => void auth.signOut()}
        // Decision 045: a member may start (or ask for) another organization when the policy lets them.
        accountLinks={
          auth.capabilities?.newOrganization
            ? [{ label: "New organization", to: "/onboarding", icon: Building2 }]
            : []
        }
        banner={<ImpersonationBanner />}
      >
        <Outlet />
      </AppShell>
    </>
  );
}
