// Which track a trace was ridden on (a real circuit before a derived track, never another rider's
// own), and each track's definition, remembered per track and rebuilt when its gates move.
import type { Kysely } from 'kysely';
import { AppError } from '#core/errors.ts';
import type { TrackGeometry } from '#core/sim/session-generator.ts';
import type { Gate } from '#core/tracks/gate.ts';
import type { Trace } from '#core/tracks/lap-timing.ts';
import type { TrackDefinition } from '#core/tracks/track-analysis.ts';
import { definitionFromOutline } from '#core/tracks/track-definition.ts';
import { movingSamples } from '#core/tracks/track-match.ts';
import type { DB } from '#server/db/schema.ts';
import { LruCache } from '#server/lib/lru.ts';
import type { TrackRules } from '#server/plugins/policy.ts';
import type { TrackCatalogue } from './track-catalogue';
import { circuitTrackFor, derivedTrackFor, fits } from './new-track';
import {
  findTrack,
  insertTrack,
  setTrackOfSession,
  trackOfSession,
  tracksNear,
  type TrackRow,
} from './tracks.repository';

/** Known tracks looked at for a new trace: those within ~1 km of its middle (degrees). */
const NEAR_DEG = 0.01;
/** Track definitions remembered, one per track (its latest gates): a long derived track's is ~0.3 MB. */
const DEFINITIONS_KEPT = 100;

export function createTrackDefinitions(deps: {
  db: Kysely<DB>;
  catalogue: () => TrackCatalogue;
  bundled: TrackGeometry[];
  rules: TrackRules;
}) {
  const { db } = deps;
  const { mayRideTrack } = deps.rules;
  // By track id and gate: a track's newer sectors replace its older definition (renames reuse it).
  const definitions = new LruCache<string, { shape: string; definition: TrackDefinition }>(DEFINITIONS_KEPT);

  /** The outline a stored track follows, in its own point order ([] for a derived track: its line). */
  function outlineOf(row: TrackRow): [number, number][] {
    if (row.source === 'catalogue') return deps.catalogue().get(row.outline_id)?.outline ?? [];
    if (row.source === 'bundled') return deps.bundled.find((t) => t.name === row.outline_id)?.points ?? [];
    return JSON.parse(row.line) as [number, number][];
  }

  /** What a track's definition is made from besides its line (fixed per id): its gates and way round. */
  const shapeOf = (row: TrackRow) => `${row.forward}|${row.gate}|${row.sectors}`;

  function definitionOf(row: TrackRow): TrackDefinition {
    const shape = shapeOf(row);
    // By gate too: a session's own start/finish (trackOfSession) is another definition of the same track.
    const key = `${row.id}|${row.gate}`;
    const known = definitions.get(key);
    if (known?.shape === shape) return known.definition;
    const definition = definitionFromOutline(
      outlineOf(row),
      JSON.parse(row.gate) as Gate,
      row.forward === 1,
      JSON.parse(row.sectors) as Gate[],
    );
    definitions.set(key, { shape, definition });
    return definition;
  }

  /** The known track among `rows` the trace fits best, if any. */
  function bestFit(trace: Trace, samples: number[], rows: TrackRow[]): TrackRow | undefined {
    let best: { row: TrackRow; score: number } | undefined;
    for (const row of rows) {
      const fit = fits(trace, outlineOf(row), samples);
      if (!fit || fit.forward !== (row.forward === 1)) continue;
      const score = fit.onShare * fit.coverage;
      if (!best || score > best.score) best = { row, score };
    }
    return best?.row;
  }

  /**
   * The track `owner`'s trace was ridden on, a real circuit before any derived track: a known
   * bundled or catalogue track; else a bundled outline or catalogue circuit (kept); else a derived
   * track an admin shared; else one derived from the owner's own traces; else a new one derived
   * from this trace (kept, the owner's own). Another rider's derived track is never looked at.
   * `mayCreate` false (a background analysis) finds real circuits too (a rider's lists then show
   * a new session's ideal lap before its first read), but makes no derived track: that is made by
   * a read or an import, with the rider's own traces.
   */
  async function identify(trace: Trace, owner: string, mayCreate = true): Promise<TrackRow> {
    const samples = movingSamples(trace);
    if (samples.length < 10) throw new AppError('track/no-complete-lap');
    const mid = samples[Math.floor(samples.length / 2)]!;
    const near = (await tracksNear(db, trace.lat[mid]!, trace.lon[mid]!, NEAR_DEG, owner)).filter((row) =>
      mayRideTrack(owner, row),
    );
    const circuit = bestFit(
      trace,
      samples,
      near.filter((row) => row.source !== 'derived'),
    );
    if (circuit) return circuit;
    const derived =
      bestFit(
        trace,
        samples,
        near.filter((row) => row.source === 'derived' && row.shared === 1),
      ) ??
      bestFit(
        trace,
        samples,
        near.filter((row) => row.source === 'derived' && row.shared === 0),
      );
    const real = circuitTrackFor(trace, samples, owner, deps);
    if (real) {
      await insertTrack(db, real);
      return (await findTrack(db, real.id))!;
    }
    if (derived) return derived;
    if (!mayCreate) throw new AppError('track/no-complete-lap', 'No known track fits this trace yet.');
    const fresh = derivedTrackFor(trace, owner);
    if (!fresh) throw new AppError('track/no-complete-lap');
    await insertTrack(db, fresh);
    return (await findTrack(db, fresh.id))!;
  }

  /** The track a session was ridden on, found (and remembered) on its first analysis. */
  async function trackFor(sessionId: string, owner: string, trace: Trace, mayCreate = true): Promise<TrackRow> {
    const known = await trackOfSession(db, sessionId);
    // One tied before tracks had owners to another rider's derived track is identified again.
    if (known && mayRideTrack(owner, known)) return known;
    const row = await identify(trace, owner, mayCreate);
    await setTrackOfSession(db, sessionId, row.id);
    return row;
  }

  return { definitionOf, shapeOf, identify, trackFor, cached: () => definitions.size };
}

export type TrackDefinitions = ReturnType<typeof createTrackDefinitions>;
