// Live updates: a server-sent event stream of the sessions a rider may see, bounded per sign-in and user.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '#core/contracts/common.contract.ts';
import { latestSessionSchema } from '#core/contracts/sessions.contract.ts';
import { AppError } from '#core/errors.ts';
import type { Coordination } from '#server/db/coordination.ts';
import type { Metrics } from '#server/lib/metrics.ts';
import type { AuthSessionIdentity } from '#server/plugins/auth-session.ts';
import { isSignInRevoked } from '../auth/auth-events';
import { viewerOf } from './device-check';
import type { SessionEvent, SessionEvents } from './session-events.service';
import type { SessionReader } from './session-reader.service';
import { errorAnswers } from '#server/lib/route-schema.ts';

const HEARTBEAT_MS = 25_000;
/** A rider's phone and laptop with a tab or two each; a fifth stream on one sign-in is refused. */
export const MAX_STREAMS_PER_SIGN_IN = 4;
/** One rider's sign-ins together (several devices): no one fills the instance's streams alone. */
export const MAX_STREAMS_PER_USER = 8;
/** Per instance: each open stream holds a socket and a listener. */
const MAX_STREAMS = 2_000;

interface Stream {
  identity: AuthSessionIdentity;
  end(): void;
}

/** Live updates (server-sent events) and the latest session, for the home, laps and analytics screens. */
export async function liveRoutes(
  app: FastifyInstance,
  opts: {
    reader: SessionReader;
    events: SessionEvents;
    coordination: Coordination;
    metrics: Metrics;
    heartbeatMs?: number;
    maxStreams?: number;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const maxStreams = opts.maxStreams ?? MAX_STREAMS;
  // Open streams, each tied to the sign-in it was opened under.
  const open = new Set<Stream>();
  const countOf = (same: (s: Stream) => boolean) => [...open].filter(same).length;

  // A sign-in ended or a user's rights changed, on any instance: its streams close now.
  const unsubscribe = opts.coordination.subscribe((payload) => {
    if (!isSignInRevoked(payload)) return;
    for (const s of [...open]) {
      if (s.identity.authSessionHash === payload.authSessionHash || s.identity.email === payload.email) s.end();
    }
  });
  // preClose: a stream never finishes by itself, and Fastify waits for requests in flight
  // before its onClose hooks run.
  app.addHook('preClose', async () => {
    unsubscribe();
    for (const s of [...open]) s.end();
  });

  r.get(
    '/api/sessions/latest',
    {
      config: { access: 'rider' },
      schema: {
        tags: ['sessions'],
        summary: 'The most recent session the caller may see (own before demo)',
        response: { 200: latestSessionSchema, 401: apiErrorSchema },
      },
    },
    async (req) => opts.reader.latest(viewerOf(req)),
  );

  r.get(
    '/api/events',
    {
      config: { access: 'rider', rateLimit: false },
      schema: {
        tags: ['sessions'],
        summary: `Server-sent events: 'session' when a session the caller may see is uploaded or replaced. At most ${MAX_STREAMS_PER_SIGN_IN} streams per sign-in and ${MAX_STREAMS_PER_USER} per rider (429 beyond); a stream closes when its sign-in ends, its user is disabled or their roles change.`,
        response: errorAnswers(429),
      },
    },
    async (req, reply) => {
      const identity = req.identity!;
      if (countOf((s) => s.identity.authSessionHash === identity.authSessionHash) >= MAX_STREAMS_PER_SIGN_IN) {
        throw new AppError(
          'auth/too-many-requests',
          `At most ${MAX_STREAMS_PER_SIGN_IN} live-update streams per sign-in; close another tab.`,
        );
      }
      if (countOf((s) => s.identity.email === identity.email) >= MAX_STREAMS_PER_USER) {
        throw new AppError(
          'auth/too-many-requests',
          `At most ${MAX_STREAMS_PER_USER} live-update streams per rider; close another tab.`,
        );
      }
      if (open.size >= maxStreams)
        throw new AppError('auth/too-many-requests', 'Too many live-update streams on this server; try again later.');
      const viewer = viewerOf(req);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        // Written here, past the hooks: as every signed-in answer (plugins/auth-session.ts).
        'cache-control': 'private, no-store, no-transform',
        vary: 'Cookie',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 5000\n: connected\n\n');
      const onSession = (event: SessionEvent) => {
        if (!opts.events.concerns(viewer, event)) return;
        const personalBest = event.owner === viewer.email ? event.personalBest : undefined;
        res.write(
          `event: session\ndata: ${JSON.stringify({ type: event.type, deviceId: event.deviceId, track: event.track, date: event.date, personalBest })}\n\n`,
        );
      };
      // Each beat re-checks the sign-in: an expiry, or a change made where no bus reaches (the CLI
      // on SQLite), closes the stream within one beat.
      const heartbeat = setInterval(() => {
        res.write(': ping\n\n');
        app.authSessions.check(identity.authSessionHash).then(
          (now) => {
            if (!now || now.admin !== identity.admin || now.seller !== identity.seller) stream.end();
          },
          () => undefined, // the database is away: the next beat asks again
        );
      }, heartbeatMs);
      const stopListening = opts.events.listen(onSession);
      const close = () => {
        clearInterval(heartbeat);
        stopListening();
        if (open.delete(stream)) opts.metrics.liveConnections.dec();
      };
      const stream: Stream = {
        identity,
        end() {
          close();
          res.end();
        },
      };
      open.add(stream);
      opts.metrics.liveConnections.inc();
      req.raw.on('close', close);
    },
  );
}
