import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '#core/sim/session-generator.ts';
import { addDevice, LAP_LINE, put } from '#test/fixtures.ts';
import { onPostgres } from '#test/test-database.ts';
import { sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';
import { JOBS } from './jobs/jobs';
import { loadTracks } from './lib/track-files';
import { nowIso } from './lib/tokens';

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const session = generateSession(interlagos, { seed: 71, heats: 1, lapsPerHeat: [3, 3] });

/** A job's runs by outcome, or sends by result, on these instances together (their metrics). */
async function total(
  servers: TestServer[],
  metric: 'jobRuns' | 'jobsSent',
  job: string,
  label: string,
): Promise<number> {
  let sum = 0;
  for (const s of servers) {
    for (const { labels, value } of (await s.metrics[metric].get()).values) {
      const { job: name, ...rest } = labels as Record<string, string>;
      if (name === job && Object.values(rest).includes(label)) sum += value;
    }
  }
  return sum;
}

/** Waits until `servers` have run `job` at least once (the jobs run a moment later, in the background). */
const ranOnce = (servers: TestServer[], job: string) =>
  expect.poll(() => total(servers, 'jobRuns', job, 'ok'), { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(1);

describe('background jobs, one instance', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { inject: true });
  });
  afterAll(() => server?.close());

  it('expired sign-ins are forgotten by the hourly sweep; live ones stay', async () => {
    const db = server.database.db;
    await db
      .insertInto('users')
      .values({ email: 'sweep@example.com', created_at: nowIso(), updated_at: nowIso() })
      .execute();
    const signIn = (idHash: string, expiresAt: string) =>
      db
        .insertInto('auth_sessions')
        .values({
          id_hash: idHash,
          user_email: 'sweep@example.com',
          created_at: nowIso(),
          renewed_at: nowIso(),
          expires_at: expiresAt,
        })
        .execute();
    await signIn('expired', '2020-01-01T00:00:00.000Z');
    await signIn('live', '2100-01-01T00:00:00.000Z');
    expect(await server.jobs.offerScheduled(JOBS.forgetExpiredSignIns)).toBe(true);
    await ranOnce([server], JOBS.forgetExpiredSignIns);
    const left = await db
      .selectFrom('auth_sessions')
      .select('id_hash')
      .where('user_email', '=', 'sweep@example.com')
      .execute();
    expect(left).toEqual([{ id_hash: 'live' }]);
  });

  it("a session's two files uploaded one after the other are analysed once", async () => {
    const token = await addDevice(server, '000000000081', 'jobs@example.com');
    // The large file first: the small one then arrives well within the delay, however busy the machine.
    expect(
      (await put(server, '/api/device/v1/sessions/Interlagos/02112026/gps.six', token, session.gpsSix)).status,
    ).toBe(200);
    expect(
      (await put(server, '/api/device/v1/sessions/Interlagos/02112026/lap.six', token, session.lapSix)).status,
    ).toBe(200);
    await ranOnce([server], JOBS.analyseSession);
    expect(await total([server], 'jobsSent', JOBS.analyseSession, 'queued')).toBe(1);
    expect(await total([server], 'jobsSent', JOBS.analyseSession, 'merged')).toBe(1);
    expect(await total([server], 'jobRuns', JOBS.analyseSession, 'ok')).toBe(1);
    const metrics = await server.metrics.registry.metrics();
    expect(metrics).toContain('voltas_job_runs_total{job="analyse-session",outcome="ok"} 1');
    expect(metrics).toMatch(/voltas_jobs\{job="analyse-session",state="failed"\} 0/);
  });
});

// Two instances share one PostgreSQL database (and bucket): each job runs on one of them.
describe.skipIf(!onPostgres)('background jobs, two instances on one PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const secret = { SECRET_KEY: randomBytes(32).toString('hex') };
    a = await startTestServer(secret);
    b = await startTestServer({ ...secret, ...sameDatabase(a) });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a session whose files arrive through A and B is analysed once, by one of them', async () => {
    const token = await addDevice(a, '000000000082', 'jobs@example.com');
    // The large file first, as above.
    expect((await put(a, '/api/device/v1/sessions/Interlagos/03112026/gps.six', token, session.gpsSix)).status).toBe(
      200,
    );
    expect((await put(b, '/api/device/v1/sessions/Interlagos/03112026/lap.six', token, session.lapSix)).status).toBe(
      200,
    );
    await ranOnce([a, b], JOBS.analyseSession);
    // Each instance sent the job of the file it received; the second merged into the first, waiting.
    expect(await total([a, b], 'jobsSent', JOBS.analyseSession, 'queued')).toBe(1);
    expect(await total([a, b], 'jobsSent', JOBS.analyseSession, 'merged')).toBe(1);
    expect(await total([a, b], 'jobRuns', JOBS.analyseSession, 'ok')).toBe(1);
  });

  it('the recovery sweep of a period runs on one instance, however many offer it', async () => {
    const token = await addDevice(a, '000000000083', 'jobs@example.com');
    await put(a, '/api/device/v1/sessions/Interlagos/04112026/lap.six', token, LAP_LINE);
    // An upload interrupted after its blob write (as in sessions.recovery.test.ts): the sweep indexes it.
    const twoLaps = `${LAP_LINE}\n${LAP_LINE.replace(/\|5$/, '|6')}\n`;
    const meta = await a.blobs.put(
      '000000000083/Interlagos/04112026/lap.six',
      Buffer.from(twoLaps),
      'text/plain; charset=utf-8',
    );
    await a.database.db
      .insertInto('upload_intents')
      .values({
        blob_key: meta.key,
        md5: meta.md5Hash,
        device_id: '000000000083',
        track: 'Interlagos',
        date: '04112026',
        kind: 'lap',
        owner_email: 'jobs@example.com',
        created_at: nowIso(),
      })
      .execute();
    // Both offers in one period (a minute): not across its end.
    const toNextMinute = 60_000 - (Date.now() % 60_000);
    if (toNextMinute < 3_000) await new Promise((r) => setTimeout(r, toNextMinute + 100));
    const offers = [await a.jobs.offerScheduled(JOBS.recoverUploads), await b.jobs.offerScheduled(JOBS.recoverUploads)];
    expect(offers.sort()).toEqual([false, true]);
    await ranOnce([a, b], JOBS.recoverUploads);
    expect(await total([a, b], 'jobRuns', JOBS.recoverUploads, 'ok')).toBe(1);
    expect(await a.database.db.selectFrom('upload_intents').selectAll().execute()).toEqual([]);
    const laps = await a.database.db
      .selectFrom('laps')
      .select('lap_count')
      .where('session_id', '=', '000000000083/Interlagos/04112026')
      .execute();
    expect(laps).toHaveLength(2);
  });
});
