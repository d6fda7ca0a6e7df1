// Drawing the track map: the laps projected on a plane, the colour scale in steps, the laps and the
// cursor on their canvases, and the sample nearest a point. Plain functions; track-map.tsx calls them.
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { makeProjection } from '#core/geo.ts';
import { drawDot } from '#web/lib/map-marks.ts';
import { colourAt } from './colour-scale';

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
export const ASPECT = 0.75;

/** The cursor's dot on its layer over the map; the layer is left clear when there is none. */
export function drawCursor(
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

/** The laps in metres on a plane (north up) about the reference lap's start, with their bounds. */
export function projectLaps(c: GpsColumns, laps: readonly LapSegment[], reference: LapSegment) {
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
}

/** The lowest and highest value the laps are coloured by (speed, or lean either side). */
export function colourRange(c: GpsColumns, laps: readonly LapSegment[], colour: MapColour) {
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
}

/**
 * The reference lap as a thick outline, the chosen laps coloured by step (a new path where the step
 * changes), and the start/finish, onto the map's context (`toPx`: a sample's CSS pixels).
 */
export function drawLaps(
  ctx: CanvasRenderingContext2D,
  toPx: (i: number) => [number, number],
  c: GpsColumns,
  reference: LapSegment,
  laps: readonly LapSegment[],
  colour: MapColour,
  range: { lo: number; hi: number },
): void {
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
}

/** The sample of the laps nearest a point of the canvas (CSS px), within 24 px; null for none. */
export function nearestSample(
  laps: readonly LapSegment[],
  toPx: (i: number) => [number, number],
  px: number,
  py: number,
): number | null {
  let best = -1;
  let bestD = 24 * 24;
  for (const lap of laps) {
    for (let i = lap.start; i < lap.end; i++) {
      const [x, y] = toPx(i);
      const d = (x - px) ** 2 + (y - py) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
  }
  return best >= 0 ? best : null;
}
