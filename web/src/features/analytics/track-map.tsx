// The analytics page's track map, drawn on a canvas: the chosen laps coloured by speed or lean, corner
// marks, and the cursor it shares with the charts. Few strokes, and the cursor on a layer of its own,
// so a phone keeps up.
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { makeProjection } from '#core/geo.ts';
import { speedIn, type Units } from '#core/units.ts';
import { useT } from '#web/i18n/messages.ts';
import { unitLabel } from '#web/lib/units-format.ts';
import { colourAt, LEGEND_GRADIENT } from './colour-scale';
import { drawDot, sizeMapCanvas } from '#web/lib/map-marks.ts';

export type MapColour = 'speed' | 'lean';

/**
 * The colour scale in steps: a lap is drawn as one path per run of samples in the same step
 * rather than one path per sample (~2,600 strokes a lap at 25 Hz, the map's whole cost). 64
 * steps of a 4 px line read as the continuous legend.
 */
const STEPS = 64;
const STEP_COLOURS = Array.from({ length: STEPS }, (_, k) => colourAt(k / (STEPS - 1)));
/**
 * Squared CSS pixels a point must lie from the last one drawn: at a phone's width a lap is ~2,600
 * samples over ~1,000 px of line, so most of them fall within a pixel of the one before.
 */
const MIN_STEP_PX2 = 1;
/** The map's height / width (as `.map-canvas`'s aspect-ratio in styles.css). */
const ASPECT = 0.75;

/** The cursor's dot on its layer over the map; the layer is left clear when there is none. */
function drawCursor(
  layer: HTMLCanvasElement,
  toPx: (i: number) => [number, number],
  index: number | null,
  count: number,
): void {
  const shown = index !== null && index >= 0 && index < count;
  // A layer that holds no dot has nothing to clear (the map's first draw would make its context for nothing).
  if (!shown && !layer.dataset.dot) return;
  layer.dataset.dot = shown ? 'true' : '';
  const ctx = layer.getContext('2d')!;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, layer.width, layer.height);
  if (!shown || index === null) return;
  const dpr = window.devicePixelRatio || 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const [cx, cy] = toPx(index);
  drawDot(ctx, cx, cy, 7);
}

/**
 * The element's CSS width as the browser last laid it out (0 before), from a ResizeObserver: it
 * answers after the browser's own layout, where reading `clientWidth` right after React has added
 * the page's parts would lay all of them out at once, in the same task as the drawing.
 */
function useLaidOutWidth(ref: RefObject<Element | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => entry && setWidth(Math.round(entry.contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

/**
 * The track map (Canvas 2D, north up): the reference lap as a thick outline, the chosen laps
 * coloured by speed or lean, start/finish marked, and a marker at the shared cursor. The marker
 * has a canvas of its own over the map, so moving the cursor redraws a dot, not the laps.
 */
export function TrackMap(props: {
  c: GpsColumns;
  laps: LapSegment[];
  reference: LapSegment;
  colour: MapColour;
  cursorIndex: number | null;
  onHoverIndex: (index: number | null) => void;
  /** A click (or tap) on the lap: the rider's video goes there. */
  onPickIndex?: (index: number) => void;
  /** Numbered corner markers at their apexes. */
  corners?: readonly { number: number; apex: { lat: number; lon: number } }[];
  /** Zoomed to this place (a corner); null or absent shows the whole lap. */
  focus?: { lat: number; lon: number; radiusM: number } | null;
  /** The rider's units for the speed legend (metric when not given). */
  units?: Units;
}) {
  const t = useT();
  const { c, laps, reference, colour, corners, focus } = props;
  const units = props.units ?? 'metric';
  const canvas = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<HTMLCanvasElement>(null);
  const width = useLaidOutWidth(canvas);
  // The laps' projection; the corners (which come later) and the zoom only place marks and the view on it.
  const projected = useMemo(() => {
    const proj = makeProjection(c.lat[reference.start]!, c.lon[reference.start]!);
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    const xy = new Float64Array(c.count * 2);
    for (const lap of [reference, ...laps]) {
      for (let i = lap.start; i < lap.end; i++) {
        const [x, y] = proj.toXY(c.lat[i]!, c.lon[i]!);
        xy[2 * i] = x;
        xy[2 * i + 1] = y;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
    return { proj, xy, minX, maxX, minY, maxY };
  }, [c, laps, reference]);
  const geometry = useMemo(() => {
    const { proj, xy } = projected;
    let { minX, maxX, minY, maxY } = projected;
    const zoom = focus ? proj.toXY(focus.lat, focus.lon) : null;
    if (focus && zoom)
      [minX, maxX, minY, maxY] = [
        zoom[0] - focus.radiusM,
        zoom[0] + focus.radiusM,
        zoom[1] - focus.radiusM,
        zoom[1] + focus.radiusM,
      ];
    return { xy, minX, maxX, minY, maxY };
  }, [projected, focus]);
  // Where the map's metres fall on the canvas (CSS px), once its width is known.
  const view = useMemo(() => {
    if (!width) return null;
    const { minX, maxX, minY, maxY } = geometry;
    const height = Math.round(width * ASPECT);
    const pad = 16;
    const scale = Math.min((width - 2 * pad) / (maxX - minX || 1), (height - 2 * pad) / (maxY - minY || 1));
    const ox = (width - (maxX - minX) * scale) / 2;
    const oy = (height - (maxY - minY) * scale) / 2;
    return { height, scale, ox, oy, minX, minY };
  }, [width, geometry]);
  // The corners (they come after the map) are marks over it, not drawn in it: their arrival redraws no lap.
  const apexes = useMemo(
    () =>
      view
        ? (corners ?? [])
            .map((k) => {
              const [x, y] = projected.proj.toXY(k.apex.lat, k.apex.lon);
              return {
                number: k.number,
                left: view.ox + (x - view.minX) * view.scale,
                top: view.height - (view.oy + (y - view.minY) * view.scale),
              };
            })
            // Zoomed to a corner: only the marks on the canvas.
            .filter((a) => a.left >= 0 && a.left <= width && a.top >= 0 && a.top <= view.height)
        : [],
    [view, corners, projected, width],
  );

  const range = useMemo(() => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const lap of laps) {
      for (let i = lap.start; i < lap.end; i++) {
        const v = colour === 'speed' ? c.speed[i]! : Math.abs(c.roll[i]!);
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    return lo <= hi ? { lo, hi } : { lo: 0, hi: 1 };
  }, [c, laps, colour]);

  const transform = useRef<(i: number) => [number, number]>(() => [0, 0]);
  /** The cursor as last rendered, for the map's redraw (which resizes, and so clears, its layer). */
  const cursor = useRef(props.cursorIndex);
  cursor.current = props.cursorIndex;

  useEffect(() => {
    if (!view) return; // drawn once the browser has laid the canvas out
    // Drawn in a task of its own, not in the one that rendered the page's parts: each stays short
    // enough for a phone to answer a tap between them.
    const timer = setTimeout(() => {
      const el = canvas.current!;
      const { ctx, height } = sizeMapCanvas(el, ASPECT, [overlay.current!], width);
      ctx.fillStyle = '#101012';
      ctx.fillRect(0, 0, width, height);
      const { xy } = geometry;
      const { scale, ox, oy, minX, minY } = view;
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, 0, width, height);
      ctx.clip();
      const toPx = (i: number): [number, number] => [
        ox + (xy[2 * i]! - minX) * scale,
        height - (oy + (xy[2 * i + 1]! - minY) * scale),
      ];
      transform.current = toPx;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      // Reference outline, thick enough for a thumb.
      ctx.strokeStyle = '#3a3a40';
      ctx.lineWidth = 10;
      ctx.beginPath();
      let [rx, ry] = toPx(reference.start);
      ctx.moveTo(rx, ry);
      for (let i = reference.start + 1; i < reference.end; i++) {
        const [x, y] = toPx(i);
        if ((x - rx) ** 2 + (y - ry) ** 2 < MIN_STEP_PX2) continue;
        ctx.lineTo(x, y);
        rx = x;
        ry = y;
      }
      ctx.closePath();
      ctx.stroke();
      // Chosen laps, coloured by step: a new path where the step changes, from the last point.
      ctx.lineWidth = 4;
      const span = range.hi - range.lo || 1;
      for (const lap of laps) {
        let step = -1;
        let [px, py] = toPx(lap.start);
        for (let i = lap.start + 1; i < lap.end; i++) {
          const v = colour === 'speed' ? c.speed[i]! : Math.abs(c.roll[i]!);
          const f = (v - range.lo) / span;
          const k = f > 0 ? (f < 1 ? Math.round(f * (STEPS - 1)) : STEPS - 1) : 0; // NaN → 0
          const [x, y] = toPx(i);
          // A point within a pixel of the last one drawn, in the same colour, adds nothing seen.
          if (k === step && i < lap.end - 1 && (x - px) ** 2 + (y - py) ** 2 < MIN_STEP_PX2) continue;
          if (k !== step) {
            if (step >= 0) ctx.stroke();
            ctx.strokeStyle = STEP_COLOURS[k]!;
            ctx.beginPath();
            ctx.moveTo(px, py);
            step = k;
          }
          ctx.lineTo(x, y);
          px = x;
          py = y;
        }
        if (step >= 0) ctx.stroke();
      }
      // Start/finish: a chequered square at the reference lap's first sample.
      const [sx, sy] = toPx(reference.start);
      for (let k = 0; k < 4; k++) {
        ctx.fillStyle = k % 3 === 0 ? '#fff' : '#000';
        ctx.fillRect(sx - 6 + (k % 2) * 6, sy - 6 + Math.floor(k / 2) * 6, 6, 6);
      }
      ctx.restore();
      // User Timing mark (visible in devtools; the benchmark reads the first one).
      if (!el.dataset.painted) {
        el.dataset.painted = 'true';
        performance.mark('voltas:map-painted');
      }
      drawCursor(overlay.current!, toPx, cursor.current, c.count);
    });
    return () => clearTimeout(timer);
  }, [width, view, geometry, laps, reference, colour, range, c]);

  useEffect(
    () => drawCursor(overlay.current!, transform.current, props.cursorIndex, c.count),
    [props.cursorIndex, c.count],
  );

  const nearest = (e: React.MouseEvent<HTMLCanvasElement>): number | null => {
    const rect = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    let best = -1;
    let bestD = 24 * 24;
    for (const lap of laps) {
      for (let i = lap.start; i < lap.end; i++) {
        const [x, y] = transform.current(i);
        const d = (x - px) ** 2 + (y - py) ** 2;
        if (d < bestD) {
          bestD = d;
          best = i;
        }
      }
    }
    return best >= 0 ? best : null;
  };
  const onMove = (e: React.PointerEvent<HTMLCanvasElement>) => props.onHoverIndex(nearest(e));
  const onClick = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const i = nearest(e);
    if (i !== null) props.onPickIndex?.(i);
  };

  const unit = colour === 'speed' ? unitLabel('speed', units) : '°';
  const shown = (v: number) => Math.round(colour === 'speed' ? speedIn(v, units) : v);
  return (
    <figure className="track-map">
      <div className="map-layers">
        <canvas
          ref={canvas}
          className="map-canvas"
          data-testid="track-map"
          data-cursor={props.cursorIndex ?? ''}
          data-corners={corners?.length ?? 0}
          data-focus={focus ? `${focus.lat.toFixed(5)},${focus.lon.toFixed(5)}` : ''}
          role="img"
          aria-label={t('analytics.mapLabel')}
          onPointerMove={onMove}
          onPointerLeave={() => props.onHoverIndex(null)}
          onClick={props.onPickIndex ? onClick : undefined}
        />
        <canvas ref={overlay} className="map-cursor" aria-hidden="true" />
        {apexes.map((a) => (
          <span key={a.number} className="corner-mark" style={{ left: a.left, top: a.top }} aria-hidden="true">
            T{a.number}
          </span>
        ))}
      </div>
      <figcaption className="legend">
        <span>
          {shown(range.lo)} {unit}
        </span>
        <span className="legend-bar" style={{ background: LEGEND_GRADIENT }} aria-hidden="true" />
        <span>
          {shown(range.hi)} {unit}
        </span>
        <span className="legend-sf">▣ {t('analytics.startFinish')}</span>
      </figcaption>
    </figure>
  );
}
