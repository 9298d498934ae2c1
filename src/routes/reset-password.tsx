import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { ResetPasswordPage } from "~/features/auth/reset-password-page";
import { lenient } from "~/lib/auth/search";

export const Route = createFileRoute("/reset-password")({
  validateSearch: z.object({ token: lenient(z.string()), error: lenient(z.string()) }),
  head: () => ({ meta: [{ title: "Choose a new password · Almoner" }] }),
  component: ResetPasswordPage,
});
