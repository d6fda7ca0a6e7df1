// A track made for a trace no known track fits: a real circuit (bundled or catalogue) or one derived from it.
import { randomBytes } from 'node:crypto';
import type { TrackGeometry } from '#core/sim/session-generator.ts';
import { catalogueStartFinish, derivedStartFinish } from '#core/tracks/start-finish.ts';
import { definitionFromTrace, gateCentre } from '#core/tracks/track-definition.ts';
import type { Trace } from '#core/tracks/lap-timing.ts';
import { latLonAt } from '#core/tracks/track-line.ts';
import { fitOutline } from '#core/tracks/track-match.ts';
import { nowIso } from '#server/lib/tokens.ts';
import type { TrackCatalogue } from './track-catalogue';
import type { TrackRow } from './tracks.repository';

// Which track a trace fits, and the track Voltas makes for one that fits none it knows: a bundled
// outline, a catalogue circuit, or the trace's own line.

/** A trace fits a known track's line when this share of its moving samples run along it, covering this much of it. */
const MIN_ON_SHARE = 0.9;
const MIN_COVERAGE = 0.8;
export function boxOf(points: readonly (readonly [number, number])[]) {
  const lats = points.map((p) => p[0]);
  const lons = points.map((p) => p[1]);
  return { south: Math.min(...lats), west: Math.min(...lons), north: Math.max(...lats), east: Math.max(...lons) };
}

export function fits(trace: Trace, outline: readonly (readonly [number, number])[], samples: number[]) {
  const fit = fitOutline(trace, outline, samples);
  return fit.onShare >= MIN_ON_SHARE && fit.coverage >= MIN_COVERAGE ? fit : undefined;
}

type NewTrack = Omit<TrackRow, 'version' | 'sectors'>;

/**
 * The real circuit a trace runs along, as a track everyone shares: a bundled outline, else a
 * catalogue circuit; undefined where none fits.
 */
export function circuitTrackFor(
  trace: Trace,
  samples: number[],
  owner: string,
  known: { catalogue: () => TrackCatalogue; bundled: TrackGeometry[] },
): NewTrack | undefined {
  const now = nowIso();
  const base = { created_by: owner, created_at: now, updated_at: now, shared: 1 };
  const found = known.catalogue().find(trace);
  for (const geometry of known.bundled) {
    const fit = fits(trace, geometry.points, samples);
    if (!fit) continue;
    const point = geometry.startFinish ?? found?.track.startFinish;
    const gate = point ? catalogueStartFinish(geometry.points, point, fit.forward) : derivedStartFinish(trace)?.gate;
    if (!gate) continue;
    const id = `bundled:${geometry.name}${fit.forward ? '' : ':reverse'}`;
    return {
      id,
      name: geometry.name,
      source: 'bundled',
      outline_id: geometry.name,
      forward: fit.forward ? 1 : 0,
      gate: JSON.stringify(gate),
      line: '[]',
      ...boxOf(geometry.points),
      ...base,
    };
  }
  if (!found) return undefined;
  const { track, forward } = found;
  const gate = catalogueStartFinish(track.outline, track.startFinish, forward);
  const id = `catalogue:${track.id}${forward ? '' : ':reverse'}`;
  return {
    id,
    name: track.name,
    source: 'catalogue',
    outline_id: track.id,
    forward: forward ? 1 : 0,
    gate: JSON.stringify(gate),
    line: '[]',
    ...boxOf(track.outline),
    ...base,
  };
}

/** A track derived from the trace's own line, its rider's own (`shared` 0) until an admin shares it. */
export function derivedTrackFor(trace: Trace, owner: string): NewTrack | undefined {
  const derived = definitionFromTrace(trace);
  if (!derived) return undefined;
  // Kept every ~10 m: the line is for finding the track again and drawing it, corners come from it smoothed.
  const line: [number, number][] = [];
  for (let k = 0; k < derived.line.x.length; k += 5) {
    const p = latLonAt(derived.line, k);
    line.push([Number(p.lat.toFixed(7)), Number(p.lon.toFixed(7))]);
  }
  const at = gateCentre(derived.gate);
  const now = nowIso();
  return {
    id: `derived:${randomBytes(8).toString('hex')}`,
    name: `Pista em ${at.lat.toFixed(4)}, ${at.lon.toFixed(4)}`,
    source: 'derived',
    outline_id: '',
    forward: 1,
    gate: JSON.stringify(derived.gate),
    line: JSON.stringify(line),
    ...boxOf(line),
    created_by: owner,
    created_at: now,
    updated_at: now,
    shared: 0,
  };
}
