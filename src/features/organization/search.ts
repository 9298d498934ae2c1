/**
 * /organization's URL (issue 53, M6): the section shown, so a link opens it. Loads with the route
 * tree on every page (decision 012): zod/mini and ~/lib/search-params only.
 */
import { z } from "zod/mini";
import { withDefault } from "~/lib/search-params";

const ORGANIZATION_SECTIONS = [
  "profile",
  "members",
  "receipts",
  "thanks",
  "data",
  "danger",
  "history",
] as const;
export type OrganizationSection = (typeof ORGANIZATION_SECTIONS)[number];

export const organizationSearch = z.object({
  section: withDefault(z.enum(ORGANIZATION_SECTIONS), "profile"),
});
