import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/organization")({
  head: () => ({ meta: [{ title: "Organization · Almoner" }] }),
  component: () => <PlaceholderPage title="Organization" description="Your organization's public profile." />,
});
