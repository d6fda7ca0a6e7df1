import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { deleteSession, findSession, insertSession, renewSession } from './auth-sessions.repository';

/** Sign-in sessions (the cookie's server side), as the session plugin uses them. */
export function createAuthSessionStore(db: Kysely<DB>) {
  return {
    find: (idHash: string) => findSession(db, idHash),
    insert: (s: { idHash: string; email: string; createdAt: string; expiresAt: string }) => insertSession(db, s),
    renew: (idHash: string, renewedAt: string, expiresAt: string) => renewSession(db, idHash, renewedAt, expiresAt),
    delete: (idHash: string) => deleteSession(db, idHash),
  };
}

export type AuthSessionStore = ReturnType<typeof createAuthSessionStore>;
