import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP, isIPv4 } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { publicKeyFromRaw } from './lib/firmware-signing';

/** The only reader of process.env. Parsed once; a bad value stops start-up with a clear message. */
const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  S3_REQUEST_CHECKSUM: z.enum(['when_supported', 'when_required']).default('when_supported'),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  PUBLIC_URL: z.url().optional(),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  COMPANY_ACCOUNT: z.email().default('company@voltas.local'),
  ADMIN_EMAILS: z.string().default(''),
  TRUST_PROXY: z.string().default('false'),
  LOCAL_SIGN_IN: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  RIDER_QUOTA_MB: z.coerce.number().positive().default(4096),
  FIRMWARE_PUBLIC_KEYS: z.string().default(''),
});

export interface AppConfig {
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections this instance keeps open at most; requests beyond them wait for one. */
  databasePoolSize: number;
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        forcePathStyle: boolean;
        /** 'when_required' for S3-compatible servers that store the SDK's chunk framing (s3rver). */
        requestChecksum: 'when_supported' | 'when_required';
        /** From AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; absent: the SDK's default chain (profile, instance role). */
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      }
    | undefined;
  google: { clientId: string; clientSecret: string } | undefined;
  secretKey: string;
  companyAccount: string;
  adminEmails: string[];
  /** False, how many proxy hops to trust, or the proxies' addresses (never "trust every hop"). */
  trustProxy: false | number | string[];
  logLevel: string;
  /** Readable lines in development, JSON in production (LOG_FORMAT overrides). */
  logFormat: 'pretty' | 'json';
  /** Bearer token for GET /metrics; undefined: not served on the main port to anyone. */
  metricsToken: string | undefined;
  /** A loopback port serving only /metrics, without a token. */
  metricsPort: number | undefined;
  /** What each rider may store (imports' raw files and the files of their sessions); an import past it is refused. */
  riderQuotaBytes: number;
  /** Ed25519 public keys (base64 of 32 raw bytes) a firmware manifest must be signed by; none: no image is accepted. */
  firmwarePublicKeys: string[];
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration: set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither.');
  }
  if (!e.S3_BUCKET && (e.S3_ENDPOINT || e.S3_FORCE_PATH_STYLE === 'true')) {
    throw new ConfigError('Invalid configuration: S3_ENDPOINT or S3_FORCE_PATH_STYLE is set but S3_BUCKET is not.');
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError('Invalid configuration: set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither.');
  }
  const production = e.NODE_ENV === 'production';
  if (production && !e.GOOGLE_CLIENT_ID) {
    throw new ConfigError(
      'Invalid configuration: the local identity provider is refused when NODE_ENV=production; set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const displayHost =
    e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : isIP(e.HOST) === 6 ? `[${e.HOST}]` : e.HOST;
  const publicUrl = (e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, '');
  // The bundled provider signs anyone in as any e-mail: only where nobody else can reach it.
  if (
    !e.GOOGLE_CLIENT_ID &&
    e.LOCAL_SIGN_IN !== 'true' &&
    !(isLoopback(e.HOST) && isLoopback(new URL(publicUrl).hostname))
  ) {
    throw new ConfigError(
      `Invalid configuration: without GOOGLE_CLIENT_ID the bundled sign-in runs, where anyone signs in as any e-mail, so it only runs on a loopback HOST and PUBLIC_URL (127.0.0.1, ::1, localhost); HOST is ${e.HOST} and PUBLIC_URL ${publicUrl}. Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or LOCAL_SIGN_IN=true on a development machine nobody else reaches.`,
    );
  }
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          requestChecksum: e.S3_REQUEST_CHECKSUM,
          credentials:
            e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
              ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
              : undefined,
        }
      : undefined,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : undefined,
    secretKey: e.SECRET_KEY ?? readOrCreateSecretKey(dataDir),
    companyAccount: e.COMPANY_ACCOUNT.toLowerCase(),
    adminEmails: e.ADMIN_EMAILS.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (production ? 'json' : 'pretty'),
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    riderQuotaBytes: Math.round(e.RIDER_QUOTA_MB * 1024 * 1024),
    firmwarePublicKeys: parseFirmwareKeys(e.FIRMWARE_PUBLIC_KEYS),
  };
}

/** FIRMWARE_PUBLIC_KEYS: comma-separated, each the base64 of a raw 32-byte Ed25519 public key. */
function parseFirmwareKeys(raw: string): string[] {
  const keys = raw
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  for (const key of keys) {
    try {
      publicKeyFromRaw(key);
    } catch {
      throw new ConfigError(
        `Invalid configuration: FIRMWARE_PUBLIC_KEYS: ${key.slice(0, 60)} is not an Ed25519 public key (the base64 of its 32 raw bytes, as \`voltas firmware keygen\` prints it).`,
      );
    }
  }
  return keys;
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || (isIPv4(h) && h.startsWith('127.'));
}

/**
 * TRUST_PROXY: `false`, a hop count (1 = the one proxy in front), or the proxies' addresses
 * (IPs or CIDR ranges, comma-separated). "true" would trust every X-Forwarded-For hop, letting a
 * client choose the address the sign-in rate limit counts: refused.
 */
function parseTrustProxy(raw: string): false | number | string[] {
  const value = raw.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new ConfigError(`Invalid configuration: TRUST_PROXY=${value}: at most 10 proxy hops.`);
    return hops;
  }
  if (value === 'true') {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY=true would trust every X-Forwarded-For hop (a client could pick its own address). Give the number of proxies in front (e.g. TRUST_PROXY=1) or their addresses (e.g. TRUST_PROXY=10.0.0.0/8,192.168.1.5).',
    );
  }
  const entries = value.split(',').map((s) => s.trim());
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const bits = isIP(address ?? '') === 6 ? 128 : 32;
    const okPrefix = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits);
    if (!address || !isIP(address) || !okPrefix || rest.length > 0) {
      throw new ConfigError(
        `Invalid configuration: TRUST_PROXY entry "${entry}" is not an IP address or CIDR range; expected a hop count (e.g. 1) or addresses (e.g. 10.0.0.0/8,192.168.1.5).`,
      );
    }
  }
  return entries;
}

/** SECRET_KEY absent: one is generated into the data dir on first start and reused after. */
function readOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length < 32)
      throw new ConfigError(`Invalid configuration: ${file} holds a key shorter than 32 characters.`);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
