/** /organizers (platform admins): every organizer per organization, with invitations, and the export. */

import { isOpenInvitation } from "@core/organizers";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import type { inferRouterOutputs } from "@trpc/server";
import { Download, Plus } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { BulkConfirmButton } from "~/components/bulk-confirm-button";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { DataTable, type ListState } from "~/components/data-table/data-table";
import { ExportProgress, useCsvExport } from "~/components/export-progress";
import { PageHeader } from "~/components/layout/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/native-select";
import { errorInfo, formatCount, formatDate, formatDateTime, titleCase } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC, useTRPCClient } from "~/lib/trpc";
import type { AppRouter } from "../../../worker/api-router";
import { downloadCsv, organizerCsv } from "./export";
import { organizerSorts, organizerStatuses } from "./search";

export { organizerSorts, organizerStatuses };

/** A row of the list: the procedure's own output type. */
type OrganizerRow = inferRouterOutputs<AppRouter>["organizers"]["list"]["rows"][number];

type OrganizersSearch = ListState & {
  sort: (typeof organizerSorts)[number];
  status?: (typeof organizerStatuses)[number][];
  organizationId?: string;
};

const STATUS_VARIANT: Record<string, "secondary" | "destructive" | "outline"> = {
  active: "secondary",
  banned: "destructive",
  invited: "outline",
  expired: "outline",
};

export function OrganizersPage({
  search: s,
  setSearch,
}: {
  search: OrganizersSearch;
  setSearch: (next: Partial<OrganizersSearch>) => void;
}) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const q = useQuery({
    ...trpc.organizers.list.queryOptions({ ...s, q: s.q || undefined }),
    placeholderData: keepPreviousData,
  });
  const orgs = useQuery(trpc.organization.all.queryOptions());
  const revoke = useMutation(trpc.organizers.bulkRevokeInvitations.mutationOptions());
  const [progress, runExport] = useCsvExport();
  const exportCsv = () =>
    runExport(async (show) => {
      const filters = { q: s.q || undefined, organizationId: s.organizationId, status: s.status };
      const { parts, rows } = await organizerCsv(
        (input) => client.organizers.exportPage.mutate(input),
        filters,
        (done, total) => show({ done, total }),
      );
      downloadCsv(parts, "organizers");
      return `Exported ${formatCount(rows)} rows`;
    });

  const columns: ColumnDef<OrganizerRow, unknown>[] = [
    {
      header: "Name",
      meta: { sortKey: "name", card: "title" },
      cell: ({ row }) =>
        row.original.userId ? (
          <Link
            to="/organizers/$organizerId"
            params={{ organizerId: row.original.userId }}
            className="font-medium hover:underline"
          >
            {row.original.name}
          </Link>
        ) : (
          <InvitationButton row={row.original} onRevoked={() => void q.refetch()} />
        ),
    },
    {
      header: "E-mail",
      meta: { sortKey: "email", card: "meta" },
      cell: ({ row }) => <span className="break-all">{row.original.email}</span>,
    },
    {
      header: "Organization",
      meta: { sortKey: "organization", card: "meta" },
      cell: ({ row }) => row.original.organizationName,
    },
    { header: "Role", meta: { card: "meta" }, cell: ({ row }) => titleCase(row.original.role) },
    {
      header: "Status",
      meta: { sortKey: "status", card: "status" },
      cell: ({ row }) => (
        <Badge variant={STATUS_VARIANT[row.original.status]}>{titleCase(row.original.status)}</Badge>
      ),
    },
    // Off by default (Columns menu): nine columns do not fit 1280 px beside the sidebar.
    {
      header: "Invited by",
      meta: { defaultHidden: true },
      cell: ({ row }) => row.original.invitedBy ?? "—",
    },
    {
      header: "Joined",
      meta: { sortKey: "joined", card: "date", cardLabel: "Joined" },
      cell: ({ row }) => formatDate(row.original.joinedAt, tz),
    },
    { header: "Last active", cell: ({ row }) => formatDateTime(row.original.lastActiveAt, tz) },
    { header: "Campaigns", meta: { align: "right" }, cell: ({ row }) => row.original.campaignsOwned },
  ];

  return (
    <>
      <PageHeader
        title="Organizers"
        description="People who run campaigns for organizations, and open invitations."
        actions={
          <>
            <Button variant="outline" disabled={!!progress} onClick={() => void exportCsv()}>
              <Download className="size-4" /> Export CSV
            </Button>
            <Button asChild>
              <Link to="/organizers/create">
                <Plus className="size-4" /> New organizer
              </Link>
            </Button>
          </>
        }
      />
      <ExportProgress progress={progress} noun="rows" />
      <DataTable<OrganizerRow>
        columns={columns}
        data={q.data?.rows}
        total={q.data?.total}
        state={s}
        onStateChange={(next) => setSearch(next as Partial<OrganizersSearch>)}
        isLoading={q.isPending}
        error={q.error ? errorInfo(q.error).message : null}
        filterCount={(s.status?.length ? 1 : 0) + (s.organizationId ? 1 : 0)}
        searchPlaceholder="Search name or e-mail"
        emptyMessage="No organizers match."
        facets={[
          {
            id: "status",
            title: "Status",
            options: organizerStatuses.map((v) => ({ value: v, label: titleCase(v) })),
            value: s.status,
            onChange: (status) => setSearch({ status: status as OrganizersSearch["status"], page: 1 }),
          },
        ]}
        toolbar={
          <NativeSelect
            aria-label="Organization"
            className="max-w-48"
            value={s.organizationId ?? ""}
            onChange={(e) => setSearch({ organizationId: e.target.value || undefined, page: 1 })}
          >
            <option value="">All organizations</option>
            {orgs.data?.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </NativeSelect>
        }
        bulkActions={(rows, clear, matching) => {
          // The open invitations among the chosen rows (core's rule): the page's, or the snapshot's.
          const ids = matching
            ? matching.ids
            : rows.filter((r) => isOpenInvitation(r.status)).map((r) => r.id);
          const n = formatCount(ids.length);
          const noun = ids.length === 1 ? "invitation" : "invitations";
          return (
            <BulkConfirmButton
              ids={ids}
              act={(batch, reason) => revoke.mutateAsync({ ids: batch, reason })}
              running="Revoking"
              done="revoked"
              onDone={async () => {
                clear();
                await q.refetch();
              }}
              hint={ids.length ? undefined : "No open invitations among the selected rows"}
              title={`Revoke ${n} ${noun}?`}
              description={
                matching
                  ? `The ${n} open ${noun} among the ${formatCount(q.data?.total ?? 0)} rows matching the filters ${ids.length === 1 ? "is" : "are"} revoked; members are not touched.`
                  : "Only open invitations among the selected rows are revoked; members are not touched."
              }
              confirmLabel={`Revoke ${n} ${noun}`}
              destructive
              reasonLabel="Reason"
            >
              Revoke invitations
            </BulkConfirmButton>
          );
        }}
        // The snapshot holds only the open invitations among the matching rows: say so.
        matchingLabels={{
          offer: (total) => `Select the open invitations among all ${total} matching`,
          chosen: (count) => `All ${count} open invitations matching selected`,
        }}
        selectMatching={() =>
          qc.fetchQuery({
            ...trpc.organizers.matchingIds.queryOptions({
              q: s.q || undefined,
              organizationId: s.organizationId,
              status: s.status,
            }),
            staleTime: 0,
          })
        }
      />
    </>
  );
}

/**
 * An open invitation's row opens this (it has no page: no one has joined yet): what was sent, to
 * whom, by whom and when, and the one thing to do with it, revoke (organizers.revokeInvitation,
 * audited with the reason). The button is the row's title, so a click or tap on the row opens it.
 */
function InvitationButton({ row, onRevoked }: { row: OrganizerRow; onRevoked: () => void }) {
  const trpc = useTRPC();
  const tz = useTimeZone();
  const revoke = useMutation(trpc.organizers.revokeInvitation.mutationOptions());
  const facts: [string, string][] = [
    ["Organization", row.organizationName],
    ["Role", titleCase(row.role)],
    ["Invited by", row.invitedBy ?? "—"],
    ["Sent", formatDateTime(row.joinedAt, tz)],
    ["Status", row.status === "expired" ? "Expired, not accepted" : "Waiting to be accepted"],
  ];
  return (
    <ConfirmButton
      variant="link"
      className="h-auto p-0 font-medium text-foreground"
      title={`Invitation for ${row.email}`}
      description={
        // Phrasing content only: the dialog's description is a paragraph.
        <span className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-left">
          {facts.map(([k, v]) => (
            <React.Fragment key={k}>
              <span className="text-muted-foreground">{k}</span>
              <span className="text-foreground">{v}</span>
            </React.Fragment>
          ))}
        </span>
      }
      confirmLabel="Revoke invitation"
      destructive
      reasonLabel="Reason for revoking"
      onConfirm={async (reason) => {
        await revoke.mutateAsync({ id: row.id, reason });
        toast.success(`Invitation for ${row.email} revoked`);
        onRevoked();
      }}
    >
      Invitation
    </ConfirmButton>
  );
}
