import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminDeviceSchema,
  adminUserSchema,
  assignBuyerSellerSchema,
  assignDeviceSellerSchema,
  assignOwnerSchema,
  auditEntrySchema,
  deviceIdParamsSchema,
  deviceTokenResponseSchema,
  disableUserSchema,
  emailParamsSchema,
  ownerChangeResponseSchema,
  registerDeviceSchema,
  setRolesSchema,
} from '#core/contracts/admin.contract.ts';
import { apiErrorSchema, okSchema } from '#core/contracts/common.contract.ts';
import type { AdminService } from './admin.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const ok = { ok: true as const };

/** Administrator routes: every one is `access: 'admin'` (adm = '1'), checked by the policy before the handler. */
export async function adminRoutes(app: FastifyInstance, opts: { admin: AdminService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin } = opts;
  const tags = ['admin'];
  const cfg = { access: 'admin' as const };

  r.get(
    '/api/admin/users',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'All users (Wi-Fi name, never the password)',
        response: { 200: z.array(adminUserSchema), ...errors },
      },
    },
    () => admin.users(),
  );
  r.get(
    '/api/admin/sellers',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Users whose seller is non-empty',
        response: { 200: z.array(adminUserSchema), ...errors },
      },
    },
    () => admin.sellers(),
  );
  r.get(
    '/api/admin/devices',
    { config: cfg, schema: { tags, summary: 'All devices', response: { 200: z.array(adminDeviceSchema), ...errors } } },
    () => admin.devices(),
  );
  r.get(
    '/api/admin/audit',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'The latest 500 audit entries',
        response: { 200: z.array(auditEntrySchema), ...errors },
      },
    },
    () => admin.audit(),
  );

  r.post(
    '/api/admin/assign-owner',
    {
      config: cfg,
      schema: {
        tags,
        summary: "[adm] device → owner; a new owner revokes the device's token and gets a new one, shown once",
        body: assignOwnerSchema,
        response: { 200: ownerChangeResponseSchema, ...errors },
      },
    },
    async (req) => ({
      ok: true as const,
      id: req.body.deviceId,
      token: await admin.assignOwner(req.identity!.email, req.body.email, req.body.deviceId),
    }),
  );
  r.post(
    '/api/admin/assign-buyer-seller',
    {
      config: cfg,
      schema: {
        tags,
        summary: '[seller-adm] seller → buyer',
        body: assignBuyerSellerSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (req) => {
      await admin.assignBuyerSeller(req.identity!.email, req.body.buyer, req.body.seller);
      return ok;
    },
  );
  r.post(
    '/api/admin/assign-device-seller',
    {
      config: cfg,
      schema: {
        tags,
        summary: '[hardware] device → seller',
        body: assignDeviceSellerSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (req) => {
      await admin.assignDeviceSeller(req.identity!.email, req.body.deviceId, req.body.seller);
      return ok;
    },
  );
  r.post(
    '/api/admin/devices',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Registers a device; its upload token is shown once',
        body: registerDeviceSchema,
        response: { 200: deviceTokenResponseSchema, ...errors },
      },
    },
    async (req) => ({
      id: req.body.id,
      token: await admin.registerDevice(req.identity!.email, req.body),
    }),
  );
  r.post(
    '/api/admin/devices/:id/token',
    {
      config: cfg,
      schema: {
        tags,
        summary: "Rotates a device's token; the new one is shown once",
        params: deviceIdParamsSchema,
        response: { 200: deviceTokenResponseSchema, ...errors },
      },
    },
    async (req) => ({
      id: req.params.id,
      token: await admin.rotateToken(req.identity!.email, req.params.id),
    }),
  );
  r.put(
    '/api/admin/users/:email/disabled',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Disables (signs out at once) or re-enables a user',
        params: emailParamsSchema,
        body: disableUserSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (req) => {
      await admin.setDisabled(req.identity!.email, req.params.email.toLowerCase(), req.body.disabled);
      return ok;
    },
  );
  r.put(
    '/api/admin/users/:email/roles',
    {
      config: cfg,
      schema: {
        tags,
        summary: "Sets a user's roles",
        params: emailParamsSchema,
        body: setRolesSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (req) => {
      await admin.setRoles(req.identity!.email, req.params.email.toLowerCase(), req.body);
      return ok;
    },
  );
}
