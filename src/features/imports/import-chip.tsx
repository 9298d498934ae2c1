/**
 * A list narrowed to one import (/donations?importId=…, /donors?importId=…): the import's file name
 * when the user may see imports (owners and admins), else "an import"; removable.
 */
import { useQuery } from "@tanstack/react-query";
import { FilterChip } from "~/components/filter-chip";
import { useCan } from "~/lib/auth/can";
import { useTRPC } from "~/lib/trpc";

const WORDS = {
  gifts: { named: "From import", unnamed: "From an import" },
  donors: { named: "Created by import", unnamed: "Created by an import" },
} as const;

export function ImportChip({
  importId,
  what,
  onRemove,
}: {
  importId: string;
  /** The import's gifts (/donations) or the donors it created (/donors). */
  what: keyof typeof WORDS;
  onRemove: () => void;
}) {
  const trpc = useTRPC();
  const can = useCan();
  const imp = useQuery({
    ...trpc.imports.byId.queryOptions({ id: importId }),
    enabled: can({ import: ["view"] }),
    retry: false,
  });
  const label = imp.data ? `${WORDS[what].named} ${imp.data.fileName}` : WORDS[what].unnamed;
  return (
    <FilterChip label={label} onRemove={onRemove} data-testid="import-chip">
      {imp.data?.status === "rolled_back" ? (
        <span className="text-muted-foreground">This import was undone.</span>
      ) : null}
    </FilterChip>
  );
}
