/**
 * /donor-tiers: the ladder, its distribution (the counts add up to the donor total, "No tier"
 * included), adding, editing and deleting a tier (docs/decisions/025-deleting-a-tier.md).
 */

import { ladderGaps, moveTargets } from "@core/donor-tiers";
import { parseMoney } from "@core/money";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { inferRouterOutputs } from "@trpc/server";
import { Pencil, Trash2 } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Spinner } from "~/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatMoney, toMajorString } from "~/lib/format";
import { useMoneyLocale } from "~/lib/money-locale";
import { useTRPC } from "~/lib/trpc";
import type { AppRouter } from "../../../worker/api-router";

type Tier = inferRouterOutputs<AppRouter>["donors"]["tiers"]["list"]["tiers"][number];
type TierValues = {
  name: string;
  basis: Tier["basis"];
  minMinor: number;
  maxMinor: number | null;
  color: string;
};

const BASIS_LABEL: Record<Tier["basis"], string> = { lifetime: "Lifetime", rolling_12m: "Last 12 months" };
/** "No tier" in the distribution: a neutral swatch that reads in both schemes. */
const NO_TIER_CLASS = "bg-muted-foreground/40";

const donorsText = (n: number) => `${formatCount(n)} donor${n === 1 ? "" : "s"}`;
const share = (n: number, total: number) => (total ? `${Math.round((n / total) * 100)}%` : "");

export function TiersPage() {
  const trpc = useTRPC();
  // The tier ladder is the organization's setting: organization update (worker/donors/tiers/router.ts).
  const edit = useCan()({ organization: ["update"] });
  const qc = useQueryClient();
  const list = useQuery(trpc.donors.tiers.list.queryOptions());
  const org = useQuery(trpc.organization.current.queryOptions());
  const currency = org.data?.defaultCurrency ?? "USD";
  const tiers = list.data?.tiers ?? [];
  const total = list.data?.total ?? 0;
  const noTier = list.data?.noTier ?? 0;
  const [editing, setEditing] = React.useState<Tier | null>(null);
  const [deleting, setDeleting] = React.useState<Tier | null>(null);
  const money = (m: number) => formatMoney(m, currency);
  const range = (r: { minMinor: number; maxMinor: number | null }) =>
    r.maxMinor === null
      ? `${money(r.minMinor)} and above`
      : `${money(r.minMinor)} to below ${money(r.maxMinor)}`;
  const gaps = tiers.length ? ladderGaps(tiers) : [];
  const bases = new Set(tiers.map((t) => t.basis));

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
              aria-label={`Donors per tier, ${donorsText(total)} in all`}
            >
              {tiers.map((t) =>
                t.donors ? (
                  <span
                    key={t.id}
                    title={`${t.name}: ${formatCount(t.donors)}`}
                    style={{ width: `${(t.donors / total) * 100}%`, background: t.color }}
                  />
                ) : null,
              )}
              {noTier ? (
                <span
                  title={`No tier: ${noTier}`}
                  className={NO_TIER_CLASS}
                  style={{ width: `${(noTier / total) * 100}%` }}
                />
              ) : null}
            </div>
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {tiers.map((t) => (
                <li key={t.id} className="flex items-center gap-1.5">
                  <span className="size-2.5 rounded-full" style={{ background: t.color }} aria-hidden />
                  {t.name}: <span className="tabular-nums">{formatCount(t.donors)}</span>
                  <span className="text-muted-foreground">({share(t.donors, total)})</span>
                </li>
              ))}
              <li className="flex items-center gap-1.5">
                <span className={`size-2.5 rounded-full ${NO_TIER_CLASS}`} aria-hidden />
                No tier: <span className="tabular-nums">{formatCount(noTier)}</span>
                <span className="text-muted-foreground">({share(noTier, total)})</span>
              </li>
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
                <TableHead className="max-sm:hidden">Basis</TableHead>
                <TableHead className="max-sm:hidden">From</TableHead>
                <TableHead className="max-sm:hidden">Below</TableHead>
                <TableHead className="text-right">Donors</TableHead>
                {edit ? (
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                ) : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {tiers.map((t) => (
                <TableRow key={t.id} data-tier={t.name}>
                  <TableCell>
                    <span className="flex items-center gap-2">
                      <span className="size-3 shrink-0 rounded-full" style={{ background: t.color }} />
                      {t.name}
                    </span>
                    {/* The range columns do not fit at phone width: the range goes under the name. */}
                    <span className="block whitespace-normal text-muted-foreground text-xs sm:hidden">
                      {range(t)}, {BASIS_LABEL[t.basis].toLowerCase()}
                    </span>
                  </TableCell>
                  <TableCell className="max-sm:hidden">{BASIS_LABEL[t.basis]}</TableCell>
                  <TableCell className="tabular-nums max-sm:hidden">{money(t.minMinor)}</TableCell>
                  <TableCell className="tabular-nums max-sm:hidden">
                    {t.maxMinor === null ? "no limit" : money(t.maxMinor)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums" data-count={t.donors}>
                    {/* The tier's donors are the /donors list filtered by it (its Tier picker). */}
                    {t.donors ? (
                      <Link
                        to="/donors"
                        search={{ tierId: t.id } as never}
                        className="text-primary hover:underline"
                        aria-label={`${formatCount(t.donors)} ${t.donors === 1 ? "donor" : "donors"} in ${t.name}`}
                      >
                        {formatCount(t.donors)}
                      </Link>
                    ) : (
                      formatCount(t.donors)
                    )}{" "}
                    {total ? (
                      <span className="text-muted-foreground max-sm:hidden">({share(t.donors, total)})</span>
                    ) : null}
                  </TableCell>
                  {edit ? (
                    <TableCell className="text-right">
                      <span className="inline-flex gap-1">
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-haspopup="dialog"
                          aria-label={`Edit ${t.name}`}
                          onClick={() => setEditing(t)}
                        >
                          <Pencil className="size-4" aria-hidden />{" "}
                          <span className="max-sm:sr-only">Edit</span>
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          className="text-destructive hover:text-destructive"
                          aria-haspopup="dialog"
                          aria-label={`Delete ${t.name}`}
                          onClick={() => setDeleting(t)}
                        >
                          <Trash2 className="size-4" aria-hidden />{" "}
                          <span className="max-sm:sr-only">Delete</span>
                        </Button>
                      </span>
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
              {tiers.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={edit ? 6 : 5} className="py-8 text-center text-muted-foreground">
                    No tiers yet.
                  </TableCell>
                </TableRow>
              ) : (
                <TableRow data-tier="No tier">
                  <TableCell>
                    <span className="flex items-center gap-2 text-muted-foreground">
                      <span className={`size-3 shrink-0 rounded-full ${NO_TIER_CLASS}`} />
                      No tier
                    </span>
                  </TableCell>
                  <TableCell colSpan={3} className="text-muted-foreground max-sm:hidden">
                    Amounts outside every range, and donors locked to no tier
                  </TableCell>
                  <TableCell className="text-right tabular-nums" data-count={noTier}>
                    {formatCount(noTier)}{" "}
                    {total ? (
                      <span className="text-muted-foreground max-sm:hidden">({share(noTier, total)})</span>
                    ) : null}
                  </TableCell>
                  {edit ? <TableCell /> : null}
                </TableRow>
              )}
            </TableBody>
            {tiers.length ? (
              <TableFooter>
                <TableRow>
                  <TableCell>All donors</TableCell>
                  <TableCell colSpan={3} className="max-sm:hidden" />
                  <TableCell className="text-right tabular-nums" data-testid="tiers-total" data-count={total}>
                    {formatCount(total)}
                  </TableCell>
                  {edit ? <TableCell /> : null}
                </TableRow>
              </TableFooter>
            ) : null}
          </Table>
        </CardContent>
      </Card>
      {gaps.length ? (
        <p className="text-muted-foreground text-sm">
          No tier covers{" "}
          {gaps
            .map((g) => `${range(g)}${bases.size > 1 ? ` (${BASIS_LABEL[g.basis as Tier["basis"]]})` : ""}`)
            .join("; ")}
          .
        </p>
      ) : null}
      {edit ? <AddTier currency={currency} onDone={() => qc.invalidateQueries()} /> : null}
      {edit ? (
        <EditTierDialog
          tier={editing}
          currency={currency}
          onOpenChange={(open) => !open && setEditing(null)}
          onDone={() => qc.invalidateQueries()}
        />
      ) : null}
      {edit ? (
        <DeleteTierDialog
          tier={deleting}
          tiers={tiers}
          range={range}
          onOpenChange={(open) => !open && setDeleting(null)}
          onDone={() => qc.invalidateQueries()}
        />
      ) : null}
    </>
  );
}

/** The fields of a tier (add and edit): name, basis, range and colour, with their errors. */
function TierFields({
  currency,
  initial,
  errors,
}: {
  currency: string;
  initial?: Tier;
  errors: Record<string, string>;
}) {
  return (
    <>
      <Field label="Name" error={errors.name}>
        <Input name="name" defaultValue={initial?.name} maxLength={40} autoComplete="off" />
      </Field>
      <Field label="Basis">
        <NativeSelect name="basis" defaultValue={initial?.basis ?? "lifetime"}>
          <option value="lifetime">Lifetime</option>
          <option value="rolling_12m">Last 12 months</option>
        </NativeSelect>
      </Field>
      <Field label={`From (${currency})`} error={errors.minMinor}>
        <Input
          name="min"
          inputMode="decimal"
          defaultValue={initial ? toMajorString(initial.minMinor, currency) : undefined}
        />
      </Field>
      <Field label="Below (empty: no limit)" error={errors.maxMinor}>
        <Input
          name="max"
          inputMode="decimal"
          defaultValue={
            initial && initial.maxMinor !== null ? toMajorString(initial.maxMinor, currency) : undefined
          }
        />
      </Field>
      <Field label="Colour">
        <input
          type="color"
          name="color"
          defaultValue={initial?.color ?? "#0f766e"}
          className="h-9 w-12 rounded border"
        />
      </Field>
    </>
  );
}

/** The form's values as the API takes them, or the field error of an amount that does not parse. */
function readTier(
  form: HTMLFormElement,
  currency: string,
  locale: string,
): TierValues | { error: Record<string, string> } {
  const f = new FormData(form);
  const amount = (key: string, field: string) => {
    const r = parseMoney(String(f.get(key) ?? "").trim() || "0", currency, locale);
    if (!r.ok) throw { [field]: r.message };
    return r.minor;
  };
  try {
    const max = String(f.get("max") ?? "").trim();
    return {
      name: String(f.get("name") ?? ""),
      basis: String(f.get("basis")) as Tier["basis"],
      minMinor: amount("min", "minMinor"),
      maxMinor: max ? amount("max", "maxMinor") : null,
      color: String(f.get("color")),
    };
  } catch (e) {
    return { error: e as Record<string, string> };
  }
}

const fieldErrors = (e: unknown) => ({ ...errorInfo(e).fields, _: errorInfo(e).message });

function AddTier({ currency, onDone }: { currency: string; onDone: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const locale = useMoneyLocale();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [version, setVersion] = React.useState(0);
  const create = useMutation(
    trpc.donors.tiers.create.mutationOptions({
      onSuccess: async (_, v) => {
        toast.success(`Tier "${v.name.trim()}" added; donors re-evaluated`);
        setErrors({});
        setVersion((n) => n + 1);
        await onDone();
      },
      onError: (e) => setErrors(fieldErrors(e)),
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Add a tier</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          key={version}
          noValidate
          aria-label="Add a tier"
          className="grid gap-3 sm:grid-cols-[2fr_1.5fr_1fr_1fr_auto_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            const v = readTier(e.currentTarget, currency, locale);
            if ("error" in v) setErrors(v.error);
            else create.mutate(v);
          }}
        >
          <TierFields currency={currency} errors={errors} />
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? <Spinner /> : null}
            Add
          </Button>
          {errors._ && !errors.name && !errors.minMinor && !errors.maxMinor ? (
            <p role="alert" className="text-destructive text-sm sm:col-span-6">
              {errors._}
            </p>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}

function EditTierDialog({
  tier,
  currency,
  onOpenChange,
  onDone,
}: {
  tier: Tier | null;
  currency: string;
  onOpenChange: (open: boolean) => void;
  onDone: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const locale = useMoneyLocale();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const update = useMutation(
    trpc.donors.tiers.update.mutationOptions({
      onSuccess: async (_, v) => {
        toast.success(`Tier "${v.name.trim()}" saved; donors re-evaluated`);
        onOpenChange(false);
        await onDone();
      },
      onError: (e) => setErrors(fieldErrors(e)),
    }),
  );
  // A new tier to edit starts without the last one's errors.
  const id = tier?.id;
  React.useEffect(() => {
    if (id) setErrors({});
  }, [id]);
  return (
    <Dialog open={!!tier} onOpenChange={(open) => !update.isPending && onOpenChange(open)}>
      <DialogContent>
        {tier ? (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              const v = readTier(e.currentTarget, currency, locale);
              if ("error" in v) setErrors(v.error);
              else update.mutate({ id: tier.id, ...v });
            }}
          >
            <DialogHeader>
              <DialogTitle>Edit the tier "{tier.name}"</DialogTitle>
              <DialogDescription>
                Saving re-evaluates every donor against the new ladder; donors locked by hand keep their tier.
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-3 sm:grid-cols-2">
              <TierFields currency={currency} initial={tier} errors={errors} />
            </div>
            {errors._ && !errors.name && !errors.minMinor && !errors.maxMinor ? (
              <p role="alert" className="text-destructive text-sm">
                {errors._}
              </p>
            ) : null}
            <DialogFooter>
              <Button
                type="button"
                variant="outline"
                disabled={update.isPending}
                onClick={() => onOpenChange(false)}
              >
                Cancel
              </Button>
              <Button type="submit" disabled={update.isPending} aria-busy={update.isPending || undefined}>
                {update.isPending ? <Spinner /> : null}
                Save tier
              </Button>
            </DialogFooter>
          </form>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function DeleteTierDialog({
  tier,
  tiers,
  range,
  onOpenChange,
  onDone,
}: {
  tier: Tier | null;
  tiers: Tier[];
  range: (r: { minMinor: number; maxMinor: number | null }) => string;
  onOpenChange: (open: boolean) => void;
  onDone: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const del = useMutation(trpc.donors.tiers.delete.mutationOptions());
  const [choice, setChoice] = React.useState("reevaluate");
  const id = tier?.id;
  React.useEffect(() => {
    if (id) setChoice("reevaluate");
  }, [id]);
  const targets = tier ? moveTargets(tiers, tier.id) : [];
  const n = tier?.donors ?? 0;
  return (
    <ConfirmDialog
      open={!!tier}
      onOpenChange={onOpenChange}
      title={`Delete the tier "${tier?.name ?? ""}"?`}
      description={
        n
          ? `${donorsText(n)} ${n === 1 ? "is" : "are"} in this tier. Choose where they go; this cannot be undone.`
          : "No donor is in this tier. This cannot be undone."
      }
      confirmLabel="Delete tier"
      destructive
      onConfirm={async () => {
        if (!tier) return;
        const target = targets.find((t) => t.tier.id === choice);
        const r = await del.mutateAsync({
          id: tier.id,
          donors: target ? { action: "move", tierId: target.tier.id } : { action: "reevaluate" },
        });
        toast.success(
          r.to
            ? `Tier deleted; ${donorsText(r.donors)} moved to ${r.to.name}`
            : `Tier deleted; ${donorsText(r.donors)} re-evaluated against the remaining tiers${
                r.unlocked ? ` (${r.unlocked} unlocked)` : ""
              }`,
        );
        await onDone();
      }}
    >
      {tier ? (
        <fieldset className="grid gap-3">
          <legend className="mb-2 font-medium text-sm">What happens to its donors</legend>
          <RadioOption
            name="tier-donors"
            value="reevaluate"
            checked={choice === "reevaluate"}
            onChange={setChoice}
            label="Re-evaluate them against the remaining tiers"
            description={`Each donor takes the tier its amount fits; amounts from ${range(tier)} then fit no tier. Donors locked to "${tier.name}" are unlocked.`}
          />
          {targets.map((t) => (
            <RadioOption
              key={t.tier.id}
              name="tier-donors"
              value={t.tier.id}
              checked={choice === t.tier.id}
              onChange={setChoice}
              label={`Move them to ${t.tier.name}`}
              description={`${t.tier.name} then covers ${range(t.range)}. Locked donors stay locked, to ${t.tier.name}.`}
            />
          ))}
        </fieldset>
      ) : null}
    </ConfirmDialog>
  );
}

function RadioOption({
  name,
  value,
  checked,
  onChange,
  label,
  description,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: (value: string) => void;
  label: string;
  description: string;
}) {
  const id = React.useId();
  return (
    <div className="flex items-start gap-2">
      <input
        type="radio"
        id={id}
        name={name}
        value={value}
        checked={checked}
        onChange={() => onChange(value)}
        aria-describedby={`${id}-d`}
        className="mt-0.5 size-4 accent-primary"
      />
      <div className="grid gap-0.5">
        <label htmlFor={id} className="font-medium text-sm leading-snug">
          {label}
        </label>
        <p id={`${id}-d`} className="text-muted-foreground text-sm">
          {description}
        </p>
      </div>
    </div>
  );
}
