// The web's session reads: my sessions, tracks, dates, laps, GPS samples and columns, analysis, exports.
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#core/contracts/common.contract.ts';
import {
  analysisResponseSchema,
  datesResponseSchema,
  deviceParamsSchema,
  exportParamsSchema,
  mySessionsQuerySchema,
  mySessionsResponseSchema,
  exportQuerySchema,
  gpsResponseSchema,
  lapsResponseSchema,
  sessionParamsSchema,
  summaryResponseSchema,
  trackParamsSchema,
  tracksResponseSchema,
} from '#core/contracts/sessions.contract.ts';
import { AppError } from '#core/errors.ts';
import { accepts, createAnswerCache, sendCompressed } from '#server/plugins/compressed-answers.ts';
import { heavyReadRateLimit } from '#server/plugins/heavy-reads.ts';
import { routeSchemas } from '#server/lib/route-schema.ts';
import { hideUnseenDevices, sessionAt, viewerOf } from './device-check';
import { MAX_JSON_SAMPLES, type SessionReader } from './session-reader.service';

const errors = { 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema };
const doc = routeSchemas('sessions', errors);
/** Bytes sent as they are (Fastify does not serialize a Buffer). */
const binaryBody = z.unknown().describe('file bytes');

export async function sessionsRoutes(app: FastifyInstance, opts: { reader: SessionReader }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { reader } = opts;
  const lapsAnswers = createAnswerCache();

  hideUnseenDevices(app, reader);

  r.get(
    '/api/sessions',
    {
      config: { access: 'rider' },
      schema: doc(
        "'Minhas sessões': the caller's own sessions (devices and imports), newest first, a page at a time; filter by track",
        mySessionsResponseSchema,
        { querystring: mySessionsQuerySchema, errors: { 400: apiErrorSchema, ...errors } },
      ),
    },
    async (req) => reader.mySessions(viewerOf(req), req.query),
  );

  r.get(
    '/api/devices/:id/tracks',
    {
      config: { access: 'rider' },
      schema: doc('Tracks with sessions the caller may see on this device', tracksResponseSchema, {
        params: deviceParamsSchema,
      }),
    },
    async (req) => reader.tracks(viewerOf(req), req.params.id),
  );

  r.get(
    '/api/devices/:id/tracks/:track/dates',
    {
      config: { access: 'rider' },
      schema: doc('Dates (ddmmyyyy, ascending) of the sessions on a track', datesResponseSchema, {
        params: trackParamsSchema,
      }),
    },
    async (req) => reader.dates(viewerOf(req), req.params.id, req.params.track),
  );

  r.get(
    '/api/devices/:id/sessions/:track/:date/laps',
    {
      config: { access: 'rider' },
      schema: doc("A session's laps with best lap, best sectors, theoretical best and gaps", lapsResponseSchema, {
        params: sessionParamsSchema,
      }),
    },
    async (req, reply) => {
      // The answer depends only on the session's lap.six and kept figures: validated, serialized and compressed once per version.
      const laps = await reader.laps(viewerOf(req), sessionAt(req.params));
      const answer = await lapsAnswers.get(laps.version, `"${laps.etag || 'none'}"`, async () =>
        JSON.stringify(lapsResponseSchema.parse(await laps.build())),
      );
      // Already serialized: the untyped reply sends the text as is.
      return sendCompressed(req, reply as FastifyReply, answer);
    },
  );

  r.get(
    '/api/devices/:id/sessions/:track/:date/gps',
    {
      config: { access: 'rider', heavyRead: true, rateLimit: heavyReadRateLimit },
      schema: doc(
        `A session's GPS samples as JSON columns: at most ${MAX_JSON_SAMPLES} of them, every \`step\`-th sample of \`totalCount\` (full resolution: gps.bin)`,
        gpsResponseSchema,
        { params: sessionParamsSchema },
      ),
    },
    async (req) => reader.gps(viewerOf(req), sessionAt(req.params)),
  );

  r.get(
    '/api/devices/:id/sessions/:track/:date/summary',
    {
      config: { access: 'rider' },
      schema: doc('Figures of a session and the warnings of its files', summaryResponseSchema, {
        params: sessionParamsSchema,
      }),
    },
    async (req) => reader.summary(viewerOf(req), sessionAt(req.params)),
  );

  r.get(
    '/api/devices/:id/sessions/:track/:date/gps.bin',
    {
      // A heavy read all the same: a long session's columns are megabytes each time, and unbounded
      // they would slow every other rider's reads.
      config: { access: 'rider', heavyRead: true },
      // Spelled out, not through doc(): the typed reply of doc()'s schema would refuse the 304 below.
      schema: {
        tags: ['sessions'],
        summary: 'GPS columns as compact binary (gzip), parsed once at upload; see core/formats/gps-columns-codec.ts',
        params: sessionParamsSchema,
        response: { 200: binaryBody, ...errors },
      },
    },
    async (req, reply) => {
      const { gzipped, gpsMd5 } = await reader.gpsBinary(viewerOf(req), sessionAt(req.params));
      const etag = `"${gpsMd5}"`;
      // gzip's trailer holds the inflated size: the client's progress bar divides by it.
      reply
        .header('etag', etag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding')
        .header('x-decoded-length', String(gzipped.readUInt32LE(gzipped.length - 4)))
        .type('application/octet-stream');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      if (accepts(req, 'gzip')) return reply.header('content-encoding', 'gzip').send(gzipped);
      return reply.send(gunzipSync(gzipped));
    },
  );

  r.get(
    '/api/devices/:id/sessions/:track/:date/analysis',
    {
      config: { access: 'rider', heavyRead: true },
      schema: doc(
        'Top speed and roll extremes with their laps; per-lap speed, lean, satellites and sample rate',
        analysisResponseSchema,
        { params: sessionParamsSchema },
      ),
    },
    async (req) => reader.analysis(viewerOf(req), sessionAt(req.params)),
  );

  r.get(
    '/api/devices/:id/sessions/:track/:date/export/:format',
    {
      config: { access: 'rider', heavyRead: true, rateLimit: heavyReadRateLimit },
      // Sent as stored, with its length: the browser shows the download's progress.
      compress: false,
      schema: doc(
        'Download: CSV (RaceRender columns), GPX 1.1, or the raw lap.six / gps.six; ?heat=&lap= for one lap',
        binaryBody,
        { params: exportParamsSchema, querystring: exportQuerySchema },
      ),
    },
    async (req, reply) => {
      const { heat, lap, units } = req.query;
      if ((heat === undefined) !== (lap === undefined))
        throw new AppError('storage/invalid-argument', 'Give both heat and lap, or neither.');
      const file = await reader.export(
        viewerOf(req),
        sessionAt(req.params),
        req.params.format,
        heat !== undefined && lap !== undefined ? { heat, lapCount: lap } : undefined,
        units,
      );
      if ('size' in file) reply.header('content-length', String(file.size));
      return reply
        .type(file.contentType)
        .header(
          'content-disposition',
          `attachment; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        )
        .header('cache-control', 'private, no-cache')
        .send(file.body);
    },
  );
}
