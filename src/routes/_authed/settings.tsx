import { createFileRoute, redirect } from "@tanstack/react-router";
import { SettingsPage } from "~/features/account/settings-page";

export const Route = createFileRoute("/_authed/settings")({
  // SPEC §2: settings need a verified e-mail; otherwise the user goes to /profile.
  beforeLoad: ({ context }) => {
    if (!context.user.emailVerified) throw redirect({ to: "/profile" });
  },
  head: () => ({ meta: [{ title: "Settings · Almoner" }] }),
  component: SettingsPage,
});
