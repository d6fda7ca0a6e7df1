import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '#core/contracts/common.contract.ts';
import {
  storageListQuerySchema,
  storageListResponseSchema,
  storageMetadataQuerySchema,
  storageMetadataSchema,
} from '#core/contracts/sessions.contract.ts';
import { parseMaxResults, type StorageService } from './storage.service';

export async function storageRoutes(app: FastifyInstance, opts: { storage: StorageService; demoDeviceId: string }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/storage/list',
    {
      config: { access: 'rider' },
      schema: {
        tags: ['storage'],
        summary: 'Lists prefixes and items the caller may see ({hardware}/{track}/{ddmmyyyy}/…)',
        querystring: storageListQuerySchema,
        response: { 200: storageListResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (req) => {
      const max = parseMaxResults(req.query.maxResults);
      return opts.storage.list(
        { email: req.identity!.email, admin: req.identity!.admin, demoDeviceId: opts.demoDeviceId },
        req.query.prefix,
        max,
        req.query.pageToken,
      );
    },
  );

  r.get(
    '/api/storage/metadata',
    {
      config: { access: 'rider' },
      schema: {
        tags: ['storage'],
        summary: "An object's metadata (the spec's fields)",
        querystring: storageMetadataQuerySchema,
        response: { 200: storageMetadataSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (req) =>
      opts.storage.metadata(
        { email: req.identity!.email, admin: req.identity!.admin, demoDeviceId: opts.demoDeviceId },
        req.query.path,
      ),
  );
}
