// The analytics charts' series: laps on one distance grid, gaps to a reference lap, the whole session decimated.
import { decimateMinMax, deltaAgainst, elapsedMs, lapDistances, type LapSegment } from '#core/analysis/gps-analysis.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';

export type Field = 'speed' | 'roll';

/** Laps on one distance grid (uPlot wants one x array): linear interpolation, null past a lap's end. */
export function lapsOnDistanceGrid(
  c: GpsColumns,
  laps: LapSegment[],
  field: Field,
  stepM = 2,
): { x: number[]; ys: (number | null)[][] } {
  const dists = laps.map((l) => lapDistances(c, l));
  const x = gridOf(dists, stepM);
  const ys = laps.map((lap, li) => resample(dists[li]!, (k) => c[field][lap.start + k]!, x));
  return { x, ys };
}

/** The x array `lapsOnDistanceGrid` gives the same laps, alone (a chart of gaps shares the speed chart's grid). */
export function distanceGrid(c: GpsColumns, laps: LapSegment[], stepM = 2): number[] {
  return gridOf(
    laps.map((l) => lapDistances(c, l)),
    stepM,
  );
}

function gridOf(dists: Float64Array[], stepM: number): number[] {
  const max = Math.max(0, ...dists.map((d) => d[d.length - 1] ?? 0));
  const n = Math.floor(max / stepM) + 1;
  return Array.from({ length: n }, (_, i) => i * stepM);
}

/** Delta (s) of each lap against the reference, on the same distance grid. */
export function deltasOnDistanceGrid(
  c: GpsColumns,
  laps: LapSegment[],
  reference: LapSegment,
  x: number[],
): (number | null)[][] {
  return laps.map((lap) => {
    const { distance, delta } = deltaAgainst(c, lap, reference);
    return resample(distance, (k) => delta[k]!, x);
  });
}

function resample(dist: Float64Array, value: (k: number) => number, x: number[]): (number | null)[] {
  const out: (number | null)[] = new Array(x.length).fill(null);
  let k = 0;
  const last = dist.length - 1;
  for (let i = 0; i < x.length; i++) {
    const d = x[i]!;
    if (last < 0 || d > dist[last]!) break;
    while (k < last - 1 && dist[k + 1]! < d) k++;
    const d0 = dist[k]!;
    const d1 = dist[Math.min(k + 1, last)]!;
    const f = d1 > d0 ? Math.max(0, Math.min(1, (d - d0) / (d1 - d0))) : 0;
    out[i] = value(k) + (value(Math.min(k + 1, last)) - value(k)) * f;
  }
  return out;
}

/** Whole session against elapsed minutes, min/max-decimated to `buckets` columns; a gap (pits) breaks the line. */
export function sessionSeries(c: GpsColumns, field: Field, buckets: number): { x: number[]; y: (number | null)[] } {
  if (c.count === 0) return { x: [], y: [] };
  const minutes = new Float64Array(c.count);
  let acc = 0;
  for (let i = 1; i < c.count; i++) {
    acc += elapsedMs(c.timeMs[i - 1]!, c.timeMs[i]!);
    minutes[i] = acc / 60_000;
  }
  const keep = decimateMinMax(minutes, c[field], buckets);
  const x: number[] = [];
  const y: (number | null)[] = [];
  let prev = -1;
  for (const i of keep) {
    if (prev >= 0 && minutes[i]! - minutes[prev]! > 0.5) {
      x.push((minutes[prev]! + minutes[i]!) / 2);
      y.push(null);
    }
    x.push(minutes[i]!);
    y.push(c[field][i]!);
    prev = i;
  }
  return { x, y };
}

/** Index of the sample of `lap` closest to distance `d` (for the chart → map cursor). */
export function sampleAtDistance(c: GpsColumns, lap: LapSegment, d: number): number {
  const dist = lapDistances(c, lap);
  let lo = 0;
  let hi = dist.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dist[mid]! < d) lo = mid + 1;
    else hi = mid;
  }
  return lap.start + lo;
}

export const lapKey = (l: { heat: string; lapCount: number }) => `${l.heat}${l.lapCount}`;
