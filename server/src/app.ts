// The whole server put together from its config: database and migrations, blob store, job queue,
// security headers, sign-in, rate limits, the access policy and every module's routes. main.ts adds
// listening and shutdown; tests build the same app.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pinoPretty from 'pino-pretty';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import { securityHeadersPlugin } from './plugins/security-headers';
import fastifyRateLimit from '@fastify/rate-limit';
import { sharedRateLimitStore } from './plugins/rate-limit-store';
import { createHitCounter } from './modules/rate-limits/rate-limits.service';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createBlobStore } from './blobs/create-blob-store';
import { measuredBlobStore } from './blobs/measured-blob-store';
import { createMetrics, type Metrics } from './lib/metrics';
import { createInProcessQueue, measuredJobQueue, type JobQueue } from './jobs/job-queue';
import { startJobs } from './jobs/jobs';
import { createPgBossQueue } from './jobs/pg-boss-queue';
import { metricsPlugin } from './plugins/metrics';
import type { BlobStore } from './blobs/blob-store';
import type { AppConfig } from './config';
import { createDatabase, type Database } from './db/create-db';
import { migrateToLatest } from './db/migrate';
import { logSafeUrl } from './lib/log-safe-url';
import { SecretBox } from './lib/secret-box';
import { signInRevoked } from './modules/auth/auth-events';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthSessionStore } from './modules/auth/auth-sessions.service';
import { createAuthService } from './modules/auth/auth.service';
import { createLocalIdp } from './modules/auth/local-idp';
import { createIdentityProvider, type IdentityProvider } from './modules/auth/oidc-client';
import { healthRoutes } from './modules/health/health.routes';
import { createHealthService } from './modules/health/health.service';
import { adminRoutes } from './modules/admin/admin.routes';
import { createAdminService } from './modules/admin/admin.service';
import { deviceApiRoutes } from './modules/device-api/device-api.routes';
import { sellerRoutes } from './modules/seller/seller.routes';
import { createSellerService } from './modules/seller/seller.service';
import { createDevicesService } from './modules/devices/devices.service';
import { liveRoutes } from './modules/sessions/live.routes';
import { sessionsRoutes } from './modules/sessions/sessions.routes';
import { createSessionEvents } from './modules/sessions/session-events.service';
import { createSessionReader } from './modules/sessions/session-reader.service';
import { createSessionReceiver, type SessionReceiver } from './modules/sessions/session-receiver.service';
import { createStorageService } from './modules/storage/storage.service';
import { storageRoutes } from './modules/storage/storage.routes';
import { meRoutes } from './modules/users/me.routes';
import { tracksRoutes } from './modules/tracks/tracks.routes';
import { importsRoutes } from './modules/imports/imports.routes';
import { createImportsService } from './modules/imports/imports.service';
import type { ImportLimits } from './modules/imports/import-worker';
import type { SessionBounds } from './modules/imports/session-merge';
import { createTracksService } from './modules/tracks/tracks.service';
import { trackCatalogue } from './modules/tracks/track-catalogue';
import { loadTracks } from './lib/track-files';
import { createUsersService } from './modules/users/users.service';
import { errorMappingPlugin } from './plugins/error-mapping';
import { textInputPlugin } from './plugins/text-input';
import { heavyReadsPlugin } from './plugins/heavy-reads';
import { policyPlugin, trackRules } from './plugins/policy';
import { authSessionPlugin } from './plugins/auth-session';
import { webStatic } from './plugins/web-static';
import { builtPages } from './lib/web-page';
import { createSharesService } from './modules/shares/shares.service';
import { sharesRoutes } from './modules/shares/shares.routes';
import { videosRoutes } from './modules/videos/videos.routes';
import { createVideosService } from './modules/videos/videos.service';
import { createProgressService } from './modules/progress/progress.service';
import { firmwareRoutes } from './modules/firmware/firmware.routes';
import { createFirmwareService } from './modules/firmware/firmware.service';
import { trackPackRoutes } from './modules/tracks/track-pack.routes';
import { createTrackPack } from './modules/tracks/track-pack.service';
import { progressRoutes } from './modules/progress/progress.routes';

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_WEB_ROOT = path.resolve(here, '../../dist/web');

export interface AppDeps {
  database?: Database;
  blobs?: BlobStore;
  webRoot?: string;
  logger?: boolean | object;
  /** Tests shorten these; see buildApp. */
  timeouts?: { idleMs: number; requestMs: number };
  /** Live-update streams: how often each pings and re-checks its sign-in, and how many one instance holds (tests shrink both). */
  live?: { heartbeatMs?: number; maxStreams?: number };
  /** Import limits: size, inflation, a reading worker's memory and time, a session's files and fixes (tests make them small). */
  imports?: Partial<ImportLimits & SessionBounds>;
}

/**
 * A connection silent this long is closed (a stalled slow-drip upload holds nothing; live
 * updates send a heartbeat every 25 s). A whole request, body included, may take up to an hour:
 * a 128 MB gps.six over a weak track Wi-Fi.
 */
const TIMEOUTS = { idleMs: 120_000, requestMs: 3_600_000 };

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

/**
 * Request ids short enough to read out to support over the phone (shown in the app's error
 * messages): this process's random 4 hex digits, then a counter in base 36. (crypto.randomBytes on
 * every request cost a quarter of the laps answer's throughput.)
 */
const REQUEST_ID_PREFIX = randomBytes(2).toString('hex');
let requestCount = 0;
const nextRequestId = () => REQUEST_ID_PREFIX + (requestCount++ % 36 ** 6).toString(36).padStart(6, '0');

/** A hop count as proxy-addr's own rule: trust the nearest `hops` addresses (the proxies in front). */
const trustNearestHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** No cookie, token or sign-in secret in a log line. */
const LOG_OPTIONS = {
  redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
  serializers: {
    req: (req: FastifyRequest) => ({
      method: req.method,
      url: logSafeUrl(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }),
  },
};

/** Wires every plugin and module from config. Tests call it; main.ts adds listen and shutdown. */
export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<BuiltApp> {
  const logRef: { current?: { error(obj: unknown, msg: string): void } } = {};
  const metrics = createMetrics();
  const database =
    deps.database ??
    createDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      poolSize: config.databasePoolSize,
      onError: (err) => logRef.current?.error({ err }, 'database coordination'),
      onQuery: (seconds, ok) => metrics.dbQueryDuration.observe({ outcome: ok ? 'ok' : 'error' }, seconds),
    });
  await migrateToLatest(database.db);
  const blobs = measuredBlobStore(deps.blobs ?? createBlobStore(config), {
    observe(operation, outcome, seconds) {
      metrics.blobDuration.observe({ operation, outcome }, seconds);
      if (outcome === 'error') metrics.blobErrors.inc({ operation });
    },
  });
  const box = new SecretBox(config.secretKey);
  const db = database.db;
  // One run per job across instances on PostgreSQL; SQLite is one process's database.
  const jobs = measuredJobQueue(
    database.dialect === 'postgres' && config.databaseUrl
      ? await createPgBossQueue({
          connectionString: config.databaseUrl,
          onError: (err) => logRef.current?.error({ err }, 'job queue'),
        })
      : createInProcessQueue(),
    {
      sent: (job, result) => metrics.jobsSent.inc({ job, result }),
      ran: (job, outcome) => metrics.jobRuns.inc({ job, outcome }),
    },
  );
  await jobs.start();
  metrics.watchJobs(() => jobs.counts());

  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            ...LOG_OPTIONS,
            level: config.logLevel,
            // Readable lines for a person at a terminal (npm start); JSON lines for a log collector.
            ...(config.logFormat === 'pretty'
              ? {
                  stream: pinoPretty({
                    sync: true,
                    translateTime: 'SYS:HH:MM:ss',
                    ignore: 'pid,hostname',
                    colorize: Boolean(process.stdout.isTTY),
                  }),
                }
              : {}),
            ...(typeof deps.logger === 'object' ? deps.logger : {}),
          },
    genReqId: nextRequestId,
    trustProxy: typeof config.trustProxy === 'number' ? trustNearestHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    connectionTimeout: (deps.timeouts ?? TIMEOUTS).idleMs,
    requestTimeout: (deps.timeouts ?? TIMEOUTS).requestMs,
  });
  logRef.current = app.log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const redirectUri = `${config.publicUrl}/api/auth/callback`;
  const localIdp = config.google
    ? undefined
    : createLocalIdp({
        publicUrl: config.publicUrl,
        redirectUri,
        production: config.production,
        trustProxy: config.trustProxy !== false,
      });
  const idp = config.google
    ? createIdentityProvider({
        issuer: 'https://accounts.google.com',
        ...config.google,
        redirectUri,
        description: 'Google (accounts.google.com)',
        authParams: { prompt: 'select_account' },
      })
    : createIdentityProvider({
        issuer: localIdp!.issuer,
        clientId: localIdp!.clientId,
        clientSecret: localIdp!.clientSecret,
        redirectUri,
        description: `local OpenID provider ${localIdp!.issuer}`,
        backChannel: localIdp!.backChannel,
        // Always show the sign-in page, so switching between demo accounts works after logout.
        authParams: { prompt: 'login' },
      });

  const secureCookies: boolean | 'auto' = config.publicUrl.startsWith('https:') ? true : 'auto';
  const authSessions = createAuthSessionStore(db);
  const users = createUsersService(db, box);
  const devices = createDevicesService(db);
  const resealed = await users.upgradeSealedPasswords();
  const events = createSessionEvents(database.coordination);
  const receiver = createSessionReceiver({ db, blobs, coordination: database.coordination, events });
  const reader = createSessionReader({ db, blobs });
  // Listening for other instances' events before serving, so none is missed.
  await database.coordination.ready();
  const sweptTemp = await blobs.sweepTemp();
  const storage = createStorageService({ db, blobs, bucket: config.s3?.bucket ?? 'voltas' });

  await app.register(errorMappingPlugin);
  await app.register(textInputPlugin);
  await app.register(securityHeadersPlugin, {
    helmet: {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https://*.googleusercontent.com'],
          connectSrc: ["'self'"],
          // The rider's video plays from their device, through an object URL; nothing is fetched.
          mediaSrc: ["'self'", 'blob:'],
          formAction: ["'self'", ...(config.google ? ['https://accounts.google.com'] : [])],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: config.publicUrl.startsWith('https:') ? [] : null,
        },
      },
      // Keeps the sign-in popup reachable from the opener after it visits the identity provider.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    },
    https: config.publicUrl.startsWith('https:'),
    // Sign-in and sign-out are navigations and the API docs a page: they get the page headers.
    isApi: (url) => url.startsWith('/api/') && !url.startsWith('/api/auth/') && !url.startsWith('/api/docs'),
  });
  await app.register(fastifyCookie);
  // Answers of 1 KB or more go compressed to a browser: a session's analyses are tens of KB of JSON
  // on a track's mobile data. Answers compressed already (the laps, the GPS file, the built app's
  // files) go as they are; the live updates' stream is never held back to be compressed. Bodies
  // are never inflated on the way in: an upload's limits count the bytes sent (an import's .gz is
  // inflated by its reader, within its own limits).
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
    store: authSessions,
    secureCookies,
    onEnded: (authSessionHash) =>
      void database.coordination.publish(signInRevoked({ authSessionHash })).catch(() => undefined),
  });
  await app.register(heavyReadsPlugin);
  await app.register(policyPlugin, {
    allowedOrigins: [new URL(config.publicUrl).origin],
    deviceByTokenHash: devices.byTokenHash,
    signOut: (req, reply) => app.authSessions.end(req, reply),
    metricsToken: config.metricsToken,
  });
  await app.register(metricsPlugin, { metrics });

  await app.register(healthRoutes, {
    health: createHealthService({ db, blobs }),
    describe: { database: database.description, blobs: blobs.description, identityProvider: idp.description },
  });
  const webRoot = deps.webRoot ?? DEFAULT_WEB_ROOT;
  // /login and a shared link's page are written by the server into the built pages (lib/web-page.ts).
  const pages = builtPages(webRoot);
  await app.register(authRoutes, {
    auth: createAuthService({ db, idp, adminEmails: config.adminEmails }),
    redirectUri,
    secureCookies,
    metrics,
    pages,
  });
  await app.register(meRoutes, { users });
  await app.register(sessionsRoutes, { reader });
  await app.register(liveRoutes, { reader, events, coordination: database.coordination, metrics, ...deps.live });
  await app.register(deviceApiRoutes, { devices, receiver, users, metrics });
  await app.register(storageRoutes, { storage });
  const tracks = createTracksService({
    db,
    reader,
    catalogue: trackCatalogue,
    bundled: loadTracks(),
    rules: trackRules,
  });
  for (const [cache, size] of Object.entries({ ...tracks.caches(), ...reader.caches() }))
    metrics.watchCache(cache, size);
  await app.register(tracksRoutes, { tracks, reader });
  await app.register(videosRoutes, {
    videos: createVideosService({ db, reader, coordination: database.coordination }),
    reader,
  });
  const imports = createImportsService({
    db,
    blobs,
    receiver,
    tracks,
    coordination: database.coordination,
    quotaBytes: config.riderQuotaBytes,
    ...(deps.imports ? { limits: deps.imports, bounds: deps.imports } : {}),
  });
  await app.register(importsRoutes, { imports, reader });
  // Interrupted uploads finished (before listening) and then every minute; a session that arrives is
  // analysed in the background, so that its ideal lap is in the lists.
  const stopSendingJobs = await startJobs(jobs, { receiver, tracks, events, signIns: authSessions, log: app.log });
  app.addHook('preClose', async () => {
    await imports.close();
    stopSendingJobs();
    await jobs.stop();
  });
  const shares = createSharesService({ db, reader, tracks, publicUrl: config.publicUrl, secretKey: config.secretKey });
  await app.register(sharesRoutes, { shares, publicUrl: config.publicUrl, pages });
  await app.register(progressRoutes, { progress: createProgressService({ reader, tracks, shares }) });
  await app.register(adminRoutes, {
    admin: createAdminService({ db, companyAccount: config.companyAccount, coordination: database.coordination }),
  });
  await app.register(sellerRoutes, { seller: createSellerService({ db, companyAccount: config.companyAccount }) });
  await app.register(firmwareRoutes, {
    firmware: createFirmwareService({ db, blobs, publicKeys: config.firmwarePublicKeys }),
    devices,
  });
  await app.register(trackPackRoutes, { pack: createTrackPack({ db, catalogue: trackCatalogue }) });
  if (localIdp) await localIdp.register(app);
  await app.register(webStatic, { root: webRoot });

  if (resealed > 0) app.log.info({ users: resealed }, 'Wi-Fi passwords sealed again, bound to their owner');
  if (sweptTemp > 0) app.log.warn({ files: sweptTemp }, 'removed temp files of interrupted uploads');
  // Graceful stop: requests in flight finish, and each keep-alive connection is closed as soon as
  // it falls idle (Fastify closes only those idle at the moment close() starts; one that falls
  // idle a moment later would otherwise hold the stop until its keep-alive time-out, 72 s).
  app.addHook('preClose', async () => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
  });
  app.addHook('onClose', async () => {
    await receiver.drain();
    events.stop();
    if (!deps.database) await database.close();
  });
  return { app, database, blobs, idp, receiver, metrics, jobs };
}
