/**
 * What the dashboard and a campaign's analytics say about their estimates: both answer a large
 * organization or campaign from rollups, some figures as estimates marked ≈ (decisions 032, 037).
 */
import { CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatPercent } from "~/lib/format";

export const approx = (on: boolean | undefined, text: string) => (on ? `≈ ${text}` : text);

/** How close the estimates are, with the switch to figures counted from every donation and back. */
export function EstimateNote({
  estimating,
  exact,
  onExactChange,
  errorBounds,
}: {
  estimating: boolean;
  exact: boolean;
  onExactChange: (exact: boolean) => void;
  /** Undefined while the figures load: nothing to say yet. */
  errorBounds: { median: number; donors: number } | undefined;
}) {
  if (!errorBounds || (!estimating && !exact)) return null;
  return (
    <p className="text-muted-foreground text-sm">
      {exact
        ? "Exact figures, counted from every donation. "
        : `≈ marks an estimate: the median within ${formatPercent(errorBounds.median, 1)}, donor counts within ${formatPercent(errorBounds.donors, 1)} for 95% of answers. `}
      <button
        type="button"
        className="text-foreground underline underline-offset-4"
        onClick={() => onExactChange(!exact)}
      >
        {exact ? "Show fast figures" : "Show exact figures"}
      </button>
    </p>
  );
}

/** The Top donors card's header; estimated, the list comes from each month's largest givers. */
export function TopDonorsHeader({ estimated }: { estimated: boolean | undefined }) {
  return (
    <CardHeader>
      <CardTitle>{approx(estimated, "Top donors")}</CardTitle>
      {estimated ? (
        <CardDescription>
          From each month's largest givers: one who gave a little every month may be missing.
        </CardDescription>
      ) : null}
    </CardHeader>
  );
}
