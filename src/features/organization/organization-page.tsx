/**
 * /organization (issue 53, M6): the switcher (several memberships), badges, offers of ownership
 * made to the caller, then one section at a time, named in the URL so a link opens it: profile,
 * members, receipts, thank-you message, the download of all data, the danger zone (hand on,
 * delete) and history. Each section saves on its own; every section stays in the page while
 * another is shown, so moving between them loses nothing, and leaving the page with unsaved
 * changes asks first (unsaved.tsx).
 */
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { BadgeCheck } from "lucide-react";
import type * as React from "react";
import { HistoryPanel } from "~/components/history-panel";
import { PageHeader } from "~/components/layout/page-header";
import { Badge } from "~/components/ui/badge";
import { Skeleton } from "~/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { useCan } from "~/lib/auth/can";
import { errorInfo, safeImageSrc, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { DangerZone } from "./danger-zone";
import { DataExportCard } from "./data-export-card";
import { MembersCard } from "./members-card";
import { OrganizationSwitcher } from "./organization-switcher";
import { OwnershipOffersToMe } from "./ownership-offers";
import { ProfileForm } from "./profile-form";
import { ReceiptSettingsCard } from "./receipt-settings-card";
import type { OrganizationSection } from "./search";
import { ThankYouCard } from "./thank-you-card";
import { UnsavedChangesGuard } from "./unsaved";

const route = getRouteApi("/_authed/organization");

const BADGE_NAMES: Record<string, string> = {
  verified_organization: "Verified organization",
  registered_charity: "Registered charity",
  transparent: "Transparent",
  top_fundraiser: "Top fundraiser",
  goal_achiever: "Goal achiever",
};

const SECTION_TITLES: Record<OrganizationSection, string> = {
  profile: "Profile",
  members: "Members",
  receipts: "Receipts",
  thanks: "Thank-you message",
  data: "Download data",
  danger: "Danger zone",
  history: "History",
};

export function OrganizationPage() {
  const trpc = useTRPC();
  const org = useQuery(trpc.organization.current.queryOptions());
  const badges = useQuery(trpc.organization.badges.queryOptions());
  const can = useCan();
  const search = route.useSearch();
  const navigate = route.useNavigate();
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
  const edit = can({ organization: ["update"] });
  const canExport = can({ export: ["organization"] });
  // Handing on and deleting are an owner's own acts (never a platform admin's, nor while impersonating).
  const owner = o.role === "owner" && can({ organization: ["delete"] }) && !can.impersonating;
  const all: [OrganizationSection, boolean, React.ReactNode][] = [
    ["profile", true, <ProfileForm key={o.id} org={o} />],
    [
      "members",
      true,
      // Who manages members and who grants the owner role: the server's answer (core/permissions.ts).
      <MembersCard
        key="members"
        canManage={can({ member: ["create", "update", "delete"] })}
        isOwner={can.grantsOwner}
      />,
    ],
    ["receipts", edit, <ReceiptSettingsCard key="receipts" />],
    ["thanks", edit, <ThankYouCard key="thanks" />],
    // Owners only, never while impersonating: the server's answer, as for every export.
    ["data", canExport, <DataExportCard key="data" />],
    ["danger", owner, <DangerZone key="danger" name={o.name} canExport={canExport} />],
    ["history", edit, <HistoryPanel key="history" entityType="organization" entityId={o.id} />],
  ];
  const sections = all.filter(([, show]) => show).map(([s, , node]) => [s, node] as const);
  const shown = sections.some(([s]) => s === search.section) ? search.section : "profile";
  return (
    <UnsavedChangesGuard>
      <PageHeader
        title={o.name}
        description={`Your role: ${o.role ? titleCase(o.role) : "platform admin"} · ${titleCase(o.status)}`}
        actions={<OrganizationSwitcher />}
      />
      <OwnershipOffersToMe />
      {badges.data?.length || safeImageSrc(o.logoUrl) ? (
        <div className="flex flex-wrap items-center gap-4">
          {safeImageSrc(o.logoUrl) ? (
            <img
              src={safeImageSrc(o.logoUrl) ?? undefined}
              alt={`${o.name} logo`}
              className="size-16 rounded-md border object-contain"
            />
          ) : null}
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
        </div>
      ) : null}
      <Tabs
        value={shown}
        onValueChange={(v) => navigate({ search: { section: v as OrganizationSection }, resetScroll: false })}
        className="gap-4"
      >
        <TabsList
          aria-label="Organization settings"
          className="grid h-auto w-full grid-cols-2 gap-1 sm:inline-flex sm:w-fit sm:flex-wrap"
        >
          {sections.map(([s]) => (
            <TabsTrigger key={s} value={s} className="h-8">
              {SECTION_TITLES[s]}
            </TabsTrigger>
          ))}
        </TabsList>
        {sections.map(([s, content]) => (
          <TabsContent key={s} value={s} className="min-w-0">
            {/* The danger zone keeps no edits worth keeping: it is in the page only when shown. */}
            {s === "danger" && shown !== "danger" ? null : content}
          </TabsContent>
        ))}
      </Tabs>
    </UnsavedChangesGuard>
  );
}
