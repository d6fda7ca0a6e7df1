// Video sync routes under a session the rider may read: listing, storing and forgetting how their own
// video files line up with it (only the alignment is kept; the videos stay on the rider's devices).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema, writeErrors } from '#core/contracts/common.contract.ts';
import { sessionParamsSchema } from '#core/contracts/sessions.contract.ts';
import { videoListSchema, videoParamsSchema, videoSyncSchema } from '#core/contracts/videos.contract.ts';
import { AppError } from '#core/errors.ts';
import { perUserWrites } from '#server/plugins/rate-limit-store.ts';
import { routeSchemas } from '#server/lib/route-schema.ts';
import { hideUnseenDevices, hideUnseenSession, sessionAt, viewerOf } from '../sessions/device-check';
import type { SessionReader } from '../sessions/session-reader.service';
import type { VideosService } from './videos.service';

/** Syncs a rider stores or forgets per minute: picking files, re-syncing, marking by hand. */
const VIDEO_SYNC_WRITES_PER_MINUTE = 60;
const doc = routeSchemas('videos', writeErrors);

export async function videosRoutes(app: FastifyInstance, opts: { videos: VideosService; reader: SessionReader }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { videos } = opts;
  hideUnseenDevices(app, opts.reader);
  const sessionVisible = hideUnseenSession(opts.reader);

  r.get(
    '/api/devices/:id/sessions/:track/:date/videos',
    {
      config: { access: 'rider' },
      schema: doc('The caller’s video syncs of a session (the files stay on the rider’s devices)', videoListSchema, {
        params: sessionParamsSchema,
      }),
    },
    async (req) => videos.list(viewerOf(req), sessionAt(req.params)),
  );

  r.put(
    '/api/devices/:id/sessions/:track/:date/videos/:videoId',
    {
      config: { access: 'rider', rateLimit: perUserWrites(VIDEO_SYNC_WRITES_PER_MINUTE) },
      preValidation: sessionVisible,
      schema: doc(
        'Stores how one of the caller’s video files lines up with the session (or replaces it)',
        videoSyncSchema,
        { params: videoParamsSchema, body: videoSyncSchema },
      ),
    },
    async (req) => {
      if (req.body.id !== req.params.videoId)
        throw new AppError('storage/invalid-argument', 'The body’s id must be the one in the path.');
      return videos.put(viewerOf(req), sessionAt(req.params), req.body);
    },
  );

  r.delete(
    '/api/devices/:id/sessions/:track/:date/videos/:videoId',
    {
      config: { access: 'rider', rateLimit: perUserWrites(VIDEO_SYNC_WRITES_PER_MINUTE) },
      preValidation: sessionVisible,
      schema: doc('Forgets one of the caller’s video syncs of the session', okSchema, { params: videoParamsSchema }),
    },
    async (req) => {
      await videos.remove(viewerOf(req), sessionAt(req.params), req.params.videoId);
      return { ok: true as const };
    },
  );
}
