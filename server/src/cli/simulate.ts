// `voltas simulate`: a device stand-in that generates a session on a real track and uploads it
// through the device API, retrying as the spec's policy says (the fault scripts reuse the upload).
import http from 'node:http';
import https from 'node:https';
import { createHash } from 'node:crypto';
import { dateToDdmmyyyy } from '#core/formats/dates.ts';
import { backoffMs, isRetryableStatus, RETRY_POLICY } from '#core/retry-policy.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { findTrack, loadTracks } from '../lib/track-files';

export interface SimulateOptions {
  server: string;
  device: string;
  token: string;
  track: string;
  date: string;
  seed: number;
  hz: 10 | 25;
  /** Progress output (stderr by default). */
  progress?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

interface UploadResult {
  status: number;
  body: string;
}

function putOnce(url: URL, token: string, body: Buffer, onProgress: (sent: number) => void): Promise<UploadResult> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'text/plain; charset=utf-8',
        'content-length': body.length,
        'content-md5': createHash('md5').update(body).digest('base64'),
      },
      timeout: RETRY_POLICY.requestTimeoutMs,
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    const CHUNK = 64 * 1024;
    let sent = 0;
    const pump = () => {
      while (sent < body.length) {
        const end = Math.min(body.length, sent + CHUNK);
        const ok = req.write(body.subarray(sent, end));
        sent = end;
        onProgress(sent);
        if (!ok) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

function bar(label: string, done: number, total: number): string {
  const width = 24;
  const filled = Math.round((done / Math.max(1, total)) * width);
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round((done / Math.max(1, total)) * 100)}% ${(done / 1024).toFixed(0)}/${(total / 1024).toFixed(0)} KiB`;
}

/** Uploads one file with the spec's retry policy: 5xx, 408, 429 and network errors, give up after 600 s. */
export async function uploadWithRetry(
  url: URL,
  token: string,
  body: Buffer,
  label: string,
  opts: Pick<SimulateOptions, 'progress' | 'sleep'> = {},
): Promise<UploadResult> {
  const progress = opts.progress ?? ((line: string) => process.stderr.write(`\r${line}`));
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    let result: UploadResult | undefined;
    let failure: unknown;
    try {
      result = await putOnce(url, token, body, (sent) => progress(bar(label, sent, body.length)));
    } catch (err) {
      failure = err;
    }
    if (result && !isRetryableStatus(result.status)) {
      progress(`${bar(label, body.length, body.length)} → HTTP ${result.status}\n`);
      return result;
    }
    const wait = backoffMs(attempt);
    if (Date.now() - started + wait > RETRY_POLICY.maxUploadMs) {
      progress('\n');
      throw new Error(
        `Max retry time for operation exceeded, please try again. (${label}: ${result ? `HTTP ${result.status}` : String(failure)})`,
      );
    }
    progress(
      `${label}: ${result ? `HTTP ${result.status}` : String((failure as Error).message)}; retrying in ${(wait / 1000).toFixed(1)} s\n`,
    );
    await sleep(wait);
  }
}

/** Generates a session on a real track and uploads it through the device API, as a device would. */
export async function simulate(
  opts: SimulateOptions,
): Promise<{ lap: UploadResult; gps: UploadResult; laps: number; samples: number }> {
  const track = findTrack(opts.track);
  if (!track)
    throw new Error(
      `Unknown track "${opts.track}". Known: ${loadTracks()
        .map((t) => t.name)
        .join(', ')}`,
    );
  const session = generateSession(track, { seed: opts.seed, hz: opts.hz });
  const base = opts.server.replace(/\/+$/, '');
  const path = (file: string) =>
    new URL(`${base}/api/device/v1/sessions/${encodeURIComponent(track.name)}/${opts.date}/${file}`);
  const gps = await uploadWithRetry(path('gps.six'), opts.token, Buffer.from(session.gpsSix), 'gps.six', opts);
  const lap = await uploadWithRetry(path('lap.six'), opts.token, Buffer.from(session.lapSix), 'lap.six', opts);
  return { lap, gps, laps: session.laps.length, samples: session.sampleCount };
}

export function today(): string {
  return dateToDdmmyyyy(new Date());
}
