// Which errors are a dependency's fault (database, blob store, full disk): 503 or 507, try again, nothing lost.
import { BlobStoreError } from '../blobs/blob-store';
import type { ErrorCode } from '#core/errors.ts';

export interface DependencyFault {
  code: ErrorCode;
  status: 503 | 507;
  message: string;
  /** Seconds a client should wait before trying again (Retry-After). */
  retryAfterS: number;
}

/** A full disk, whichever layer met it (a temp file, a blob file, SQLite). */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
/** A connection that could not be made or broke. */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** PostgreSQL: shutting down, crashed, starting, or too many connections; class 08: connection exceptions. */
const PG_UNAVAILABLE = /^(57P0[1-3]|53300|08\d{3})$/;
/** What node-postgres says when its socket dies or its pool cannot connect in time. */
const PG_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed|terminating connection/i;

const codeOf = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

/**
 * Whether `err` is a dependency's fault rather than the request's: the database or blob store
 * away (503, try again soon) or the disk full (507). Such errors lose nothing: every write is
 * atomic and recoverable, so the client's retry with back-off is the cure.
 */
export function dependencyFault(err: unknown): DependencyFault | undefined {
  const code = codeOf(err);
  if (FULL.has(code))
    return {
      code: 'storage/insufficient-storage',
      status: 507,
      message: 'The server is out of disk space; nothing was stored. Try again later.',
      retryAfterS: 60,
    };
  if (err instanceof BlobStoreError) {
    const httpStatus = (err.cause as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
      ?.httpStatusCode;
    // A store that answers 4xx is not away: that is a bug or a misconfiguration, a 500.
    if (httpStatus !== undefined && httpStatus < 500) return undefined;
    return {
      code: 'storage/retry-limit-exceeded',
      status: 503,
      message: 'The file store is not answering; nothing was lost. Try again in a few seconds.',
      retryAfterS: 10,
    };
  }
  if (
    NETWORK.has(code) ||
    PG_UNAVAILABLE.test(code) ||
    code === 'SQLITE_BUSY' ||
    (err instanceof Error && PG_MESSAGES.test(err.message))
  ) {
    return {
      code: 'storage/retry-limit-exceeded',
      status: 503,
      message: 'The database is not answering; nothing was lost. Try again in a few seconds.',
      retryAfterS: 5,
    };
  }
  return undefined;
}
