import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '../formats/gps-six';
import { generateSession } from '../sim/session-generator';
import { deltaOnGrid, GRID_STEP_M, lapOnGrid } from './lap-grid';
import { continuousTime, type Trace } from './lap-timing';
import { analyzeTrack } from './track-analysis';
import { definitionFromCatalogue } from './track-definition';
import { loadTracks } from '../test-support/track-files';

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const trace = parseGpsSix(
  generateSession(interlagos, { seed: 11, heats: 1, lapsPerHeat: [4, 4], gpsNoise: 0.2 }).gpsSix,
).value;
const definition = definitionFromCatalogue(interlagos.points, interlagos.startFinish!, true);

/** The same ride seen by another device: every fix moved `northM` north and `outM` away from the track's middle (a wider line). */
function shifted(t: Trace, northM: number, outM: number): Trace {
  const midLat = t.lat.reduce((a, b) => a + b, 0) / t.count;
  const midLon = t.lon.reduce((a, b) => a + b, 0) / t.count;
  const mPerDegLat = 111_320;
  const mPerDegLon = 111_320 * Math.cos((midLat * Math.PI) / 180);
  const lat = new Float64Array(t.count);
  const lon = new Float64Array(t.count);
  for (let i = 0; i < t.count; i++) {
    const dy = (t.lat[i]! - midLat) * mPerDegLat;
    const dx = (t.lon[i]! - midLon) * mPerDegLon;
    const r = Math.hypot(dx, dy) || 1;
    lat[i] = t.lat[i]! + (northM + (outM * dy) / r) / mPerDegLat;
    lon[i] = t.lon[i]! + (outM * dx) / r / mPerDegLon;
  }
  return { ...t, lat, lon };
}

describe('laps against position along the track', () => {
  const lapOf = (t: Trace) => analyzeTrack(t, definition).laps.find((l) => l.complete && l.kind === 'flying')!;

  it('puts a lap on a fixed grid whose elapsed time ends at the lap time', () => {
    const lap = lapOf(trace);
    const grid = lapOnGrid(trace, continuousTime(trace), definition.line, lap);
    expect(grid.x[1]).toBe(GRID_STEP_M);
    expect(grid.x).toHaveLength(Math.floor(definition.line.length / GRID_STEP_M) + 1);
    const times = grid.elapsed.filter((e): e is number => e !== null);
    expect(times.length).toBeGreaterThan(grid.x.length * 0.95);
    for (let k = 1; k < times.length; k++) expect(times[k]!).toBeGreaterThanOrEqual(times[k - 1]!);
    expect(times[times.length - 1]!).toBeGreaterThan(lap.seconds - 1);
    expect(times[times.length - 1]!).toBeLessThanOrEqual(lap.seconds + 0.01);
  });

  it('a GPS offset of 3 m and a line 4 m wider do not shift the comparison (by distance travelled they would)', () => {
    const other = shifted(trace, 3, 4);
    const a = lapOf(trace);
    const b = lapOf(other);
    const ga = lapOnGrid(trace, continuousTime(trace), definition.line, a);
    const gb = lapOnGrid(other, continuousTime(other), definition.line, b);
    const byPosition = deltaOnGrid(ga, gb).filter((d): d is number => d !== null);
    expect(byPosition.length).toBeGreaterThan(ga.x.length * 0.95);
    // By distance travelled instead: the wider line is ~25 m longer a lap, and the comparison drifts.
    const byDistance = distanceDeltas(trace, a, other, b);
    const meanAbs = (v: number[]) => v.reduce((x, y) => x + Math.abs(y), 0) / v.length;
    expect(meanAbs(byPosition)).toBeLessThan(0.1);
    expect(meanAbs(byPosition)).toBeLessThan(meanAbs(byDistance) / 3);
    // Where the moved fixes lie across the line (the lap's end): no difference left.
    expect(Math.abs(byPosition.at(-1)!)).toBeLessThan(0.1);
  });
});

/** The oracle's way, by metres travelled from the lap's start: seconds of lap b behind lap a at each 5 m. */
function distanceDeltas(
  ta: Trace,
  a: { start: { index: number }; end: { index: number } },
  tb: Trace,
  b: typeof a,
): number[] {
  const run = (t: Trace, l: typeof a) => {
    const d = [0];
    const s = [0];
    for (let i = l.start.index + 1; i <= l.end.index; i++) {
      const m = Math.hypot(
        (t.lat[i]! - t.lat[i - 1]!) * 111_320,
        (t.lon[i]! - t.lon[i - 1]!) * 111_320 * Math.cos((t.lat[i]! * Math.PI) / 180),
      );
      d.push(d.at(-1)! + m);
      s.push((t.timeMs[i]! - t.timeMs[l.start.index]!) / 1000);
    }
    return { d, s };
  };
  const ra = run(ta, a);
  const rb = run(tb, b);
  const at = (r: { d: number[]; s: number[] }, m: number) => {
    const k = r.d.findIndex((v) => v >= m);
    return k < 0 ? null : r.s[k]!;
  };
  const out: number[] = [];
  for (let m = 0; m < Math.min(ra.d.at(-1)!, rb.d.at(-1)!); m += GRID_STEP_M) out.push(at(rb, m)! - at(ra, m)!);
  return out;
}

describe('laps against position along the track, slower laps', () => {
  it('a slower lap is behind where it lost the time', () => {
    const laps = analyzeTrack(trace, definition).laps.filter((l) => l.complete && l.kind === 'flying');
    const [fast, slow] = [...laps].sort((x, y) => x.seconds - y.seconds);
    const time = continuousTime(trace);
    const delta = deltaOnGrid(
      lapOnGrid(trace, time, definition.line, slow!),
      lapOnGrid(trace, time, definition.line, fast!),
    );
    const last = delta.filter((d): d is number => d !== null).at(-1)!;
    expect(last).toBeCloseTo(slow!.seconds - fast!.seconds, 0);
  });
});
