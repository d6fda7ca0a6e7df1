import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type Kysely } from 'kysely';
import { healthSchema } from '../../../../core/contracts/auth.contract';
import { apiErrorSchema } from '../../../../core/contracts/common.contract';
import { AppError } from '../../../../core/errors';
import type { BlobStore } from '../../blobs/blob-store';
import type { DB } from '../../db/schema';

export async function healthRoutes(
  app: FastifyInstance,
  opts: { db: Kysely<DB>; blobs: BlobStore; describe: { database: string; blobs: string; identityProvider: string } },
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/api/health', {
    config: { access: 'public', rateLimit: false },
    schema: { tags: ['health'], summary: 'Ready when the database and the blob store answer', response: { 200: healthSchema, 503: apiErrorSchema } },
  }, async () => {
    try {
      await sql`select 1`.execute(opts.db);
      await opts.blobs.ping();
    } catch {
      throw new AppError('storage/retry-limit-exceeded', 'Database or blob store unreachable');
    }
    return { status: 'ok' as const, ...opts.describe };
  });
}
