import { describe, expect, it } from 'vitest';
import { makeProjection } from '../geo';
import { gateAcross } from './gate';
import { gateCrossings, continuousTime, timeLaps, type Trace } from './lap-timing';

// Small made-up traces around a gate at the origin facing north: what jitter, direction and
// gaps do. (Accuracy against exact truth on real circuits: lap-timing-real-tracks.test.ts.)

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

/** Laps of the oval starting `beforeM` before the gate, at a speed that may change with the distance ridden. */
function oval(laps: number, speed: number | ((ridden: number) => number), hz: number, startMs = 0, beforeM = 20) {
  const speedAt = typeof speed === 'number' ? () => speed : speed;
  const pts: { x: number; y: number; ms: number; kmh: number }[] = [];
  let ridden = 0;
  for (let ms = startMs; ridden <= laps * 1000; ms += 1000 / hz) {
    const v = speedAt(ridden);
    const [x, y] = ovalPoint((((ridden - beforeM) % 1000) + 1000) % 1000);
    pts.push({ x, y, ms, kmh: v * 3.6 });
    ridden += Math.max(v, 0.5) / hz;
  }
  return pts;
}

/**
 * A run from the pits and back: standing 8 s 300 m before the line, away up to 20 m/s over 100 m,
 * `laps` of riding, slowing over the last 100 m to a stop, standing 8 s.
 */
function fromPitsAndBack(laps: number, startMs = 0) {
  const total = laps * 1000;
  const speed = (r: number) => Math.max(0.5, Math.min(20, 2 + (r / 100) * 18, ((total - r) / 100) * 20));
  const run = oval(laps, speed, 10, startMs + 8_000, 300);
  const standing = (p: { x: number; y: number }, from: number) =>
    Array.from({ length: 80 }, (_, i) => ({ x: p.x, y: p.y, ms: from + i * 100, kmh: 0 }));
  const end = run[run.length - 1]!;
  return [...standing(run[0]!, startMs), ...run, ...standing(end, end.ms + 100)];
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
    expect(laps.filter((l) => l.kind === 'flying').map((l) => l.seconds)).toEqual(
      [50, 50, 50].map((s) => expect.closeTo(s, 2)),
    );
  });
});

describe('laps from the crossings, each by what happened on track', () => {
  it('a recording that starts and ends at speed: flying laps between partial pieces (none shorter than 5 s)', () => {
    const laps = timeLaps(trace(oval(4.5, 20, 10)), gate);
    expect(laps.map((l) => l.kind)).toEqual(['flying', 'flying', 'flying', 'flying', 'partial']);
    expect(laps.slice(0, 4).map((l) => l.seconds)).toEqual([50, 50, 50, 50].map((s) => expect.closeTo(s, 2)));
    expect(laps[4]!.complete).toBe(false);
  });

  it('a single lap exported with a few seconds on each side is one flying lap (RaceChrono exports a lap so)', () => {
    const pts = oval(1.16, 20, 25, 0, 80); // 4 s before the line, 4 s after
    expect(timeLaps(trace(pts), gate).map((l) => `${l.kind}${l.complete ? '' : '*'}`)).toEqual(['flying']);
  });

  it('from the pits and back: the out-lap left a stop, the in-lap ended at one; neither is a complete lap', () => {
    const laps = timeLaps(trace(fromPitsAndBack(3)), gate);
    expect(laps.map((l) => `${l.kind}${l.complete ? '' : '*'}`)).toEqual(['out*', 'flying', 'flying', 'in*']);
  });

  it('a pause of over a minute starts a new run, with its own out- and in-lap', () => {
    const first = fromPitsAndBack(3);
    const second = fromPitsAndBack(3, first[first.length - 1]!.ms + 120_000);
    const laps = timeLaps(trace([...first, ...second]), gate);
    expect(laps.map((l) => `${l.run}${l.kind[0]}`)).toEqual(['1o', '1f', '1f', '1i', '2o', '2f', '2f', '2i']);
  });

  it('a stop inside a lap (a pit stop, a red flag) ends it as an in-lap; the next leaves as an out-lap', () => {
    const pts = oval(4.5, 20, 10);
    const stopAt = pts.findIndex((p) => p.ms >= 75_000); // mid-way round the second lap
    const stop = pts[stopAt]!;
    const standing = Array.from({ length: 200 }, (_, i) => ({ x: stop.x, y: stop.y, ms: stop.ms + i * 100, kmh: 0 }));
    const after = pts.slice(stopAt).map((p) => ({ ...p, ms: p.ms + 20_000 }));
    // Slowing into the stop and away from it over a second or two.
    const slowed = [
      ...pts.slice(0, stopAt).map((p, i) => (i > stopAt - 15 ? { ...p, kmh: 5 } : p)),
      ...standing,
      ...after.map((p, i) => (i < 15 ? { ...p, kmh: 5 } : p)),
    ];
    const laps = timeLaps(trace(slowed), gate);
    expect(laps.map((l) => `${l.run}${l.kind[0]}${l.complete ? '' : '*'}`)).toEqual([
      '1f',
      '1i*',
      '1o*',
      '1f',
      '1f',
      '1p*',
    ]);
  });

  it('a lap with no fix for over 10 s inside it is a partial piece, not timed', () => {
    const pts = oval(3.5, 20, 10).filter((p) => p.ms < 70_000 || p.ms > 85_000);
    const laps = timeLaps(trace(pts), gate);
    expect(laps.map((l) => `${l.kind}${l.complete ? '' : '*'}`)).toEqual(['flying', 'partial*', 'flying', 'partial*']);
  });

  it('a last lap through a pit lane that crosses the line, much slower, is the in-lap', () => {
    // Laps at 20 m/s, then the last one into the pit lane at 8 m/s, across the line, and on at pit speed.
    const pts = oval(4.2, (ridden) => (ridden < 3500 ? 20 : 8), 10);
    const laps = timeLaps(trace(pts), gate);
    expect(laps.map((l) => `${l.kind}${l.complete ? '' : '*'}`)).toEqual(['flying', 'flying', 'flying', 'in', 'in*']);
  });

  it('no crossing at all: one piece, nothing timed (an out-lap when it left a stop)', () => {
    const away = <P extends { x: number }>(p: P) => ({ ...p, x: p.x + 500 });
    expect(timeLaps(trace(oval(3, 20, 10).map(away)), gate).map((l) => l.kind)).toEqual(['partial']);
    expect(timeLaps(trace(fromPitsAndBack(3).map(away)), gate).map((l) => `${l.kind}${l.complete ? '' : '*'}`)).toEqual(
      ['out*'],
    );
  });
});
