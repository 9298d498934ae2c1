/**
 * Pick one donor of the organization by typing: a server-backed search (donors.list with `q`, so
 * the same match as the donors list: name, e-mail or company), never a preloaded page of donors
 * (issue 21: the old select offered only the first 100). The arrow keys, Enter and the ARIA come
 * from cmdk (~/components/ui/command); Escape and focus return from the Radix popover. The last
 * option creates a donor from what was typed, through donors.create and the donor form's schema
 * (core/donor.ts), for users who may create donors.
 */
import { type DonorFormInput, donorInput } from "@core/donor";
import { ANONYMOUS_DONOR } from "@core/labels";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, ChevronsUpDown, UserPlus, X } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Command, CommandGroup, CommandInput, CommandItem, CommandList } from "~/components/ui/command";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { Spinner } from "~/components/ui/spinner";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { useDebounced } from "~/lib/use-debounced";
import { cn } from "~/lib/utils";

export interface DonorChoice {
  id: string;
  name: string;
  email: string | null;
}

/** Searching starts at this many characters: fewer match too much to be worth a request. */
const DONOR_SEARCH_MIN = 2;
// One of the list sizes every list accepts (worker/lib/list.ts pageSchema).
const PAGE_SIZE = 10;
const DEBOUNCE_MS = 250;
const CREATE_VALUE = "\u0000create";

type ControlProps = {
  id?: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  "aria-required"?: true;
};

export function DonorCombobox({
  value,
  onChange,
  name,
  emptyLabel = `${ANONYMOUS_DONOR} (no donor record)`,
  className,
  ...control
}: ControlProps & {
  value: DonorChoice | null;
  onChange: (donor: DonorChoice | null) => void;
  /** When given, a hidden input of this name carries the chosen id (empty for none) in a form. */
  name?: string;
  /** What the trigger reads when no donor is chosen. */
  emptyLabel?: string;
  className?: string;
}) {
  const [open, setOpen] = React.useState(false);
  const [query, setQuery] = React.useState("");
  const [creating, setCreating] = React.useState(false);
  const can = useCan();
  const mayCreate = can({ donor: ["create"] });

  function choose(d: DonorChoice | null) {
    onChange(d);
    setOpen(false);
  }

  return (
    <div className={cn("flex min-w-0 items-center gap-1", className)}>
      {name ? <input type="hidden" name={name} value={value?.id ?? ""} /> : null}
      <Popover
        // Modal: inside a dialog, the list scrolls with the wheel and the rest of the page is inert.
        modal
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) {
            setCreating(false);
            setQuery("");
          }
        }}
      >
        <PopoverTrigger asChild>
          <Button
            variant="outline"
            role="combobox"
            aria-expanded={open}
            aria-haspopup="listbox"
            className="h-auto min-h-9 min-w-0 flex-1 justify-between px-3 py-1.5 font-normal"
            {...control}
          >
            {value ? (
              <span className="flex min-w-0 flex-col items-start text-left">
                <span className="max-w-full truncate">{value.name}</span>
                {value.email && value.email !== value.name ? (
                  <span className="max-w-full truncate text-muted-foreground text-xs">{value.email}</span>
                ) : null}
              </span>
            ) : (
              <span className="truncate text-muted-foreground">{emptyLabel}</span>
            )}
            <ChevronsUpDown aria-hidden="true" className="size-4 opacity-50" />
          </Button>
        </PopoverTrigger>
        <PopoverContent
          align="start"
          // Radix gives the popover role="dialog": it needs a name of its own.
          aria-label={creating ? "New donor" : "Find a donor"}
          className="w-(--radix-popover-trigger-width) min-w-64 p-0"
          // Phones: the keyboard takes half the screen; keep the list above it.
          collisionPadding={8}
        >
          {creating ? (
            <CreateDonorForm typed={query} onBack={() => setCreating(false)} onCreated={(d) => choose(d)} />
          ) : (
            <DonorSearch
              query={query}
              onQuery={setQuery}
              selectedId={value?.id ?? null}
              onChoose={choose}
              onCreate={mayCreate ? () => setCreating(true) : null}
            />
          )}
        </PopoverContent>
      </Popover>
      {value ? (
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Clear donor (${value.name})`}
          onClick={() => onChange(null)}
        >
          <X aria-hidden="true" />
        </Button>
      ) : null}
    </div>
  );
}

function DonorSearch({
  query,
  onQuery,
  selectedId,
  onChoose,
  onCreate,
}: {
  query: string;
  onQuery: (q: string) => void;
  selectedId: string | null;
  onChoose: (d: DonorChoice) => void;
  onCreate: (() => void) | null;
}) {
  const trpc = useTRPC();
  const typed = query.trim();
  const debounced = useDebounced(typed, DEBOUNCE_MS);
  const searching = debounced.length >= DONOR_SEARCH_MIN;
  const results = useQuery({
    ...trpc.donors.list.queryOptions({ q: debounced, pageSize: PAGE_SIZE, sort: "name", desc: false }),
    enabled: searching,
    staleTime: 30_000,
  });
  const long = typed.length >= DONOR_SEARCH_MIN;
  const settled = long && debounced === typed && results.isSuccess;
  const rows = settled ? results.data.rows.filter((d) => !d.anonymized) : [];
  const status = !long
    ? `Type ${DONOR_SEARCH_MIN} or more characters of a name or e-mail`
    : results.isError && debounced === typed
      ? errorInfo(results.error).message
      : !settled
        ? "Searching…"
        : rows.length === 0
          ? "No donor matches"
          : results.data.total > rows.length
            ? `Showing ${rows.length} of ${formatCount(results.data.total)}: type more to narrow`
            : "";
  return (
    <Command shouldFilter={false} loop label="Find a donor">
      <CommandInput placeholder="Search by name or e-mail" value={query} onValueChange={onQuery} />
      <p
        role="status"
        className={cn(
          "flex items-center gap-2 px-3 text-muted-foreground text-sm",
          status ? "py-2.5" : "sr-only",
          rows.length > 0 && "pb-0 text-xs",
        )}
      >
        {status === "Searching…" ? <Spinner /> : null}
        {status}
      </p>
      <CommandList className="max-h-[min(300px,40dvh)]">
        {rows.length ? (
          <CommandGroup>
            {rows.map((d) => (
              <CommandItem
                key={d.id}
                value={d.id}
                onSelect={() => onChoose({ id: d.id, name: d.name, email: d.email })}
              >
                <Check
                  aria-hidden="true"
                  className={cn("size-4", d.id === selectedId ? "opacity-100" : "opacity-0")}
                />
                <span className="flex min-w-0 flex-col">
                  <span className="truncate font-medium">{d.name}</span>
                  {d.email ? <span className="truncate text-muted-foreground text-xs">{d.email}</span> : null}
                </span>
              </CommandItem>
            ))}
          </CommandGroup>
        ) : null}
        {onCreate && long && (settled || results.isError) ? (
          <CommandGroup className={rows.length ? "border-t" : undefined}>
            <CommandItem value={CREATE_VALUE} onSelect={onCreate}>
              <UserPlus aria-hidden="true" />
              <span className="min-w-0 break-words">Create new donor “{typed}”</span>
            </CommandItem>
          </CommandGroup>
        ) : null}
      </CommandList>
    </Command>
  );
}

/** What was typed, as the new donor's first fields: an address goes to the e-mail, a name is split at its last space. */
function fromTyped(typed: string): { firstName: string; lastName: string; email: string } {
  if (typed.includes("@")) return { firstName: "", lastName: "", email: typed };
  const at = typed.lastIndexOf(" ");
  return at < 0
    ? { firstName: "", lastName: typed, email: "" }
    : { firstName: typed.slice(0, at).trim(), lastName: typed.slice(at + 1), email: "" };
}

function CreateDonorForm({
  typed,
  onBack,
  onCreated,
}: {
  typed: string;
  onBack: () => void;
  onCreated: (d: DonorChoice) => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const initial = React.useMemo(() => fromTyped(typed.trim()), [typed]);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [existing, setExisting] = React.useState<string | null>(null);
  const create = useMutation(
    trpc.donors.create.mutationOptions({
      onError: (e) => {
        const info = errorInfo(e);
        setErrors(Object.keys(info.fields).length ? info.fields : { _: info.message });
      },
    }),
  );
  const [choosing, setChoosing] = React.useState(false);
  // The search input that had the focus is gone: the form's first field takes it.
  const first = React.useRef<HTMLInputElement>(null);
  React.useEffect(() => first.current?.focus(), []);

  async function chooseExisting(id: string) {
    setChoosing(true);
    try {
      const d = await qc.fetchQuery(trpc.donors.byId.queryOptions({ id }));
      onCreated({ id: d.id, name: d.name, email: d.email });
    } catch (e) {
      setErrors({ _: errorInfo(e).message });
    } finally {
      setChoosing(false);
    }
  }

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // The popover is portalled out of the gift's form, but React still bubbles its submit there.
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    const s = (k: string) => String(f.get(k) ?? "").trim() || null;
    const value: DonorFormInput = {
      type: "individual",
      firstName: s("firstName"),
      lastName: s("lastName"),
      email: s("email"),
    };
    // The donor form's schema, as donors.create applies it: the same refusals, before sending.
    const parsed = donorInput.safeParse(value);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      return;
    }
    setErrors({});
    setExisting(null);
    create.mutate(
      { data: value as never },
      {
        onSuccess: async (res) => {
          if (!res.created) {
            setExisting(res.duplicate.id);
            return;
          }
          const d = parsed.data;
          const name = [d.firstName, d.lastName].filter(Boolean).join(" ");
          toast.success(`Donor ${name} created`);
          await qc.invalidateQueries({ queryKey: trpc.donors.pathKey() });
          onCreated({ id: res.id, name, email: d.email || null });
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-3 p-3" aria-label="New donor">
      <p className="font-medium text-sm">New donor</p>
      <Field label="First name" error={errors.firstName}>
        <Input ref={first} name="firstName" defaultValue={initial.firstName} autoComplete="off" />
      </Field>
      <Field label="Last name" error={errors.lastName}>
        <Input name="lastName" defaultValue={initial.lastName} autoComplete="off" />
      </Field>
      <Field label="E-mail" error={errors.email}>
        <Input name="email" type="email" defaultValue={initial.email} autoComplete="off" />
      </Field>
      {existing ? (
        <div role="alert" className="grid gap-2 text-sm">
          <p>A donor with this e-mail already exists.</p>
          <Button
            size="sm"
            variant="outline"
            disabled={choosing}
            onClick={() => void chooseExisting(existing)}
          >
            Choose the existing donor
          </Button>
        </div>
      ) : null}
      {errors._ ? (
        <p role="alert" className="text-destructive text-sm">
          {errors._}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={onBack}>
          Back to search
        </Button>
        <Button size="sm" type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create and choose"}
        </Button>
      </div>
    </form>
  );
}
