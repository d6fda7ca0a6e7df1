import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TrackGeometry } from '../sim/session-generator';
import { trackGeometries } from '../sim/track-geometries';

/** Core's tests' fixture: the real track outlines of assets/tracks, read from disk. */
export function loadTracks(): TrackGeometry[] {
  const dir = path.resolve(import.meta.dirname, '../../assets/tracks');
  return trackGeometries((file) => readFileSync(path.join(dir, file), 'utf8'));
}
