import type { Kysely } from 'kysely';
import type { DB } from '#server/db/schema.ts';
import {
  deleteAuthSession,
  deleteAuthSessionsExpiredBefore,
  findAuthSession,
  insertAuthSession,
  renewAuthSession,
} from './auth-sessions.repository';

/** Sign-in sessions (the cookie's server side), as the session plugin uses them. */
export function createAuthSessionStore(db: Kysely<DB>) {
  return {
    find: (idHash: string) => findAuthSession(db, idHash),
    insert: (s: { idHash: string; email: string; createdAt: string; expiresAt: string }) => insertAuthSession(db, s),
    renew: (idHash: string, renewedAt: string, expiresAt: string) => renewAuthSession(db, idHash, renewedAt, expiresAt),
    delete: (idHash: string) => deleteAuthSession(db, idHash),
    /** Forgets the sign-ins expired before `now`; how many. */
    forgetExpired: (now: string) => deleteAuthSessionsExpiredBefore(db, now),
  };
}

export type AuthSessionStore = ReturnType<typeof createAuthSessionStore>;
