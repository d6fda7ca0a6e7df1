// A rider's own sessions across devices and imports: 'Minhas sessões' pages, the figures progress
// and personal bests are made of, and the latest session for the home screen.
import type { Kysely } from 'kysely';
import { isImportCollection } from '#core/contracts/session-paths.ts';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { DEMO_DEVICE_ID } from '#server/lib/demo-accounts.ts';
import { circuitKey, circuitList, circuitOf } from './circuits';
import type { SessionFigures } from './session-figures.service';
import {
  latestVisibleSession,
  listOwnCircuits,
  listOwnSessions,
  listOwnTracks,
  ownSessionFigures,
  type Viewer,
} from './sessions.repository';

export function createRiderSessions(deps: { db: Kysely<DB>; figures: SessionFigures }) {
  const { db } = deps;
  const { figuresOfAll } = deps.figures;

  return {
    /**
     * 'Minhas sessões': a page of the viewer's own sessions, newest first, and the tracks to
     * filter by. The cursor is the last row's date and id (opaque to the client; a tampered one
     * is a 400).
     */
    async mySessions(viewer: Viewer, q: { track?: string | undefined; after?: string | undefined; limit: number }) {
      let after: { dateIso: string; id: string } | undefined;
      if (q.after) {
        try {
          const [dateIso, id] = JSON.parse(Buffer.from(q.after, 'base64url').toString('utf8')) as [unknown, unknown];
          if (typeof dateIso !== 'string' || typeof id !== 'string') throw new Error('cursor');
          after = { dateIso, id };
        } catch {
          throw new AppError('storage/invalid-argument', 'Invalid cursor: pass the `next` of the previous page.', {
            after: 'invalid',
          });
        }
      }
      const rows = await listOwnSessions(db, viewer.email, { track: q.track, after, limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      const figures = await figuresOfAll(page);
      const known = await listOwnCircuits(db, viewer.email);
      const circuit = circuitOf(known);
      return {
        sessions: page.map((r, k) => ({
          device: r.device_id,
          track: r.track,
          circuit: circuit(r),
          date: r.date,
          imported: isImportCollection(r.device_id),
          bestLapMs: figures[k]!.bestLapMs,
          idealLapMs: r.ideal_ms === null ? null : Number(r.ideal_ms),
          theoreticalBestMs: figures[k]!.theoreticalBestMs,
          consistencyMs: figures[k]!.consistencyMs,
          laps: Number(r.lap_count),
          heats: figures[k]!.heats,
          updatedAt: r.updated_at,
        })),
        next:
          rows.length > q.limit && last
            ? Buffer.from(JSON.stringify([last.date_iso, last.id])).toString('base64url')
            : null,
        tracks: await listOwnTracks(db, viewer.email),
        circuits: circuitList(known),
      };
    },

    /**
     * The rider's own sessions (devices and imports; at the circuit a track name stands for, or
     * all), oldest first, each with its circuit and lap figures: what personal bests and progress are made of.
     */
    async ownFigures(email: string, track?: string) {
      const known = await listOwnCircuits(db, email);
      const circuit = circuitOf(known);
      let rows = await ownSessionFigures(db, email, track);
      if (track !== undefined) {
        // A name two circuits' sessions carry stands for the one its latest session was ridden on.
        const named = rows.filter((r) => r.track === track).at(-1);
        const key = named ? circuitKey(circuit(named)) : undefined;
        rows = rows.filter((r) => circuitKey(circuit(r)) === key);
      }
      const figures = await figuresOfAll(rows);
      return rows.map((r, k) => ({
        id: r.id,
        device: r.device_id,
        track: r.track,
        circuit: circuit(r),
        date: r.date,
        dateIso: r.date_iso,
        figures: figures[k]!,
        idealLapMs: r.ideal_ms === null ? null : Number(r.ideal_ms),
      }));
    },

    /** The most recently updated session the viewer may see (for the home screen). */
    async latest(viewer: Viewer) {
      const row = await latestVisibleSession(db, viewer);
      return row
        ? {
            device: row.device_id,
            track: row.track,
            date: row.date,
            updatedAt: row.updated_at,
            demo: row.device_id === DEMO_DEVICE_ID,
          }
        : null;
    },
  };
}
