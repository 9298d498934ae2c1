import { formatPercent } from "~/lib/format";

/**
 * The change against the year before as people read it (issue 53, L2): "+23.8%", "-40.0%"; from
 * ten times the year before on, a multiple ("5,207×"), as "+520,650.0%" reads as noise.
 */
export function changeWords(change: number | null): { text: string; title: string } | null {
  if (change === null || !Number.isFinite(change)) return null;
  if (change >= 9) {
    const times = (1 + change).toLocaleString("en-US", { maximumFractionDigits: change >= 99 ? 0 : 1 });
    return { text: `${times}×`, title: `${times} times the year before` };
  }
  const pct = `${change >= 0 ? "+" : "-"}${formatPercent(Math.abs(change), 1)}`;
  return { text: pct, title: `${pct} against the year before` };
}
