// The Fastify server's own options: its log lines (no secret in them; readable at a terminal, JSON
// for a collector), request ids, which proxies it trusts, its body limit and time-outs.
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import pinoPretty from 'pino-pretty';
import type { AppConfig } from '../config';
import { logSafeUrl } from './log-safe-url';

/**
 * A connection silent this long is closed (a stalled slow-drip upload holds nothing; live
 * updates send a heartbeat every 25 s). A whole request, body included, may take up to an hour:
 * a 128 MB gps.six over a weak track Wi-Fi.
 */
const TIMEOUTS = { idleMs: 120_000, requestMs: 3_600_000 };

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

export interface ServerOptionsOverrides {
  /** false: no log; an object: pino options over the configured ones (tests). */
  logger?: boolean | object;
  /** Tests shorten these. */
  timeouts?: { idleMs: number; requestMs: number };
}

/** Fastify's options from the config (and a test's overrides). */
export function serverOptions(config: AppConfig, overrides: ServerOptionsOverrides = {}) {
  return {
    logger:
      overrides.logger === false
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
            ...(typeof overrides.logger === 'object' ? overrides.logger : {}),
          },
    genReqId: nextRequestId,
    trustProxy: typeof config.trustProxy === 'number' ? trustNearestHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    connectionTimeout: (overrides.timeouts ?? TIMEOUTS).idleMs,
    requestTimeout: (overrides.timeouts ?? TIMEOUTS).requestMs,
  };
}
