/**
 * A rider's files of one day at one track as one recording: which file the session is built from
 * where two are the same ride (from two loggers, or exported twice), and their fixes merged in
 * time order (a morning's and an afternoon's file are the day's heats).
 */
import { haversineM } from '../geo';
import { TraceBuilder, type ImportedTrace, type LoggerLap } from './trace';

/** A file's pause longer than this between two fixes leaves that time to another file of the day. */
const COVER_GAP_MS = 5_000;
/** Two recordings of one ride agree on where the rider was to within GPS error (and a clock a little off). */
const SAME_PLACE_M = 50;

/** Where the trace was at `t` (ms), between the fixes around it; undefined outside it or in a pause. */
function positionAt(t: ImportedTrace, at: number): [number, number] | undefined {
  let lo = 0;
  let hi = t.count - 1;
  if (!t.count || at < t.timeMs[0]! || at > t.timeMs[hi]!) return undefined;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (t.timeMs[mid]! <= at) lo = mid;
    else hi = mid;
  }
  const span = t.timeMs[hi]! - t.timeMs[lo]!;
  if (span > COVER_GAP_MS) return undefined;
  const f = span > 0 ? (at - t.timeMs[lo]!) / span : 0;
  return [t.lat[lo]! + (t.lat[hi]! - t.lat[lo]!) * f, t.lon[lo]! + (t.lon[hi]! - t.lon[lo]!) * f];
}

/**
 * A file imported after another is the same recording of the same ride (exported twice, or from
 * two apps) when more than half of its time span lies within the other's, and over that time the
 * two put the rider at the same place (the median distance at 50 instants under SAME_PLACE_M).
 * Two files of one day that follow each other (morning, afternoon) are not.
 */
export function sameRecording(newer: ImportedTrace, older: ImportedTrace): boolean {
  if (!newer.count || !older.count) return false;
  const [a0, a1] = [newer.timeMs[0]!, newer.timeMs[newer.count - 1]!];
  const [b0, b1] = [older.timeMs[0]!, older.timeMs[older.count - 1]!];
  const from = Math.max(a0, b0);
  const overlap = Math.min(a1, b1) - from;
  if (!(overlap > 0 && overlap > (a1 - a0) / 2)) return false;
  const apart: number[] = [];
  for (let k = 0; k < 50; k++) {
    const at = from + (overlap * (k + 0.5)) / 50;
    const [p, q] = [positionAt(newer, at), positionAt(older, at)];
    if (p && q) apart.push(haversineM(p[0], p[1], q[0], q[1]));
  }
  apart.sort((x, y) => x - y);
  return apart.length > 0 && apart[apart.length >> 1]! < SAME_PLACE_M;
}

/** Fixes taken while riding (over 5 m/s since the one before): a logger's rows while standing in the pits add nothing. */
export function ridingFixes(t: ImportedTrace): number {
  let n = 0;
  for (let i = 1; i < t.count; i++) {
    const dt = t.timeMs[i]! - t.timeMs[i - 1]!;
    if (dt <= COVER_GAP_MS && haversineM(t.lat[i - 1]!, t.lon[i - 1]!, t.lat[i]!, t.lon[i]!) >= (5 * dt) / 1000) n++;
  }
  return n;
}

/**
 * Which of a day's files (in the order they were imported) make its session. `order`: the files,
 * the one whose fixes and laps win where they overlap first: one with the logger's own laps (what
 * the rider saw on the logger, the time decision 028 shows), else any; among those the first
 * imported (a session does not change under the rider for nothing) unless another is richer, with
 * over 10 % more fixes taken while riding (a 25 Hz logger over a 1 Hz phone). `repeats[k]`: for a
 * file that is the same recording as one before it in `order` (sameRecording, the later imported
 * as the newer), that one: its laps and warnings are the other's already, and only its fixes
 * outside the other's time are used.
 */
export function sessionFiles(files: readonly { trace: ImportedTrace; loggerLaps: readonly LoggerLap[] }[]): {
  order: number[];
  repeats: (number | undefined)[];
} {
  const riding = files.map((f) => ridingFixes(f.trace));
  const left = files.map((_, k) => k);
  const order: number[] = [];
  while (left.length) {
    const withLaps = left.filter((k) => files[k]!.loggerLaps.length > 0);
    const pool = withLaps.length ? withLaps : left;
    const richest = pool.reduce((a, b) => (riding[b]! > riding[a]! ? b : a));
    const pick = riding[richest]! > 1.1 * riding[pool[0]!]! ? richest : pool[0]!;
    order.push(pick);
    left.splice(left.indexOf(pick), 1);
  }
  const repeats: (number | undefined)[] = files.map(() => undefined);
  order.forEach((k, at) => {
    repeats[k] = order
      .slice(0, at)
      .find(
        (j) => repeats[j] === undefined && sameRecording(files[Math.max(j, k)]!.trace, files[Math.min(j, k)]!.trace),
      );
  });
  return { order, repeats };
}

/**
 * Several files of one day as one trace, in time order. Where they overlap, the fixes of the one
 * listed first are kept (see sessionFiles): a file's fix is left out where one listed before it
 * has fixes around that time (not in one of its pauses).
 */
export function mergeTraces(traces: readonly ImportedTrace[]): ImportedTrace {
  if (traces.length === 1) return traces[0]!;
  const kept = traces.map((t, k) => {
    const keep = new Uint8Array(t.count);
    const before = traces.slice(0, k);
    const at = before.map(() => 0);
    for (let i = 0; i < t.count; i++) {
      const time = t.timeMs[i]!;
      keep[i] = before.some((h, j) => {
        // The fix of h at or before `time` (times only grow: each pointer only moves on).
        while (at[j]! + 1 < h.count && h.timeMs[at[j]! + 1]! <= time) at[j]!++;
        const p = at[j]!;
        if (h.timeMs[p] === time) return true;
        return h.timeMs[p]! < time && p + 1 < h.count && h.timeMs[p + 1]! - h.timeMs[p]! <= COVER_GAP_MS;
      })
        ? 0
        : 1;
    }
    return keep;
  });
  const out = new TraceBuilder();
  const next = traces.map(() => 0);
  for (;;) {
    let pick = -1;
    traces.forEach((t, k) => {
      while (next[k]! < t.count && !kept[k]![next[k]!]) next[k]!++;
      if (next[k]! < t.count && (pick < 0 || t.timeMs[next[k]!]! < traces[pick]!.timeMs[next[pick]!]!)) pick = k;
    });
    if (pick < 0) break;
    const t = traces[pick]!;
    const i = next[pick]!++;
    out.addFix(t.timeMs[i]!, t.lat[i]!, t.lon[i]!, t.speedKmh[i]!, t.satellites[i]!, t.leanDeg[i]!);
  }
  return out.trace();
}
