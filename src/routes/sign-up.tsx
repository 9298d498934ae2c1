import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { SignUpPage } from "~/features/auth/sign-up-page";
import { lenient } from "~/lib/auth/search";

export const Route = createFileRoute("/sign-up")({
  validateSearch: z.object({ redirect: lenient(z.string()) }),
  head: () => ({ meta: [{ title: "Create an account · Almoner" }] }),
  component: SignUpPage,
});
