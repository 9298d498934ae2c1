import { createFileRoute } from "@tanstack/react-router";
import { StatusPage } from "~/features/status/status-page";

export const Route = createFileRoute("/status")({
  loader: async ({ context }) => {
    await context.loadTrpc();
    return context.queryClient.ensureQueryData(context.trpc.system.health.queryOptions());
  },
  head: () => ({ meta: [{ title: "Status · Almoner" }] }),
  component: StatusPage,
});
