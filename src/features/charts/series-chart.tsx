import { AxisBottom, AxisLeft, type TickRendererProps } from "@visx/axis";
import { curveMonotoneX } from "@visx/curve";
import { localPoint } from "@visx/event";
import { LinearGradient } from "@visx/gradient";
import { GridRows } from "@visx/grid";
import { Group } from "@visx/group";
import { useParentSize } from "@visx/responsive";
import { scaleBand, scaleLinear, scalePoint } from "@visx/scale";
import { Area, BarRounded, Line, LinePath } from "@visx/shape";
import { Tooltip, useTooltip } from "@visx/tooltip";
import {
  type PointerEvent,
  type ReactNode,
  type RefObject,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";

interface SeriesPoint {
  key: string;
  value: number;
}

interface SeriesChartProps {
  /** `area`: a monotone line over a gradient; `bar`: one bar per point, rounded away from zero. */
  kind: "area" | "bar";
  data: SeriesPoint[];
  color: string;
  /** The wrapper's accessible name (the chart itself is one image to assistive technology). */
  label: string;
  xTick: (key: string) => string;
  /** Tooltip heading of a point ("14 Mar 2026"). */
  xLong: (key: string) => string;
  yTick: (value: number) => string;
  /** Tooltip value ("$1,234.00"). */
  yLong: (value: number) => string;
  /** Name of the value in the tooltip. */
  valueName: string;
  /** Y ticks are multiples of this (one major currency unit), so no two read the same. */
  yStep: number;
  /** Least free space between two x labels, in px; labels are skipped from the start to keep it. */
  minTickGap: number;
}

const FONT_SIZE = 12;
// Mean advance of the axes' characters at 12 px (digits and short month names), a little generous.
const CHAR_WIDTH = 7;
// Left: room for the money ticks (as recharts' 64 px YAxis plus its 8 px margin).
const MARGIN = { top: 8, right: 8, bottom: 28, left: 72 };
const TOOLTIP_GAP = 12;

/**
 * Where the tooltip's box goes for a point at (x, y) in a chart of width × height: beside the
 * point (right, else left), below it unless that overflows; on a chart too narrow for either
 * side, centred above (or below) the point, always inside the chart's box.
 */
export function tooltipPlacement(x: number, y: number, w: number, h: number, width: number, height: number) {
  let left = x + TOOLTIP_GAP;
  let top = y + TOOLTIP_GAP;
  if (left + w > width) left = x - TOOLTIP_GAP - w;
  if (left < 0) {
    left = Math.max(0, Math.min(x - w / 2, width - w));
    top = y - TOOLTIP_GAP - h >= 0 ? y - TOOLTIP_GAP - h : y + TOOLTIP_GAP;
  } else if (top + h > height) top = Math.max(0, y - TOOLTIP_GAP - h);
  return { left, top };
}

/**
 * A time series as an area or bar chart (visx), sized to its box. Until the box is measured (and
 * on the server) it renders only the box, so the page keeps its height and hydrates cleanly.
 */
export function SeriesChart(props: SeriesChartProps) {
  const { parentRef, width, height } = useParentSize({ debounceTime: 50 });
  return (
    <div ref={parentRef} className="relative h-64 w-full" role="img" aria-label={props.label}>
      {width > 0 && height > 0 ? <Plot {...props} width={width} height={height} /> : null}
    </div>
  );
}

function Plot({
  kind,
  data,
  color,
  xTick,
  xLong,
  yTick,
  yLong,
  valueName,
  yStep,
  minTickGap,
  width,
  height,
}: SeriesChartProps & { width: number; height: number }) {
  const gradientId = `series-fill-${useId().replace(/[^\w-]/g, "")}`;
  const { active, at, tip, show, hide } = usePointTip(width, height);

  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = Math.max(0, height - MARGIN.top - MARGIN.bottom);
  const keys = data.map((p) => p.key);
  const values = data.map((p) => p.value);

  // Areas put points on the edges (recharts' point scale); bars get bands with 10% gaps each side.
  const x =
    kind === "area"
      ? scalePoint({ domain: keys, range: [0, innerWidth] })
      : scaleBand({ domain: keys, range: [0, innerWidth], paddingInner: 0.2, paddingOuter: 0.1 });
  const bandwidth = x.bandwidth();
  const centre = (i: number) => (x(keys[i] as string) ?? 0) + bandwidth / 2;

  const lo = Math.min(0, ...values);
  const hi = Math.max(lo + yStep, 0, ...values);
  const y = scaleLinear({ domain: [lo, hi], range: [innerHeight, 0], nice: 5 });
  const yTicks = y.ticks(5).filter((v) => v % yStep === 0);
  const y0 = y(0);

  const xTicks = thinnedTicks(keys, xTick, x.step(), minTickGap);

  function track(e: PointerEvent<SVGRectElement>) {
    const p = localPoint(e);
    if (!p || !keys.length) return;
    const px = p.x - MARGIN.left;
    let best = 0;
    for (let i = 1; i < keys.length; i++)
      if (Math.abs(centre(i) - px) < Math.abs(centre(best) - px)) best = i;
    show(best, MARGIN.left + centre(best), MARGIN.top + y(values[best] ?? 0));
  }

  const activeValue = active === null ? 0 : (values[active] ?? 0);

  return (
    <>
      <ChartFrame
        width={width}
        height={height}
        margin={MARGIN}
        defs={
          kind === "area" ? (
            <LinearGradient
              id={gradientId}
              from={color}
              to={color}
              fromOffset="5%"
              toOffset="95%"
              fromOpacity={0.35}
              toOpacity={0}
            />
          ) : null
        }
      >
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
          endsInside
        />
        {active !== null && kind === "bar" ? (
          <rect
            x={(x(keys[active] as string) ?? 0) - (x.step() - bandwidth) / 2}
            width={x.step()}
            height={innerHeight}
            className="fill-muted"
          />
        ) : null}
        {active !== null && kind === "area" ? <GuideLine x={centre(active)} height={innerHeight} /> : null}
        {kind === "area" ? (
          <>
            <Area
              data={values}
              x={(_, i) => centre(i)}
              y0={y0}
              y1={(v) => y(v)}
              curve={curveMonotoneX}
              fill={`url(#${gradientId})`}
            />
            <LinePath
              data={values}
              x={(_, i) => centre(i)}
              y={(v) => y(v)}
              curve={curveMonotoneX}
              stroke={color}
              strokeWidth={2}
              fill="none"
            />
          </>
        ) : (
          values.map((v, i) =>
            v === 0 ? null : (
              <BarRounded
                key={keys[i]}
                x={x(keys[i] as string) ?? 0}
                y={Math.min(y(v), y0)}
                width={bandwidth}
                height={Math.abs(y0 - y(v))}
                radius={Math.min(3, bandwidth / 2)}
                top={v > 0}
                bottom={v < 0}
                fill={color}
              />
            ),
          )
        )}
        {active !== null && kind === "area" ? (
          <PointDot cx={centre(active)} cy={y(activeValue)} color={color} />
        ) : null}
        <HoverArea width={innerWidth} height={innerHeight} onTrack={track} onLeave={hide} />
      </ChartFrame>
      {active !== null ? (
        <ChartTip tip={tip} at={at}>
          <p className="text-foreground">{xLong(keys[active] as string)}</p>
          <p style={{ color }}>
            {valueName} : {yLong(activeValue)}
          </p>
        </ChartTip>
      ) : null}
    </>
  );
}

/**
 * The tooltip of a chart of width × height: `show(i, x, y)` reads point i at (x, y), `active` is
 * the point read (null for none), `at` where its box goes, `tip` the box's ref (ChartTip).
 */
export function usePointTip(width: number, height: number) {
  const { tooltipOpen, tooltipData, tooltipLeft, tooltipTop, showTooltip, hideTooltip } =
    useTooltip<number>();
  const { tip, tipSize } = useTipSize();
  return {
    active: tooltipOpen && tooltipData !== undefined ? tooltipData : null,
    at: tooltipPlacement(tooltipLeft ?? 0, tooltipTop ?? 0, tipSize.w, tipSize.h, width, height),
    tip,
    show: (i: number, x: number, y: number) => showTooltip({ tooltipData: i, tooltipLeft: x, tooltipTop: y }),
    hide: hideTooltip,
  };
}

/** The chart's SVG (one image: the wrapper carries its label) and the plot's group inside the margin. */
export function ChartFrame({
  width,
  height,
  margin,
  defs,
  children,
}: {
  width: number;
  height: number;
  margin: { left: number; top: number };
  /** Gradients and the like, before the plot. */
  defs?: ReactNode;
  children: ReactNode;
}) {
  return (
    <svg
      aria-hidden="true"
      width={width}
      height={height}
      className="block overflow-visible text-muted-foreground"
    >
      {defs}
      <Group left={margin.left} top={margin.top}>
        {children}
      </Group>
    </svg>
  );
}

/** The tooltip box's size, measured before paint, so tooltipPlacement keeps it inside the chart. */
function useTipSize() {
  const tip = useRef<HTMLDivElement>(null);
  const [tipSize, setTipSize] = useState({ w: 0, h: 0 });
  useLayoutEffect(() => {
    const el = tip.current;
    if (el && (el.offsetWidth !== tipSize.w || el.offsetHeight !== tipSize.h))
      setTipSize({ w: el.offsetWidth, h: el.offsetHeight });
  });
  return { tip, tipSize };
}

/**
 * The x keys to label: every k-th, counted back from the last one (recharts' "preserveEnd"), so
 * labels `gap` px apart fit in steps of `step` px.
 */
export function thinnedTicks(keys: string[], xTick: (key: string) => string, step: number, gap: number) {
  const labelWidth = Math.max(0, ...keys.map((k) => xTick(k).length)) * CHAR_WIDTH;
  const every = Math.max(1, Math.ceil((labelWidth + gap) / Math.max(1, step)));
  return keys.filter((_, i) => (keys.length - 1 - i) % every === 0);
}

/** The grid and both axes of a portal chart (the dashboard's and the reports'). */
export function ChartAxes({
  x,
  y,
  xTicks,
  yTicks,
  xTick,
  yTick,
  innerWidth,
  innerHeight,
  margin,
  endsInside,
}: {
  x: ReturnType<typeof scaleBand<string>> | ReturnType<typeof scalePoint<string>>;
  y: ReturnType<typeof scaleLinear<number>>;
  xTicks: string[];
  yTicks: number[];
  xTick: (key: string) => string;
  yTick: (value: number) => string;
  innerWidth: number;
  innerHeight: number;
  margin: { left: number; right: number };
  /** End labels shifted into the SVG (the dashboard's), else centred on their point. */
  endsInside: boolean;
}) {
  return (
    <>
      <GridRows
        scale={y}
        width={innerWidth}
        tickValues={yTicks}
        stroke="currentColor"
        strokeDasharray="3 3"
        className="text-border"
      />
      <AxisLeft
        scale={y}
        tickValues={yTicks}
        tickFormat={(v) => yTick(Number(v))}
        hideAxisLine
        hideTicks
        tickLength={0}
        tickLabelProps={{
          fill: "currentColor",
          fontFamily: undefined,
          fontSize: FONT_SIZE,
          textAnchor: "end",
          dx: -8,
          dy: "0.33em",
        }}
      />
      <AxisBottom
        top={innerHeight}
        scale={x}
        tickValues={xTicks}
        tickFormat={(k) => xTick(String(k))}
        hideAxisLine
        hideTicks
        tickLength={0}
        tickComponent={
          endsInside
            ? ({ formattedValue, x: tx, ...rest }: TickRendererProps) => {
                // Keep the end labels inside the SVG, as recharts shifts them in.
                const half = ((formattedValue ?? "").length * CHAR_WIDTH) / 2;
                const lx = Math.min(Math.max(tx, half - margin.left), innerWidth + margin.right - half);
                return (
                  <text {...(rest as object)} x={lx}>
                    {formattedValue}
                  </text>
                );
              }
            : undefined
        }
        tickLabelProps={{
          fill: "currentColor",
          fontFamily: undefined,
          fontSize: FONT_SIZE,
          textAnchor: "middle",
          dy: "1.2em",
        }}
      />
    </>
  );
}

/** The vertical line at the point read. */
export function GuideLine({ x, height }: { x: number; height: number }) {
  return <Line from={{ x, y: 0 }} to={{ x, y: height }} stroke="currentColor" strokeOpacity={0.4} />;
}

/** The dot on a line at the point read. */
export function PointDot({ cx, cy, color }: { cx: number; cy: number; color: string }) {
  return <circle cx={cx} cy={cy} r={4} fill={color} stroke="white" strokeWidth={2} />;
}

/** Hover, tap or drag sideways over the plot to read a point; vertical drags still scroll the page. */
export function HoverArea({
  width,
  height,
  onTrack,
  onLeave,
}: {
  width: number;
  height: number;
  onTrack: (e: PointerEvent<SVGRectElement>) => void;
  onLeave: () => void;
}) {
  return (
    <rect
      width={width}
      height={height}
      fill="transparent"
      style={{ touchAction: "pan-y" }}
      onPointerMove={onTrack}
      onPointerDown={onTrack}
      onPointerLeave={(e) => {
        // A finger leaves as it lifts: keep the last reading until the next touch.
        if (e.pointerType !== "touch") onLeave();
      }}
    />
  );
}

/** The tooltip's box, placed at `at` (tooltipPlacement), measured through `tip` (useTipSize). */
export function ChartTip({
  tip,
  at,
  children,
}: {
  tip: RefObject<HTMLDivElement | null>;
  at: { left: number; top: number };
  children: ReactNode;
}) {
  return (
    <Tooltip
      ref={tip}
      left={at.left}
      top={at.top}
      offsetLeft={0}
      offsetTop={0}
      unstyled
      applyPositionStyle
      className="pointer-events-none whitespace-nowrap rounded-md border bg-popover px-3 py-2 text-popover-foreground text-sm shadow-md"
    >
      {children}
    </Tooltip>
  );
}
