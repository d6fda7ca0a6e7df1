// The whole server put together from its config: infrastructure and services (start-up.ts,
// services.ts), then the plugins and every module's routes. main.ts adds listening and shutdown;
// tests build the same app.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { BlobStore } from './blobs/blob-store';
import type { AppConfig } from './config';
import type { Database } from './db/create-db';
import { createJobQueue } from './jobs/create-job-queue';
import type { JobQueue } from './jobs/job-queue';
import { startJobs } from './jobs/jobs';
import { createMetrics, type Metrics } from './lib/metrics';
import { serverOptions, type ServerOptionsOverrides } from './lib/server-options';
import { builtPages } from './lib/web-page';
import { adminRoutes } from './modules/admin/admin.routes';
import { signInRevoked } from './modules/auth/auth-events';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import type { IdentityProvider } from './modules/auth/oidc-client';
import { chooseSignInProvider } from './modules/auth/sign-in-provider';
import { deviceApiRoutes } from './modules/device-api/device-api.routes';
import { firmwareRoutes } from './modules/firmware/firmware.routes';
import { healthRoutes } from './modules/health/health.routes';
import { importsRoutes } from './modules/imports/imports.routes';
import { progressRoutes } from './modules/progress/progress.routes';
import { sellerRoutes } from './modules/seller/seller.routes';
import { liveRoutes } from './modules/sessions/live.routes';
import type { SessionReceiver } from './modules/sessions/session-receiver.service';
import { sessionsRoutes } from './modules/sessions/sessions.routes';
import { sharesRoutes } from './modules/shares/shares.routes';
import { storageRoutes } from './modules/storage/storage.routes';
import { trackPackRoutes } from './modules/tracks/track-pack.routes';
import { tracksRoutes } from './modules/tracks/tracks.routes';
import { meRoutes } from './modules/users/me.routes';
import { videosRoutes } from './modules/videos/videos.routes';
import { authSessionPlugin } from './plugins/auth-session';
import { errorMappingPlugin } from './plugins/error-mapping';
import { gracefulClosePlugin } from './plugins/graceful-close';
import { heavyReadsPlugin } from './plugins/heavy-reads';
import { metricsPlugin } from './plugins/metrics';
import { policyPlugin } from './plugins/policy';
import { sharedRateLimitStore } from './plugins/rate-limit-store';
import { securityHeadersFor, securityHeadersPlugin } from './plugins/security-headers';
import { textInputPlugin } from './plugins/text-input';
import { webStatic } from './plugins/web-static';
import { createHitCounter } from './modules/rate-limits/rate-limits.service';
import { createServices, type ServiceOptions } from './services';
import { openInfra, runStartUpChores } from './start-up';

const DEFAULT_WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

export interface AppDeps extends ServerOptionsOverrides {
  database?: Database;
  blobs?: BlobStore;
  webRoot?: string;
  /** Live-update streams: how often each pings and re-checks its sign-in, and how many one instance holds (tests shrink both). */
  live?: { heartbeatMs?: number; maxStreams?: number };
  imports?: ServiceOptions['imports'];
}

export interface BuiltApp {
  app: FastifyInstance;
  database: Database;
  blobs: BlobStore;
  idp: IdentityProvider;
  /** Receiving sessions' files (uploads, recovery); tests wait on its background work. */
  receiver: SessionReceiver;
  metrics: Metrics;
  /** Background jobs (session analysis, upload recovery): pg-boss on PostgreSQL, in process on SQLite. */
  jobs: JobQueue;
}

/** Wires every plugin and module from config. Tests call it; main.ts adds listen and shutdown. */
export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<BuiltApp> {
  const app = Fastify(serverOptions(config, deps));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const metrics = createMetrics();
  const { database, blobs } = await openInfra(config, deps, metrics, app.log);
  const { db, coordination } = database;
  const jobs = await createJobQueue(config, database, metrics, app.log);
  const { idp, localIdp, redirectUri } = chooseSignInProvider(config);
  const s = createServices(config, { database, blobs }, deps.imports ? { imports: deps.imports } : {});
  for (const [cache, size] of Object.entries({ ...s.tracks.caches(), ...s.reader.caches() }))
    metrics.watchCache(cache, size);
  await runStartUpChores(s, { database, blobs }, app.log);
  const secureCookies: boolean | 'auto' = config.publicUrl.startsWith('https:') ? true : 'auto';
  const webRoot = deps.webRoot ?? DEFAULT_WEB_ROOT;
  // /login and a shared link's page are written by the server into the built pages (lib/web-page.ts).
  const pages = builtPages(webRoot);

  await app.register(errorMappingPlugin);
  await app.register(textInputPlugin);
  await app.register(securityHeadersPlugin, securityHeadersFor(config));
  await app.register(fastifyCookie);
  // Answers of 1 KB or more go compressed (br, gzip) to a browser; compressed ones (laps, GPS file,
  // built files) and the live stream go as they are; uploads are never inflated on the way in.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], globalDecompression: false });
  // Counted in the database: every instance behind a proxy sees the same hits.
  await app.register(fastifyRateLimit, {
    global: false,
    store: sharedRateLimitStore(createHitCounter(db)),
    skipOnError: true,
  });
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Voltas API', version: '1' } },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(authSessionPlugin, {
    store: s.authSessions,
    secureCookies,
    onEnded: (authSessionHash) => void coordination.publish(signInRevoked({ authSessionHash })).catch(() => undefined),
  });
  await app.register(heavyReadsPlugin);
  await app.register(policyPlugin, {
    allowedOrigins: [new URL(config.publicUrl).origin],
    deviceByTokenHash: s.devices.byTokenHash,
    signOut: (req, reply) => app.authSessions.end(req, reply),
    metricsToken: config.metricsToken,
  });
  await app.register(metricsPlugin, { metrics });

  const describe = { database: database.description, blobs: blobs.description, identityProvider: idp.description };
  await app.register(healthRoutes, { health: s.health, describe });
  const auth = createAuthService({ db, idp, adminEmails: config.adminEmails });
  await app.register(authRoutes, { auth, redirectUri, secureCookies, metrics, pages });
  await app.register(meRoutes, { users: s.users });
  await app.register(sessionsRoutes, { reader: s.reader });
  await app.register(liveRoutes, { reader: s.reader, events: s.events, coordination, metrics, ...deps.live });
  await app.register(deviceApiRoutes, { devices: s.devices, receiver: s.receiver, users: s.users, metrics });
  await app.register(storageRoutes, { storage: s.storage });
  await app.register(tracksRoutes, { tracks: s.tracks, reader: s.reader });
  await app.register(videosRoutes, { videos: s.videos, reader: s.reader });
  await app.register(importsRoutes, { imports: s.imports, reader: s.reader });
  await app.register(sharesRoutes, { shares: s.shares, publicUrl: config.publicUrl, pages });
  await app.register(progressRoutes, { progress: s.progress });
  await app.register(adminRoutes, { admin: s.admin });
  await app.register(sellerRoutes, { seller: s.seller });
  await app.register(firmwareRoutes, { firmware: s.firmware, devices: s.devices });
  await app.register(trackPackRoutes, { pack: s.trackPack });
  if (localIdp) await localIdp.register(app);
  await app.register(webStatic, { root: webRoot });

  // Interrupted uploads finished (before listening) and then every minute; a session that arrives is
  // analysed in the background, so that its ideal lap is in the lists.
  const { receiver, tracks, events, authSessions: signIns } = s;
  const stopSendingJobs = await startJobs(jobs, { receiver, tracks, events, signIns, log: app.log });
  app.addHook('preClose', async () => {
    await s.imports.close();
    stopSendingJobs();
    await jobs.stop();
  });
  // After the jobs stop: keep-alive connections closed as they fall idle.
  await app.register(gracefulClosePlugin);
  app.addHook('onClose', async () => {
    await receiver.drain();
    events.stop();
    if (!deps.database) await database.close();
  });
  return { app, database, blobs, idp, receiver, metrics, jobs };
}
