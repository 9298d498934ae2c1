import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { ProfilePage } from "~/features/account/profile-page";

export const Route = createFileRoute("/_authed/profile")({
  /** Linking errors come back here (SPEC §8 redirect codes). */
  validateSearch: z.object({ error: z.optional(z.string()), error_description: z.optional(z.string()) }),
  head: () => ({ meta: [{ title: "Profile · Almoner" }] }),
  component: ProfilePage,
});
