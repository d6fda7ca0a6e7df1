import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Graceful stop: requests in flight finish, and each keep-alive connection is closed as soon as
 * it falls idle (Fastify closes only those idle at the moment close() starts; one that falls
 * idle a moment later would otherwise hold the stop until its keep-alive time-out, 72 s).
 */
export const gracefulClosePlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preClose', async () => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
  });
});
