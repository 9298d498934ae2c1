/**
 * A list narrowed to one import (/donations?importId=…, /donors?importId=…): the import's file name
 * when the user may see imports (owners and admins), else "an import"; removable.
 */
import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
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
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <Badge variant="secondary" className="h-7 max-w-full gap-1 pr-0.5">
        <span className="truncate" data-testid="import-chip">
          {label}
        </span>
        <Button
          type="button"
          variant="ghost"
          size="icon-sm"
          className="size-6"
          onClick={onRemove}
          aria-label={`Remove filter: ${label}`}
        >
          <X className="size-3.5" />
        </Button>
      </Badge>
      {imp.data?.status === "rolled_back" ? (
        <span className="text-muted-foreground">This import was undone.</span>
      ) : null}
    </p>
  );
}
