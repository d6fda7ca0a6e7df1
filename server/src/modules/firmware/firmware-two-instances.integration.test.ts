// Firmware across two instances on one PostgreSQL and one S3 bucket (issue 61): an image uploaded
// through A is served by ranges from B; failures reported at once through both halt the rollout once.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFirmwareKey } from '#server/lib/firmware-signing.ts';
import { addDevice } from '#test/fixtures.ts';
import { releaseFirmware } from '#test/firmware-release.ts';
import { onPostgres } from '#test/test-database.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';

describe.skipIf(!onPostgres)('firmware on two instances', () => {
  const key = generateFirmwareKey();
  const env = {
    SECRET_KEY: randomBytes(32).toString('hex'),
    ADMIN_EMAILS: 'admin@example.com',
    FIRMWARE_PUBLIC_KEYS: key.publicKey,
  };
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startTestServer(env);
    b = await startTestServer({ ...env, ...sameDatabase(a) });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('serves from B what A stored, and halts once when failures arrive through both', async () => {
    const admin = new Browser(a.baseUrl);
    await admin.signIn('admin@example.com');
    const image = randomBytes(500_000);
    const sha = createHash('sha256').update(image).digest('hex');
    const { rolloutId } = await releaseFirmware(admin, key, image, {
      version: '2.0.0',
      rollout: { failureThresholdPct: 10, minDevices: 4 },
    });
    const devices = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const id = String(300 + i).padStart(12, '0');
        return { id, token: await addDevice(a, id, 'fleet@example.com') };
      }),
    );
    const call = (server: TestServer, token: string, path: string, body?: unknown, headers = {}) =>
      fetch(`${server.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    // Offered through A; the image fetched from B in two ranges.
    for (const d of devices) {
      const res = await call(a, d.token, '/api/device/v1/check-in', {
        firmware: { version: '1.0.0' },
        hardware: { class: 'vt1' },
      });
      expect(((await res.json()) as { update: { rolloutId: string } }).update.rolloutId).toBe(rolloutId);
    }
    const url = `/api/device/v1/firmware/${rolloutId}/image`;
    const first = await call(b, devices[0]!.token, url, undefined, { range: 'bytes=0-249999' });
    const rest = await call(b, devices[0]!.token, url, undefined, { range: 'bytes=250000-' });
    expect([first.status, rest.status]).toEqual([206, 206]);
    const bytes = Buffer.concat([Buffer.from(await first.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha);

    // Eight failures at once, half through each instance: past 10 % among 4, halted exactly once.
    const reports = await Promise.all(
      devices.map((d, i) =>
        call(i % 2 ? b : a, d.token, '/api/device/v1/firmware-report', {
          rolloutId,
          state: 'failed',
          error: 'boot-loop',
        }),
      ),
    );
    expect(reports.map((r) => r.status)).toEqual(new Array(8).fill(200));
    const onB = new Browser(b.baseUrl);
    for (const [k, v] of admin.cookies) onB.cookies.set(k, v);
    expect((await onB.json(`/api/admin/rollouts/${rolloutId}`)).body.state).toBe('halted');
    const halts = (await admin.json('/api/admin/audit')).body.filter(
      (e: { action: string; target: string }) => e.action === 'halt-rollout' && e.target === rolloutId,
    );
    expect(halts).toHaveLength(1);
    expect((await call(b, devices[1]!.token, url)).status).toBe(409);
  });

  it('finishes a rollout once when its last devices confirm at once through both', async () => {
    const admin = new Browser(a.baseUrl);
    await admin.signIn('admin@example.com');
    const { rolloutId } = await releaseFirmware(admin, key, randomBytes(1000), {
      hardwareClass: 'vt2',
      version: '2.0.0',
      rollout: { minDevices: 4 },
    });
    const checkIn = (server: TestServer, token: string, version: string) =>
      fetch(`${server.baseUrl}/api/device/v1/check-in`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ firmware: { version }, hardware: { class: 'vt2' } }),
      }).then((r) => r.json() as Promise<{ update: { rolloutId: string } | null }>);
    const devices = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const id = String(400 + i).padStart(12, '0');
        return { id, token: await addDevice(a, id, 'fleet@example.com') };
      }),
    );
    for (const [i, d] of devices.entries())
      expect((await checkIn(i % 2 ? b : a, d.token, '1.0.0')).update?.rolloutId).toBe(rolloutId);
    // Each rebooted into 2.0.0; then all eight confirm at once, half through each instance.
    for (const d of devices) await checkIn(a, d.token, '2.0.0');
    const reports = await Promise.all(
      devices.map((d, i) =>
        fetch(`${(i % 2 ? b : a).baseUrl}/api/device/v1/firmware-report`, {
          method: 'POST',
          headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ rolloutId, state: 'confirmed' }),
        }),
      ),
    );
    expect(reports.map((r) => r.status)).toEqual(new Array(8).fill(200));
    expect((await admin.json(`/api/admin/rollouts/${rolloutId}`)).body).toMatchObject({ state: 'done', confirmed: 8 });
    const finished = (await admin.json('/api/admin/audit')).body.filter(
      (e: { action: string; target: string }) => e.action === 'finish-rollout' && e.target === rolloutId,
    );
    expect(finished).toHaveLength(1);
  });
});
