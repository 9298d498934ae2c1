/**
 * The reports' charts (issue 27), on visx like every chart of the portal (docs/decisions/012): the
 * year bars are the dashboard's SeriesChart; the lines (retention and recapture rates, campaigns'
 * cumulative amounts) are drawn here with the same visx packages, so this module adds little to the
 * visx chunk the dashboard already loads; the giving pyramid is centred HTML bars (text beside
 * each, wrapping on a phone). The reports import this module lazily: a report's table shows
 * before its chart. Each chart is one image to assistive technology, with a label; the table
 * beside it holds every figure.
 */

import { type ChartAlign, cumulativeSeries, type DayPoint } from "@core/reports";
import { localPoint } from "@visx/event";
import { useParentSize } from "@visx/responsive";
import { scaleLinear, scalePoint } from "@visx/scale";
import { LinePath } from "@visx/shape";
import type { PointerEvent } from "react";
import { periodLabel } from "~/features/charts/revenue-chart";
import {
  ChartAxes,
  ChartFrame,
  ChartTip,
  GuideLine,
  HoverArea,
  PointDot,
  SeriesChart,
  thinnedTicks,
  usePointTip,
} from "~/features/charts/series-chart";
import { exponentOf, formatCount, formatMoney } from "~/lib/format";

/** Four series that read on white and on the dark theme's background alike. */
const SERIES_COLORS = ["#0d9488", "#d97706", "#7c3aed", "#e11d48"] as const;

const MARGIN = { top: 8, right: 12, bottom: 28, left: 72 };

/** Raised per year as bars (the dashboard's chart, year labels as the report names them). */
export function YearBars({
  rows,
  currency,
  yStep,
}: {
  rows: { label: string; value: number }[];
  currency: string;
  yStep: number;
}) {
  return (
    <SeriesChart
      kind="bar"
      data={rows.map((r) => ({ key: r.label, value: r.value }))}
      color={SERIES_COLORS[0]}
      label={`Raised per year, ${rows.length} years, in ${currency}`}
      xTick={(k) => k}
      xLong={(k) => k}
      yTick={(v) => formatMoney(v, currency).replace(/\.\d+$/, "")}
      yLong={(v) => formatMoney(v, currency)}
      valueName="Raised"
      yStep={yStep}
      minTickGap={12}
    />
  );
}

interface LineSeries {
  name: string;
  color: string;
  /** Values by x key; a key the series lacks is a gap (a campaign that ran fewer days). */
  points: { key: string; value: number | null }[];
}

/**
 * Several lines over shared x keys (`keys`, in order), a legend above, and a tooltip listing every
 * series at the point hovered, tapped or dragged to.
 */
export function LinesChart(props: {
  label: string;
  keys: string[];
  series: LineSeries[];
  xTick: (key: string) => string;
  xLong: (key: string) => string;
  yTick: (value: number) => string;
  yLong: (value: number) => string;
  /** Y ticks are multiples of this. */
  yStep: number;
  /** The y axis's top at least this (1 for rates: 100 %). */
  yMin?: number;
}) {
  const { parentRef, width, height } = useParentSize({ debounceTime: 50 });
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-hidden="true">
        {props.series.map((s) => (
          <li key={s.name} className="flex min-w-0 items-center gap-1.5">
            <span className="inline-block h-0.5 w-4 shrink-0 rounded" style={{ background: s.color }} />
            <span className="truncate">{s.name}</span>
          </li>
        ))}
      </ul>
      <div ref={parentRef} className="relative h-64 w-full" role="img" aria-label={props.label}>
        {width > 0 && height > 0 ? <Lines {...props} width={width} height={height} /> : null}
      </div>
    </div>
  );
}

function Lines({
  keys,
  series,
  xTick,
  xLong,
  yTick,
  yLong,
  yStep,
  yMin = 0,
  width,
  height,
}: Parameters<typeof LinesChart>[0] & { width: number; height: number }) {
  const { active, at, tip, show, hide } = usePointTip(width, height);
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = Math.max(0, height - MARGIN.top - MARGIN.bottom);
  const x = scalePoint({ domain: keys, range: [0, innerWidth] });
  const byKey = series.map((s) => new Map(s.points.map((p) => [p.key, p.value])));
  const values = series.flatMap((s) => s.points.flatMap((p) => (p.value === null ? [] : [p.value])));
  const hi = Math.max(yMin, yStep, ...values);
  const y = scaleLinear({ domain: [0, hi], range: [innerHeight, 0], nice: 5 });
  const yTicks = y.ticks(5).filter((v) => Math.abs(v / yStep - Math.round(v / yStep)) < 1e-9);
  const xTicks = thinnedTicks(keys, xTick, x.step(), 16);

  function track(e: PointerEvent<SVGRectElement>) {
    const p = localPoint(e);
    if (!p || !keys.length) return;
    const px = p.x - MARGIN.left;
    const i = Math.max(0, Math.min(keys.length - 1, Math.round(px / Math.max(1, x.step()))));
    const top = Math.max(...byKey.map((m) => m.get(keys[i] as string) ?? 0));
    show(i, MARGIN.left + (x(keys[i] as string) ?? 0), MARGIN.top + y(top));
  }
  return (
    <>
      <ChartFrame width={width} height={height} margin={MARGIN}>
        <ChartAxes
          x={x}
          y={y}
          xTicks={xTicks}
          yTicks={yTicks}
          xTick={xTick}
          yTick={yTick}
          innerWidth={innerWidth}
          innerHeight={innerHeight}
          margin={MARGIN}
          endsInside={false}
        />
        {active !== null ? <GuideLine x={x(keys[active] as string) ?? 0} height={innerHeight} /> : null}
        {series.map((s) => (
          <LinePath
            key={s.name}
            data={s.points.filter((p) => p.value !== null && x(p.key) !== undefined)}
            x={(p) => x(p.key) ?? 0}
            y={(p) => y(p.value ?? 0)}
            stroke={s.color}
            strokeWidth={2}
            fill="none"
          />
        ))}
        {active !== null
          ? series.map((s, i) => {
              const v = byKey[i]?.get(keys[active] as string);
              return v === null || v === undefined ? null : (
                <PointDot key={s.name} cx={x(keys[active] as string) ?? 0} cy={y(v)} color={s.color} />
              );
            })
          : null}
        <HoverArea width={innerWidth} height={innerHeight} onTrack={track} onLeave={hide} />
      </ChartFrame>
      {active !== null ? (
        <ChartTip tip={tip} at={at}>
          <p className="text-foreground">{xLong(keys[active] as string)}</p>
          {series.map((s, i) => {
            const v = byKey[i]?.get(keys[active] as string);
            return v === null || v === undefined ? null : (
              <p key={s.name} className="flex items-center gap-1.5">
                <span className="inline-block size-2 rounded-full" style={{ background: s.color }} />
                {s.name}: {yLong(v)}
              </p>
            );
          })}
        </ChartTip>
      ) : null}
    </>
  );
}

/**
 * The giving pyramid: one centred bar per tier, highest tier on top, its width the tier's donors
 * (so the shape is the pyramid fundraisers draw), with the donors and the amount written beside it.
 */
export function PyramidChart({
  rows,
  currency,
  label,
}: {
  rows: { name: string; color: string; donors: number; amountMinor: number }[];
  currency: string;
  label: string;
}) {
  const most = Math.max(1, ...rows.map((r) => r.donors));
  return (
    <div role="img" aria-label={label} className="flex flex-col gap-1.5">
      {rows.map((r) => (
        <div
          key={r.name}
          className="grid grid-cols-[minmax(0,6rem)_1fr] items-center gap-2 text-sm sm:grid-cols-[10rem_1fr]"
        >
          <span className="truncate text-right text-muted-foreground">{r.name}</span>
          <div className="flex flex-col items-center gap-0.5">
            {r.donors ? (
              <div
                className="h-6 rounded-sm"
                style={{ width: `${Math.max(2, (r.donors / most) * 100)}%`, background: r.color }}
              />
            ) : null}
            <span className="text-center text-xs tabular-nums">
              {formatCount(r.donors)} donor{r.donors === 1 ? "" : "s"} ·{" "}
              {formatMoney(r.amountMinor, currency)}
            </span>
          </div>
        </div>
      ))}
    </div>
  );
}

/** Past this many days a line keeps every k-th day (and the last): a decade of days is no wider a path. */
const MAX_POINTS = 400;

/**
 * The campaigns' cumulative raised amounts (core/reports.ts `cumulativeSeries`): by days since each
 * started, or day by day over the period, one line per campaign.
 */
export function CumulativeChart({
  campaigns,
  align,
  from,
  to,
  currency,
}: {
  campaigns: { id: string; title: string; day0: string | null; days: DayPoint[] }[];
  align: ChartAlign;
  from: string;
  to: string;
  currency: string;
}) {
  const lines = campaigns.map((c, i) => {
    const end = c.days.length ? (c.days[c.days.length - 1] as DayPoint).day : (c.day0 ?? from);
    return {
      name: c.title,
      color: SERIES_COLORS[i % SERIES_COLORS.length] as string,
      points:
        c.day0 || align === "calendar"
          ? cumulativeSeries(c.days, align, { day0: c.day0 ?? from, end, from, to })
          : [],
    };
  });
  const longest = lines.reduce(
    (a, l) => (l.points.length > a.length ? l.points : a),
    [] as { key: string }[],
  );
  const every = Math.ceil(longest.length / MAX_POINTS);
  const keep = (i: number, n: number) => i % every === 0 || i === n - 1;
  const keys = longest.map((p) => p.key).filter((_, i) => keep(i, longest.length));
  const kept = new Set(keys);
  const long = align === "calendar" && longest.length > 366;
  return (
    <LinesChart
      label={`Raised so far by ${align === "start" ? "days since each campaign started" : "day"}, ${lines.length} campaigns, in ${currency}`}
      keys={keys}
      series={lines.map((l) => ({
        ...l,
        points: l.points
          .filter((p, i) => kept.has(p.key) || i === l.points.length - 1)
          .map((p) => ({ key: p.key, value: p.value })),
      }))}
      xTick={(k) =>
        align === "start" ? `Day ${k}` : long ? periodLabel(k.slice(0, 7), "month") : periodLabel(k, "day")
      }
      xLong={(k) => (align === "start" ? `Day ${k}` : periodLabel(k, "day", true))}
      yTick={(v) => formatMoney(v, currency).replace(/\.\d+$/, "")}
      yLong={(v) => formatMoney(v, currency)}
      yStep={10 ** exponentOf(currency)}
    />
  );
}
