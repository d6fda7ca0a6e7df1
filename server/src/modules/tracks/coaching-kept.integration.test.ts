import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { CoachingResponse } from '#core/contracts/tracks.contract.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { onPostgres } from '#test/test-database.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';
import { JOBS } from '../../jobs/jobs';
import { STUDY_FILE } from './kept-studies';

// The corner study is made once per session across instances: the analysis job on one instance
// keeps it beside the session's files, and another instance (or the same one after a restart)
// reads it there. An instance studies a session only after analysing its trace, which it then
// remembers ('track-analyses'): none remembered means none studied, and the trace never decoded.
// (Not a module mock counting studySession: test files share one module graph, isolate: false.)

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const gen = generateSession(interlagos, { seed: 62, hz: 25, heats: 1, lapsPerHeat: [4, 4] });
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.close();
});

async function cacheSize(server: TestServer, cache: string): Promise<number> {
  return (await server.metrics.cacheEntries.get()).values.find((v) => v.labels.cache === cache)?.value ?? 0;
}
async function jobRuns(server: TestServer): Promise<number> {
  let sum = 0;
  for (const { labels, value } of (await server.metrics.jobRuns.get()).values)
    if (labels.job === JOBS.analyseSession && labels.outcome === 'ok') sum += value;
  return sum;
}

/** A session uploaded through `server` by its device, once the analysis job has studied it there. */
async function uploadedAndStudied(server: TestServer, device: string, owner: string) {
  const token = await addDevice(server, device, owner);
  for (const [file, body] of [
    ['lap.six', gen.lapSix],
    ['gps.six', gen.gpsSix],
  ] as const)
    expect((await put(server, `/api/device/v1/sessions/Interlagos/05112026/${file}`, token, body)).status).toBe(200);
  await expect.poll(() => jobRuns(server), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(1);
  await expect.poll(() => cacheSize(server, 'track-studies'), { timeout: 10_000, interval: 100 }).toBe(1);
}

async function coaching(server: TestServer, device: string, owner: string) {
  const rider = new Browser(server.baseUrl);
  await rider.signIn(owner);
  const { status, body } = await rider.json(`/api/devices/${device}/sessions/Interlagos/05112026/coaching?ref=ideal`, {
    headers: { 'accept-language': 'en' },
  });
  expect(status).toBe(200);
  return body as CoachingResponse;
}

describe.skipIf(!onPostgres)('two instances on one PostgreSQL and one S3 bucket', () => {
  it('B reads the study the job made on A, without studying the session or reading its trace', async () => {
    const secret = { SECRET_KEY: randomBytes(32).toString('hex') };
    const a = await startTestServer(secret);
    servers.push(a);
    await uploadedAndStudied(a, '000000000162', 'kept@example.com');
    const onA = await coaching(a, '000000000162', 'kept@example.com');
    expect(await cacheSize(a, 'track-analyses')).toBe(1);
    // B starts once the job is done: no job of this session can run on B.
    const b = await startTestServer({ ...secret, ...sameDatabase(a) });
    servers.push(b);
    const onB = await coaching(b, '000000000162', 'kept@example.com');
    expect(onB).toEqual(onA);
    expect(await cacheSize(b, 'track-analyses')).toBe(0);
    expect(await cacheSize(b, 'track-studies')).toBe(1);
  });
});

describe('one instance, restarted', () => {
  it('reads the study it kept before, and makes it again where the kept one does not read', async () => {
    const first = await startTestServer({}, { keepDataDir: true });
    await uploadedAndStudied(first, '000000000163', 'restart@example.com');
    const before = await coaching(first, '000000000163', 'restart@example.com');
    const kept = await first.blobs.head(`000000000163/Interlagos/05112026/.derived/${STUDY_FILE}`);
    expect(await cacheSize(first, 'track-analyses')).toBe(1);
    await first.close();

    const again = await startTestServer(sameDatabase(first), { dataDir: first.dataDir, keepDataDir: true });
    servers.push(again);
    expect(await coaching(again, '000000000163', 'restart@example.com')).toEqual(before);
    expect(await cacheSize(again, 'track-analyses')).toBe(0);
    expect(await cacheSize(again, 'track-studies')).toBe(1);
    expect(kept?.size).toBeGreaterThan(0);

    // Bytes that do not read as a study fail only themselves: the session is studied again.
    const third = await restartedWithBrokenStudy(again, '000000000163');
    expect(await coaching(third, '000000000163', 'restart@example.com')).toEqual(before);
    expect(await cacheSize(third, 'track-analyses')).toBe(1);
  });
});

async function restartedWithBrokenStudy(server: TestServer, device: string): Promise<TestServer> {
  const key = `${device}/Interlagos/05112026/.derived/${STUDY_FILE}`;
  await server.blobs.put(key, Buffer.from('not a study'), 'application/gzip');
  servers.splice(servers.indexOf(server), 1);
  await server.close();
  const next = await startTestServer(sameDatabase(server), { dataDir: server.dataDir });
  servers.push(next);
  return next;
}
