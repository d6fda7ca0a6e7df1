import { describe, expect, it } from 'vitest';
import { analyzeGps } from '#core/analysis/gps-analysis.ts';
import { allocGpsColumns, setSample } from '#core/formats/gps-columns.ts';
import { manualSync } from '#core/video/sync.ts';
import { clipOverlay, overlayAt } from './clip-data';
import { drawOverlay } from './clip-overlay';
import { followRate, fractionAt, lapTrack, onGrid, utcAtFraction } from './lap-align';
import { sessionUtcTimes } from './video-time';

/**
 * Three laps of a 1 km circle at 10 Hz: lap 1 at 36 km/h (100 s), lap 2 at 40 km/h (90 s),
 * lap 3 at 36 km/h; the device's own distance along the lap (meterSum).
 */
function circleSession() {
  const speeds = [36, 40, 36];
  const n = speeds.reduce((sum, v) => sum + Math.round((1000 / (v / 3.6)) * 10), 0);
  const c = allocGpsColumns(n);
  const r = 1000 / (2 * Math.PI);
  let i = 0;
  let t = 36_000_000; // 10:00:00 UTC
  speeds.forEach((kmh, lap) => {
    const samples = Math.round((1000 / (kmh / 3.6)) * 10);
    for (let k = 0; k < samples; k++, i++, t += 100) {
      const along = (k / samples) * 1000;
      const a = along / r;
      setSample(
        c,
        i,
        -23.7 + (r * Math.sin(a)) / 111_320,
        -46.69 + (r * (1 - Math.cos(a))) / 101_900,
        kmh,
        12,
        t,
        lap + 1,
        0,
        0,
        lap === 1 ? 30 : -20,
        0,
        Math.round(along),
      );
    }
  });
  c.count = n;
  return c;
}

describe('two laps kept together by position', () => {
  const c = circleSession();
  const utc = sessionUtcTimes(c, '15112026');
  const [slow, fast] = analyzeGps(c).laps;
  const a = lapTrack(c, slow!, utc);
  const b = lapTrack(c, fast!, utc);

  it('finds the same place on both laps, and the time each took to get there', () => {
    expect(a.timeMs[a.timeMs.length - 1]).toBeCloseTo(99_900, -1);
    const halfway = utcAtFraction(a, 0.5);
    expect(fractionAt(a, halfway)).toBeCloseTo(0.5, 3);
    // The faster lap reaches halfway 5 s sooner after its start.
    expect(utcAtFraction(a, 0.5) - a.startUtcMs - (utcAtFraction(b, 0.5) - b.startUtcMs)).toBeCloseTo(5_000, -2);
    expect(fractionAt(a, a.startUtcMs - 1)).toBeNull();
  });

  it('eases the follower by its pace, seeks it after a jump', () => {
    expect(followRate(0)).toEqual({ rate: 1 });
    expect(followRate(250)).toEqual({ rate: 1.25 });
    expect(followRate(-800)).toEqual({ rate: 0.5 });
    expect(followRate(1_500)).toEqual({ seekTo: true });
  });

  it('reads the compare grid at a position', () => {
    expect(onGrid([0, 2, 4, 6], [null, 0.1, 0.2, 0.3], 4.4)).toBe(0.2);
    expect(onGrid([0, 2, 4, 6], [null, 0.1, 0.2, 0.3], 0)).toBeNull();
    expect(onGrid([], [], 3)).toBeNull();
  });
});

describe('the data drawn on a clip', () => {
  const c = circleSession();
  const utc = sessionUtcTimes(c, '15112026');
  const laps = analyzeGps(c).laps;
  const [, best, third] = laps;
  // The video's 20 s is the start of the third lap.
  const sync = manualSync([{ videoMs: 20_000, sessionUtcMs: utc[third!.start]! }]);

  it('follows the video file time: the lap, its time running, speed, lean and the gap to the best lap', () => {
    const o = clipOverlay(c, utc, sync, laps, best!, best!, 15_000, 45_000);
    expect(o.t[0]).toBeGreaterThanOrEqual(14_000);
    expect(o.t[o.t.length - 1]).toBeLessThanOrEqual(46_000);
    const before = overlayAt(o, 19_000)!;
    expect(before.lapName).toBe('A2');
    expect(before.speed).toBe(40);
    expect(before.roll).toBe(30);
    const at = overlayAt(o, 30_050)!;
    expect(at.lapName).toBe('A3');
    expect(at.lapS).toBeCloseTo(10.05, 2);
    expect(at.speed).toBe(36);
    expect(at.roll).toBe(-20);
    // 36 km/h against 40: after 10 s (100 m) the best lap took 9 s there.
    expect(at.delta).toBeCloseTo(1.0, 1);
    for (const v of [at.x, at.y]) expect(v >= 0 && v <= 1).toBe(true);
    expect(o.outline.length).toBeGreaterThan(100);
  });

  it('draws no lean for a file that recorded none (0 throughout is unknown, not upright)', () => {
    /** The text a frame's overlay writes (what the canvas is asked to draw; its pixels are the e2e test's). */
    const textOn = (o: ReturnType<typeof clipOverlay>) => {
      const text: string[] = [];
      const ctx = new Proxy({ fillText: (t: string) => text.push(t), measureText: () => ({ width: 10 }) } as object, {
        get: (target, key) => (key in target ? target[key as keyof typeof target] : () => {}),
        set: () => true,
      }) as CanvasRenderingContext2D;
      const labels = {
        lap: 'volta {lap}',
        speed: 'km/h',
        lean: 'Incl.',
        leanSides: { left: 'E', right: 'D' },
        delta: 'Dif.',
      };
      drawOverlay(ctx, o, labels, 30_050, 1280, 720);
      return text;
    };
    const withLean = clipOverlay(c, utc, sync, laps, best!, best!, 15_000, 45_000);
    expect(withLean.leanRecorded).toBe(true);
    expect(textOn(withLean)).toContain('Incl. 20° E');
    const flat = { ...c, roll: new Float64Array(c.roll.length) };
    const without = clipOverlay(flat, utc, sync, laps, best!, best!, 15_000, 45_000);
    expect(without.leanRecorded).toBe(false);
    expect(textOn(without).some((t) => t.startsWith('Incl.'))).toBe(false);
    expect(textOn(without)).toContain('36');
  });

  it('has nothing to draw where the video shows no part of the session', () => {
    const o = clipOverlay(c, utc, sync, laps, best!, best!, 900_000, 910_000);
    expect(o.t.length).toBe(0);
    expect(overlayAt(o, 905_000)).toBeNull();
  });
});
