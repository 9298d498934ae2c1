import { createFileRoute, redirect } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/settings")({
  // SPEC §2: settings need a verified e-mail; otherwise the user goes to /profile.
  beforeLoad: ({ context }) => {
    if (!context.user.emailVerified) throw redirect({ to: "/profile" });
  },
  head: () => ({ meta: [{ title: "Settings · Almoner" }] }),
  component: () => <PlaceholderPage title="Settings" description="Sessions, security and preferences." />,
});
