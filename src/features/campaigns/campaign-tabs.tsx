import { Link } from "@tanstack/react-router";

export function CampaignTabs({ campaignId }: { campaignId: string }) {
  const cls =
    "rounded-md px-3 py-1.5 text-sm text-muted-foreground hover:text-foreground data-[status=active]:bg-muted data-[status=active]:font-medium data-[status=active]:text-foreground";
  return (
    <nav aria-label="Campaign sections" className="flex gap-1 border-b pb-2">
      <Link
        to="/campaigns/$campaignId"
        params={{ campaignId }}
        activeOptions={{ exact: true }}
        className={cls}
      >
        Overview
      </Link>
      <Link to="/campaigns/$campaignId/items" params={{ campaignId }} className={cls}>
        Items
      </Link>
      <Link to="/campaigns/$campaignId/analytics" params={{ campaignId }} className={cls}>
        Analytics
      </Link>
    </nav>
  );
}
