import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema';

/** The spec's transaction rule: at least one attempt ('Max attempts must be at least 1'). */
export interface TransactionOptions {
  maxAttempts?: number;
}

const RETRYABLE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', '40001', '40P01']);

function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/**
 * Runs `work` in a transaction, retrying on SQLITE_BUSY and PostgreSQL serialization or
 * deadlock failures up to maxAttempts (default 5).
 */
export async function inTransaction<T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError('Max attempts must be at least 1');
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (err) {
      if (attempt >= maxAttempts || !isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.min(1000, 10 * 2 ** attempt) * Math.random()));
    }
  }
}
