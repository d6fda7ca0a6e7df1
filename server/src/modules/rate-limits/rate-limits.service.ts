import type { Kysely } from 'kysely';
import type { DB } from '#server/db/schema.ts';
import { deleteClosedWindows, readHits, recordHit } from './rate-limits.repository';

/** Hit counters in the database, shared by every instance (the rate-limit plugin's store uses them). */
export function createHitCounter(db: Kysely<DB>) {
  let calls = 0;
  return {
    async hit(key: string, windowMs: number): Promise<{ hits: number; resetAt: number }> {
      const now = Date.now();
      // Closed windows are swept now and then, off the request's way.
      if (++calls % 1000 === 0) void deleteClosedWindows(db, now).catch(() => undefined);
      return recordHit(db, key, windowMs, now);
    },
    read: (key: string) => readHits(db, key, Date.now()),
  };
}
