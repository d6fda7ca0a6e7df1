// Each rider's storage quota: what they store counted from the index, and an import that would
// pass it refused before anything is kept (the rider deletes imported sessions to make room).
import type { Kysely } from 'kysely';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { storedBytesOf } from './imports.repository';

/**
 * What an import keeps per GPS fix besides its raw file: its session's columns, ~5 bytes a fix
 * of a logger's smooth trace, counted as more (a noisy one packs less well) rather than fewer.
 * A merged session's columns replace the ones before, so the new file's fixes are what it adds.
 */
export const SESSION_BYTES_PER_FIX = 16;

export interface StorageUse {
  usedBytes: number;
  limitBytes: number;
}

const mb = (bytes: number) => Math.ceil((bytes / 1024 / 1024) * 10) / 10;

function quotaExceeded(use: StorageUse, neededBytes: number): AppError {
  const [usedMb, limitMb, neededMb] = [mb(use.usedBytes), mb(use.limitBytes), mb(neededBytes)];
  return new AppError(
    'import/quota-exceeded',
    `You store ${use.usedBytes} bytes of the ${use.limitBytes} you may, and this import needs about ${neededBytes}; nothing was stored. Delete imported sessions you no longer need and try again.`,
    undefined,
    { id: 'imports.refused.quota', values: { usedMb, limitMb, neededMb } },
  );
}

export function createQuota(db: Kysely<DB>, limitBytes: number) {
  async function use(owner: string): Promise<StorageUse> {
    const stored = await storedBytesOf(db, owner);
    return { usedBytes: stored.raw + stored.files, limitBytes };
  }
  return {
    use,
    /** Refuses (413) what would take the rider past the quota: `neededBytes` more than they store. */
    async check(owner: string, neededBytes: number): Promise<void> {
      const now = await use(owner);
      if (now.usedBytes + neededBytes > limitBytes) throw quotaExceeded(now, neededBytes);
    },
  };
}
