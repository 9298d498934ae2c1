/**
 * A list narrowed by a link to one thing it has no control for (an import, a donor): the thing
 * named in a chip that removes the filter. ~/features/imports/import-chip.tsx and
 * ~/features/donors/donor-chip.tsx name theirs.
 */
import { X } from "lucide-react";
import type * as React from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";

export function FilterChip({
  label,
  onRemove,
  children,
  "data-testid": testId,
}: {
  label: string;
  onRemove: () => void;
  /** Said after the chip ("This import was undone."). */
  children?: React.ReactNode;
  "data-testid"?: string;
}) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <Badge variant="secondary" className="h-7 max-w-full gap-1 pr-0.5">
        <span className="truncate" data-testid={testId}>
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
          <X className="size-3.5" aria-hidden />
        </Button>
      </Badge>
      {children}
    </p>
  );
}
