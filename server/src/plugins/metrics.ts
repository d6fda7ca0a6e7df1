import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../lib/metrics';

/**
 * Times every request by its route pattern (never the raw address: one series per route, not per
 * session), and serves `GET /metrics` to operators (access 'metrics': METRICS_TOKEN).
 */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { metrics: Metrics }) => {
  const { metrics } = opts;
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: req.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get(
    '/metrics',
    {
      config: { access: 'metrics', rateLimit: false },
      schema: {
        tags: ['operators'],
        summary: 'Prometheus metrics (text format); needs Authorization: Bearer <METRICS_TOKEN>',
      },
    },
    async (_req, reply) => {
      reply.type(metrics.registry.contentType).header('cache-control', 'no-store');
      return metrics.registry.metrics();
    },
  );
});
