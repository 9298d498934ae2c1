import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { NativeSelect } from "~/components/ui/native-select";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

/** The active organization for callers who belong to several (remembered per user, DESIGN §5). */
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
    <NativeSelect
      aria-label="Organization"
      className="w-full max-w-xs px-3"
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
    </NativeSelect>
  );
}
