/** Tier and tag chips: the colour is a dot, so any colour stays readable on both themes. */
import { Badge } from "~/components/ui/badge";

export function TierBadge({ tier }: { tier: { name: string; color: string } | null }) {
  if (!tier) return <span className="text-muted-foreground">—</span>;
  return (
    <Badge variant="outline" style={{ borderColor: tier.color }}>
      <span className="size-2 rounded-full" style={{ background: tier.color }} aria-hidden />
      {tier.name}
    </Badge>
  );
}

export function TagChip({
  tag,
  children,
}: {
  tag: { name: string; color: string };
  children?: React.ReactNode;
}) {
  return (
    <Badge variant="secondary">
      <span className="size-2 rounded-full" style={{ background: tag.color }} aria-hidden />
      {tag.name}
      {children}
    </Badge>
  );
}
