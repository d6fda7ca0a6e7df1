import { findCorners, type Corner } from './corners';
import { gateAcross, type Gate, type LatLon } from './gate';
import { timeLaps, type Trace } from './lap-timing';
import { catalogueStartFinish, derivedStartFinish } from './start-finish';
import { sectionsOf, type TrackDefinition } from './track-analysis';
import { circularSmooth, headingAt, latLonAt, trackLine, type TrackLine } from './track-line';

/** Points (2 m apart) either side over which a trace's line is smoothed before its corners are found. */
const TRACE_SMOOTHING = 10;

export const gateCentre = (gate: Gate): LatLon => ({
  lat: (gate.a.lat + gate.b.lat) / 2,
  lon: (gate.a.lon + gate.b.lon) / 2,
});

/**
 * A track from an outline ([lat, lon] points in either direction) and its start/finish gate: the
 * line from the gate in the driving direction, and its corners.
 */
export function definitionFromOutline(
  outline: readonly (readonly [number, number])[],
  gate: Gate,
  forward: boolean,
  sectorGates: readonly Gate[] = [],
): TrackDefinition {
  const driven = forward ? outline : outline.slice().reverse();
  const line = trackLine(driven, gateCentre(gate));
  const corners = findCorners(line);
  return { gate, line, corners, sectors: sectorsOn(line, corners, sectorGates) };
}

/** Default sector gates: three, mid-straight, each nearest a quarter of the lap (as the device's four sectors). */
const DEFAULT_SECTORS = 3;

/**
 * The sector gates on a line, in driving order: those given, or by default gates across the line
 * mid-straight nearest its quarters (a timing line mid-corner would cut a corner in two).
 */
function sectorsOn(line: TrackLine, corners: readonly Corner[], gates: readonly Gate[]): TrackDefinition['sectors'] {
  if (gates.length)
    return gates.map((gate) => ({ gate, atM: alongLine(line, gateCentre(gate)) })).sort((a, b) => a.atM - b.atM);
  const cuts = sectionsOf(corners, line.length)
    .slice(1)
    .map((s) => s.fromM);
  const chosen = new Set<number>();
  for (let q = 1; q <= DEFAULT_SECTORS; q++) {
    const target = (q * line.length) / (DEFAULT_SECTORS + 1);
    const nearest = cuts.filter((c) => !chosen.has(c)).sort((a, b) => Math.abs(a - target) - Math.abs(b - target))[0];
    chosen.add(nearest ?? target);
  }
  return [...chosen]
    .sort((a, b) => a - b)
    .map((atM) => {
      const k = Math.min(line.x.length - 1, Math.round((atM / line.length) * line.x.length));
      const [east, north] = headingAt(line, k);
      return { gate: gateAcross(latLonAt(line, k), east, north), atM: line.s[k]! };
    });
}

/** Metres along the line of its point nearest `at`. */
function alongLine(line: TrackLine, at: LatLon): number {
  const [px, py] = line.proj.toXY(at.lat, at.lon);
  let best = 0;
  for (let k = 1; k < line.x.length; k++)
    if ((line.x[k]! - px) ** 2 + (line.y[k]! - py) ** 2 < (line.x[best]! - px) ** 2 + (line.y[best]! - py) ** 2)
      best = k;
  return line.s[best]!;
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
export function definitionFromTrace(
  trace: Trace,
  gate: Gate | undefined = derivedStartFinish(trace)?.gate,
): TrackDefinition | undefined {
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
  const corners = findCorners(smooth);
  return { gate, line, corners, sectors: sectorsOn(line, corners, []) };
}
