// The sign-in tables: auth_sessions (a signed-in browser, kept by the hash of its cookie's id, with its
// expiry) and auth_flows (an OpenID Connect sign-in under way, taken once by its callback).
import type { Kysely } from 'kysely';
import { compiledOnce } from '#server/db/compiled-once.ts';
import type { DB } from '#server/db/schema.ts';

export async function insertAuthSession(
  db: Kysely<DB>,
  s: { idHash: string; email: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('auth_sessions')
    .values({
      id_hash: s.idHash,
      user_email: s.email,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
      renewed_at: s.createdAt,
    })
    .execute();
}

/** The sign-in behind a cookie's hash, with its user's roles: read on every signed-in request. */
const authSessionByHash = compiledOnce(['idHash'], (db: Kysely<DB>, v) =>
  db
    .selectFrom('auth_sessions')
    .innerJoin('users', 'users.email', 'auth_sessions.user_email')
    .select([
      'auth_sessions.id_hash',
      'auth_sessions.created_at',
      'auth_sessions.expires_at',
      'auth_sessions.renewed_at',
      'users.email',
      'users.disabled',
      'users.adm',
      'users.seller',
    ])
    .where('auth_sessions.id_hash', '=', v.idHash),
);

export async function findAuthSession(db: Kysely<DB>, idHash: string) {
  return (await authSessionByHash(db, { idHash }))[0];
}

export async function renewAuthSession(
  db: Kysely<DB>,
  idHash: string,
  renewedAt: string,
  expiresAt: string,
): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ renewed_at: renewedAt, expires_at: expiresAt })
    .where('id_hash', '=', idHash)
    .execute();
}

export async function deleteAuthSession(db: Kysely<DB>, idHash: string): Promise<void> {
  await db.deleteFrom('auth_sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteAuthSessionsOf(db: Kysely<DB>, email: string): Promise<void> {
  await db.deleteFrom('auth_sessions').where('user_email', '=', email).execute();
}

/** Sign-ins past their expiry (refused already; forgotten here). */
export async function deleteAuthSessionsExpiredBefore(db: Kysely<DB>, now: string): Promise<number> {
  const result = await db.deleteFrom('auth_sessions').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertFlow(
  db: Kysely<DB>,
  f: { state: string; codeVerifier: string; nonce: string; mode: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('auth_flows')
    .values({ state: f.state, code_verifier: f.codeVerifier, nonce: f.nonce, mode: f.mode, created_at: f.createdAt })
    .execute();
}

/** Takes the flow out in one step: a replayed callback finds nothing. */
export async function takeFlow(db: Kysely<DB>, state: string) {
  const row = await db.deleteFrom('auth_flows').where('state', '=', state).returningAll().executeTakeFirst();
  return row;
}

export async function deleteFlowsBefore(db: Kysely<DB>, cutoff: string): Promise<void> {
  await db.deleteFrom('auth_flows').where('created_at', '<', cutoff).execute();
}
