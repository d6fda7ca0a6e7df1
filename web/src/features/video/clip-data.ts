/**
 * The data drawn on an exported clip, prepared on the page from the session and the sync and
 * handed to the export worker: per GPS sample inside the clip, its time in the video file and
 * what the overlay shows. Pure; no DOM.
 */
import { deltaAgainst, type LapSegment } from '#core/analysis/gps-analysis.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { makeProjection } from '#core/geo.ts';
import { sessionToVideo } from '#core/video/sync.ts';
import type { Clock } from './video-set';

export interface ClipOverlay {
  /** The clip's span in the video file (ms). */
  fromMs: number;
  toMs: number;
  /** Per sample, in time order: its time in the video file (ms)… */
  t: Float64Array;
  speed: Float32Array;
  roll: Float32Array;
  /** Seconds since its lap began (NaN outside a lap). */
  lapS: Float32Array;
  /** Seconds behind the best lap at the same distance (NaN where there is no best lap). */
  delta: Float32Array;
  /** Index into lapNames (−1 outside a lap). */
  lap: Int16Array;
  /** Position on the small map, 0..1 (y down). */
  mapX: Float32Array;
  mapY: Float32Array;
  lapNames: string[];
  /** The track's outline (one lap) on the same 0..1 map, x,y pairs. */
  outline: Float32Array;
  /** The session's file recorded lean (a logger without a lean sensor writes 0 throughout: unknown). */
  leanRecorded: boolean;
}

/** Samples a second either side of the clip, so that every frame has one before and after it. */
const MARGIN_MS = 1_000;
const OUTLINE_POINTS = 400;

export function clipOverlay(
  c: GpsColumns,
  utc: Float64Array,
  clock: Clock,
  laps: readonly LapSegment[],
  best: LapSegment | null,
  outlineLap: LapSegment,
  fromMs: number,
  toMs: number,
): ClipOverlay {
  const picked: number[] = [];
  for (let i = 0; i < c.count; i++) {
    const at = sessionToVideo(clock, utc[i]!);
    if (at >= fromMs - MARGIN_MS && at <= toMs + MARGIN_MS) picked.push(i);
  }
  const n = picked.length;
  const out: ClipOverlay = {
    fromMs,
    toMs,
    t: new Float64Array(n),
    speed: new Float32Array(n),
    roll: new Float32Array(n),
    lapS: new Float32Array(n).fill(NaN),
    delta: new Float32Array(n).fill(NaN),
    lap: new Int16Array(n).fill(-1),
    mapX: new Float32Array(n),
    mapY: new Float32Array(n),
    lapNames: [],
    outline: new Float32Array(0),
    leanRecorded: c.roll.subarray(0, c.count).some((v) => v !== 0),
  };
  const proj = makeProjection(c.lat[outlineLap.start]!, c.lon[outlineLap.start]!);
  // The map's box: the outline lap and every sample of the clip (an out-lap may leave the line).
  const box = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  const grow = (i: number) => {
    const [x, y] = proj.toXY(c.lat[i]!, c.lon[i]!);
    box.minX = Math.min(box.minX, x);
    box.maxX = Math.max(box.maxX, x);
    box.minY = Math.min(box.minY, y);
    box.maxY = Math.max(box.maxY, y);
  };
  for (let i = outlineLap.start; i < outlineLap.end; i++) grow(i);
  for (const i of picked) grow(i);
  const size = Math.max(box.maxX - box.minX, box.maxY - box.minY) || 1;
  const padX = (size - (box.maxX - box.minX)) / 2;
  const padY = (size - (box.maxY - box.minY)) / 2;
  const toMap = (i: number): [number, number] => {
    const [x, y] = proj.toXY(c.lat[i]!, c.lon[i]!);
    return [(x - box.minX + padX) / size, 1 - (y - box.minY + padY) / size];
  };
  const deltas = new Map<LapSegment, Float64Array>();
  picked.forEach((i, k) => {
    out.t[k] = sessionToVideo(clock, utc[i]!);
    out.speed[k] = c.speed[i]!;
    out.roll[k] = c.roll[i]!;
    [out.mapX[k], out.mapY[k]] = toMap(i);
    const lap = laps.find((l) => i >= l.start && i < l.end);
    if (!lap) return;
    const name = `${lap.heat}${lap.lapCount}`;
    let li = out.lapNames.indexOf(name);
    if (li < 0) li = out.lapNames.push(name) - 1;
    out.lap[k] = li;
    out.lapS[k] = (utc[i]! - utc[lap.start]!) / 1000;
    if (best && !lap.outLap) {
      if (!deltas.has(lap)) deltas.set(lap, deltaAgainst(c, lap, best).delta);
      out.delta[k] = deltas.get(lap)![i - lap.start]!;
    }
  });
  const step = Math.max(1, Math.floor((outlineLap.end - outlineLap.start) / OUTLINE_POINTS));
  const outline: number[] = [];
  for (let i = outlineLap.start; i < outlineLap.end; i += step) outline.push(...toMap(i));
  out.outline = Float32Array.from(outline);
  return out;
}

/** What the overlay shows at `ms` in the video file: the sample before it, carried on to `ms`. */
export function overlayAt(o: ClipOverlay, ms: number) {
  const n = o.t.length;
  if (n === 0) return null;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (o.t[mid]! <= ms) lo = mid;
    else hi = mid - 1;
  }
  const k = lo;
  const next = Math.min(k + 1, n - 1);
  const span = o.t[next]! - o.t[k]!;
  const f = span > 0 ? Math.max(0, Math.min(1, (ms - o.t[k]!) / span)) : 0;
  const mix = (a: ArrayLike<number>) => a[k]! + (a[next]! - a[k]!) * f;
  const sameLap = o.lap[next] === o.lap[k];
  return {
    speed: mix(o.speed),
    roll: mix(o.roll),
    lapName: o.lap[k]! >= 0 ? o.lapNames[o.lap[k]!]! : null,
    lapS: Number.isNaN(o.lapS[k]!) ? null : o.lapS[k]! + Math.max(0, ms - o.t[k]!) / 1000,
    delta: Number.isNaN(o.delta[k]!) ? null : sameLap && !Number.isNaN(o.delta[next]!) ? mix(o.delta) : o.delta[k]!,
    x: sameLap ? mix(o.mapX) : o.mapX[k]!,
    y: sameLap ? mix(o.mapY) : o.mapY[k]!,
  };
}
