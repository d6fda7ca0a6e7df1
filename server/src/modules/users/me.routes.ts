// The signed-in rider's own routes under /api/me: who they are (roles, devices), the profile their
// device reads (Wi-Fi, pilot data), language and units, and revoking a lost device's token.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceIdParamsSchema } from '#core/contracts/admin.contract.ts';
import { okSchema } from '#core/contracts/common.contract.ts';
import { meSchema, profileInputSchema } from '#core/contracts/me.contract.ts';
import { preferencesInputSchema, preferencesSchema } from '#core/contracts/preferences.contract.ts';
import { parseAcceptLanguage } from '#core/preferences.ts';
import type { UsersService } from './users.service';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';

const doc = routeSchemas('me', errorAnswers(401));

export async function meRoutes(app: FastifyInstance, opts: { users: UsersService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users } = opts;

  r.get(
    '/api/me',
    { config: { access: 'rider' }, schema: doc('The signed-in user, roles and devices', meSchema) },
    async (req) => users.me(req.identity!.email),
  );

  r.delete(
    '/api/me/devices/:id/token',
    {
      config: { access: 'rider' },
      schema: doc(
        'Revokes the upload token of a device I own: it stops uploading and reading the Wi-Fi at once',
        okSchema,
        { params: deviceIdParamsSchema, errors: errorAnswers(401, 404) },
      ),
    },
    async (req) => {
      await users.revokeDeviceToken(req.identity!.email, req.params.id);
      return { ok: true as const };
    },
  );

  r.put(
    '/api/me/profile',
    {
      config: { access: 'rider' },
      schema: doc("Enroll: the device's Wi-Fi and the pilot's data (all required)", okSchema, {
        body: profileInputSchema,
        errors: errorAnswers(400),
      }),
    },
    async (req) => {
      await users.saveProfile(req.identity!.email, req.body);
      return { ok: true as const };
    },
  );

  r.get(
    '/api/me/preferences',
    {
      config: { access: 'rider' },
      schema: doc(
        "The rider's language and units: as chosen, else (chosen: false) those of the request's Accept-Language",
        preferencesSchema,
      ),
    },
    async (req, reply) => {
      // The same URL answers differently by language while nothing is chosen.
      reply.header('vary', 'Accept-Language');
      return users.preferences(req.identity!.email, parseAcceptLanguage(req.headers['accept-language']));
    },
  );

  r.put(
    '/api/me/preferences',
    {
      config: { access: 'rider' },
      schema: doc(
        "Stores the rider's language ('pt-BR', 'en', 'es') and units ('metric', 'imperial'), both required",
        okSchema,
        { body: preferencesInputSchema, errors: errorAnswers(400, 401) },
      ),
    },
    async (req) => {
      await users.savePreferences(req.identity!.email, req.body);
      return { ok: true as const };
    },
  );
}
