import { describe, expect, it } from 'vitest';
import { makeProjection } from '../sim/geo';
import { gateAcross } from './gate';
import { gateCrossings, continuousTime, timeLaps, type Trace } from './lap-timing';

// Small made-up traces around a gate at the origin facing north: what jitter, direction and
// gaps do. (Accuracy against exact truth on real circuits: server/src/modules/tracks.)

const ORIGIN = { lat: -23.7, lon: -46.7 };
const proj = makeProjection(ORIGIN.lat, ORIGIN.lon);
const gate = gateAcross(ORIGIN, 0, 1);

/** A trace from points in metres (east, north) with times in ms and speeds in km/h. */
function trace(points: { x: number; y: number; ms: number; kmh: number }[]): Trace {
  const n = points.length;
  const t: Trace = {
    count: n,
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    timeMs: new Float64Array(n),
    speed: new Float64Array(n),
    satellites: new Uint16Array(n).fill(12),
  };
  points.forEach((p, i) => {
    [t.lat[i], t.lon[i]] = proj.toLatLon(p.x, p.y);
    t.timeMs[i] = (13 * 3_600_000 + p.ms) % 86_400_000;
    t.speed[i] = p.kmh;
  });
  return t;
}

/** An oval 1 km round, anticlockwise: north up x = 0 through the gate, south down x = -100. */
function ovalPoint(s: number): [number, number] {
  const r = 50;
  const half = (1000 - 2 * Math.PI * r) / 4; // half a straight
  const pieces: [number, (u: number) => [number, number]][] = [
    [half, (u) => [0, u]],
    [Math.PI * r, (u) => [-r + r * Math.cos(u / r), half + r * Math.sin(u / r)]],
    [2 * half, (u) => [-2 * r, half - u]],
    [Math.PI * r, (u) => [-r - r * Math.cos(u / r), -half - r * Math.sin(u / r)]],
    [half, (u) => [0, -half + u]],
  ];
  for (const [length, at] of pieces) {
    if (s < length) return at(s);
    s -= length;
  }
  return [0, 0];
}

/** Laps of the oval starting 20 m before the gate, at a speed that may change with the distance ridden. */
function oval(laps: number, speed: number | ((ridden: number) => number), hz: number, startMs = 0) {
  const speedAt = typeof speed === 'number' ? () => speed : speed;
  const pts: { x: number; y: number; ms: number; kmh: number }[] = [];
  let ridden = 0;
  for (let ms = startMs; ridden <= laps * 1000; ms += 1000 / hz) {
    const v = speedAt(ridden);
    const [x, y] = ovalPoint((((ridden - 20) % 1000) + 1000) % 1000);
    pts.push({ x, y, ms, kmh: v * 3.6 });
    ridden += v / hz;
  }
  return pts;
}

describe('gate crossings', () => {
  it('only forward: the same oval driven the other way crosses nothing', () => {
    const forward = trace(oval(3, 20, 10));
    const backward = trace(oval(3, 20, 10).map((p) => ({ ...p, x: -100 - p.x })));
    expect(gateCrossings(forward, gate, continuousTime(forward))).toHaveLength(3);
    // Mirrored east to west it runs south on x = 0: through the gate backwards.
    expect(gateCrossings(backward, gate, continuousTime(backward))).toHaveLength(0);
  });

  it('a rider rolling to a stop on the line, with the fix jittering across it, makes one crossing', () => {
    const pts = [];
    for (let i = 0; i < 100; i++) pts.push({ x: 0, y: -10 + i * 0.1, ms: i * 100, kmh: 3.6 });
    // Stopped at y ≈ 0: the fix wanders ±1.5 m across the line for 30 s.
    for (let i = 0; i < 300; i++) pts.push({ x: 0, y: 1.5 * Math.sin(i * 1.7), ms: 10_000 + i * 100, kmh: 0 });
    const t = trace(pts);
    expect(gateCrossings(t, gate, continuousTime(t))).toHaveLength(1);
  });

  it('a gap in the samples across the line: the crossing is still timed, between the fixes around it', () => {
    const pts = oval(2, 20, 10).filter((p) => p.ms < 900 || p.ms > 2_100); // no fixes from 0.9 to 2.1 s
    const t = trace(pts);
    const [first] = gateCrossings(t, gate, continuousTime(t));
    // 20 m at 20 m/s: the line was crossed at 1.0 s.
    expect(first!.ms).toBeCloseTo(1000, 0);
  });

  it('a session across midnight keeps counting time', () => {
    const pts = oval(4, 20, 10, 11 * 3_600_000 - 30_000); // 13:00 + 11 h − 30 s = 23:59:30
    const laps = timeLaps(trace(pts), gate);
    expect(laps.filter((l) => l.kind === 'flying').map((l) => l.seconds)).toEqual([expect.closeTo(50, 2), expect.closeTo(50, 2)]);
  });
});

describe('laps from the crossings', () => {
  it('out-lap before the first crossing, in-lap after the last, flying laps between; none shorter than the minimum', () => {
    const laps = timeLaps(trace(oval(4.5, 20, 10)), gate);
    expect(laps.map((l) => l.kind)).toEqual(['out', 'flying', 'flying', 'flying', 'in']);
    expect(laps.slice(1, 4).map((l) => l.seconds)).toEqual([expect.closeTo(50, 2), expect.closeTo(50, 2), expect.closeTo(50, 2)]);
    expect(timeLaps(trace(oval(4.5, 20, 10)), gate, { minLapMs: 60_000 }).filter((l) => l.kind === 'flying')).toHaveLength(1);
  });

  it('a pause of over a minute starts a new run, with its own out- and in-lap', () => {
    const first = oval(3.5, 20, 10);
    const second = oval(3.5, 20, 10, first[first.length - 1]!.ms + 120_000);
    const laps = timeLaps(trace([...first, ...second]), gate);
    expect(laps.map((l) => `${l.run}${l.kind[0]}`)).toEqual(['1o', '1f', '1f', '1i', '2o', '2f', '2f', '2i']);
  });

  it('a last lap through a pit lane that crosses the line, much slower, is the in-lap', () => {
    // Laps at 20 m/s, then one at 10 m/s down the pit lane, across the line. The run began 20 m
    // before the line: its first lap is the out-lap.
    const pts = oval(4.2, (ridden) => (ridden < 3020 ? 20 : 10), 10);
    const laps = timeLaps(trace(pts), gate);
    expect(laps.map((l) => l.kind)).toEqual(['out', 'flying', 'flying', 'in', 'in']);
  });

  it('no crossing at all: one out-lap, nothing timed', () => {
    const pts = oval(3, 20, 10).map((p) => ({ ...p, x: p.x + 500 }));
    expect(timeLaps(trace(pts), gate).map((l) => l.kind)).toEqual(['out']);
  });
});
