// The shares table: the read-only links riders make to a session or lap, kept by the hash of their
// secret; a link opens only while unexpired, its session exists and its rider is not disabled.
import type { Kysely, NotNull } from 'kysely';
import type { DB } from '#server/db/schema.ts';

export interface ShareRow {
  id: string;
  name: string | null;
  sealed_token: string | null;
  owner_email: string;
  session_id: string;
  lap: string | null;
  created_at: string;
  expires_at: string | null;
}

export async function insertShare(db: Kysely<DB>, row: ShareRow & { token_hash: string }): Promise<void> {
  await db.insertInto('shares').values(row).execute();
}

export async function countShares(db: Kysely<DB>, email: string): Promise<number> {
  const row = await db
    .selectFrom('shares')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner_email', '=', email)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The rider's links, newest first, with the session each opens. */
export function listShares(db: Kysely<DB>, email: string) {
  return db
    .selectFrom('shares')
    .innerJoin('lap_sessions', 'lap_sessions.id', 'shares.session_id')
    .select([
      'shares.id',
      'shares.lap',
      'shares.name',
      'shares.sealed_token',
      'shares.created_at',
      'shares.expires_at',
      'lap_sessions.track',
      'lap_sessions.date',
    ])
    .where('shares.owner_email', '=', email)
    .orderBy('shares.created_at', 'desc')
    .orderBy('shares.id', 'desc')
    .execute();
}

/** The links to one lap of a session, by the lap's name. */
export function lapSharesOf(db: Kysely<DB>, sessionId: string): Promise<{ id: string; lap: string }[]> {
  return db
    .selectFrom('shares')
    .select(['id', 'lap'])
    .where('session_id', '=', sessionId)
    .where('lap', 'is not', null)
    .$narrowType<{ lap: NotNull }>()
    .execute();
}

/** A lap link now names its lap `lap` (the session's heats were numbered again). */
export async function renameSharedLap(db: Kysely<DB>, id: string, lap: string): Promise<void> {
  await db.updateTable('shares').set({ lap }).where('id', '=', id).execute();
}

/** Deletes the link (its hash goes with it: the link opens nothing from now on, on every instance). */
export async function deleteShare(db: Kysely<DB>, email: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('shares').where('id', '=', id).where('owner_email', '=', email).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The link whose secret hashes to `tokenHash`, still valid at `now`, with the session it opens
 * (which must still exist), of a rider who is not disabled (a disabled account shares nothing).
 */
export function findLiveShare(db: Kysely<DB>, tokenHash: string, now: string) {
  return db
    .selectFrom('shares')
    .innerJoin('lap_sessions', 'lap_sessions.id', 'shares.session_id')
    .innerJoin('users', 'users.email', 'shares.owner_email')
    .where('users.disabled', '=', 0)
    .select([
      'shares.id',
      'shares.lap',
      'shares.name',
      'shares.expires_at',
      'lap_sessions.device_id',
      'lap_sessions.track',
      'lap_sessions.date',
      'lap_sessions.lap_figures',
    ])
    .where('shares.token_hash', '=', tokenHash)
    .where((eb) => eb.or([eb('shares.expires_at', 'is', null), eb('shares.expires_at', '>', now)]))
    .executeTakeFirst();
}
