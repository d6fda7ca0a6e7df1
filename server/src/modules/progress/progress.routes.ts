// A rider's progress at a track, corner by corner, their personal bests, and two laps compared.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  compareQuerySchema,
  compareResponseSchema,
  cornerProgressQuerySchema,
  cornerProgressResponseSchema,
  personalBestsResponseSchema,
  progressQuerySchema,
  progressResponseSchema,
} from '#core/contracts/progress.contract.ts';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';
import { viewerOf } from '../sessions/device-check';
import type { ProgressService } from './progress.service';

const errors = errorAnswers(400, 401, 403, 404, 422, 429);
const doc = routeSchemas('progress', errors);

export async function progressRoutes(app: FastifyInstance, opts: { progress: ProgressService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { progress } = opts;

  r.get(
    '/api/sessions/records',
    {
      config: { access: 'rider' },
      schema: doc(
        'The caller’s personal best at each track: their fastest flying lap ever there (devices and imports)',
        personalBestsResponseSchema,
      ),
    },
    async (req) => progress.records(viewerOf(req)),
  );

  r.get(
    '/api/sessions/progress',
    {
      config: { access: 'rider' },
      schema: doc(
        'The caller’s progress at a track: best lap, ideal lap and consistency of each day, oldest first',
        progressResponseSchema,
        { querystring: progressQuerySchema },
      ),
    },
    async (req) => progress.progress(viewerOf(req), req.query.track),
  );

  r.get(
    '/api/sessions/progress/corners',
    {
      config: { access: 'rider', heavyRead: true },
      schema: doc(
        'Each corner’s best time on two of the caller’s days at a track, and the corners that improved most and least',
        cornerProgressResponseSchema,
        { querystring: cornerProgressQuerySchema },
      ),
    },
    async (req) => progress.corners(viewerOf(req), req.query.track, req.query.from, req.query.to),
  );

  r.get(
    '/api/sessions/compare',
    {
      config: { access: 'rider', heavyRead: true },
      schema: doc(
        'One lap of a session against another lap of the same track: another session’s (reference=lap), the caller’s record (reference=record) or a shared link’s (reference=share); aligned by position along the track',
        compareResponseSchema,
        { querystring: compareQuerySchema },
      ),
    },
    async (req) => progress.compare(viewerOf(req), req.query),
  );
}
