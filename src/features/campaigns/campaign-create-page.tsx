import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { CampaignForm } from "~/features/campaigns/campaign-form";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export function CampaignCreatePage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const org = useQuery(trpc.organization.current.queryOptions());
  const create = useMutation(
    trpc.campaigns.create.mutationOptions({
      onSuccess: async (c) => {
        toast.success("Campaign created as a draft");
        await qc.invalidateQueries({ queryKey: trpc.campaigns.pathKey() });
        await navigate({ to: "/campaigns/$campaignId", params: { campaignId: c.id } });
      },
      onError: (e) => {
        const info = errorInfo(e);
        setErrors({ ...info.fields, ...(Object.keys(info.fields).length ? {} : { _: info.message }) });
      },
    }),
  );
  return (
    <>
      <PageHeader title="New campaign" description="It starts as a draft; publish it when it is ready." />
      <Card>
        <CardContent className="pt-6">
          {org.data ? (
            <CampaignForm
              submitLabel="Create campaign"
              timeZone={org.data.timeZone}
              initial={{ currency: org.data.defaultCurrency }}
              pending={create.isPending}
              errors={errors}
              onSubmit={(v) => create.mutate(v as never)}
            />
          ) : (
            <p className="text-muted-foreground text-sm">Loading…</p>
          )}
        </CardContent>
      </Card>
    </>
  );
}
