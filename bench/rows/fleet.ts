/**
 * The fleet rows (issue 61), on a fresh server of their own: device check-ins answered per second
 * with their p99, against the laps read on the same server; and 200 devices downloading a 4 MB
 * firmware image at once by 256 KB ranges, with the server's peak memory beside the image's size.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { GeneratedSession } from '#core/sim/session-generator.ts';
import { createDatabase } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { generateFirmwareKey } from '#server/lib/firmware-signing.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { insertDevice } from '#server/modules/devices/devices.repository.ts';
import { ensureUser } from '#server/modules/users/users.repository.ts';
import { releaseFirmware } from '#test/firmware-release.ts';
import { Browser, freePort } from '#test/test-server.ts';
import { cannon, putTimed, start } from './servers';
import { fmt, log, result, rows } from './table';

const DEVICES = 2000;
const DOWNLOADERS = 200;
const IMAGE_BYTES = 4 * 1024 * 1024;
const RANGE_BYTES = 256 * 1024;

/** Ranges the server answered 503 (busy) to, retried after its Retry-After. */
let busy = 0;

const rssOf = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/**
 * GET with a Range over a keep-alive agent, the body counted and dropped (a device writes it to
 * flash); 0 when the server says to come back (503 busy, after its Retry-After).
 */
function getRange(agent: http.Agent, url: URL, token: string, start: number, end: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { agent, headers: { authorization: `Bearer ${token}`, range: `bytes=${start}-${end}` } },
      (res) => {
        if (res.statusCode === 503) {
          busy++;
          res.resume();
          const seconds = Number(res.headers['retry-after']) || 2;
          res.on('end', () => setTimeout(() => resolve(0), seconds * 1000 * (0.5 + Math.random() / 2)));
          return;
        }
        if (res.statusCode !== 206) reject(new Error(`range ${start}-${end}: HTTP ${res.statusCode}`));
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

export async function benchFleet(sixty: GeneratedSession, quick: boolean): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-bench-fleet-'));
  const key = generateFirmwareKey();
  try {
    log(`fleet: registering ${DEVICES} devices…`);
    const database = createDatabase({ dataDir, databaseUrl: undefined });
    const tokens: string[] = [];
    try {
      await migrateToLatest(database.db);
      await ensureUser(database.db, 'fleet@example.com');
      for (let i = 0; i < DEVICES; i++) {
        const token = newToken();
        tokens.push(token);
        await insertDevice(database.db, {
          id: `88${String(i).padStart(10, '0')}`,
          owner: 'fleet@example.com',
          seller: '',
          tokenHash: hashToken(token),
        });
      }
    } finally {
      await database.close();
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = await start(
      ['bin/voltas.mjs', 'serve'],
      {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ADMIN_EMAILS: 'fleet@example.com',
        FIRMWARE_PUBLIC_KEYS: key.publicKey,
      },
      /Voltas is running/,
    );
    try {
      // The laps read to compare with: the rider's 60-lap session, uploaded by the first device.
      await putTimed(`${base}/api/device/v1/sessions/Interlagos/01112026/lap.six`, Buffer.from(sixty.lapSix), {
        authorization: `Bearer ${tokens[0]}`,
      });
      const admin = new Browser(base);
      await admin.signIn('fleet@example.com');
      const lapsUrl = `${base}/api/devices/880000000000/sessions/Interlagos/01112026/laps`;
      const lapsHeaders = { cookie: admin.cookieHeader(), 'accept-encoding': 'gzip, deflate, br' };

      // 1. Check-ins: each request a device of the 2,000 in turn (a device may check in 30 times a minute).
      const body = JSON.stringify({
        firmware: { version: '1.0.0', slot: 'a' },
        hardware: { class: 'vt1' },
        battery: 80,
        freeStorageKb: 400_000,
        queuedSessions: 0,
        rssi: -60,
        uptimeS: 3600,
      });
      let next = 0;
      const seconds = quick ? 3 : 10;
      await cannon(lapsUrl, lapsHeaders, quick ? 1 : 3); // warm-up
      const checkIns = await autocannon({
        url: base,
        connections: 50,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/device/v1/check-in',
            setupRequest: (req) => ({
              ...req,
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${tokens[next++ % DEVICES]}`,
              },
              body,
            }),
          },
        ],
      });
      const laps = await cannon(lapsUrl, lapsHeaders, seconds);
      const checkInErrors = checkIns.errors + checkIns.timeouts + checkIns.non2xx;
      result.checkins_per_s = Math.round(checkIns.requests.average);
      result.checkins_p99_ms = checkIns.latency.p99;
      result.checkins_vs_laps = checkIns.requests.average / laps.rps;
      rows.push([
        `device check-ins (${DEVICES} devices in turn, 50 connections)`,
        `${fmt(checkIns.requests.average, 0)} req/s, p50 ${checkIns.latency.p50} ms, p99 ${checkIns.latency.p99} ms, ${checkInErrors} errors`,
        `laps read ${fmt(laps.rps, 0)} req/s, p99 ${laps.p99} ms`,
        `${fmt(result.checkins_vs_laps, 2)}× req/s, ${fmt(checkIns.latency.p99 / Math.max(1, laps.p99), 2)}× p99`,
        '(reported); 0 errors',
      ]);

      // 2. A 4 MB image, rolled out to all; 200 devices offered it, then fetching it at once by ranges.
      const image = randomBytes(IMAGE_BYTES);
      const imageFile = path.join(dataDir, 'image.bin');
      writeFileSync(imageFile, image);
      const { rolloutId } = await releaseFirmware(admin, key, image, { rollout: { minDevices: 10 } });
      const url = new URL(`${base}/api/device/v1/firmware/${rolloutId}/image`);
      // Devices that have not spent their minute of check-ins above.
      const downloaders = tokens.slice(DEVICES - DOWNLOADERS);
      for (const token of downloaders) {
        const res = await fetch(`${base}/api/device/v1/check-in`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
        });
        const answer = (await res.json()) as { update: unknown };
        if (!answer.update) throw new Error(`no offer at check-in: ${res.status} ${JSON.stringify(answer)}`);
      }
      // A rider's upload (the 60-lap session's gps.six) on the idle server, to compare with one sent
      // while the 200 devices download.
      const gpsSix = Buffer.from(sixty.gpsSix);
      const rider = { authorization: `Bearer ${tokens[1]}` };
      const idleUploadMs = await putTimed(`${base}/api/device/v1/sessions/Interlagos/02112026/gps.six`, gpsSix, rider);
      await new Promise((r) => setTimeout(r, 500));
      writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
      const before = rssOf(child.pid!, 'VmRSS');
      const agent = new http.Agent({ keepAlive: true, maxSockets: DOWNLOADERS });
      const t = performance.now();
      // Sent a second into the downloads, while all 200 are fetching.
      const busyUpload = new Promise((r) => setTimeout(r, 1000)).then(() =>
        putTimed(`${base}/api/device/v1/sessions/Interlagos/03112026/gps.six`, gpsSix, rider),
      );
      const received = await Promise.all(
        downloaders.map(async (token) => {
          let got = 0;
          while (got < IMAGE_BYTES)
            got += await getRange(agent, url, token, got, Math.min(IMAGE_BYTES, got + RANGE_BYTES) - 1);
          return got;
        }),
      );
      const ms = performance.now() - t;
      const busyUploadMs = await busyUpload;
      agent.destroy();
      if (received.some((n) => n !== IMAGE_BYTES)) throw new Error('a download came back short');
      const peak = rssOf(child.pid!, 'VmHWM');
      result.firmware_200_downloads_peak_rss_mb = Math.round(peak / 1e6);
      result.firmware_200_downloads_rss_growth_mb = Math.round((peak - before) / 1e6);
      rows.push([
        `firmware: ${DOWNLOADERS} devices download a 4 MB image at once by 256 KB ranges`,
        `${fmt((DOWNLOADERS * IMAGE_BYTES) / 1e6, 0)} MB in ${fmt(ms / 1000, 1)} s (${fmt((DOWNLOADERS * IMAGE_BYTES) / 1e6 / (ms / 1000), 0)} MB/s; ${busy} ranges told to come back); server peak RSS ${fmt(peak / 1e6, 0)} MB, +${fmt((peak - before) / 1e6, 0)} MB over its ${fmt(before / 1e6, 0)} MB before`,
        `image ${fmt(IMAGE_BYTES / 1e6, 1)} MB (${fmt((DOWNLOADERS * IMAGE_BYTES) / 1e6, 0)} MB if held per device)`,
        '',
        'memory flat: growth well under 200 × the image',
      ]);
      result.upload_during_downloads_vs_idle = busyUploadMs / idleUploadMs;
      rows.push([
        `a rider's upload (${fmt(gpsSix.length / 1e6, 1)} MB gps.six) while the 200 devices download`,
        `${fmt(busyUploadMs, 0)} ms`,
        `the same upload on the idle server ${fmt(idleUploadMs, 0)} ms`,
        `${fmt(result.upload_during_downloads_vs_idle, 2)}×`,
        '(reported); stored whole',
      ]);
    } finally {
      child.kill();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
