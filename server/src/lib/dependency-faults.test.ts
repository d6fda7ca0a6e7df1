import { describe, expect, it } from 'vitest';
import { BlobStoreError } from '../blobs/blob-store';
import { dependencyFault } from './dependency-faults';

const errno = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('dependencyFault: which errors are a dependency away (503) or a full disk (507)', () => {
  it('a full disk, wherever it was met', () => {
    for (const err of [
      errno('ENOSPC'),
      errno('EDQUOT'),
      errno('SQLITE_FULL', 'database or disk is full'),
      new BlobStoreError('putFile', errno('ENOSPC')),
    ]) {
      expect(dependencyFault(err)).toMatchObject({
        status: 507,
        code: 'storage/insufficient-storage',
        retryAfterS: 60,
      });
    }
  });

  it('PostgreSQL restarting or unreachable', () => {
    for (const err of [
      errno('57P01', 'terminating connection due to administrator command'),
      errno('57P03'),
      errno('08006'),
      errno('ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      errno('SQLITE_BUSY'),
    ]) {
      expect(dependencyFault(err), err.message).toMatchObject({
        status: 503,
        message: expect.stringContaining('database'),
      });
    }
  });

  it('the blob store unreachable or failing, but not a store that refuses (4xx: a bug, a 500)', () => {
    expect(dependencyFault(new BlobStoreError('put', errno('ECONNREFUSED')))).toMatchObject({
      status: 503,
      message: expect.stringContaining('file store'),
    });
    expect(
      dependencyFault(
        new BlobStoreError('put', Object.assign(new Error('SlowDown'), { $metadata: { httpStatusCode: 503 } })),
      ),
    ).toMatchObject({
      status: 503,
    });
    expect(
      dependencyFault(
        new BlobStoreError('put', Object.assign(new Error('AccessDenied'), { $metadata: { httpStatusCode: 403 } })),
      ),
    ).toBeUndefined();
  });

  it('anything else is not a dependency fault', () => {
    for (const err of [new Error('boom'), errno('23505', 'duplicate key'), new TypeError('x is undefined'), 'a string'])
      expect(dependencyFault(err)).toBeUndefined();
  });
});
