/** The campaigns list's search: its columns to sort by and its filters (the route validates it). */
import { campaignPhases, campaignStatuses } from "@core/status";
import { dayParam, enumParam, facetParam, listSearchWith } from "~/components/data-table/list-search";

export const campaignsSearch = listSearchWith(
  ["created", "title", "raised", "donors", "donations", "endDate"],
  "created",
  {
    status: facetParam(campaignStatuses),
    phase: facetParam(campaignPhases),
    /** Campaigns running at some point in [from, to] (organization days). */
    from: dayParam,
    to: dayParam,
    goal: enumParam(["reached", "open"]),
  },
);
