import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { DonorForm } from "~/features/donors/donor-form";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/_authed/donors/$donorId/edit");

export function DonorEditPage() {
  const { donorId } = route.useParams();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery(trpc.donors.byId.queryOptions({ id: donorId }));
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const save = useMutation(
    trpc.donors.update.mutationOptions({
      onSuccess: async () => {
        toast.success("Donor saved");
        await qc.invalidateQueries();
        await navigate({ to: "/donors/$donorId", params: { donorId } });
      },
      onError: (e) => setErrors({ ...errorInfo(e).fields, _: errorInfo(e).message }),
    }),
  );
  if (!q.data) return null;
  return (
    <>
      <PageHeader title={`Edit ${q.data.name}`} />
      <Card>
        <CardContent className="pt-6">
          <DonorForm
            initial={q.data as never}
            submitLabel="Save"
            pending={save.isPending}
            errors={errors}
            onSubmit={(v) => save.mutate({ id: donorId, data: v as never })}
          />
        </CardContent>
      </Card>
    </>
  );
}
