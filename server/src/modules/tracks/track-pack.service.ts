// The track pack (issue 61): the circuits near a device, so it times laps at a circuit it has never
// seen: each one's start/finish and sector lines and, where an admin drew it, its pit lane ("Box").
// Tracks stored here (an admin may have moved their lines) come first; catalogue circuits fill in.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TrackPack } from '#core/contracts/device-health.contract.ts';
import { AppError } from '#core/errors.ts';
import { haversineM } from '#core/geo.ts';
import type { Gate } from '#core/tracks/gate.ts';
import { catalogueStartFinish } from '#core/tracks/start-finish.ts';
import { definitionFromOutline } from '#core/tracks/track-definition.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { LruCache } from '#server/lib/lru.ts';
import { recordAudit } from '../audit/audit.repository';
import type { TrackCatalogue } from './track-catalogue';
import { findTrack } from './tracks.repository';
import { deletePitLane, findPitLane, pitLanesOf, savePitLane, sharedTracksNear } from './pit-lanes.repository';

/** At most this many circuits in a pack: a device's flash is small, and a pack is for where it is. */
const PACK_MAX_TRACKS = 20;
/** How far a pit lane's lines may lie from the start/finish line (a box is beside the main straight). */
const PIT_LANE_MAX_M = 3000;

type Line = { a: { lat: number; lon: number }; b: { lat: number; lon: number } };
type PackTrack = TrackPack['tracks'][number];

const middle = (l: Line) => ({ lat: (l.a.lat + l.b.lat) / 2, lon: (l.a.lon + l.b.lon) / 2 });
const distanceM = (one: Line, other: Line) => {
  const [p, q] = [middle(one), middle(other)];
  return haversineM(p.lat, p.lon, q.lat, q.lon);
};

const round = (g: Gate): Line => ({
  a: { lat: +g.a.lat.toFixed(7), lon: +g.a.lon.toFixed(7) },
  b: { lat: +g.b.lat.toFixed(7), lon: +g.b.lon.toFixed(7) },
});

export function createTrackPack(deps: { db: Kysely<DB>; catalogue: () => TrackCatalogue }) {
  const { db } = deps;
  // A circuit's lines by id and shape (computing the default sectors walks its outline).
  const lines = new LruCache<string, { startFinish: Line; sectors: Line[] }>(500);

  function linesOf(key: string, outline: [number, number][], gate: Gate, forward: boolean, sectors: Gate[]) {
    const known = lines.get(key);
    if (known) return known;
    const definition = definitionFromOutline(outline, gate, forward, sectors);
    const made = { startFinish: round(gate), sectors: definition.sectors.map((s) => round(s.gate)) };
    lines.set(key, made);
    return made;
  }

  return {
    /** The pack and its ETag (a hash of its bytes: an unchanged pack costs a 304). */
    async near(lat: number, lon: number, radiusKm: number): Promise<{ pack: TrackPack; etag: string }> {
      const catalogue = deps.catalogue();
      const found = new Map<string, PackTrack>();
      const dLat = radiusKm / 111;
      const dLon = radiusKm / (111 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
      for (const row of await sharedTracksNear(db, lat, lon, dLat, dLon)) {
        const gate = JSON.parse(row.gate) as Gate;
        const distanceKm = haversineM(lat, lon, (gate.a.lat + gate.b.lat) / 2, (gate.a.lon + gate.b.lon) / 2) / 1000;
        if (distanceKm > radiusKm) continue;
        const outline =
          row.source === 'catalogue'
            ? (catalogue.get(row.outline_id)?.outline ?? [])
            : (JSON.parse(row.line) as [number, number][]);
        const made =
          outline.length > 1
            ? linesOf(`${row.id}|${row.version}`, outline, gate, row.forward === 1, JSON.parse(row.sectors) as Gate[])
            : { startFinish: round(gate), sectors: (JSON.parse(row.sectors) as Gate[]).map(round) };
        found.set(row.id, { id: row.id, name: row.name, distanceKm, ...made, pitLane: null });
      }
      for (const { track, distanceKm } of catalogue.near(lat, lon, radiusKm)) {
        const id = `catalogue:${track.id}`;
        if (found.has(id) || found.has(`${id}:reverse`)) continue;
        const gate = catalogueStartFinish(track.outline, track.startFinish, true);
        found.set(id, {
          id,
          name: track.name,
          distanceKm,
          ...linesOf(id, track.outline, gate, true, []),
          pitLane: null,
        });
      }
      const tracks = [...found.values()]
        .sort((a, b) => a.distanceKm - b.distanceKm)
        .slice(0, PACK_MAX_TRACKS)
        .map((t) => ({ ...t, distanceKm: Math.round(t.distanceKm * 10) / 10 }));
      const lanes = new Map(
        (
          await pitLanesOf(
            db,
            tracks.map((t) => t.id),
          )
        ).map((l) => [l.track_id, l]),
      );
      for (const t of tracks) {
        const lane = lanes.get(t.id);
        if (lane) t.pitLane = { entry: JSON.parse(lane.entry) as Line, exit: JSON.parse(lane.exit) as Line };
      }
      const pack = { tracks };
      const etag = `"${createHash('sha256').update(JSON.stringify(pack)).digest('base64url').slice(0, 27)}"`;
      return { pack, etag };
    },

    /** Draws (or clears, null) a circuit's pit lane: a stored track's id, or a catalogue circuit's `catalogue:<id>`. */
    async setPitLane(actor: string, trackId: string, lane: { entry: Line; exit: Line } | null): Promise<void> {
      const stored = await findTrack(db, trackId);
      const circuit = trackId.startsWith('catalogue:')
        ? deps.catalogue().get(trackId.slice('catalogue:'.length))
        : undefined;
      const gate = stored
        ? (JSON.parse(stored.gate) as Gate)
        : circuit && catalogueStartFinish(circuit.outline, circuit.startFinish, true);
      if (!gate) throw new AppError('storage/object-not-found', `No track ${trackId}.`);
      // A box is beside the main straight: lines kilometres away are a slip (or another circuit's),
      // and a device would look for its box there.
      if (lane && [lane.entry, lane.exit].some((l) => distanceM(gate, l) > PIT_LANE_MAX_M))
        throw new AppError('track/pit-lane-far');
      await inTransaction(db, async (trx) => {
        const before = await findPitLane(trx, trackId);
        if (lane)
          await savePitLane(
            trx,
            trackId,
            { entry: JSON.stringify(lane.entry), exit: JSON.stringify(lane.exit) },
            actor,
          );
        else await deletePitLane(trx, trackId);
        await recordAudit(trx, {
          actor,
          action: 'draw-pit-lane',
          target: trackId,
          before: before ? { entry: JSON.parse(before.entry), exit: JSON.parse(before.exit) } : {},
          after: lane ?? {},
        });
      });
    },
  };
}

export type TrackPackService = ReturnType<typeof createTrackPack>;
