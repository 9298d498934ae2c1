import { createFileRoute } from "@tanstack/react-router";
import { DevMailPage } from "~/features/dev/mail-page";

export const Route = createFileRoute("/dev/mail")({
  head: () => ({ meta: [{ title: "Dev mail · Almoner" }] }),
  component: DevMailPage,
});
