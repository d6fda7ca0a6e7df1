import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

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
  /** Draws the cursor at this x when it comes from elsewhere (the map). */
  cursorX?: number | null;
  testId?: string;
}

let uplotModule: Promise<typeof uPlot> | undefined;
const loadUplot = () => (uplotModule ??= import('uplot').then((m) => m.default));

/** A uPlot chart, loaded on demand (keeps uPlot out of the first page load). */
export function UPlotChart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const onCursor = useRef(props.onCursorX);
  onCursor.current = props.onCursorX;
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let disposed = false;
    const el = box.current!;
    void loadUplot().then((UPlot) => {
      if (disposed) return;
      const width = Math.max(280, el.clientWidth);
      const opts: uPlot.Options = {
        width,
        height: props.height ?? 220,
        scales: { x: { time: false } },
        legend: { live: true },
        cursor: { sync: props.syncKey ? { key: props.syncKey } : undefined, drag: { x: false, y: false } },
        axes: [
          { label: props.xLabel, stroke: '#bbb', grid: { stroke: '#2a2a2e' }, ticks: { stroke: '#444' } },
          { label: props.yLabel, stroke: '#bbb', grid: { stroke: '#2a2a2e' }, ticks: { stroke: '#444' }, size: 50 },
        ],
        series: [
          { label: props.xLabel },
          ...props.series.map((s) => ({ label: s.label, stroke: s.stroke, width: s.width ?? 2, dash: s.dash, points: { show: s.points ?? false }, spanGaps: false })),
        ],
        hooks: {
          setCursor: [
            (u: uPlot) => {
              const idx = u.cursor.idx;
              onCursor.current?.(idx === null || idx === undefined ? null : (u.data[0][idx] ?? null));
            },
          ],
        },
      };
      chart.current = new UPlot(opts, [props.x, ...props.ys] as uPlot.AlignedData, el);
      performance.mark('voltas:chart-painted');
      setReady(true);
    });
    const ro = new ResizeObserver(() => {
      if (chart.current) chart.current.setSize({ width: Math.max(280, el.clientWidth), height: props.height ?? 220 });
    });
    ro.observe(el);
    return () => {
      disposed = true;
      ro.disconnect();
      chart.current?.destroy();
      chart.current = null;
    };
    // Rebuilt when the data or series change; cursor moves go through setCursor below.
  }, [props.x, props.ys, props.series, props.syncKey, props.height, props.xLabel, props.yLabel]);

  useEffect(() => {
    const u = chart.current;
    if (!u || props.cursorX === undefined || props.cursorX === null) return;
    u.setCursor({ left: u.valToPos(props.cursorX, 'x'), top: 10 }, false);
  }, [props.cursorX, ready]);

  return (
    <figure className="chart" data-testid={props.testId} data-ready={ready ? 'true' : 'false'}>
      <figcaption>{props.title}</figcaption>
      <div ref={box} className="chart-box" />
    </figure>
  );
}
