// A uPlot line chart, as the analytics, compare, progress and shared pages draw them.
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { distanceIn, speedIn, type Quantity, type Units } from '#core/units.ts';
import { decimal } from '#web/lib/format.ts';
import { useNearViewport } from '#web/lib/near-viewport.ts';
import { useDrawTurn } from '#web/lib/draw-turn.ts';
import type { Translate } from '#web/i18n/messages.ts';
import { unitLabel } from '#web/lib/units-format.ts';

export interface ChartSeries {
  label: string;
  stroke: string;
  width?: number;
  dash?: number[];
  points?: boolean;
}

export interface ChartProps {
  title: string;
  xLabel: string;
  yLabel: string;
  x: number[];
  ys: (number | null)[][];
  series: ChartSeries[];
  /** Charts with the same key share the cursor (distance-aligned charts). */
  syncKey?: string;
  height?: number;
  onCursorX?: (x: number | null) => void;
  /** A click (or tap) on the plot at x: the rider's video goes there. */
  onPickX?: (x: number) => void;
  /** Draws the cursor at this x when it comes from elsewhere (the map). */
  cursorX?: number | null;
  /** Zooms the x axis to [min, max] (a corner); null or absent shows it all. */
  xRange?: [number, number] | null;
  testId?: string;
  /** Decimals of the legend's x value (default 0: metres, laps) and of its y values (default 1). */
  xDigits?: number;
  /** Labels for whole x values (a day's date for its number); other x values get no label. */
  xFormat?: (x: number) => string;
  yDigits?: number;
  /**
   * The rider's units, and what x and y hold (stored metric: metres, km/h): the chart shows them
   * converted, and hands x back to onCursorX/onPickX (and takes cursorX, xRange) in metres.
   */
  units?: Units;
  xIn?: Quantity;
  yIn?: Quantity;
  /**
   * How far below the viewport the chart is built (`useNearViewport`; a screen ahead by default).
   * '0px' builds it only when the rider scrolls to it: the analytics page's charts below the map.
   */
  ahead?: string;
}

/** The x axis of charts against the position along the track, sharing one cursor (`syncKey`). */
export function alongTheTrack(t: Translate, units: Units, x: number[], syncKey: string) {
  return {
    xLabel: t('preferences.axisPosition', { unit: unitLabel('distance', units) }),
    units,
    xIn: 'distance',
    x,
    syncKey,
  } as const;
}

/** What one stored unit (a metre, a km/h) is in the rider's units. */
const factorOf = (quantity: Quantity | undefined, units: Units | undefined) =>
  !quantity || !units ? 1 : quantity === 'speed' ? speedIn(1, units) : distanceIn(1, units);

/**
 * Axis labels the Brazilian way, with as many decimals as the step between them needs (a 0.5 s
 * step shows 1,5); uPlot's own format follows the browser's language.
 */
function axisValues(_u: uPlot, splits: number[], _axis: number, _space: number, step: number): string[] {
  const digits = Math.min(6, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
  return splits.map((v) => (v === null || v === undefined ? '' : decimal(v, digits)));
}

/**
 * Legend values: whole metres along the lap, one decimal for what is measured; nothing where the
 * cursor is not (a phone never hovers: its legend names the lines, a touch shows their values).
 */
const legendValue = (digits: number) => (_u: uPlot, v: number | null) =>
  v === null || v === undefined ? '' : decimal(v, digits);

/**
 * A uPlot chart. uPlot is in the analytics page's own file (web/vite.config.ts), so it loads with
 * the page, not with the app; imported statically, a chart is drawn in the effect that makes it,
 * before the next frame, where an import() would resolve a task later, after the content below the
 * first screen.
 */
export function UPlotChart(props: ChartProps) {
  const figure = useRef<HTMLElement>(null);
  const near = useDrawTurn(useNearViewport(figure, props.ahead));
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const onCursor = useRef(props.onCursorX);
  onCursor.current = props.onCursorX;
  const onPick = useRef(props.onPickX);
  onPick.current = props.onPickX;
  const [ready, setReady] = useState(false);
  const { xFormat } = props;
  const fx = factorOf(props.xIn, props.units);
  const fy = factorOf(props.yIn, props.units);

  useEffect(() => {
    if (!near) return;
    const el = box.current!;
    const width = Math.max(280, el.clientWidth);
    // One point on x (a track's only day): uPlot's own range around it is so narrow that its axis
    // asks for millions of ticks, seconds of a frozen page; one unit either side draws it mid-chart.
    const only = props.x.length === 1 ? props.x[0]! * fx : null;
    const opts: uPlot.Options = {
      width,
      height: props.height ?? 220,
      scales: { x: { time: false, ...(only === null ? {} : { range: [only - 1, only + 1] as uPlot.Range.MinMax }) } },
      legend: { live: true },
      cursor: { sync: props.syncKey ? { key: props.syncKey } : undefined, drag: { x: false, y: false } },
      axes: [
        {
          label: props.xLabel,
          stroke: '#bbb',
          grid: { stroke: '#2a2a2e' },
          ticks: { stroke: '#444' },
          values: xFormat
            ? (_u: uPlot, splits: number[]) => splits.map((v) => (Number.isInteger(v) ? xFormat(v) : ''))
            : axisValues,
        },
        {
          label: props.yLabel,
          stroke: '#bbb',
          grid: { stroke: '#2a2a2e' },
          ticks: { stroke: '#444' },
          size: 50,
          values: axisValues,
        },
      ],
      series: [
        {
          label: props.xLabel,
          value: xFormat
            ? (_u: uPlot, v: number | null) => (v === null || v === undefined ? '' : xFormat(v))
            : legendValue(props.xDigits ?? 0),
        },
        ...props.series.map((s) => ({
          label: s.label,
          stroke: s.stroke,
          width: s.width ?? 2,
          dash: s.dash,
          points: { show: s.points ?? false },
          spanGaps: false,
          value: legendValue(props.yDigits ?? 1),
        })),
      ],
      hooks: {
        setCursor: [
          (u: uPlot) => {
            const idx = u.cursor.idx;
            const x = idx === null || idx === undefined ? null : (u.data[0][idx] ?? null);
            onCursor.current?.(x === null ? null : x / fx);
          },
        ],
      },
    };
    const scaled = (values: readonly (number | null)[], f: number) =>
      f === 1 ? values : values.map((v) => (v === null ? null : v * f));
    const data = [scaled(props.x, fx), ...props.ys.map((y) => scaled(y, fy))];
    const u = (chart.current = new uPlot(opts, data as uPlot.AlignedData, el));
    u.over.addEventListener('click', () => {
      const idx = u.cursor.idx;
      const x = idx === null || idx === undefined ? undefined : u.data[0][idx];
      if (x !== undefined) onPick.current?.(x / fx);
    });
    performance.mark('voltas:chart-painted');
    setReady(true);
    const ro = new ResizeObserver(() => {
      if (chart.current) chart.current.setSize({ width: Math.max(280, el.clientWidth), height: props.height ?? 220 });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      chart.current?.destroy();
      chart.current = null;
    };
    // Rebuilt when the data or series change; cursor moves go through setCursor below.
  }, [
    near,
    props.x,
    props.ys,
    props.series,
    props.syncKey,
    props.height,
    props.xLabel,
    props.yLabel,
    props.xDigits,
    props.yDigits,
    xFormat,
    fx,
    fy,
  ]);

  useEffect(() => {
    const u = chart.current;
    if (!u || props.cursorX === undefined || props.cursorX === null) return;
    u.setCursor({ left: u.valToPos(props.cursorX * fx, 'x'), top: 10 }, false);
  }, [props.cursorX, ready, fx]);

  useEffect(() => {
    const u = chart.current;
    if (!u || !ready) return;
    const [min, max] = props.xRange ?? [props.x[0] ?? 0, props.x[props.x.length - 1] ?? 0];
    u.setScale('x', { min: min * fx, max: max * fx });
  }, [props.xRange, props.x, ready, fx]);

  return (
    <figure
      ref={figure}
      className="chart"
      data-testid={props.testId}
      data-x-range={props.xRange ? props.xRange.map((v) => Math.round(v)).join('-') : ''}
      data-ready={ready ? 'true' : 'false'}
      data-points={props.x.length}
    >
      <figcaption>{props.title}</figcaption>
      {/* Its drawn height kept before it is drawn (styles.css): nothing below moves when it is. */}
      <div ref={box} className="chart-box" style={{ '--chart-height': `${props.height ?? 220}px` } as CSSProperties} />
    </figure>
  );
}
