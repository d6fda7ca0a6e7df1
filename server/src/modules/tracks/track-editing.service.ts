// The tracks themselves: listed, shown, searched in the catalogue, and changed (an admin's gates
// and sharing, a rider's name for their own track, the circuit a rider says a session was on).
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { moveGateBodySchema } from '#core/contracts/tracks.contract.ts';
import { AppError } from '#core/errors.ts';
import type { Gate } from '#core/tracks/gate.ts';
import { catalogueStartFinish } from '#core/tracks/start-finish.ts';
import { latLonAt } from '#core/tracks/track-line.ts';
import { fitOutline } from '#core/tracks/track-match.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { nowIso } from '#server/lib/tokens.ts';
import type { TrackRules } from '#server/plugins/policy.ts';
import { recordAudit } from '../audit/audit.repository';
import type { SessionReader } from '../sessions/session-reader.service';
import type { Viewer } from '../sessions/sessions.repository';
import type { TrackCatalogue } from './track-catalogue';
import type { TrackDefinitions } from './track-definitions.service';
import { boxOf } from './new-track';
import { findPitLane } from './pit-lanes.repository';
import { cornerOf, summaryOf } from './track-presentation';
import { findTrack, insertTrack, listTracks, setTrackOfSession, updateTrack, type TrackRow } from './tracks.repository';

export function createTrackEditing(deps: {
  db: Kysely<DB>;
  reader: SessionReader;
  catalogue: () => TrackCatalogue;
  definitions: TrackDefinitions;
  rules: TrackRules;
}) {
  const { db, reader } = deps;
  const { definitionOf } = deps.definitions;
  const { mayRideTrack, mayRenameTrack, maySetTrackShared } = deps.rules;

  /**
   * A catalogue circuit no session was ridden on (`catalogue:<id>`), as a track row kept nowhere:
   * what the devices' track pack gives for it, so an admin can draw its pit lane before anyone rides it.
   */
  function unriddenCircuit(id: string): TrackRow | undefined {
    const circuit = id.startsWith('catalogue:') ? deps.catalogue().get(id.slice('catalogue:'.length)) : undefined;
    if (!circuit) return undefined;
    const gate = catalogueStartFinish(circuit.outline, circuit.startFinish, true);
    const now = nowIso();
    return {
      id,
      name: circuit.name,
      source: 'catalogue',
      outline_id: circuit.id,
      forward: 1,
      gate: JSON.stringify(gate),
      line: '[]',
      sectors: '[]',
      ...boxOf(circuit.outline),
      version: 0,
      created_by: '',
      shared: 1,
      created_at: now,
      updated_at: now,
    };
  }

  return {
    /** Every track Voltas knows, with its number of sessions, and whose it is (admins). */
    async list() {
      const rows = await listTracks(db);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        source: r.source,
        version: Number(r.version),
        updatedAt: r.updated_at,
        sessions: Number(r.sessions),
        shared: Number(r.shared) === 1,
        createdBy: r.created_by,
      }));
    },

    /** A track's definition for the map: its gate, corners and line. */
    async track(id: string) {
      const stored = await findTrack(db, id);
      const row = stored ?? unriddenCircuit(id);
      if (!row) throw new AppError('storage/object-not-found');
      const definition = definitionOf(row);
      const line: [number, number][] = [];
      for (let k = 0; k < definition.line.x.length; k += 5) {
        const p = latLonAt(definition.line, k);
        line.push([p.lat, p.lon]);
      }
      const lane = await findPitLane(db, id);
      const pitLane = lane && { entry: JSON.parse(lane.entry) as Gate, exit: JSON.parse(lane.exit) as Gate };
      return {
        ...summaryOf(row, definition),
        corners: definition.corners.map(cornerOf),
        line,
        pitLane: pitLane ?? null,
        stored: stored !== undefined,
      };
    },

    /**
     * Moves a track's start/finish gate, or one of its sector gates (1-based; the others keep
     * where they are shown now), for an admin: every session there is timed again on its next read.
     */
    async moveGate(actor: string, id: string, body: z.infer<typeof moveGateBodySchema>) {
      return inTransaction(db, async (trx) => {
        const before = await findTrack(trx, id);
        if (!before) throw new AppError('storage/object-not-found');
        let change: { gate?: string; sectors?: string };
        if (body.sector === undefined) change = { gate: JSON.stringify(body.gate) };
        else {
          const sectors = definitionOf(before).sectors.map((s) => s.gate);
          if (body.sector > sectors.length)
            throw new AppError('storage/object-not-found', 'No such sector gate on this track.');
          sectors[body.sector - 1] = body.gate;
          change = { sectors: JSON.stringify(sectors) };
        }
        const after = (await updateTrack(trx, id, change, nowIso()))!;
        const what = body.sector === undefined ? 'gate' : `sector ${body.sector}`;
        await recordAudit(trx, {
          actor,
          action: 'move-track-gate',
          target: id,
          before: {
            [what]:
              body.sector === undefined ? JSON.parse(before.gate) : definitionOf(before).sectors[body.sector - 1]!.gate,
          },
          after: { [what]: body.gate },
        });
        return summaryOf(after, definitionOf(after));
      });
    },

    /** Renames a track: a derived one still their own by the rider whose session defined it, any by an admin. */
    async rename(viewer: Viewer, id: string, name: string) {
      return inTransaction(db, async (trx) => {
        const before = await findTrack(trx, id);
        // Another rider's own track is not there for this rider, as for every route.
        if (!before || !(viewer.admin || mayRideTrack(viewer.email, before)))
          throw new AppError('storage/object-not-found');
        if (!mayRenameTrack(viewer, before)) throw new AppError('storage/unauthorized');
        const after = (await updateTrack(trx, id, { name }, nowIso()))!;
        await recordAudit(trx, {
          actor: viewer.email,
          action: 'rename-track',
          target: id,
          before: { name: before.name },
          after: { name },
        });
        return summaryOf(after, definitionOf(after));
      });
    },

    /**
     * The rider says which catalogue circuit a session was ridden on (where Voltas did not find
     * it, or found another layout): its owner or an admin. Driven the way the trace goes round it.
     */
    async choose(viewer: Viewer, s: SessionAddress, catalogueId: string) {
      const inputs = await reader.trackInputs(viewer, s);
      if (!viewer.admin && inputs.ownerEmail !== viewer.email) throw new AppError('storage/unauthorized');
      const circuit = deps.catalogue().get(catalogueId);
      if (!circuit) throw new AppError('storage/object-not-found', 'No such circuit in the catalogue.');
      const trace = await inputs.columns();
      const forward = fitOutline(trace, circuit.outline).forward;
      const id = `catalogue:${circuit.id}${forward ? '' : ':reverse'}`;
      const now = nowIso();
      await insertTrack(db, {
        id,
        name: circuit.name,
        source: 'catalogue',
        outline_id: circuit.id,
        forward: forward ? 1 : 0,
        gate: JSON.stringify(catalogueStartFinish(circuit.outline, circuit.startFinish, forward)),
        line: '[]',
        ...boxOf(circuit.outline),
        created_by: viewer.email,
        created_at: now,
        updated_at: now,
      });
      await setTrackOfSession(db, inputs.sessionId, id);
      const row = (await findTrack(db, id))!;
      return summaryOf(row, definitionOf(row));
    },

    /**
     * An admin makes a derived track everyone's (every rider's traces there may be matched to it
     * and named after it, and only admins rename it), or its creator's own again.
     */
    async setShared(actor: Viewer, id: string, shared: boolean) {
      return inTransaction(db, async (trx) => {
        const before = await findTrack(trx, id);
        if (!before) throw new AppError('storage/object-not-found');
        if (!maySetTrackShared(actor, before)) {
          throw new AppError(
            'storage/invalid-argument',
            'Only a track derived from a session can be shared or made its rider’s own again: catalogue and bundled tracks are everyone’s.',
            undefined,
            { id: 'tracks.shareRefused' },
          );
        }
        const after = (await updateTrack(trx, id, { shared: shared ? 1 : 0 }, nowIso()))!;
        await recordAudit(trx, {
          actor: actor.email,
          action: 'share-track',
          target: id,
          before: { shared: before.shared === 1 },
          after: { shared },
        });
        return summaryOf(after, definitionOf(after));
      });
    },

    search(q: string) {
      return {
        tracks: deps
          .catalogue()
          .search(q)
          .map((t) => ({
            id: t.id,
            name: t.name,
            shortName: t.shortName,
            startFinish: { lat: t.startFinish[0], lon: t.startFinish[1] },
          })),
      };
    },
  };
}
