// SQL of pit lanes ("Box"): a circuit's entry and exit lines, drawn by an admin, by track id.
import type { Kysely } from 'kysely';
import type { DB } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';

export function pitLanesOf(db: Kysely<DB>, trackIds: string[]) {
  if (!trackIds.length) return Promise.resolve([]);
  return db.selectFrom('pit_lanes').selectAll().where('track_id', 'in', trackIds).execute();
}

export function findPitLane(db: Kysely<DB>, trackId: string) {
  return db.selectFrom('pit_lanes').selectAll().where('track_id', '=', trackId).executeTakeFirst();
}

export async function savePitLane(
  db: Kysely<DB>,
  trackId: string,
  lane: { entry: string; exit: string },
  by: string,
): Promise<void> {
  const row = { track_id: trackId, ...lane, updated_at: nowIso(), updated_by: by };
  await db
    .insertInto('pit_lanes')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('track_id')
        .doUpdateSet({ entry: lane.entry, exit: lane.exit, updated_at: row.updated_at, updated_by: by }),
    )
    .execute();
}

export async function deletePitLane(db: Kysely<DB>, trackId: string): Promise<void> {
  await db.deleteFrom('pit_lanes').where('track_id', '=', trackId).execute();
}

/** Shared stored tracks (everyone's) whose box comes within `margin` degrees of a point. */
export function sharedTracksNear(db: Kysely<DB>, lat: number, lon: number, marginLat: number, marginLon: number) {
  return db
    .selectFrom('tracks')
    .selectAll()
    .where('shared', '=', 1)
    .where('south', '<=', lat + marginLat)
    .where('north', '>=', lat - marginLat)
    .where('west', '<=', lon + marginLon)
    .where('east', '>=', lon - marginLon)
    .execute();
}
