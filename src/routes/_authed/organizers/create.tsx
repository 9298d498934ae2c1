import { useMutation, useQuery } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { authApi } from "~/lib/auth/api";
import { requireAdmin } from "~/lib/auth/guards";
import { useTRPC, useTRPCClient } from "~/lib/trpc";

export const Route = createFileRoute("/_authed/organizers/create")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "New organizer · Almoner" }] }),
  component: CreateOrganizer,
});

function CreateOrganizer() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const navigate = useNavigate();
  const orgs = useQuery(trpc.organization.all.queryOptions());
  const [error, setError] = React.useState<string | null>(null);
  const create = useMutation({
    mutationFn: async (v: { name: string; email: string; password: string; organizationId: string }) => {
      const { user } = await authApi.admin.createUser({
        name: v.name,
        email: v.email,
        password: v.password,
        role: "organizer",
      });
      await client.organization.addMember.mutate({
        userId: user.id,
        organizationId: v.organizationId,
        role: "organizer",
      });
      return user;
    },
    onSuccess: async (user) => {
      toast.success("Organizer created");
      await navigate({ to: "/organizers/$organizerId", params: { organizerId: user.id } });
    },
    onError: (e) => setError(e instanceof Error ? e.message : "Failed"),
  });
  return (
    <>
      <PageHeader
        title="New organizer"
        description="Creates the account with the organizer role and adds it to an organization."
      />
      <Card>
        <CardContent className="pt-6">
          <form
            className="flex max-w-md flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              setError(null);
              create.mutate({
                name: String(f.get("name")),
                email: String(f.get("email")),
                password: String(f.get("password")),
                organizationId: String(f.get("organizationId")),
              });
            }}
          >
            <Field label="Name" required>
              <Input name="name" required />
            </Field>
            <Field label="E-mail" required>
              <Input name="email" type="email" required />
            </Field>
            <Field
              label="Temporary password"
              description="8 to 128 characters; ask them to change it."
              required
            >
              <Input name="password" type="password" minLength={8} required autoComplete="new-password" />
            </Field>
            <Field label="Organization" required>
              <select
                name="organizationId"
                className="h-9 rounded-md border border-input bg-transparent px-2 text-sm"
                required
              >
                {orgs.data?.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            </Field>
            {error ? (
              <p role="alert" className="text-destructive text-sm">
                {error}
              </p>
            ) : null}
            <Button type="submit" disabled={create.isPending}>
              Create organizer
            </Button>
          </form>
        </CardContent>
      </Card>
    </>
  );
}
