// Health checks for what runs the server (a supervisor, a load balancer): liveness and readiness, public
// and showing the status only; for admins, also which database, blob store and sign-in provider are in use.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthDetailsSchema, healthSchema } from '#core/contracts/auth.contract.ts';
import { AppError } from '#core/errors.ts';
import type { HealthService } from './health.service';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';

const doc = routeSchemas('health', errorAnswers(503));

export async function healthRoutes(
  app: FastifyInstance,
  opts: { health: HealthService; describe: { database: string; blobs: string; identityProvider: string } },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const check = async () => {
    try {
      await opts.health.dependenciesAnswer();
    } catch {
      throw new AppError('storage/retry-limit-exceeded', 'Database or blob store unreachable');
    }
  };

  // Liveness: the process answers (a supervisor restarts it when this stops answering).
  r.get(
    '/api/health/live',
    {
      config: { access: 'public', rateLimit: false },
      schema: { tags: ['health'], summary: 'Liveness: the process answers', response: { 200: healthSchema } },
    },
    async () => ({ status: 'ok' as const }),
  );

  // Readiness: send traffic here only when the database and blob store answer and the schema is current.
  r.get(
    '/api/health/ready',
    {
      config: { access: 'public', rateLimit: false },
      schema: doc(
        'Readiness: the database and blob store answer and no migration is pending (503 otherwise)',
        healthSchema,
      ),
    },
    async () => {
      await check();
      let pending: string[];
      try {
        pending = await opts.health.pendingMigrations();
      } catch {
        throw new AppError('storage/retry-limit-exceeded', 'Database unreachable');
      }
      if (pending.length > 0)
        throw new AppError('storage/retry-limit-exceeded', `Database migrations pending: ${pending.length}`);
      return { status: 'ok' as const };
    },
  );

  // Public: the status only (the database host or file and the blob path are no stranger's business).
  r.get(
    '/api/health',
    {
      config: { access: 'public', rateLimit: false },
      schema: doc('Ready when the database and the blob store answer', healthSchema),
    },
    async () => {
      await check();
      return { status: 'ok' as const };
    },
  );

  r.get(
    '/api/admin/health',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['health', 'admin'],
        summary: 'The status and what is in use: database, blob store, identity provider',
        response: { 200: healthDetailsSchema, ...errorAnswers(401, 403, 503) },
      },
    },
    async () => {
      await check();
      return { status: 'ok' as const, ...opts.describe };
    },
  );
}
