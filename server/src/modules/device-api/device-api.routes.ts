import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { apiErrorSchema, okSchema } from '../../../../core/contracts/common.contract';
import { dateParam, deviceConfigSchema, deviceStatusInputSchema, trackParam, uploadResponseSchema } from '../../../../core/contracts/sessions.contract';
import { AppError } from '../../../../core/errors';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import { hashToken } from '../../lib/tokens';
import { recordDeviceStatus, touchDevice } from '../devices/devices.repository';
import { findUser } from '../users/users.repository';
import { MAX_UPLOAD_BYTES, SIX_FILE, type SessionsService, type SixKind } from '../sessions/sessions.service';

const uploadParams = z.object({ track: trackParam, date: dateParam });
const uploadHeaders = z.looseObject({ 'content-md5': z.string().max(64).optional() });
const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema, 422: apiErrorSchema, 429: apiErrorSchema };

/** Per token, not per address: many devices share a track's Wi-Fi. */
const perToken = (max: number) => ({
  max,
  timeWindow: '1 minute',
  keyGenerator: (req: { headers: { authorization?: string }; ip: string }) => (req.headers.authorization ? `dev:${hashToken(req.headers.authorization)}` : `ip:${req.ip}`),
});

/** The device's own API: bearer token of one device; it writes only its own device's paths. */
export async function deviceApiRoutes(app: FastifyInstance, opts: { db: Kysely<DB>; sessions: SessionsService; box: SecretBox }) {
  // Six files arrive as text/plain; keep the exact bytes (a Buffer), never a decoded string.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  const r = app.withTypeProvider<ZodTypeProvider>();

  const explicitParams = uploadParams.extend({ id: z.string().max(64) });
  const upload = async (req: FastifyRequest, kind: SixKind, params: { track: string; date: string }) => {
    if (!Buffer.isBuffer(req.body)) throw new AppError('storage/invalid-format', 'Send the file as text/plain.');
    const device = req.device!;
    await touchDevice(opts.db, device.id);
    const md5Header = req.headers['content-md5'];
    return opts.sessions.upload({
      deviceId: device.id,
      owner: device.owner,
      track: params.track,
      date: params.date,
      kind,
      body: req.body,
      contentMd5: typeof md5Header === 'string' ? md5Header : undefined,
    });
  };

  for (const kind of ['lap', 'gps'] as SixKind[]) {
    r.put(`/api/device/v1/sessions/:track/:date/${SIX_FILE[kind]}`, {
      config: { access: 'device', rateLimit: perToken(120) },
      bodyLimit: MAX_UPLOAD_BYTES[kind],
      schema: {
        tags: ['device'],
        summary: `Uploads ${SIX_FILE[kind]} (text/plain; optional Content-MD5; the same bytes again are a no-op)`,
        params: uploadParams,
        headers: uploadHeaders,
        response: { 200: uploadResponseSchema, ...errors },
      },
    }, (req) => upload(req, kind, req.params));

    // The same upload addressed by the spec's storage key ({hardware}/{track}/{date}/...):
    // a token may write only under its own device id.
    r.put(`/api/device/v1/devices/:id/sessions/:track/:date/${SIX_FILE[kind]}`, {
      config: { access: 'device', rateLimit: perToken(120) },
      bodyLimit: MAX_UPLOAD_BYTES[kind],
      schema: {
        tags: ['device'],
        summary: `Uploads ${SIX_FILE[kind]} under an explicit device id, which must be the token's own`,
        params: explicitParams,
        headers: uploadHeaders,
        response: { 200: uploadResponseSchema, 403: apiErrorSchema, ...errors },
      },
    }, (req) => {
      if (req.params.id !== req.device!.id) throw new AppError('storage/unauthorized', 'This token may only write its own device.');
      return upload(req, kind, req.params);
    });
  }

  r.get('/api/device/v1/config', {
    config: { access: 'device', rateLimit: perToken(60) },
    schema: { tags: ['device'], summary: "The owner's Wi-Fi and pilot data, for the device", response: { 200: deviceConfigSchema, 401: apiErrorSchema } },
  }, async (req) => {
    const owner = req.device!.owner ? await findUser(opts.db, req.device!.owner) : undefined;
    if (!owner) return { wifi: '', senha: '', nomePiloto: '', numeroMoto: '' };
    let senha = '';
    try {
      senha = opts.box.open(owner.senha_enc);
    } catch {
      senha = '';
    }
    return { wifi: owner.wifi, senha, nomePiloto: owner.nome_piloto, numeroMoto: owner.numero_moto };
  });

  r.post('/api/device/v1/status', {
    config: { access: 'device', rateLimit: perToken(60) },
    schema: { tags: ['device'], summary: 'Records the firmware version and up state', body: deviceStatusInputSchema, response: { 200: okSchema, 400: apiErrorSchema, 401: apiErrorSchema } },
  }, async (req) => {
    await recordDeviceStatus(opts.db, req.device!.id, req.body);
    return { ok: true as const };
  });
}
