import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { DonorForm, type DonorFormValue } from "~/features/donors/donor-form";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export function DonorCreatePage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [duplicate, setDuplicate] = React.useState<{
    id: string;
    reason: string;
    value: DonorFormValue;
  } | null>(null);
  const create = useMutation(
    trpc.donors.create.mutationOptions({
      onSuccess: async (res, vars) => {
        if (!res.created) {
          setDuplicate({ ...res.duplicate, value: vars.data as DonorFormValue });
          return;
        }
        toast.success("Donor created");
        await qc.invalidateQueries({ queryKey: trpc.donors.pathKey() });
        await navigate({ to: "/donors/$donorId", params: { donorId: res.id } });
      },
      onError: (e) =>
        setErrors({
          ...errorInfo(e).fields,
          ...(Object.keys(errorInfo(e).fields).length ? {} : { _: errorInfo(e).message }),
        }),
    }),
  );
  return (
    <>
      <PageHeader title="New donor" />
      {duplicate ? (
        <Alert role="alert">
          <AlertDescription className="flex flex-wrap items-center gap-2">
            {duplicate.reason === "email"
              ? "A donor with this e-mail already exists."
              : "A donor with this name and postal code already exists."}
            <Link
              to="/donors/$donorId"
              params={{ donorId: duplicate.id }}
              className="font-medium text-primary underline"
            >
              Open the existing donor
            </Link>
            {duplicate.reason !== "email" ? (
              <Button
                size="sm"
                variant="outline"
                onClick={() => create.mutate({ data: duplicate.value as never, force: true })}
              >
                Create anyway
              </Button>
            ) : null}
          </AlertDescription>
        </Alert>
      ) : null}
      <Card>
        <CardContent className="pt-6">
          <DonorForm
            submitLabel="Create donor"
            pending={create.isPending}
            errors={errors}
            onSubmit={(v) => {
              setDuplicate(null);
              setErrors({});
              create.mutate({ data: v as never });
            }}
          />
        </CardContent>
      </Card>
    </>
  );
}
