// The lap timer's own API under /api/device/v1, called with one device's token: uploading its lap.six
// and gps.six, reading its owner's Wi-Fi and pilot data, reporting its firmware status.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema, okSchema } from '#core/contracts/common.contract.ts';
import {
  dateParam,
  deviceConfigSchema,
  deviceStatusInputSchema,
  trackParam,
  uploadResponseSchema,
} from '#core/contracts/sessions.contract.ts';
import { AppError } from '#core/errors.ts';
import type { Metrics } from '#server/lib/metrics.ts';
import { mediaTypeOf } from '#server/lib/media-type.ts';
import { perToken } from '#server/lib/per-device-rate-limit.ts';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';
import type { DevicesService } from '../devices/devices.service';
import type { UsersService } from '../users/users.service';
import { MAX_UPLOAD_BYTES, SIX_FILE, type SixKind } from '../sessions/session-files';
import type { SessionReceiver } from '../sessions/session-receiver.service';

const uploadParams = z.object({ track: trackParam, date: dateParam });
const uploadHeaders = z.looseObject({ 'content-md5': z.string().max(64).optional() });
const errors = errorAnswers(400, 401, 413, 415, 422, 429);
const doc = routeSchemas('device', errors);

/** Reads a small body into memory, refusing it as soon as it passes `limit` bytes. */
async function readBody(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new AppError(
        'storage/server-file-wrong-size',
        `The body is limited to ${limit} bytes; nothing was stored.`,
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** What an upload's body may be sent as ('': no Content-Type): firmware HTTP clients often send the last two. */
const UPLOAD_MEDIA_TYPES = new Set(['text/plain', 'application/octet-stream', '']);

/** The device's own API: bearer token of one device; it writes only its own device's paths. */
export async function deviceApiRoutes(
  app: FastifyInstance,
  opts: { devices: DevicesService; receiver: SessionReceiver; users: UsersService; metrics: Metrics },
) {
  // The JSON routes take JSON only: a text body is 415 with what to send, not a validation error.
  app.removeContentTypeParser('text/plain');
  const r = app.withTypeProvider<ZodTypeProvider>();
  const explicitParams = uploadParams.extend({ id: z.string().max(64) });

  const upload = async (
    req: FastifyRequest,
    reply: FastifyReply,
    kind: SixKind,
    params: { track: string; date: string },
  ) => {
    const file = SIX_FILE[kind];
    const declared = Number(req.headers['content-length'] ?? NaN);
    const stream = (req.body as Readable | undefined) ?? Readable.from([]);
    try {
      const type = mediaTypeOf(req);
      if (!UPLOAD_MEDIA_TYPES.has(type)) {
        throw new AppError(
          'request/unsupported-media-type',
          `Send ${file} as text/plain, application/octet-stream or with no Content-Type (got ${type}); nothing was stored.`,
        );
      }
      if (declared > MAX_UPLOAD_BYTES[kind])
        throw new AppError(
          'storage/server-file-wrong-size',
          `${file} is limited to ${MAX_UPLOAD_BYTES[kind]} bytes; nothing was stored.`,
        );
      const device = req.device!;
      await opts.devices.seen(device.id);
      const md5Header = req.headers['content-md5'];
      const result = await opts.receiver.receive({
        deviceId: device.id,
        owner: device.owner,
        track: params.track,
        date: params.date,
        kind,
        body: kind === 'lap' ? await readBody(stream, MAX_UPLOAD_BYTES.lap) : stream,
        contentMd5: typeof md5Header === 'string' ? md5Header : undefined,
      });
      opts.metrics.uploads.inc({ file, result: result.unchanged ? 'unchanged' : 'stored' });
      if (!result.unchanged) {
        opts.metrics.uploadBytes.inc({ file }, result.size);
        opts.metrics.warningLines.inc({ file }, result.lines - result.indexed);
      }
      return result;
    } catch (err) {
      opts.metrics.uploadsRefused.inc({ file, reason: err instanceof AppError ? err.code : 'internal' });
      // Refused before the body was read to its end: close the connection rather than read the rest.
      if (!stream.readableEnded) reply.header('connection', 'close');
      throw err;
    }
  };

  // The uploads, in a scope of their own: whatever the body's type, it is left unread here (the
  // handler checks the type, after the token, and reads it itself: a lap.six into memory, a
  // gps.six streamed through).
  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    const u = uploads.withTypeProvider<ZodTypeProvider>();
    for (const kind of ['lap', 'gps'] as SixKind[]) {
      u.put(
        `/api/device/v1/sessions/:track/:date/${SIX_FILE[kind]}`,
        {
          config: { access: 'device', rateLimit: perToken(120) },
          schema: doc(
            `Uploads ${SIX_FILE[kind]} (text/plain, application/octet-stream or no Content-Type; optional Content-MD5; the same bytes again are a no-op)`,
            uploadResponseSchema,
            { params: uploadParams, headers: uploadHeaders, errors: { 409: apiErrorSchema, ...errors } },
          ),
        },
        (req, reply) => upload(req, reply, kind, req.params),
      );

      // The same upload addressed by the spec's storage key ({hardware}/{track}/{date}/...):
      // a token may write only under its own device id.
      u.put(
        `/api/device/v1/devices/:id/sessions/:track/:date/${SIX_FILE[kind]}`,
        {
          config: { access: 'device', rateLimit: perToken(120) },
          schema: doc(
            `Uploads ${SIX_FILE[kind]} under an explicit device id, which must be the token's own`,
            uploadResponseSchema,
            {
              params: explicitParams,
              headers: uploadHeaders,
              errors: { 403: apiErrorSchema, 409: apiErrorSchema, ...errors },
            },
          ),
        },
        (req, reply) => {
          if (req.params.id !== req.device!.id) {
            reply.header('connection', 'close');
            throw new AppError('storage/unauthorized', 'This token may only write its own device.');
          }
          return upload(req, reply, kind, req.params);
        },
      );
    }
  });

  r.get(
    '/api/device/v1/config',
    {
      config: { access: 'device', rateLimit: perToken(60) },
      schema: doc("The owner's Wi-Fi and pilot data, for the device", deviceConfigSchema, {
        errors: errorAnswers(401),
      }),
    },
    async (req) => opts.users.deviceConfig(req.device!.owner),
  );

  r.post(
    '/api/device/v1/status',
    {
      config: { access: 'device', rateLimit: perToken(60) },
      schema: doc('Records the firmware version and up state (JSON: {"version": "…", "up": "…"})', okSchema, {
        body: deviceStatusInputSchema,
        errors: errorAnswers(400, 401, 415),
      }),
    },
    async (req) => {
      await opts.devices.recordStatus(req.device!.id, req.body);
      return { ok: true as const };
    },
  );
}
