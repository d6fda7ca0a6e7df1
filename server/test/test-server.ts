import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps, type BuiltApp } from '#server/app.ts';
import { loadConfig, type AppConfig } from '#server/config.ts';
import { testDatabaseUrl } from './test-database';
import { onS3, testS3 } from './test-s3';

/** A free loopback port (the local OIDC issuer URL must be known before listening). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface TestServer extends BuiltApp {
  baseUrl: string;
  config: AppConfig;
  dataDir: string;
  /** Whether it listens on a port; else every request goes through `app.inject`. */
  listening: boolean;
  /** fetch for this server: over its socket, or through `app.inject` when it does not listen. */
  fetch: typeof fetch;
  close(): Promise<void>;
}

/** What undici's fetch sends unasked, so a request through app.inject meets the same server. */
const FETCH_HEADERS = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

const DECODE: Record<string, (b: Buffer) => Buffer> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * fetch over `app.inject`: no socket, the same answer (headers, status, a body decoded as fetch
 * decodes it). Redirects are never followed (tests ask for `redirect: 'manual'`); a streamed answer
 * is read whole, so a test of streaming listens instead.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init = {}) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: { ...FETCH_HEADERS, host: url.host, ...Object.fromEntries(request.headers) },
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
    }
    const encoding = res.headers['content-encoding'];
    const decode = typeof encoding === 'string' ? DECODE[encoding] : undefined;
    const noBody = request.method === 'HEAD' || [204, 205, 304].includes(res.statusCode);
    const payload = noBody ? null : Uint8Array.from(decode ? decode(res.rawPayload) : res.rawPayload);
    return new Response(payload, { status: res.statusCode, headers });
  };
}

/**
 * Where `npm test` keeps what its test servers log at level error (VOLTAS_TEST_ERROR_LOG), so that a
 * 500 in a failed run says why; scripts/test.mjs prints it when a run fails. Unset: nothing is logged.
 */
const errorLog = process.env.VOLTAS_TEST_ERROR_LOG;
const errorLogger = errorLog
  ? { level: 'error', stream: { write: (line: string) => appendFileSync(errorLog, line) } }
  : undefined;

/**
 * A real server on loopback with a fresh database (a SQLite file, or an empty PostgreSQL database
 * on the PostgreSQL run) and blob dir, and the local identity provider. Pass `DATABASE_URL` in
 * `env` to share a database between servers (restarts, several instances).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  opts: {
    dataDir?: string;
    keepDataDir?: boolean;
    logger?: object;
    timeouts?: { idleMs: number; requestMs: number };
    live?: AppDeps['live'];
    imports?: AppDeps['imports'];
    /** No socket: requests go through `app.inject` (server.fetch, a Browser made from the server). */
    inject?: boolean;
  } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'voltas-test-'));
  const port = await freePort();
  const databaseUrl = env.DATABASE_URL ?? (await testDatabaseUrl());
  const s3Env = onS3 && !env.S3_BUCKET ? await (await testS3()).bucketEnv() : {};
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...s3Env,
    ...env,
  });
  const logger = opts.logger ?? errorLogger;
  const built = await buildApp(config, {
    webRoot: path.join(dataDir, 'no-web'),
    ...(logger ? { logger } : {}),
    ...(opts.timeouts ? { timeouts: opts.timeouts } : {}),
    ...(opts.live ? { live: opts.live } : {}),
    ...(opts.imports ? { imports: opts.imports } : {}),
  });
  if (opts.inject) await built.app.ready();
  else await built.app.listen({ port, host: '127.0.0.1' });
  return {
    ...built,
    baseUrl: `http://127.0.0.1:${port}`,
    config,
    dataDir,
    listening: !opts.inject,
    fetch: opts.inject ? injectFetch(built.app) : fetch,
    async close() {
      await built.app.close();
      if (!opts.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Env for a second server on the same database and bucket as `server` (a restart, another instance). */
export function sameDatabase(server: TestServer): Record<string, string> {
  const env: Record<string, string> = {};
  if (server.config.databaseUrl) env.DATABASE_URL = server.config.databaseUrl;
  const s3 = server.config.s3;
  if (s3) {
    Object.assign(env, {
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_FORCE_PATH_STYLE: String(s3.forcePathStyle),
      S3_REQUEST_CHECKSUM: s3.requestChecksum,
    });
    if (s3.endpoint) env.S3_ENDPOINT = s3.endpoint;
    if (s3.credentials)
      Object.assign(env, {
        AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      });
  }
  return env;
}

/** Minimal cookie jar over fetch with manual redirects, so each hop of the flow can be checked. */
export class Browser {
  readonly cookies = new Map<string, string>();
  lastSetCookies: string[] = [];

  readonly baseUrl: string;
  private readonly send: typeof fetch;

  /** A server's own fetch (through app.inject when it does not listen), or plain fetch to a URL. */
  constructor(server: string | Pick<TestServer, 'baseUrl' | 'fetch'>) {
    this.baseUrl = typeof server === 'string' ? server : server.baseUrl;
    this.send = typeof server === 'string' ? fetch : server.fetch;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const full = new URL(url, this.baseUrl);
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', this.cookieHeader());
    const res = await this.send(full, { ...init, headers, redirect: 'manual' });
    this.lastSetCookies = res.headers.getSetCookie();
    for (const line of this.lastSetCookies) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects until `stop(url)` is true or a non-redirect answer comes. */
  async follow(url: string, stop: (u: URL) => boolean = () => false): Promise<{ url: URL; res: Response }> {
    let current = new URL(url, this.baseUrl);
    for (let i = 0; i < 15; i++) {
      if (stop(current)) return { url: current, res: new Response(null) };
      const res = await this.request(current.href);
      const loc = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !loc) return { url: current, res };
      current = new URL(loc, current);
    }
    throw new Error('too many redirects');
  }

  /** Runs the sign-in flow up to the callback URL (not visited), typing `email` on the provider page. */
  async authorizeUntilCallback(email: string, name = ''): Promise<URL> {
    const { url: interaction, res } = await this.follow('/api/auth/login?mode=redirect');
    if (!interaction.pathname.includes('/interaction/'))
      throw new Error(`expected the provider's sign-in page, got ${interaction.href} (${res.status})`);
    const posted = await this.request(`${interaction.pathname}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, name }).toString(),
    });
    const { url } = await this.follow(posted.headers.get('location')!, (u) => u.pathname === '/api/auth/callback');
    return url;
  }

  async signIn(email: string, name = ''): Promise<Response> {
    const callback = await this.authorizeUntilCallback(email, name);
    return this.request(callback.pathname + callback.search);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test helper
  async json(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
    const res = await this.request(url, {
      ...init,
      headers: { 'content-type': 'application/json', origin: this.baseUrl, ...(init.headers ?? {}) },
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
}
