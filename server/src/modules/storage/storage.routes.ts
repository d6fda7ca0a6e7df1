// The storage browser's reads: what a rider may list under {hardware}/{track}/{ddmmyyyy}, and one object's metadata.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  storageListQuerySchema,
  storageListResponseSchema,
  storageMetadataQuerySchema,
  storageMetadataSchema,
} from '#core/contracts/sessions.contract.ts';
import { viewerOf } from '../sessions/device-check';
import { parseMaxResults, type StorageService } from './storage.service';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';

const doc = routeSchemas('storage', errorAnswers(400, 401));

export async function storageRoutes(app: FastifyInstance, opts: { storage: StorageService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/storage/list',
    {
      config: { access: 'rider' },
      schema: doc(
        'Lists prefixes and items the caller may see ({hardware}/{track}/{ddmmyyyy}/…)',
        storageListResponseSchema,
        { querystring: storageListQuerySchema },
      ),
    },
    async (req) => {
      const max = parseMaxResults(req.query.maxResults);
      return opts.storage.list(viewerOf(req), req.query.prefix, max, req.query.pageToken);
    },
  );

  r.get(
    '/api/storage/metadata',
    {
      config: { access: 'rider' },
      schema: doc("An object's metadata (the spec's fields)", storageMetadataSchema, {
        querystring: storageMetadataQuerySchema,
        errors: errorAnswers(401, 404),
      }),
    },
    async (req) => opts.storage.metadata(viewerOf(req), req.query.path),
  );
}
