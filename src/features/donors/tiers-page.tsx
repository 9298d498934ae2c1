import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatMoney, titleCase, toMinor } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export function TiersPage() {
  const trpc = useTRPC();
  // The tier ladder is the organization's setting: organization update (worker/donors/tiers/router.ts).
  const edit = useCan()({ organization: ["update"] });
  const qc = useQueryClient();
  const tiers = useQuery(trpc.donors.tiers.list.queryOptions());
  const org = useQuery(trpc.organization.current.queryOptions());
  const currency = org.data?.defaultCurrency ?? "USD";
  const [fields, setFields] = React.useState<Record<string, string>>({});
  const refresh = () => qc.invalidateQueries();
  const create = useMutation(
    trpc.donors.tiers.create.mutationOptions({
      onSuccess: async () => {
        toast.success("Tier added; donors reassigned");
        setFields({});
        await refresh();
      },
      onError: (e) => setFields({ ...errorInfo(e).fields, _: errorInfo(e).message }),
    }),
  );
  const del = useMutation(
    trpc.donors.tiers.delete.mutationOptions({
      onSuccess: refresh,
      onError: (e) => toast.error(errorInfo(e).message),
    }),
  );
  const total = (tiers.data ?? []).reduce((s, t) => s + t.donors, 0);
  return (
    <>
      <PageHeader
        title="Donor tiers"
        description="Giving levels assigned automatically: minimum included, maximum excluded."
      />
      {total ? (
        <Card>
          <CardHeader>
            <CardTitle>Distribution</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2">
            <div
              className="flex h-3 w-full overflow-hidden rounded-full bg-muted"
              role="img"
              aria-label="Donors per tier"
            >
              {tiers.data?.map((t) =>
                t.donors ? (
                  <span
                    key={t.id}
                    title={`${t.name}: ${t.donors}`}
                    style={{ width: `${(t.donors / total) * 100}%`, background: t.color }}
                  />
                ) : null,
              )}
            </div>
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {tiers.data?.map((t) => (
                <li key={t.id} className="flex items-center gap-1.5">
                  <span className="size-2.5 rounded-full" style={{ background: t.color }} aria-hidden />
                  {t.name}: <span className="tabular-nums">{t.donors.toLocaleString("en-US")}</span>
                  <span className="text-muted-foreground">({Math.round((t.donors / total) * 100)}%)</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardContent className="overflow-x-auto p-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Tier</TableHead>
                <TableHead>Basis</TableHead>
                <TableHead>From</TableHead>
                <TableHead>Below</TableHead>
                <TableHead className="text-right">Donors</TableHead>
                <TableHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {tiers.data?.map((t) => (
                <TableRow key={t.id}>
                  <TableCell>
                    <span className="flex items-center gap-2">
                      <span className="size-3 rounded-full" style={{ background: t.color }} />
                      {t.name}
                    </span>
                  </TableCell>
                  <TableCell>{titleCase(t.basis)}</TableCell>
                  <TableCell className="tabular-nums">{formatMoney(t.minMinor, currency)}</TableCell>
                  <TableCell className="tabular-nums">
                    {t.maxMinor === null ? "no limit" : formatMoney(t.maxMinor, currency)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {t.donors}{" "}
                    {total ? (
                      <span className="text-muted-foreground">({Math.round((t.donors / total) * 100)}%)</span>
                    ) : null}
                  </TableCell>
                  <TableCell className="text-right">
                    {edit ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() =>
                          window.confirm(`Delete the tier "${t.name}"?`) && del.mutate({ id: t.id })
                        }
                      >
                        Delete
                      </Button>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
              {tiers.data?.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={6} className="py-8 text-center text-muted-foreground">
                    No tiers yet.
                  </TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      {edit ? (
        <Card>
          <CardHeader>
            <CardTitle>Add a tier</CardTitle>
          </CardHeader>
          <CardContent>
            <form
              noValidate
              className="grid gap-3 sm:grid-cols-5 sm:items-end"
              onSubmit={(e) => {
                e.preventDefault();
                const f = new FormData(e.currentTarget);
                try {
                  const max = String(f.get("max") ?? "").trim();
                  create.mutate({
                    name: String(f.get("name") ?? ""),
                    basis: String(f.get("basis")) as never,
                    minMinor: toMinor(String(f.get("min") || "0"), currency),
                    maxMinor: max ? toMinor(max, currency) : null,
                    color: String(f.get("color")),
                  });
                } catch {
                  setFields({ minMinor: "Enter amounts like 500.00" });
                }
              }}
            >
              <Field label="Name" error={fields.name}>
                <Input name="name" />
              </Field>
              <Field label="Basis">
                <select
                  name="basis"
                  className="h-9 rounded-md border border-input bg-transparent px-2 text-sm"
                >
                  <option value="lifetime">Lifetime</option>
                  <option value="rolling_12m">Last 12 months</option>
                </select>
              </Field>
              <Field label={`From (${currency})`} error={fields.minMinor}>
                <Input name="min" inputMode="decimal" />
              </Field>
              <Field label="Below (empty: no limit)" error={fields.maxMinor}>
                <Input name="max" inputMode="decimal" />
              </Field>
              <div className="flex gap-2">
                <input
                  type="color"
                  name="color"
                  defaultValue="#0f766e"
                  aria-label="Colour"
                  className="h-9 w-12 rounded border"
                />
                <Button type="submit">Add</Button>
              </div>
              {fields._ && !fields.minMinor && !fields.maxMinor ? (
                <p role="alert" className="text-destructive text-sm sm:col-span-5">
                  {fields._}
                </p>
              ) : null}
            </form>
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}
