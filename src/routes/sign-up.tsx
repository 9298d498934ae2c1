import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { SignUpPage } from "~/features/auth/sign-up-page";

export const Route = createFileRoute("/sign-up")({
  validateSearch: z.object({ redirect: z.optional(z.string()) }),
  head: () => ({ meta: [{ title: "Create an account · Almoner" }] }),
  component: SignUpPage,
});
