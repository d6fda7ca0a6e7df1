// Admin routes under /api/admin, for admins only: users, sellers, devices and the audit log; device
// owners, sellers, registration and tokens; disabling users and setting their roles.
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
import { okSchema } from '#core/contracts/common.contract.ts';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';
import type { AdminService } from './admin.service';

const errors = errorAnswers(400, 401, 403, 404);
const doc = routeSchemas('admin', errors);
const ok = { ok: true as const };

/** Administrator routes: every one is `access: 'admin'` (adm = '1'), checked by the policy before the handler. */
export async function adminRoutes(app: FastifyInstance, opts: { admin: AdminService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin } = opts;
  const cfg = { access: 'admin' as const };

  r.get(
    '/api/admin/users',
    { config: cfg, schema: doc('All users (Wi-Fi name, never the password)', z.array(adminUserSchema)) },
    () => admin.users(),
  );
  r.get(
    '/api/admin/sellers',
    { config: cfg, schema: doc('Users whose seller is non-empty', z.array(adminUserSchema)) },
    () => admin.sellers(),
  );
  r.get('/api/admin/devices', { config: cfg, schema: doc('All devices', z.array(adminDeviceSchema)) }, () =>
    admin.devices(),
  );
  r.get(
    '/api/admin/audit',
    { config: cfg, schema: doc('The latest 500 audit entries', z.array(auditEntrySchema)) },
    () => admin.audit(),
  );

  r.post(
    '/api/admin/assign-owner',
    {
      config: cfg,
      schema: doc(
        "[adm] device → owner; a new owner revokes the device's token and gets a new one, shown once",
        ownerChangeResponseSchema,
        { body: assignOwnerSchema },
      ),
    },
    async (req) => ({
      ok: true as const,
      id: req.body.deviceId,
      token: await admin.assignOwner(req.identity!.email, req.body.email, req.body.deviceId),
    }),
  );
  r.post(
    '/api/admin/assign-buyer-seller',
    { config: cfg, schema: doc('[seller-adm] seller → buyer', okSchema, { body: assignBuyerSellerSchema }) },
    async (req) => {
      await admin.assignBuyerSeller(req.identity!.email, req.body.buyer, req.body.seller);
      return ok;
    },
  );
  r.post(
    '/api/admin/assign-device-seller',
    { config: cfg, schema: doc('[hardware] device → seller', okSchema, { body: assignDeviceSellerSchema }) },
    async (req) => {
      await admin.assignDeviceSeller(req.identity!.email, req.body.deviceId, req.body.seller);
      return ok;
    },
  );
  r.post(
    '/api/admin/devices',
    {
      config: cfg,
      schema: doc('Registers a device; its upload token is shown once', deviceTokenResponseSchema, {
        body: registerDeviceSchema,
      }),
    },
    async (req) => ({ id: req.body.id, token: await admin.registerDevice(req.identity!.email, req.body) }),
  );
  r.post(
    '/api/admin/devices/:id/token',
    {
      config: cfg,
      schema: doc("Rotates a device's token; the new one is shown once", deviceTokenResponseSchema, {
        params: deviceIdParamsSchema,
      }),
    },
    async (req) => ({ id: req.params.id, token: await admin.rotateToken(req.identity!.email, req.params.id) }),
  );
  r.put(
    '/api/admin/users/:email/disabled',
    {
      config: cfg,
      schema: doc('Disables (signs out at once) or re-enables a user', okSchema, {
        params: emailParamsSchema,
        body: disableUserSchema,
      }),
    },
    async (req) => {
      await admin.setDisabled(req.identity!.email, req.params.email.toLowerCase(), req.body.disabled);
      return ok;
    },
  );
  r.put(
    '/api/admin/users/:email/roles',
    { config: cfg, schema: doc("Sets a user's roles", okSchema, { params: emailParamsSchema, body: setRolesSchema }) },
    async (req) => {
      await admin.setRoles(req.identity!.email, req.params.email.toLowerCase(), req.body);
      return ok;
    },
  );
}
