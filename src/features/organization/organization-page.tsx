/**
 * /organization: switcher (several memberships), badges, profile, members and invitations, the
 * owner's download of all data, history.
 */
import { useQuery } from "@tanstack/react-query";
import { BadgeCheck } from "lucide-react";
import { HistoryPanel } from "~/components/history-panel";
import { PageHeader } from "~/components/layout/page-header";
import { Badge } from "~/components/ui/badge";
import { Skeleton } from "~/components/ui/skeleton";
import { useCan } from "~/lib/auth/can";
import { errorInfo, safeImageSrc, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { DataExportCard } from "./data-export-card";
import { MembersCard } from "./members-card";
import { OrganizationSwitcher } from "./organization-switcher";
import { ProfileForm } from "./profile-form";
import { ReceiptSettingsCard } from "./receipt-settings-card";
import { ThankYouCard } from "./thank-you-card";

const BADGE_NAMES: Record<string, string> = {
  verified_organization: "Verified organization",
  registered_charity: "Registered charity",
  transparent: "Transparent",
  top_fundraiser: "Top fundraiser",
  goal_achiever: "Goal achiever",
};

export function OrganizationPage() {
  const trpc = useTRPC();
  const org = useQuery(trpc.organization.current.queryOptions());
  const badges = useQuery(trpc.organization.badges.queryOptions());
  const can = useCan();
  const o = org.data;
  if (org.error)
    return (
      <p role="alert" className="text-destructive">
        {errorInfo(org.error).message}
      </p>
    );
  if (!o)
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  return (
    <>
      <PageHeader
        title={o.name}
        description={`Your role: ${o.role ? titleCase(o.role) : "platform admin"} · ${titleCase(o.status)}`}
        actions={<OrganizationSwitcher />}
      />
      {badges.data?.length ? (
        <ul className="flex flex-wrap gap-2" aria-label="Badges">
          {badges.data.map((b) => (
            <li key={b.id}>
              <Badge variant="secondary" className="gap-1">
                <BadgeCheck className="size-3.5 text-primary" aria-hidden />
                {BADGE_NAMES[b.badge] ?? titleCase(b.badge)}
              </Badge>
            </li>
          ))}
        </ul>
      ) : null}
      {safeImageSrc(o.logoUrl) ? (
        <img
          src={safeImageSrc(o.logoUrl) ?? undefined}
          alt={`${o.name} logo`}
          className="size-16 rounded-md border object-contain"
        />
      ) : null}
      <ProfileForm key={o.id} org={o} />
      {/* Who manages members and who grants the owner role: the server's answer (core/permissions.ts). */}
      <MembersCard canManage={can({ member: ["create", "update", "delete"] })} isOwner={can.grantsOwner} />
      {/* Owners only, never while impersonating: the server's answer, as for every export. */}
      {can({ organization: ["update"] }) ? <ReceiptSettingsCard /> : null}
      {can({ organization: ["update"] }) ? <ThankYouCard /> : null}
      {can({ export: ["organization"] }) ? <DataExportCard /> : null}
      {can({ organization: ["update"] }) ? <HistoryPanel entityType="organization" entityId={o.id} /> : null}
    </>
  );
}
