import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { ProfilePage } from "~/features/account/profile-page";
import { lenient } from "~/lib/auth/search";

export const Route = createFileRoute("/_authed/profile")({
  /** Linking errors come back here (SPEC §8 redirect codes). */
  validateSearch: z.object({ error: lenient(z.string()), error_description: lenient(z.string()) }),
  head: () => ({ meta: [{ title: "Profile · Almoner" }] }),
  component: ProfilePage,
});
