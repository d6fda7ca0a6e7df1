// Track routes: a session's track analysis and track choice, catalogue search, renames, and admins' track edits.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionParamsSchema } from '#core/contracts/sessions.contract.ts';
import {
  catalogueQuerySchema,
  coachingQuerySchema,
  coachingResponseSchema,
  catalogueResponseSchema,
  chooseTrackBodySchema,
  moveGateBodySchema,
  renameTrackBodySchema,
  shareTrackBodySchema,
  trackAnalysisQuerySchema,
  trackAnalysisResponseSchema,
  trackDetailSchema,
  trackIdParamsSchema,
  trackListSchema,
  trackSummarySchema,
} from '#core/contracts/tracks.contract.ts';
import { requestLanguage } from '#server/lib/i18n.ts';
import { createAnswerCache, sendCompressed } from '#server/plugins/compressed-answers.ts';
import { perUserWrites } from '#server/plugins/rate-limit-store.ts';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';
import { hideUnseenDevices, hideUnseenSession, sessionAt, viewerOf } from '../sessions/device-check';
import type { SessionReader } from '../sessions/session-reader.service';
import type { TracksService } from './tracks.service';

const errors = errorAnswers(401, 403, 404, 422, 429);
const doc = routeSchemas('tracks', errors);

/** Writes a rider (or an admin) can repeat, per user and minute: each re-times sessions or writes an audit line. */
export const TRACK_RENAMES_PER_MINUTE = 10;
export const TRACK_CHOICES_PER_MINUTE = 10;
export const GATE_MOVES_PER_MINUTE = 60;
export const TRACK_SHARES_PER_MINUTE = 30;

export async function tracksRoutes(app: FastifyInstance, opts: { tracks: TracksService; reader: SessionReader }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { tracks } = opts;
  const coachingAnswers = createAnswerCache();
  hideUnseenDevices(app, opts.reader);

  r.get(
    '/api/devices/:id/sessions/:track/:date/track-analysis',
    {
      config: { access: 'rider', heavyRead: true },
      schema: doc(
        'Laps timed from the GPS trace at the track’s start/finish, corners, segments, the ideal lap, and one lap against a reference',
        trackAnalysisResponseSchema,
        { params: sessionParamsSchema, querystring: trackAnalysisQuerySchema },
      ),
    },
    async (req) => tracks.analysis(viewerOf(req), sessionAt(req.params), req.query),
  );

  r.get(
    '/api/devices/:id/sessions/:track/:date/coaching',
    {
      config: { access: 'rider', heavyRead: true },
      schema: doc(
        'Why the time is lost: a lap against the ideal lap, the rider’s record or another lap, corner by corner, with each figure’s accuracy and at most three tips in the request’s language',
        coachingResponseSchema,
        { params: sessionParamsSchema, querystring: coachingQuerySchema },
      ),
    },
    async (req, reply) => {
      // A read of the kept study: validated, serialized and compressed once per version of what
      // it is made of, then sent as those bytes (the answer is tens of KB of JSON).
      const coaching = await tracks.coaching(viewerOf(req), sessionAt(req.params), req.query, requestLanguage(req));
      const etag = `"${createHash('sha256').update(coaching.version).digest('base64url').slice(0, 27)}"`;
      const answer = await coachingAnswers.get(coaching.version, etag, async () =>
        JSON.stringify(coachingResponseSchema.parse(coaching.build())),
      );
      // Already serialized: the untyped reply sends the text as is.
      return sendCompressed(req, reply as FastifyReply, answer);
    },
  );

  r.put(
    '/api/devices/:id/sessions/:track/:date/track',
    {
      config: { access: 'rider', rateLimit: perUserWrites(TRACK_CHOICES_PER_MINUTE) },
      preValidation: hideUnseenSession(opts.reader),
      schema: doc(
        'Says which catalogue circuit the session was ridden on (its owner or an admin); its laps are timed there',
        trackSummarySchema,
        { params: sessionParamsSchema, body: chooseTrackBodySchema },
      ),
    },
    async (req) => tracks.choose(viewerOf(req), sessionAt(req.params), req.body.catalogueId),
  );

  r.put(
    '/api/tracks/:trackId/name',
    {
      config: { access: 'rider', rateLimit: perUserWrites(TRACK_RENAMES_PER_MINUTE) },
      schema: doc(
        'Renames a track: one derived from the caller’s own sessions and not shared (or any, for an admin); another rider’s own track is 404',
        trackSummarySchema,
        { params: trackIdParamsSchema, body: renameTrackBodySchema },
      ),
    },
    async (req) => tracks.rename(viewerOf(req), req.params.trackId, req.body.name),
  );

  r.get(
    '/api/tracks/catalogue',
    {
      config: { access: 'rider' },
      schema: doc(
        'Circuits of the catalogue whose name holds the words asked (accents and case ignored)',
        catalogueResponseSchema,
        { querystring: catalogueQuerySchema },
      ),
    },
    async (req) => tracks.search(req.query.q),
  );

  r.get(
    '/api/admin/tracks',
    {
      config: { access: 'admin' },
      schema: doc('Every track Voltas knows, with its number of sessions', trackListSchema),
    },
    async () => tracks.list(),
  );

  r.get(
    '/api/admin/tracks/:trackId',
    {
      config: { access: 'admin' },
      schema: doc('A track’s definition: start/finish gate, corners and line', trackDetailSchema, {
        params: trackIdParamsSchema,
      }),
    },
    async (req) => tracks.track(req.params.trackId),
  );

  r.put(
    '/api/admin/tracks/:trackId/gate',
    {
      config: { access: 'admin', rateLimit: perUserWrites(GATE_MOVES_PER_MINUTE) },
      schema: doc(
        'Moves the track’s start/finish gate; every session at the track is timed again',
        trackSummarySchema,
        { params: trackIdParamsSchema, body: moveGateBodySchema },
      ),
    },
    async (req) => tracks.moveGate(req.identity!.email, req.params.trackId, req.body),
  );

  r.put(
    '/api/admin/tracks/:trackId/shared',
    {
      config: { access: 'admin', rateLimit: perUserWrites(TRACK_SHARES_PER_MINUTE) },
      schema: doc(
        'Makes a derived track everyone’s (every rider’s traces there may be matched to it; only admins rename it), or its creator’s own again',
        trackSummarySchema,
        { params: trackIdParamsSchema, body: shareTrackBodySchema },
      ),
    },
    async (req) => tracks.setShared(viewerOf(req), req.params.trackId, req.body.shared),
  );
}
