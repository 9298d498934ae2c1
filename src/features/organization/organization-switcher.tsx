/** Organization switcher: a native select shown only to users with several memberships. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export function OrganizationSwitcher() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const org = useQuery(trpc.organization.current.queryOptions());
  const mine = useQuery(trpc.organization.mine.queryOptions());
  const switchOrg = useMutation(
    trpc.organization.setActive.mutationOptions({
      onSuccess: async () => {
        // Every cached business query belonged to the previous tenant.
        await qc.invalidateQueries();
        toast.success("Switched organization");
      },
      onError: (e) => toast.error(errorInfo(e).message),
    }),
  );
  if ((mine.data?.length ?? 0) < 2 || !org.data) return null;
  return (
    <select
      aria-label="Organization"
      className="h-9 w-full max-w-xs rounded-md border border-input bg-transparent px-3 text-sm"
      value={org.data.id}
      disabled={switchOrg.isPending}
      onChange={(e) => switchOrg.mutate({ organizationId: e.target.value })}
    >
      {mine.data?.map((m) => (
        <option key={m.id} value={m.id}>
          {m.name}
          {m.role ? ` (${m.role})` : ""}
        </option>
      ))}
    </select>
  );
}
