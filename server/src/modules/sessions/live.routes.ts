import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../../core/contracts/common.contract';
import { latestSessionSchema } from '../../../../core/contracts/sessions.contract';
import type { SessionEvent, SessionsService } from './sessions.service';

const HEARTBEAT_MS = 25_000;

/** Live updates (server-sent events) and the latest session, for the home, laps and analytics screens. */
export async function liveRoutes(app: FastifyInstance, opts: { sessions: SessionsService; demoDeviceId: string }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Open streams, ended when the server closes (graceful shutdown must not wait on them).
  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of [...open]) end();
  });

  r.get('/api/sessions/latest', {
    config: { access: 'rider' },
    schema: { tags: ['sessions'], summary: 'The most recent session the caller may see (own before demo)', response: { 200: latestSessionSchema, 401: apiErrorSchema } },
  }, async (req) => opts.sessions.latest({ email: req.identity!.email, admin: req.identity!.admin, demoDeviceId: opts.demoDeviceId }));

  r.get('/api/events', {
    config: { access: 'rider', rateLimit: false },
    schema: { tags: ['sessions'], summary: "Server-sent events: 'session' when a session the caller may see is uploaded or replaced" },
  }, (req, reply) => {
    const viewer = { email: req.identity!.email, admin: req.identity!.admin, demoDeviceId: opts.demoDeviceId };
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 5000\n: connected\n\n');
    const onSession = (event: SessionEvent) => {
      if (!opts.sessions.concerns(viewer, event)) return;
      res.write(`event: session\ndata: ${JSON.stringify({ type: event.type, deviceId: event.deviceId, track: event.track, date: event.date })}\n\n`);
    };
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    opts.sessions.events.on('session', onSession);
    const close = () => {
      clearInterval(heartbeat);
      opts.sessions.events.off('session', onSession);
      open.delete(end);
    };
    const end = () => {
      close();
      res.end();
    };
    open.add(end);
    req.raw.on('close', close);
  });
}
