// Firmware in the field (issue 61). Device (its token): check-in, the image by ranges, step reports.
// Admin: images, rollouts and their funnels, who is internal or beta, the fleet's health. Seller:
// the health of their stock and their buyers' devices.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema } from '#core/contracts/common.contract.ts';
import { fleetSchema, healthHistorySchema } from '#core/contracts/device-health.contract.ts';
import { deviceIdParamsSchema, emailParamsSchema } from '#core/contracts/admin.contract.ts';
import {
  checkInInputSchema,
  checkInResponseSchema,
  cohortMembersSchema,
  firmwareCreatedSchema,
  firmwareCreateInputSchema,
  firmwareIdParamsSchema,
  firmwareListSchema,
  firmwareReportInputSchema,
  firmwareSchema,
  rolloutCreatedSchema,
  rolloutCreateInputSchema,
  rolloutIdParamsSchema,
  rolloutListSchema,
  rolloutPatchInputSchema,
  rolloutSchema,
  userCohortInputSchema,
} from '#core/contracts/firmware.contract.ts';
import { AppError } from '#core/errors.ts';
import { perToken } from '#server/lib/per-device-rate-limit.ts';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';
import type { DevicesService } from '../devices/devices.service';
import type { FirmwareService } from './firmware.service';

const deviceDoc = routeSchemas('device', errorAnswers(400, 401, 403, 415, 429));
const adminDoc = routeSchemas('admin', errorAnswers(400, 401, 403, 404, 409, 422));
const sellerDoc = routeSchemas('seller', errorAnswers(401, 403));

/**
 * One `bytes=` range of an object of `size` bytes (inclusive ends), 'all' when the header asks for
 * none or for several (answered whole, as HTTP allows), 'unsatisfiable' when it starts past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'all' | 'unsatisfiable' {
  if (!header) return 'all';
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'all';
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return 'all';
  return { start, end };
}

/**
 * Image streams one instance serves at once. Firmware is background work: past this, a device is told
 * to come back (503, Retry-After) rather than every stream, a rider's session upload among them,
 * getting a thinner share of the server.
 */
const MAX_IMAGE_STREAMS = 32;

export async function firmwareRoutes(
  app: FastifyInstance,
  opts: { firmware: FirmwareService; devices: DevicesService },
) {
  const { firmware, devices } = opts;
  let imageStreams = 0;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' as const };

  // ---- Device ----

  r.post(
    '/api/device/v1/check-in',
    {
      config: { access: 'device', rateLimit: perToken(30) },
      schema: deviceDoc(
        "The device's health when idle on Wi-Fi; answers { update: null } or a signed offer",
        checkInResponseSchema,
        { body: checkInInputSchema },
      ),
    },
    async (req) => {
      const device = req.device!;
      const knownClass = await devices.checkIn(device.id, req.body);
      return { update: await firmware.offerFor({ id: device.id, knownClass }, req.body) };
    },
  );

  r.post(
    '/api/device/v1/firmware-report',
    {
      config: { access: 'device', rateLimit: perToken(60) },
      schema: deviceDoc('A step of installing an offered image (confirmed only after rebooting into it)', okSchema, {
        body: firmwareReportInputSchema,
        errors: errorAnswers(400, 401, 403, 409, 415, 429),
      }),
    },
    async (req) => {
      const version = await devices.reportedVersion(req.device!.id);
      await firmware.report({ id: req.device!.id, version }, req.body);
      return { ok: true as const };
    },
  );

  r.get(
    '/api/device/v1/firmware/:id/image',
    {
      config: { access: 'device', rateLimit: perToken(600) },
      // Already as small as it gets; and a range must count the image's own bytes.
      compress: false,
      schema: {
        tags: ['device'],
        summary:
          "An offered image: Accept-Ranges, 206 for a Range, ETag = its sha256, 416 past the end; only through the device's own offer",
        params: rolloutIdParamsSchema,
      },
    },
    async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const image = await firmware.imageFor(req.device!.id, req.params.id);
      const etag = `"${image.sha256}"`;
      reply.header('accept-ranges', 'bytes').header('etag', etag).header('cache-control', 'private, no-transform');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      const ifRange = req.headers['if-range'];
      const range = ifRange && ifRange !== etag ? 'all' : parseRange(req.headers.range, image.size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${image.size}`);
        throw new AppError(
          'firmware/range-not-satisfiable',
          `The image is ${image.size} bytes: a Range must start below ${image.size}.`,
        );
      }
      if (imageStreams >= MAX_IMAGE_STREAMS) {
        reply.header('retry-after', String(2 + Math.floor(Math.random() * 4)));
        throw new AppError('firmware/busy');
      }
      imageStreams++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        imageStreams--;
      };
      reply.raw.once('close', release);
      const opened = await image.open(range === 'all' ? undefined : range).catch((err: unknown) => {
        release();
        throw err;
      });
      if (!opened) {
        release();
        throw new AppError('storage/object-not-found', "This firmware's image is missing from storage.");
      }
      reply.type('application/octet-stream').header('content-length', String(opened.size));
      if (range !== 'all') reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${image.size}`);
      return reply.send(opened.body as Readable);
    },
  );

  // ---- Admin: images ----

  r.get(
    '/api/admin/firmware',
    { config: admin, schema: adminDoc('Firmware images, newest seq first per class', firmwareListSchema) },
    () => firmware.listFirmware(),
  );
  r.post(
    '/api/admin/firmware',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Registers a manifest signed off the server (its image is uploaded next)',
        body: firmwareCreateInputSchema,
        response: { 201: firmwareCreatedSchema, ...errorAnswers(400, 401, 403, 409, 422) },
      },
    },
    async (req, reply) => reply.code(201).send(await firmware.register(req.identity!.email, req.body)),
  );
  // The image's bytes, in a scope whose body is left unread for the handler to stream.
  await app.register(async (images) => {
    images.removeAllContentTypeParsers();
    images.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    images.withTypeProvider<ZodTypeProvider>().put(
      '/api/admin/firmware/:id/image',
      {
        config: admin,
        bodyLimit: 64 * 1024 * 1024,
        schema: adminDoc(
          "The image's bytes (application/octet-stream); 200 once its size and sha256 match the signed manifest",
          firmwareSchema,
          { params: firmwareIdParamsSchema, errors: errorAnswers(400, 401, 403, 404, 413, 422) },
        ),
      },
      async (req, reply) => {
        const body = req.body as Readable;
        try {
          return await firmware.storeImage(
            req.identity!.email,
            req.params.id,
            body,
            Number(req.headers['content-length'] ?? NaN),
          );
        } catch (err) {
          if (!body.readableEnded) reply.header('connection', 'close');
          throw err;
        }
      },
    );
  });

  // ---- Admin: rollouts ----

  r.get(
    '/api/admin/rollouts',
    { config: admin, schema: adminDoc('Every rollout with its funnel, newest first', rolloutListSchema) },
    () => firmware.rollouts(),
  );
  r.post(
    '/api/admin/rollouts',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Rolls an uploaded image out to cohorts and a percentage',
        body: rolloutCreateInputSchema,
        response: { 201: rolloutCreatedSchema, ...errorAnswers(400, 401, 403, 404, 409, 422) },
      },
    },
    async (req, reply) => reply.code(201).send(await firmware.createRollout(req.identity!.email, req.body)),
  );
  r.get(
    '/api/admin/rollouts/:id',
    {
      config: admin,
      schema: adminDoc(
        'A rollout and its funnel: offered, downloaded, confirmed, failed, failures by code',
        rolloutSchema,
        {
          params: rolloutIdParamsSchema,
        },
      ),
    },
    (req) => firmware.rollout(req.params.id),
  );
  r.patch(
    '/api/admin/rollouts/:id',
    {
      config: admin,
      schema: adminDoc('Pause, resume, abort or widen a rollout (written to the audit log)', rolloutSchema, {
        params: rolloutIdParamsSchema,
        body: rolloutPatchInputSchema,
      }),
    },
    (req) => firmware.patchRollout(req.identity!.email, req.params.id, req.body),
  );

  // ---- Admin: cohorts ----

  r.get(
    '/api/admin/cohorts',
    { config: admin, schema: adminDoc('Users in the internal or beta cohort', cohortMembersSchema) },
    () => firmware.cohortMembers(),
  );
  r.put(
    '/api/admin/users/:email/cohort',
    {
      config: admin,
      schema: adminDoc("Puts a user (their devices) in the internal or beta cohort, or neither ('')", okSchema, {
        params: emailParamsSchema,
        body: userCohortInputSchema,
      }),
    },
    async (req) => {
      await firmware.setCohort(req.identity!.email, req.params.email.toLowerCase(), req.body.cohort);
      return { ok: true as const };
    },
  );

  // ---- Fleet health ----

  r.get(
    '/api/admin/fleet',
    {
      config: admin,
      schema: adminDoc(
        "Every device's health and rollout step, those needing attention first; the version spread",
        fleetSchema,
      ),
    },
    async () => devices.adminFleet(await firmware.currentSteps()),
  );
  r.get(
    '/api/admin/devices/:id/health',
    {
      config: admin,
      schema: adminDoc("A device's kept check-ins, newest first", healthHistorySchema, {
        params: deviceIdParamsSchema,
      }),
    },
    (req) => devices.history(req.params.id),
  );
  r.get(
    '/api/seller/fleet',
    {
      config: { access: 'seller' },
      schema: sellerDoc("The health of my stock and my buyers' devices, those needing attention first", fleetSchema),
    },
    (req) => devices.sellerFleet(req.identity!.email),
  );
}
