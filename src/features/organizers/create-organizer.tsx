/**
 * /organizers/create: invite an organizer by e-mail (a 7-day link; they sign up or sign in with that
 * address and accept) or create the account directly with a temporary password.
 */

import { organizerInviteInput } from "@core/organizers";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";
import { PageHeader } from "~/components/layout/page-header";
import { NewPasswordField } from "~/components/new-password-field";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { authApi } from "~/lib/auth/api";
import { errorInfo } from "~/lib/format";
import { useTRPC, useTRPCClient } from "~/lib/trpc";

// The shared schema is zod/mini, which ships no messages: the form shows the English ones the
// Worker answers with (as in src/features/organization/profile-form.tsx).
config(en());

function OrganizationSelect({ error }: { error?: string }) {
  const trpc = useTRPC();
  const orgs = useQuery(trpc.organization.all.queryOptions());
  // Preselect the organization the admin is working in, not whichever sorts first.
  const current = useQuery(trpc.organization.current.queryOptions());
  return (
    <Field label="Organization" required error={error}>
      <NativeSelect
        key={`${orgs.data?.length ?? 0}:${current.data?.id ?? ""}`}
        name="organizationId"
        className="w-full"
        required
        defaultValue={current.data?.id}
      >
        {orgs.data?.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}

export function CreateOrganizer() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const navigate = useNavigate();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const fail = (e: unknown) => {
    const info = errorInfo(e);
    setErrors({ ...info.fields, _: info.message });
  };
  const invite = useMutation(
    trpc.organizers.invite.mutationOptions({
      onSuccess: async () => {
        toast.success("Invitation sent; it expires in 7 days");
        await navigate({ to: "/organizers", search: { status: ["invited"] } as never });
      },
      onError: fail,
    }),
  );
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
    onError: fail,
  });
  const errorLine = errors._ ? (
    <p role="alert" className="text-destructive text-sm">
      {errors._}
    </p>
  ) : null;
  return (
    <>
      <PageHeader title="New organizer" description="Organizers run campaigns for one organization." />
      <Card>
        <CardContent className="pt-6">
          <Tabs defaultValue="invite" onValueChange={() => setErrors({})}>
            <TabsList>
              <TabsTrigger value="invite">Invite by e-mail</TabsTrigger>
              <TabsTrigger value="direct">Create account</TabsTrigger>
            </TabsList>
            <TabsContent value="invite">
              <form
                noValidate
                className="flex max-w-md flex-col gap-4 pt-4"
                onSubmit={(e) => {
                  e.preventDefault();
                  const f = new FormData(e.currentTarget);
                  setErrors({});
                  // Checked here with the procedure's own schema (core/organizers.ts) before sending.
                  const parsed = organizerInviteInput.safeParse({
                    email: String(f.get("email") ?? "").trim(),
                    organizationId: String(f.get("organizationId") ?? ""),
                  });
                  if (!parsed.success) {
                    const fields: Record<string, string> = {};
                    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
                    setErrors(fields);
                    return;
                  }
                  invite.mutate(parsed.data);
                }}
              >
                <Field
                  label="E-mail"
                  required
                  error={errors.email}
                  description="They accept with this address."
                >
                  <Input name="email" type="email" autoComplete="off" />
                </Field>
                <OrganizationSelect error={errors.organizationId} />
                {errorLine}
                <Button type="submit" disabled={invite.isPending}>
                  Send invitation
                </Button>
              </form>
            </TabsContent>
            <TabsContent value="direct">
              <form
                className="flex max-w-md flex-col gap-4 pt-4"
                onSubmit={(e) => {
                  e.preventDefault();
                  const f = new FormData(e.currentTarget);
                  setErrors({});
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
                <NewPasswordField
                  label="Temporary password"
                  description="8 to 128 characters; ask them to change it."
                  required
                />
                <OrganizationSelect />
                {errorLine}
                <Button type="submit" disabled={create.isPending}>
                  Create organizer
                </Button>
              </form>
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </>
  );
}
