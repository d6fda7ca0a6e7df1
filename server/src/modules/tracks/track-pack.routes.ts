// The track pack a device fetches (its token), and the admin's pit-lane drawing.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { okSchema } from '#core/contracts/common.contract.ts';
import { pitLaneInputSchema, trackPackQuerySchema, trackPackSchema } from '#core/contracts/device-health.contract.ts';
import { errorAnswers } from '#server/lib/route-schema.ts';
import { perToken } from '#server/lib/per-device-rate-limit.ts';
import type { TrackPackService } from './track-pack.service';

export async function trackPackRoutes(app: FastifyInstance, opts: { pack: TrackPackService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/device/v1/tracks',
    {
      config: { access: 'device', rateLimit: perToken(30) },
      schema: {
        tags: ['device'],
        summary:
          'The circuits near the device: start/finish and sector lines, the pit lane where known; ETag, 304 when unchanged',
        querystring: trackPackQuerySchema,
        response: { 200: trackPackSchema, 304: z.null(), ...errorAnswers(400, 401, 429) },
      },
    },
    async (req, reply) => {
      const { pack, etag } = await opts.pack.near(req.query.lat, req.query.lon, req.query.radiusKm);
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return pack;
    },
  );
  r.put(
    '/api/admin/tracks/:trackId/pit-lane',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "Draws a circuit's pit lane (entry and exit lines), or clears it (null)",
        params: z.object({ trackId: z.string().min(1).max(200) }),
        body: pitLaneInputSchema,
        response: { 200: okSchema, ...errorAnswers(400, 401, 403, 404, 422) },
      },
    },
    async (req) => {
      await opts.pack.setPitLane(req.identity!.email, req.params.trackId, req.body.pitLane);
      return { ok: true as const };
    },
  );
}
