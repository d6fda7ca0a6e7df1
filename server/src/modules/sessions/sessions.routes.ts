import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../../core/contracts/common.contract';
import {
  analysisResponseSchema, datesResponseSchema, deviceParamsSchema, exportParamsSchema, exportQuerySchema, gpsResponseSchema, lapsResponseSchema, sessionParamsSchema, summaryResponseSchema,
  trackParamsSchema, tracksResponseSchema,
} from '../../../../core/contracts/sessions.contract';
import { AppError } from '../../../../core/errors';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { viewerHasDevice, type Viewer } from './sessions.repository';
import { heavyReadRateLimit } from '../../plugins/heavy-reads';
import { MAX_JSON_SAMPLES, type SessionsService } from './sessions.service';

/** An encoding named in accept-encoding and not refused with `;q=0`. */
const acceptedBy = (encoding: string) => new RegExp(`(?:^|[\\s,])${encoding}(?!\\s*;\\s*q=0(?:\\.0*)?\\s*(?:,|$))(?=\\s*(?:[;,]|$))`);
const ACCEPTS = { gzip: acceptedBy('gzip'), br: acceptedBy('br') };

/** Whether the client takes gzip (every browser does) or Brotli (every current browser). */
function accepts(req: FastifyRequest, encoding: keyof typeof ACCEPTS): boolean {
  return ACCEPTS[encoding].test(String(req.headers['accept-encoding'] ?? ''));
}

const errors = { 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema };
/** Bytes sent as they are (Fastify does not serialize a Buffer). */
const binaryBody = z.unknown().describe('file bytes');

export async function sessionsRoutes(app: FastifyInstance, opts: { db: Kysely<DB>; sessions: SessionsService; demoDeviceId: string }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const viewer = (req: FastifyRequest): Viewer => ({ email: req.identity!.email, admin: req.identity!.admin, demoDeviceId: opts.demoDeviceId });

  // One device check for every route below: admins, the demo device, the current owner, or a
  // previous owner who holds sessions on it. Anyone else gets 404 (no hint the device exists).
  // preValidation: before any validation error could tell a stranger something about the route.
  app.addHook('preValidation', async (req) => {
    const id = (req.params as { id?: string }).id;
    if (!id || !req.identity) return;
    const v = viewer(req);
    if (v.admin || id === opts.demoDeviceId || (await viewerHasDevice(opts.db, v.email, id))) return;
    throw new AppError('storage/object-not-found');
  });

  r.get('/api/devices/:id/tracks', {
    config: { access: 'rider' },
    schema: { tags: ['sessions'], summary: 'Tracks with sessions the caller may see on this device', params: deviceParamsSchema, response: { 200: tracksResponseSchema, ...errors } },
  }, async (req) => opts.sessions.tracks(viewer(req), req.params.id));

  r.get('/api/devices/:id/tracks/:track/dates', {
    config: { access: 'rider' },
    schema: { tags: ['sessions'], summary: 'Dates (ddmmyyyy, ascending) of the sessions on a track', params: trackParamsSchema, response: { 200: datesResponseSchema, ...errors } },
  }, async (req) => opts.sessions.dates(viewer(req), req.params.id, req.params.track));

  r.get('/api/devices/:id/sessions/:track/:date/laps', {
    config: { access: 'rider' },
    schema: { tags: ['sessions'], summary: "A session's laps with best lap, best sectors, theoretical best and gaps", params: sessionParamsSchema, response: { 200: lapsResponseSchema, ...errors } },
  }, async (req, reply) => {
    // The answer depends only on the session's lap.six: serialized once per version, sent as is.
    const { json, gzipped, brotli, etag } = await opts.sessions.lapsJson(viewer(req), req.params.id, req.params.track, req.params.date);
    // Already validated against lapsResponseSchema and serialized: the untyped reply sends the text as is.
    const raw = reply as FastifyReply;
    raw.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
    if (req.headers['if-none-match'] === etag) return raw.code(304).send();
    raw.type('application/json; charset=utf-8');
    if (brotli && accepts(req, 'br')) return raw.header('content-encoding', 'br').send(brotli);
    return accepts(req, 'gzip') ? raw.header('content-encoding', 'gzip').send(gzipped) : raw.send(json);
  });

  r.get('/api/devices/:id/sessions/:track/:date/gps', {
    config: { access: 'rider', heavyRead: true, rateLimit: heavyReadRateLimit },
    schema: { tags: ['sessions'], summary: `A session's GPS samples as JSON columns: at most ${MAX_JSON_SAMPLES} of them, every \`step\`-th sample of \`totalCount\` (full resolution: gps.bin)`, params: sessionParamsSchema, response: { 200: gpsResponseSchema, ...errors } },
  }, async (req) => opts.sessions.gps(viewer(req), req.params.id, req.params.track, req.params.date));

  r.get('/api/devices/:id/sessions/:track/:date/summary', {
    config: { access: 'rider' },
    schema: { tags: ['sessions'], summary: 'Figures of a session and the warnings of its files', params: sessionParamsSchema, response: { 200: summaryResponseSchema, ...errors } },
  }, async (req) => opts.sessions.summary(viewer(req), req.params.id, req.params.track, req.params.date));

  r.get('/api/devices/:id/sessions/:track/:date/gps.bin', {
    config: { access: 'rider', heavyRead: true },
    schema: { tags: ['sessions'], summary: 'GPS columns as compact binary (gzip), parsed once at upload; see core/formats/gps-columns-codec.ts', params: sessionParamsSchema, response: { 200: binaryBody, ...errors } },
  }, async (req, reply) => {
    const { gzipped, etag } = await opts.sessions.gpsBinary(viewer(req), req.params.id, req.params.track, req.params.date);
    // gzip's trailer holds the inflated size: the client's progress bar divides by it.
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding').header('x-decoded-length', String(gzipped.readUInt32LE(gzipped.length - 4))).type('application/octet-stream');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    if (accepts(req, 'gzip')) return reply.header('content-encoding', 'gzip').send(gzipped);
    return reply.send(gunzipSync(gzipped));
  });

  r.get('/api/devices/:id/sessions/:track/:date/analysis', {
    config: { access: 'rider', heavyRead: true },
    schema: { tags: ['sessions'], summary: 'Top speed and roll extremes with their laps; per-lap speed, lean, satellites and sample rate', params: sessionParamsSchema, response: { 200: analysisResponseSchema, ...errors } },
  }, async (req) => opts.sessions.analysis(viewer(req), req.params.id, req.params.track, req.params.date));

  r.get('/api/devices/:id/sessions/:track/:date/export/:format', {
    config: { access: 'rider', heavyRead: true, rateLimit: heavyReadRateLimit },
    schema: { tags: ['sessions'], summary: 'Download: CSV (RaceRender columns), GPX 1.1, or the raw lap.six / gps.six; ?heat=&lap= for one lap', params: exportParamsSchema, querystring: exportQuerySchema, response: { 200: binaryBody, ...errors } },
  }, async (req, reply) => {
    const { heat, lap } = req.query;
    if ((heat === undefined) !== (lap === undefined)) throw new AppError('storage/invalid-argument', 'Give both heat and lap, or neither.');
    const file = await opts.sessions.export(viewer(req), req.params.id, req.params.track, req.params.date, req.params.format, heat !== undefined && lap !== undefined ? { heat, lapCount: lap } : undefined);
    if ('size' in file) reply.header('content-length', String(file.size));
    return reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .header('cache-control', 'private, no-cache')
      .send(file.body);
  });
}
