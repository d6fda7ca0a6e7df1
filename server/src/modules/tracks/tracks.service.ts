// The tracks service: one face over the track modules (which track, its analysis, settled figures,
// edits), as the routes, jobs and other services call it.
import { AppError } from '#core/errors.ts';
import type { Gate } from '#core/tracks/gate.ts';
import type { Trace } from '#core/tracks/lap-timing.ts';
import type { Kysely } from 'kysely';
import type { TrackGeometry } from '#core/sim/session-generator.ts';
import type { DB } from '#server/db/schema.ts';
import type { TrackRules } from '#server/plugins/policy.ts';
import type { SessionReader } from '../sessions/session-reader.service';
import type { TrackCatalogue } from './track-catalogue';
import { createTrackAnalysis } from './track-analysis.service';
import { createTrackCoaching } from './track-coaching.service';
import { createTrackDefinitions } from './track-definitions.service';
import { createTrackEditing } from './track-editing.service';
import { createTrackFigures } from './track-figures.service';
import { findTrack, setTrackOfSession } from './tracks.repository';

/**
 * Tracks: which track a session was ridden on (a real circuit first: a bundled outline or a
 * catalogue circuit; then a derived track an admin shared; then one derived from the rider's own
 * traces, or a new one derived from this trace and kept as the rider's own), its definition, and
 * the analysis of a session's laps on it. Definitions and analyses are remembered (bounded) per
 * track definition, so an admin moving a gate recomputes every session at that track on its next
 * read, and a rename recomputes nothing.
 */
export function createTracksService(deps: {
  db: Kysely<DB>;
  reader: SessionReader;
  catalogue: () => TrackCatalogue;
  bundled: TrackGeometry[];
  /** Who may ride, rename and share which track (the policy's). */
  rules: TrackRules;
}) {
  const { db } = deps;
  const definitions = createTrackDefinitions(deps);
  const { definitionOf } = definitions;
  const analyses = createTrackAnalysis({ ...deps, definitions });
  const coaching = createTrackCoaching({ ...deps, definitions, analyses });
  const figures = createTrackFigures({ ...deps, analyses });

  return {
    /**
     * The track a trace (not yet a session: an import) was ridden on, with its definition; the
     * session is tied to it with `remember` once it exists.
     */
    async identify(trace: Trace, owner: string) {
      const row = await definitions.identify(trace, owner);
      return { id: row.id, name: row.name, source: row.source, definition: definitionOf(row) };
    },

    /** Ties a session to its track; `gate`: its own start/finish (null: the track's), kept as given. */
    async remember(sessionId: string, trackId: string, gate?: Gate | null) {
      await setTrackOfSession(db, sessionId, trackId, gate === undefined ? undefined : gate && JSON.stringify(gate));
    },

    /** A track's definition timed at another start/finish: an imported session's own (its logger's line). */
    async definitionAt(trackId: string, gate: Gate) {
      const row = await findTrack(db, trackId);
      if (!row) throw new AppError('track/no-complete-lap', 'The track is gone.');
      return definitionOf({ ...row, gate: JSON.stringify(gate) });
    },

    // A session's analysis, and what is read from it (track-analysis.service.ts).
    analysis: analyses.analysis,
    compare: analyses.compare,
    cornerBests: analyses.cornerBests,
    sharedSession: analyses.sharedSession,
    sharedLap: analyses.sharedLap,
    outline: analyses.outline,
    keepImported: analyses.keepImported,

    // Coaching, from each session's corner study (track-coaching.service.ts).
    coaching: coaching.coaching,
    studyArrived: coaching.studyArrived,

    // Figures settled as sessions arrive (track-figures.service.ts).
    analyzeArrived: figures.analyzeArrived,
    settleStoredFigures: figures.settleStoredFigures,

    // Listing, searching and changing tracks (track-editing.service.ts).
    ...createTrackEditing({ ...deps, definitions }),

    /** Each remembered cache's size, by name (the `voltas_cache_entries` metric). */
    caches(): Record<string, () => number> {
      return {
        'track-definitions': definitions.cached,
        'track-analyses': analyses.cached,
        'track-studies': coaching.studiesCached,
      };
    },
  };
}

export type TracksService = ReturnType<typeof createTracksService>;
