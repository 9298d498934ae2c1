import { createFileRoute } from "@tanstack/react-router";
import { UserDetail } from "~/features/users/user-detail";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/users_/$userId")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "User · Almoner" }] }),
  component: () => <UserDetail userId={Route.useParams().userId} />,
});
