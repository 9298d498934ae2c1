import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/profile")({
  head: () => ({ meta: [{ title: "Profile · Almoner" }] }),
  component: () => <PlaceholderPage title="Profile" description="Your name, e-mail and password." />,
});
