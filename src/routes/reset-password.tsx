import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { ResetPasswordPage } from "~/features/auth/reset-password-page";

export const Route = createFileRoute("/reset-password")({
  validateSearch: z.object({ token: z.optional(z.string()), error: z.optional(z.string()) }),
  head: () => ({ meta: [{ title: "Choose a new password · Almoner" }] }),
  component: ResetPasswordPage,
});
