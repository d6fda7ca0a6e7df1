// What a figure read from a trace is worth (the corner study, issue 62): positions, speeds and times
// good to the spacing of the trace's fixes and the GPS's own noise, and the trace's rate of fixes.
import type { Trace } from './lap-timing';

/** A fix's position along the track is worth about this (m): a GPS module's noise, correlated over seconds. */
export const POSITION_NOISE_M = 2.5;
/** Lateral position against another day's lap: its GPS may sit a few metres aside. */
export const LINE_ACCURACY_M = { sameSession: 1.5, otherSession: 4 } as const;
/**
 * Where the throttle opens is found from the speed's rise, which GPS position noise blurs more
 * than a braking point's sharp change: laps ridden the same way put it this far apart (m, a
 * standard deviation's worth over the generator's sessions: 6 m at 10 Hz, 4 m at 25 Hz).
 */
export const throttleNoiseM = (hz: number) => 3 + 30 / Math.max(hz, 1);

/** How far apart two of a trace's fixes are at `ms` (m/s), and the accuracy of a point found between them. */
export function accuracyAt(speedMs: number, hz: number): number {
  // Most of a fix's spacing and the GPS's own couple of metres: at 10 Hz ±3.5-6 m from 100 to
  // 250 km/h, at 25 Hz ±2.5-3.5 m.
  return round(Math.max(1.5, Math.hypot((0.75 * speedMs) / Math.max(hz, 0.2), POSITION_NOISE_M)), 1);
}

/** How far a speed read from the trace can be trusted (km/h): the GPS's own jitter and, at a low rate, a missed minimum. */
export function speedAccuracyKmh(hz: number): number {
  return round(2 + 5 / Math.max(hz, 0.2), 1);
}

/** A lap time's difference inside this (s) is the same time. */
export function timeAccuracyS(hz: number): number {
  return round(0.01 + 0.2 / Math.max(hz, 0.2), 3);
}

/**
 * The trace's rate of fixes: the median time between positions that moved (a logger that merges
 * other channels' rows into its timeline repeats a fix between two, at twice the rate or more).
 */
export function usualHz(trace: Trace, time: Float64Array): number {
  const gaps: number[] = [];
  let last = 0;
  const step = Math.max(1, Math.floor(trace.count / 20_000));
  for (let i = 1; i < trace.count; i++) {
    if (trace.lat[i] === trace.lat[last] && trace.lon[i] === trace.lon[last]) continue;
    if (i % step === 0 && time[i]! > time[last]!) gaps.push(time[i]! - time[last]!);
    last = i;
  }
  if (!gaps.length) return 1;
  gaps.sort((a, b) => a - b);
  return round(1000 / gaps[gaps.length >> 1]!, 1);
}

export function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
