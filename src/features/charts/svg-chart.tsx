/**
 * A small responsive SVG chart (area or bars) for one series of values over ordered buckets, with
 * a y axis, a dashed grid, thinned x labels and a tooltip (pointer, touch or arrow keys).
 *
 * Hand-rolled instead of recharts: the two charts we draw needed recharts plus d3, redux, immer
 * and decimal.js, about 95 KB gzip on the dashboard and campaign analytics pages.
 */
import * as React from "react";

// SVG presentation attributes cannot read CSS variables; the brand teal is fixed here.
const COLOR = "#0f766e";
const HEIGHT = 256;
const TOP = 12;
const RIGHT = 8;
const BOTTOM = 24;
/** Rough width of one 12 px character, to keep x labels from overlapping. */
const CHAR = 7;

export type ChartPoint = { key: string; value: number };

/** Round steps (1, 2, 2.5, 5 × 10^n) covering [min, max] in about `count` intervals. */
export function niceTicks(min: number, max: number, count = 4): number[] {
  if (min === max) {
    if (max === 0) return [0, 1];
    [min, max] = max > 0 ? [0, max] : [min, 0];
  }
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((s) => s * mag >= raw) ?? 10) * mag;
  const ticks: number[] = [];
  for (let t = Math.floor(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(t);
  if ((ticks.at(-1) ?? 0) < max) ticks.push((ticks.at(-1) ?? 0) + step);
  // Drop float noise (0.30000000000000004) without rounding a half step away.
  return ticks.map((t) => Number(t.toPrecision(12)));
}

/** A monotone cubic through the points (d3's curveMonotoneX: no overshoot between buckets). */
export function monotonePath(xs: number[], ys: number[]): string {
  const n = xs.length;
  if (n === 0) return "";
  if (n === 1) return `M${xs[0]},${ys[0]}`;
  const x = (i: number) => xs[i] as number;
  const y = (i: number) => ys[i] as number;
  const d: number[] = [];
  for (let i = 0; i < n - 1; i++) d.push((y(i + 1) - y(i)) / (x(i + 1) - x(i)));
  const t: number[] = [d[0] as number];
  for (let i = 1; i < n - 1; i++) {
    const a = d[i - 1] as number;
    const b = d[i] as number;
    t.push(
      a * b <= 0
        ? 0
        : (3 * (x(i + 1) - x(i - 1))) /
            ((2 * x(i + 1) - x(i) - x(i - 1)) / a + (x(i + 1) + x(i) - 2 * x(i - 1)) / b),
    );
  }
  t.push(d[n - 2] as number);
  let p = `M${x(0)},${y(0)}`;
  for (let i = 0; i < n - 1; i++) {
    const h = (x(i + 1) - x(i)) / 3;
    p += `C${x(i) + h},${y(i) + h * (t[i] as number)},${x(i + 1) - h},${y(i + 1) - h * (t[i + 1] as number)},${x(i + 1)},${y(i + 1)}`;
  }
  return p;
}

/** The element's content width, following resizes (0 until mounted: nothing is drawn on the server). */
function useWidth<T extends HTMLElement>() {
  const ref = React.useRef<T>(null);
  const [width, setWidth] = React.useState(0);
  React.useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width] as const;
}

export function SvgChart({
  kind,
  points,
  label,
  tickLabel,
  tooltipLabel = tickLabel,
  formatValue,
  formatTick = formatValue,
  name = "Raised",
  minTickGap = 24,
}: {
  kind: "area" | "bar";
  points: ChartPoint[];
  /** The accessible name of the chart (role="img"). */
  label: string;
  tickLabel: (key: string) => string;
  tooltipLabel?: (key: string) => string;
  formatValue: (value: number) => string;
  formatTick?: (value: number) => string;
  name?: string;
  minTickGap?: number;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [active, setActive] = React.useState<number | null>(null);
  const gradient = React.useId();
  const n = points.length;
  const values = points.map((p) => p.value);
  const ticks = niceTicks(Math.min(0, ...values), Math.max(0, ...values));
  // The y axis is as wide as its longest label.
  const M = {
    top: TOP,
    right: RIGHT,
    bottom: BOTTOM,
    left: 12 + CHAR * Math.max(...ticks.map((t) => formatTick(t).length)),
  };
  const plotW = Math.max(0, width - M.left - M.right);
  const plotH = HEIGHT - M.top - M.bottom;
  const lo = ticks[0] ?? 0;
  const hi = ticks.at(-1) ?? 1;
  const yOf = (v: number) => M.top + plotH - ((v - lo) / (hi - lo || 1)) * plotH;
  const band = n ? plotW / n : 0;
  // Areas span the plot edge to edge; bars sit in the middle of their band.
  const xOf = (i: number) =>
    M.left + (kind === "bar" ? band * (i + 0.5) : n > 1 ? (i / (n - 1)) * plotW : plotW / 2);
  const longest = Math.max(0, ...points.map((p) => tickLabel(p.key).length));
  const every = Math.max(
    1,
    Math.ceil(
      (longest * CHAR + minTickGap) / Math.max(1, kind === "bar" ? band : plotW / Math.max(1, n - 1)),
    ),
  );

  const pick = (clientX: number) => {
    const box = ref.current?.getBoundingClientRect();
    if (!box || !n) return;
    const x = clientX - box.left - M.left;
    const i = kind === "bar" ? Math.floor(x / (band || 1)) : Math.round((x / (plotW || 1)) * (n - 1));
    setActive(Math.min(n - 1, Math.max(0, i)));
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!n) return;
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -n, End: n }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    setActive((a) => Math.min(n - 1, Math.max(0, (a ?? (step > 0 ? -1 : n)) + step)));
  };

  const zero = yOf(Math.max(lo, Math.min(0, hi)));
  const xs = points.map((_, i) => xOf(i));
  const ys = values.map(yOf);
  const line = kind === "area" ? monotonePath(xs, ys) : "";
  const current = active === null ? undefined : points[active];

  return (
    <div
      ref={ref}
      className="relative h-64 w-full touch-pan-y select-none outline-none focus-visible:ring-2 focus-visible:ring-ring"
      role="img"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the arrow keys walk the tooltip through the buckets.
      tabIndex={0}
      onPointerMove={(e) => pick(e.clientX)}
      onPointerDown={(e) => pick(e.clientX)}
      onPointerLeave={() => setActive(null)}
      onKeyDown={onKeyDown}
      onBlur={() => setActive(null)}
    >
      {width > 0 ? (
        <svg
          width={width}
          height={HEIGHT}
          className="block overflow-visible text-muted-foreground text-xs"
          aria-hidden
        >
          <defs>
            <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
              <stop offset="5%" stopColor={COLOR} stopOpacity={0.35} />
              <stop offset="95%" stopColor={COLOR} stopOpacity={0} />
            </linearGradient>
          </defs>
          {ticks.map((t) => (
            <g key={t}>
              <line
                x1={M.left}
                x2={M.left + plotW}
                y1={yOf(t)}
                y2={yOf(t)}
                className="stroke-border"
                strokeDasharray="3 3"
              />
              <text x={M.left - 8} y={yOf(t)} dy="0.32em" textAnchor="end" fill="currentColor">
                {formatTick(t)}
              </text>
            </g>
          ))}
          {points.map((p, i) =>
            i % every === 0 ? (
              <text
                key={p.key}
                x={xOf(i)}
                y={HEIGHT - 6}
                textAnchor={
                  kind === "area" && n > 1 ? (i === 0 ? "start" : i === n - 1 ? "end" : "middle") : "middle"
                }
                fill="currentColor"
              >
                {tickLabel(p.key)}
              </text>
            ) : null,
          )}
          {kind === "bar" && active !== null ? (
            <rect x={M.left + band * active} y={M.top} width={band} height={plotH} className="fill-muted" />
          ) : null}
          {kind === "area" ? (
            <>
              <path d={`${line}L${xs.at(-1)},${zero}L${xs[0]},${zero}Z`} fill={`url(#${gradient})`} />
              <path d={line} fill="none" stroke={COLOR} strokeWidth={2} />
              {active !== null ? (
                <>
                  <line x1={xs[active]} x2={xs[active]} y1={M.top} y2={M.top + plotH} stroke="#94a3b8" />
                  <circle cx={xs[active]} cy={ys[active]} r={4} fill={COLOR} stroke="white" strokeWidth={2} />
                </>
              ) : null}
            </>
          ) : (
            points.map((p, i) => {
              const w = Math.max(1, Math.min(band * 0.8, 48));
              const y = Math.min(ys[i] as number, zero);
              const h = Math.abs((ys[i] as number) - zero);
              const r = Math.min(3, w / 2, h);
              const x = xOf(i) - w / 2;
              // Rounded top corners only (bottom corners for a negative bar are square too).
              return h > 0 ? (
                <path
                  key={p.key}
                  fill={COLOR}
                  d={`M${x},${y + h}V${y + r}Q${x},${y} ${x + r},${y}H${x + w - r}Q${x + w},${y} ${x + w},${y + r}V${y + h}Z`}
                />
              ) : null;
            })
          )}
        </svg>
      ) : null}
      {current && active !== null ? (
        <div
          className="pointer-events-none absolute top-2 z-10 rounded-md border bg-popover px-3 py-2 text-popover-foreground text-sm shadow-md"
          style={
            xOf(active) > width / 2
              ? { right: Math.max(0, width - xOf(active) + 12) }
              : { left: Math.min(xOf(active) + 12, Math.max(0, width - 160)) }
          }
        >
          <div className="text-foreground">{tooltipLabel(current.key)}</div>
          <div className="whitespace-nowrap" style={{ color: COLOR }}>
            {name} : {formatValue(current.value)}
          </div>
        </div>
      ) : null}
    </div>
  );
}
