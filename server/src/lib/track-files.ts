import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TrackGeometry } from '#core/sim/session-generator.ts';
import { trackGeometries } from '#core/sim/track-geometries.ts';

/** The real track outlines of assets/tracks, read from disk (core/sim/track-geometries.ts says which). */
const TRACK_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/tracks');

export function loadTracks(): TrackGeometry[] {
  return trackGeometries((file) => readFileSync(path.join(TRACK_DIR, file), 'utf8'));
}

export function findTrack(name: string): TrackGeometry | undefined {
  return loadTracks().find((t) => t.name.toLowerCase() === name.toLowerCase());
}
