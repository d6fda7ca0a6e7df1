// Import routes: a file posted as the raw body, and deleting an imported session.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importQuerySchema, importResponseSchema, importStorageSchema } from '#core/contracts/imports.contract.ts';
import { sessionParamsSchema } from '#core/contracts/sessions.contract.ts';
import { heavyReadKey } from '#server/plugins/heavy-reads.ts';
import { viewerOf } from '../sessions/device-check';
import type { SessionReader } from '../sessions/session-reader.service';
import type { ImportsService } from './imports.service';
import { errorAnswers } from '#server/lib/route-schema.ts';

const errors = errorAnswers(401, 403, 404, 413, 415, 422, 429);

export async function importsRoutes(app: FastifyInstance, opts: { imports: ImportsService; reader: SessionReader }) {
  const { imports } = opts;

  // The file is the raw body, whatever its Content-Type: left unread here, streamed by the service.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/imports',
      {
        // Heavy: at most MAX_HEAVY_READS_IN_FLIGHT imports at once per rider, and 60 a minute (per rider, not per address).
        config: {
          access: 'rider',
          heavyRead: true,
          rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: heavyReadKey },
        },
        bodyLimit: imports.limits.maxBytes,
        schema: {
          tags: ['imports'],
          summary:
            'Imports a session from another logger: GPX 1.0/1.1, RaceChrono CSV v3, Racelogic VBO, AiM CSV, NMEA 0183, SpeedAngle .sa, TrackAddict CSV, gps.six (then its lap.six), or a .gz of one; the file is the raw body (≤ 256 MiB)',
          querystring: importQuerySchema,
          response: { 200: importResponseSchema, 201: importResponseSchema, ...errors },
        },
      },
      async (req, reply) => {
        const body = req.body as AsyncIterable<Uint8Array>;
        try {
          const length = Number(req.headers['content-length']);
          const { created, answer } = await imports.importFile(req.identity!.email, req.query.filename, body, {
            ...(req.query.track ? { trackName: req.query.track } : {}),
            ...(Number.isSafeInteger(length) && length > 0 ? { expectedBytes: length } : {}),
          });
          return reply.code(created ? 201 : 200).send(answer);
        } catch (err) {
          // Refused before the body was read to its end: close the connection rather than read the rest.
          if (!req.raw.readableEnded) reply.header('connection', 'close');
          throw err;
        }
      },
    );
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/imports/storage',
    {
      config: { access: 'rider' },
      schema: {
        tags: ['imports'],
        summary: "What the rider stores (imports' raw files, their sessions' files) and the most they may, bytes",
        response: { 200: importStorageSchema, ...errorAnswers(401, 403) },
      },
    },
    async (req) => imports.storage(req.identity!.email),
  );

  app.withTypeProvider<ZodTypeProvider>().delete(
    '/api/devices/:id/sessions/:track/:date',
    {
      config: { access: 'rider' },
      schema: {
        tags: ['imports'],
        summary: 'Deletes an imported session (only its importer; a device session cannot be deleted this way)',
        params: sessionParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const viewer = viewerOf(req);
      const s = { device: req.params.id, track: req.params.track, date: req.params.date };
      await imports.deleteSession(viewer, s, await opts.reader.canSeeSession(viewer, s));
      return reply.code(204).send(null);
    },
  );
}
