import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type Kysely } from 'kysely';
import { healthDetailsSchema, healthSchema } from '../../../../core/contracts/auth.contract';
import { apiErrorSchema } from '../../../../core/contracts/common.contract';
import { AppError } from '../../../../core/errors';
import type { BlobStore } from '../../blobs/blob-store';
import type { DB } from '../../db/schema';

export async function healthRoutes(
  app: FastifyInstance,
  opts: { db: Kysely<DB>; blobs: BlobStore; describe: { database: string; blobs: string; identityProvider: string } },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const check = async () => {
    try {
      await sql`select 1`.execute(opts.db);
      await opts.blobs.ping();
    } catch {
      throw new AppError('storage/retry-limit-exceeded', 'Database or blob store unreachable');
    }
  };

  // Public: the status only (the database host or file and the blob path are no stranger's business).
  r.get('/api/health', {
    config: { access: 'public', rateLimit: false },
    schema: { tags: ['health'], summary: 'Ready when the database and the blob store answer', response: { 200: healthSchema, 503: apiErrorSchema } },
  }, async () => {
    await check();
    return { status: 'ok' as const };
  });

  r.get('/api/admin/health', {
    config: { access: 'admin' },
    schema: { tags: ['health', 'admin'], summary: 'The status and what is in use: database, blob store, identity provider', response: { 200: healthDetailsSchema, 401: apiErrorSchema, 403: apiErrorSchema, 503: apiErrorSchema } },
  }, async () => {
    await check();
    return { status: 'ok' as const, ...opts.describe };
  });
}
