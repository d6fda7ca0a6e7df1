import { findCorners } from './corners';
import type { Gate, LatLon } from './gate';
import { timeLaps, type Trace } from './lap-timing';
import { catalogueStartFinish, derivedStartFinish } from './start-finish';
import type { TrackDefinition } from './track-analysis';
import { circularSmooth, trackLine } from './track-line';

/** Points (2 m apart) either side over which a trace's line is smoothed before its corners are found. */
const TRACE_SMOOTHING = 10;

export const gateCentre = (gate: Gate): LatLon => ({ lat: (gate.a.lat + gate.b.lat) / 2, lon: (gate.a.lon + gate.b.lon) / 2 });

/**
 * A track from an outline ([lat, lon] points in either direction) and its start/finish gate: the
 * line from the gate in the driving direction, and its corners.
 */
export function definitionFromOutline(outline: readonly (readonly [number, number])[], gate: Gate, forward: boolean): TrackDefinition {
  const driven = forward ? outline : outline.slice().reverse();
  const line = trackLine(driven, gateCentre(gate));
  return { gate, line, corners: findCorners(line) };
}

/** A catalogue circuit as the trace drives it. */
export function definitionFromCatalogue(
  outline: readonly (readonly [number, number])[],
  startFinish: readonly [number, number],
  forward: boolean,
): TrackDefinition {
  return definitionFromOutline(outline, catalogueStartFinish(outline, startFinish, forward), forward);
}

/**
 * A track from the trace alone, where the catalogue has none: the start/finish where the trace
 * is fastest and the line of its fastest lap. Undefined where no lap is complete.
 */
export function definitionFromTrace(trace: Trace, gate: Gate | undefined = derivedStartFinish(trace)?.gate): TrackDefinition | undefined {
  if (!gate) return undefined;
  const laps = timeLaps(trace, gate).filter((l) => l.complete);
  const best = laps.filter((l) => l.kind === 'flying').sort((a, b) => a.seconds - b.seconds)[0] ?? laps[0];
  if (!best) return undefined;
  const points: [number, number][] = [];
  for (let i = best.start.index + 1; i <= best.end.index; i++) points.push([trace.lat[i]!, trace.lon[i]!]);
  const line = trackLine(points, gateCentre(gate));
  // A lap's fixes wander by a metre or so, which a curvature over 16 m reads as bends: the
  // corners are looked for on the line smoothed over ~20 m either side.
  const smooth = { ...line, x: circularSmooth(line.x, TRACE_SMOOTHING), y: circularSmooth(line.y, TRACE_SMOOTHING) };
  return { gate, line, corners: findCorners(smooth) };
}
