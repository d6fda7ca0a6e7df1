import { sql, type Kysely } from 'kysely';
import type { DB } from '#server/db/schema.ts';

/**
 * One hit on `key` in a fixed window of `windowMs` opened by its first hit: one upsert that both
 * SQLite and PostgreSQL run. Returns the hits so far and when the window closes (epoch ms).
 */
export async function recordHit(
  db: Kysely<DB>,
  key: string,
  windowMs: number,
  now: number,
): Promise<{ hits: number; resetAt: number }> {
  const resetAt = now + windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.hits + 1 end`,
        reset_at: sql<number>`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAt: Number(row.reset_at) };
}

/** The hits of `key`'s open window, if one is open. */
export async function readHits(
  db: Kysely<DB>,
  key: string,
  now: number,
): Promise<{ hits: number; resetAt: number } | undefined> {
  const row = await db.selectFrom('rate_limits').select(['hits', 'reset_at']).where('key', '=', key).executeTakeFirst();
  return row && Number(row.reset_at) > now ? { hits: Number(row.hits), resetAt: Number(row.reset_at) } : undefined;
}

export async function deleteClosedWindows(db: Kysely<DB>, now: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<', now).execute();
}
